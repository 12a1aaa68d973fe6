// Who may touch labels: the `label.*` rows of the permission table (core/permissions.ts). Every caller
// with access to the company reads and creates them (agents label the issues they file and triage);
// renaming too, since a name can be put back. Deleting strips the label from every issue of the
// company at once and cannot be undone, so it is the board's or the company CEO agent's.
import { requireAccessible, type Company } from '../../core/access.ts';
import type { Ctx } from '../../core/context.ts';
import { companyFor, resourceFor } from '../../core/permissions.ts';
import type { Label } from './present.ts';

export function labelsCompanyFor(ctx: Ctx, action: 'label.read' | 'label.create', companyId: string): Promise<Company> {
  return companyFor(ctx, action, companyId, {});
}

/** The label `find` reads, once the caller may: 404 missing, 403 another company's. */
export function labelFor(
  ctx: Ctx,
  action: 'label.update' | 'label.delete',
  find: () => Promise<Label | null>,
): Promise<Label> {
  return resourceFor(
    ctx,
    action,
    async () => requireAccessible(ctx.db, ctx.actor, await find(), 'label'),
    (label) => ({ companyId: label.companyId }),
  );
}
