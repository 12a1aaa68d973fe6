// The dashboard snapshot (SPEC section 2, Dashboard snapshot): counters and rollups only, so its
// cost does not grow with issues or spend. Task counts come from company_issue_counts (kept by a
// trigger), month spend from the scope usage counters, the budget from the company's policy; agents,
// incidents, approvals and paused projects are counted on indexes that stay small (one company's
// agents and open items). One statement: a single round trip per snapshot.
//
// The 14-day daily series is bounded the same way: runs are read on heartbeat_runs_company_idx
// (company, created_at) over the last 14 UTC days only, spend on the daily cost_rollups rows of one
// breakdown (their unique index leads with company, breakdown, grain, bucket): at most 14 buckets each.
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
  daily: { day: string; runs: number; succeeded: number; failed: number; spend: string | number }[] | null;
};

/** Days in the daily series, today (UTC) included. */
export const SERIES_DAYS = 14;

/** The first instant of the UTC day `at` falls in, minus `back` days. */
const utcDayStart = (at: Date, back: number) =>
  new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() - back));

export async function dashboardSnapshot(db: DbOrTx, companyId: string, now = new Date()) {
  const seriesStart = utcDayStart(now, SERIES_DAYS - 1);
  const result = await db.execute<Row>(sql`
    with runs as (
      select date_trunc('day', created_at at time zone 'UTC') as day, count(*)::int as runs,
             count(*) filter (where status = 'succeeded')::int as succeeded,
             count(*) filter (where status in ('failed', 'timed_out'))::int as failed
        from heartbeat_runs where company_id = ${companyId} and created_at >= ${seriesStart.toISOString()}::timestamptz
       group by 1
    ), spend as (
      select date_trunc('day', bucket_start at time zone 'UTC') as day, sum(cost_cents) as spend
        from cost_rollups where company_id = ${companyId} and breakdown = 'provider' and grain = 'day'
         and bucket_start >= ${seriesStart.toISOString()}::timestamptz
       group by 1
    )
    select
      (select json_object_agg(status, n) from (select status, count(*)::int as n from agents where company_id = ${companyId} group by status) a) as agents,
      (select json_object_agg(status, n) from (select status, sum(count)::int as n from company_issue_counts where company_id = ${companyId} group by status) c) as tasks,
      (select billed_cents from budget_scope_usage where scope_type = 'company' and scope_id = ${companyId} and window_key = ${utcMonth(now)}) as spent,
      (select amount_cents from budget_policies where company_id = ${companyId} and scope_type = 'company' and scope_id = ${companyId}
         and metric = 'billed_cents' and window_kind = 'calendar_month_utc' and is_active) as budget,
      (select count(*)::int from approvals where company_id = ${companyId} and status in ('pending', 'revision_requested')) as approvals,
      (select count(*)::int from approvals where company_id = ${companyId} and status in ('pending', 'revision_requested') and type = 'budget_override_required') as budget_approvals,
      (select count(*)::int from budget_incidents where company_id = ${companyId} and status = 'open') as incidents,
      (select count(*)::int from projects where company_id = ${companyId} and paused_at is not null) as paused_projects,
      (select json_agg(json_build_object('day', to_char(coalesce(r.day, s.day), 'YYYY-MM-DD'), 'runs', coalesce(r.runs, 0),
              'succeeded', coalesce(r.succeeded, 0), 'failed', coalesce(r.failed, 0), 'spend', coalesce(s.spend, 0)))
         from runs r full join spend s on s.day = r.day) as daily`);
  const row = oneRow(result.rows, 'dashboard summary');
  const agentsIn = (...statuses: string[]) => statuses.reduce((sum, s) => sum + (row.agents?.[s] ?? 0), 0);
  const tasksIn = (...statuses: string[]) => statuses.reduce((sum, s) => sum + (row.tasks?.[s] ?? 0), 0);
  const spent = Number(row.spent ?? 0);
  const budget = Number(row.budget ?? 0);
  const byDay = new Map((row.daily ?? []).map((entry) => [entry.day, entry]));
  const daily = Array.from({ length: SERIES_DAYS }, (_, i) => {
    const day = utcDayStart(now, SERIES_DAYS - 1 - i)
      .toISOString()
      .slice(0, 10);
    const entry = byDay.get(day);
    return {
      day,
      runs: entry?.runs ?? 0,
      succeeded: entry?.succeeded ?? 0,
      failed: entry?.failed ?? 0,
      spendCents: Number(entry?.spend ?? 0),
    };
  });
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
    daily,
  };
}
