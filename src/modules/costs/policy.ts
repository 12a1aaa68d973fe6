// Who may report and read costs: the `cost.*` rows of the permission table (core/permissions.ts).
// The board reports for any agent of the company, an agent only for itself (SPEC "Costs and
// budgets"); the summaries need only access to the company; the quota windows are a board diagnostic.
import type { Company } from '../../core/access.ts';
import type { Ctx } from '../../core/context.ts';
import { assertMay, companyFor } from '../../core/permissions.ts';

export async function assertMayReportCost(ctx: Ctx, companyId: string, agentId: string): Promise<void> {
  await assertMay(ctx, 'cost.report', { companyId, agentId });
}

export function companyForQuotaWindows(ctx: Ctx, companyId: string): Promise<Company> {
  return companyFor(ctx, 'cost.readQuotaWindows', companyId, {});
}
