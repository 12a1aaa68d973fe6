// Who may touch secrets: the `secret.*` rows of the permission table (core/permissions.ts). All of
// them are the board's (SPEC "Secrets"): agents get secret values only through references resolved
// into their runtime environment, and are refused before anything is looked up.
import { requireAccessible, type Company } from '../../core/access.ts';
import type { Ctx } from '../../core/context.ts';
import { companyFor, resourceFor } from '../../core/permissions.ts';
import type { Secret } from './present.ts';

type SecretAction = 'secret.read' | 'secret.create' | 'secret.update' | 'secret.rotate' | 'secret.delete';

export function secretsCompanyFor(
  ctx: Ctx,
  action: 'secret.read' | 'secret.create',
  companyId: string,
): Promise<Company> {
  return companyFor(ctx, action, companyId, {});
}

/** The secret `find` reads, once the caller may: refused before the read, then 404 missing or 403 another company's. */
export function secretFor(ctx: Ctx, action: SecretAction, find: () => Promise<Secret | null>): Promise<Secret> {
  return resourceFor(
    ctx,
    action,
    async () => requireAccessible(ctx.db, ctx.actor, await find(), 'secret'),
    (secret) => ({ companyId: secret.companyId }),
  );
}
