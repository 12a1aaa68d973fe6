// GET /api/companies/{companyId}/budgets/overview: policies with what they observe now, open
// incidents, and the counts the board acts on. A handful of indexed queries, whatever the spend.
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { agents, approvals, budgetScopeUsage, projects } from '../../db/schema/index.ts';
import { openIncidents } from './evaluate.ts';
import { listPolicies } from './budget-policies.ts';
import { presentIncident, presentPolicy } from './present.ts';
import { metricValue, windowKeyOf, type BudgetMetric, type WindowKind } from './usage.ts';
import { utilizationPercent } from '../../lib/utilization.ts';

const count = sql<number>`count(*)::int`;

export async function budgetOverview(db: DbOrTx, companyId: string, now = new Date()) {
  const policies = await listPolicies(db, companyId);
  const usage =
    policies.length === 0
      ? []
      : await db
          .select()
          .from(budgetScopeUsage)
          .where(
            and(
              eq(budgetScopeUsage.companyId, companyId),
              inArray(
                budgetScopeUsage.scopeId,
                policies.map((p) => p.scopeId),
              ),
            ),
          );
  const [incidents, [agentCounts], [projectCount], [approvalCount]] = await Promise.all([
    openIncidents(db, companyId),
    db
      .select({ paused: count, budget: sql<number>`count(*) filter (where ${agents.pauseReason} = 'budget')::int` })
      .from(agents)
      .where(and(eq(agents.companyId, companyId), eq(agents.status, 'paused'))),
    db
      .select({ n: count })
      .from(projects)
      .where(and(eq(projects.companyId, companyId), isNotNull(projects.pausedAt))),
    db
      .select({ n: count })
      .from(approvals)
      .where(and(eq(approvals.companyId, companyId), inArray(approvals.status, ['pending', 'revision_requested']))),
  ]);
  return {
    policies: policies.map((p) => {
      const windowKey = windowKeyOf(p.windowKind as WindowKind, now);
      const row = usage.find(
        (u) => u.scopeType === p.scopeType && u.scopeId === p.scopeId && u.windowKey === windowKey,
      );
      const observed = row ? metricValue(row, p.metric as BudgetMetric) : 0;
      return { ...presentPolicy(p), observed, utilizationPercent: utilizationPercent(observed, p.amount) };
    }),
    activeIncidents: incidents.map(presentIncident),
    pausedAgentCount: agentCounts?.paused ?? 0,
    budgetPausedAgentCount: agentCounts?.budget ?? 0,
    pausedProjectCount: projectCount?.n ?? 0,
    pendingApprovalCount: approvalCount?.n ?? 0,
  };
}
