// Who may change a company: the `company.*` rows of the permission table (core/permissions.ts).
// Board users with access may change everything; the company's CEO agent may change branding fields
// only (SPEC "Companies"): a PATCH asks `company.update` for the call and `company.updateSettings`
// for the fields outside branding, naming them in the refusal.
import type { Company } from '../../core/access.ts';
import type { BoardActor } from '../../core/actor.ts';
import type { Ctx } from '../../core/context.ts';
import { assertMay, companyFor } from '../../core/permissions.ts';
import { BRANDING_FIELDS } from './schemas.ts';

/** Listing companies is a board user's (their memberships decide which). */
export function boardUserListing(ctx: Ctx, action: 'company.list' | 'company.stats'): Promise<BoardActor> {
  return assertMay(ctx, action, {});
}

export async function assertMayCreateCompany(ctx: Ctx): Promise<void> {
  await assertMay(ctx, 'company.create', {});
}

export async function assertMayOnCompany(
  ctx: Ctx,
  action: 'company.brand' | 'company.uploadLogo',
  companyId: string,
): Promise<void> {
  await assertMay(ctx, action, { companyId });
}

/** Board-only changes of a company a caller names: an agent is refused before the company is read. */
export function companyForBoard(
  ctx: Ctx,
  action: 'company.archive' | 'company.delete' | 'company.setBudget',
  companyId: string,
): Promise<Company> {
  return companyFor(ctx, action, companyId, {});
}

export async function assertMayPatchCompany(ctx: Ctx, companyId: string, fields: string[]): Promise<void> {
  await assertMay(ctx, 'company.update', { companyId });
  const settings = fields.filter((field) => !(BRANDING_FIELDS as readonly string[]).includes(field));
  if (settings.length > 0) await assertMay(ctx, 'company.updateSettings', { companyId }, { fields: settings });
}
