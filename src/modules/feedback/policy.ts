// Who may read feedback traces: the `company.readFeedback` row of the permission table
// (core/permissions.ts), the board only (SPEC "Companies").
import type { Company } from '../../core/access.ts';
import type { Ctx } from '../../core/context.ts';
import { companyFor } from '../../core/permissions.ts';

export function companyForFeedback(ctx: Ctx, companyId: string): Promise<Company> {
  return companyFor(ctx, 'company.readFeedback', companyId, {});
}
