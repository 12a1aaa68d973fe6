// The dashboard snapshot (SPEC section 2, Dashboard snapshot): counters and rollups only, so its
// cost does not grow with issues or spend. Task counts come from company_issue_counts (kept by a
// trigger), month spend from the scope usage counters, the budget from the company's policy; agents,
// incidents, approvals and paused projects are counted on indexes that stay small (one company's
// agents and open items). One statement: a single round trip per snapshot.
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { utilizationPercent } from '../../lib/utilization.ts';
import { utcMonth } from '../../lib/month.ts';
import { oneRow } from '../../db/rows.ts';

type Row = {
  agents: Record<string, number> | null;
  tasks: Record<string, number> | null;
  spent: string | null;
  budget: string | null;
  approvals: number;
  budget_approvals: number;
  incidents: number;
  paused_projects: number;
};

export async function dashboardSnapshot(db: DbOrTx, companyId: string, now = new Date()) {
  const result = await db.execute<Row>(sql`
    select
      (select json_object_agg(status, n) from (select status, count(*)::int as n from agents where company_id = ${companyId} group by status) a) as agents,
      (select json_object_agg(status, n) from (select status, sum(count)::int as n from company_issue_counts where company_id = ${companyId} group by status) c) as tasks,
      (select billed_cents from budget_scope_usage where scope_type = 'company' and scope_id = ${companyId} and window_key = ${utcMonth(now)}) as spent,
      (select amount_cents from budget_policies where company_id = ${companyId} and scope_type = 'company' and scope_id = ${companyId}
         and metric = 'billed_cents' and window_kind = 'calendar_month_utc' and is_active) as budget,
      (select count(*)::int from approvals where company_id = ${companyId} and status in ('pending', 'revision_requested')) as approvals,
      (select count(*)::int from approvals where company_id = ${companyId} and status in ('pending', 'revision_requested') and type = 'budget_override_required') as budget_approvals,
      (select count(*)::int from budget_incidents where company_id = ${companyId} and status = 'open') as incidents,
      (select count(*)::int from projects where company_id = ${companyId} and paused_at is not null) as paused_projects`);
  const row = oneRow(result.rows, 'dashboard summary');
  const agentsIn = (...statuses: string[]) => statuses.reduce((sum, s) => sum + (row.agents?.[s] ?? 0), 0);
  const tasksIn = (...statuses: string[]) => statuses.reduce((sum, s) => sum + (row.tasks?.[s] ?? 0), 0);
  const spent = Number(row.spent ?? 0);
  const budget = Number(row.budget ?? 0);
  return {
    companyId,
    agents: {
      active: agentsIn('active', 'idle', 'running'),
      running: agentsIn('running'),
      paused: agentsIn('paused'),
      error: agentsIn('error'),
    },
    tasks: {
      open: tasksIn('backlog', 'todo', 'in_progress', 'in_review', 'blocked'),
      inProgress: tasksIn('in_progress'),
      blocked: tasksIn('blocked'),
      done: tasksIn('done'),
    },
    costs: {
      monthSpendCents: spent,
      monthBudgetCents: budget,
      monthUtilizationPercent: utilizationPercent(spent, budget),
    },
    pendingApprovals: row.approvals,
    budgets: {
      activeIncidents: row.incidents,
      pendingApprovals: row.budget_approvals,
      pausedAgents: agentsIn('paused'),
      pausedProjects: row.paused_projects,
    },
  };
}
