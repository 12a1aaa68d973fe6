// Who may change a company: the `company.*` rows of the permission table (core/permissions.ts).
// Board users with access may change everything; the company's CEO agent may change branding fields
// only (SPEC "Companies"): a PATCH asks `company.update` for the call and `company.updateSettings`
// for the fields outside branding, naming them in the refusal.
import type { Ctx } from '../../core/context.ts';
import { assertMay } from '../../core/permissions.ts';
import { BRANDING_FIELDS } from './schemas.ts';

export async function assertMayPatchCompany(ctx: Ctx, companyId: string, fields: string[]): Promise<void> {
  await assertMay(ctx, 'company.update', { companyId });
  const settings = fields.filter((field) => !(BRANDING_FIELDS as readonly string[]).includes(field));
  if (settings.length > 0) await assertMay(ctx, 'company.updateSettings', { companyId }, { fields: settings });
}
