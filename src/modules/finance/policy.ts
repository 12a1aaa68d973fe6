// Who may record and read finance events: the `finance.*` rows of the permission table
// (core/permissions.ts), the board only (SPEC "Costs and budgets").
import type { Company } from '../../core/access.ts';
import type { Ctx } from '../../core/context.ts';
import { companyFor } from '../../core/permissions.ts';

export function financeCompanyFor(
  ctx: Ctx,
  action: 'finance.record' | 'finance.read',
  companyId: string,
): Promise<Company> {
  return companyFor(ctx, action, companyId, {});
}
