import { z } from 'zod';
import type { App, AppDeps } from '../../http/deps.ts';
import { requireCompanyAccess } from '../../core/access.ts';
import { authenticated, errors, uuidOut } from '../../http/openapi.ts';
import { actorOf } from '../../http/request.ts';
import { dashboardSnapshot } from './service.ts';

const count = () => z.number().int();

const dashboardResponse = z
  .object({
    companyId: uuidOut(),
    agents: z
      .object({
        active: count().describe('able to work: idle or running'),
        running: count(),
        paused: count(),
        error: count(),
      })
      .describe('agents by status (terminated and pending_approval agents are in none)'),
    tasks: z
      .object({
        open: count().describe('every issue not done or cancelled'),
        inProgress: count(),
        blocked: count(),
        done: count(),
      })
      .describe('issues by status'),
    costs: z
      .object({
        monthSpendCents: count().describe('spend of the current UTC month'),
        monthBudgetCents: count().describe('the company monthly budget policy (0: none)'),
        monthUtilizationPercent: z.number().describe('spend / budget in percent, two decimals; 0 when the budget is 0'),
      })
      .describe("this month's money"),
    pendingApprovals: count().describe('approvals waiting for the board (pending or revision requested)'),
    budgets: z
      .object({
        activeIncidents: count().describe('open budget incidents'),
        pendingApprovals: count().describe('budget_override_required approvals waiting'),
        pausedAgents: count(),
        pausedProjects: count(),
      })
      .describe('budget health'),
    daily: z
      .array(
        z.object({
          day: z.string().describe('the UTC day, `YYYY-MM-DD`'),
          runs: count().describe('runs created (queued or started) that day'),
          succeeded: count().describe('of those runs, the ones that succeeded'),
          failed: count().describe('of those runs, the ones that failed or timed out'),
          spendCents: count().describe('spend of cost events that occurred that day'),
        }),
      )
      .describe('the last 14 UTC days, oldest first, today last; days without runs or spend are zeros'),
  })
  .describe('The dashboard snapshot');

export function registerDashboardRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;
  app.get(
    '/api/companies/:companyId/dashboard',
    {
      schema: {
        tags: ['dashboard'],
        summary: "A company's dashboard snapshot",
        description:
          "Agents, tasks, this month's costs, pending approvals and budget health, from counters kept on write (constant time whatever the number of issues and cost events), and a 14-day daily series of runs and spend (read on indexes over those 14 days only). Read-only; any caller with access to the company.",
        params: z.object({ companyId: z.uuid().describe('company UUID') }),
        response: {
          200: dashboardResponse,
          ...authenticated(),
          ...errors([403, "the company is not one of the caller's"], [404, 'no such company']),
        },
      },
    },
    async (request) =>
      dashboardSnapshot(db, (await requireCompanyAccess(db, actorOf(request), request.params.companyId)).id),
  );
}
