import type { z } from 'zod';
import type { App, AppDeps } from '../../http/deps.ts';
import { requireCompanyAccess } from '../../core/access.ts';
import { authenticated, errors, type ErrorStatus } from '../../http/openapi.ts';
import { actorOf, contextOf } from '../../http/request.ts';
import { monthlyBudgetOf } from '../budgets/budget-policies.ts';
import { companyParams } from './schemas.ts';
import { utilizationPercent } from '../../lib/utilization.ts';
import {
  costBreakdown,
  MAX_BREAKDOWN_ROWS,
  quotaWindows,
  spendOf,
  windowSpend,
  type BreakdownKind,
} from './summaries.ts';
import {
  byAgentModelResponse,
  byAgentResponse,
  byBillerResponse,
  byBillingTypeResponse,
  byProjectResponse,
  byProviderResponse,
  costSummaryResponse,
  quotaWindowsResponse,
  rangeOf,
  rangeQuery,
  windowSpendResponse,
} from './summary-schemas.ts';

const tags = ['costs'];
const COMPANY_ERRORS: [ErrorStatus, string][] = [
  [403, "the company is not one of the caller's"],
  [404, 'no such company'],
];
const RANGE_ERRORS: [ErrorStatus, string] = [
  400,
  'a malformed `from` or `to` (an ISO 8601 date-time with Z or an offset), or `from` after `to`',
];
const WHO = 'Any caller with access to the company: the board, or any agent of the company.';
const SUMMED = [
  'Sums every cost event of the company whose `occurredAt` lies in [`from`, `to`): `from` inclusive, `to` exclusive, either omitted for an open bound (all-time when both are).',
  'Every billing type counts (subscription-included usage at the 0 cents it was recorded at, with its tokens); finance events are not cost events and are not included.',
  'Whole UTC months, days and hours come from rollups kept in the transaction of each cost event; only the partial first and last hours are read from the events.',
].join(' ');
// One name for one sum: a row's costCents adds up the events' costCents. The summary alone answers
// it as spendCents, the name the contract (SPEC, costs/summary) gives that field.
const ROW_FIELDS =
  "`costCents` sums the events' `costCents`; the token fields sum the events' token counts; `eventCount` counts events.";

const BREAKDOWNS: { path: string; kind: BreakdownKind; summary: string; keys: string; response: z.ZodType }[] = [
  {
    path: 'by-agent',
    kind: 'agent',
    summary: 'Cost breakdown by agent',
    keys: 'One row per agent (`agentId`, `agentName`); spend of agents since deleted is one row with both null.',
    response: byAgentResponse,
  },
  {
    path: 'by-agent-model',
    kind: 'agentModel',
    summary: 'Cost breakdown by agent and model',
    keys: 'One row per agent (`agentId`, `agentName`), `provider` and `model`; spend of agents since deleted has null agent fields.',
    response: byAgentModelResponse,
  },
  {
    path: 'by-provider',
    kind: 'provider',
    summary: 'Cost breakdown by provider',
    keys: 'One row per `provider` (who served the model).',
    response: byProviderResponse,
  },
  {
    path: 'by-biller',
    kind: 'biller',
    summary: 'Cost breakdown by biller',
    keys: "One row per `biller` (who bills for the usage; an event's biller defaults to its provider).",
    response: byBillerResponse,
  },
  {
    path: 'by-billing-type',
    kind: 'billingType',
    summary: 'Cost breakdown by billing type',
    keys: 'One row per `billingType` of the events: metered spend apart from subscription-included usage (recorded at 0 cents, with its tokens).',
    response: byBillingTypeResponse,
  },
  {
    path: 'by-project',
    kind: 'project',
    summary: 'Cost breakdown by project',
    keys: "One row per project (`projectId`, `projectName`): the event's project, else its issue's at the time it was recorded; events with no project (or of a project since deleted) are one row with both null.",
    response: byProjectResponse,
  },
];

export function registerCostSummaryRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;

  app.get(
    '/api/companies/:companyId/costs/summary',
    {
      schema: {
        tags,
        summary: 'Spend over a range against the monthly budget',
        description: [
          SUMMED,
          "`spendCents` (the contract's name for this field) sums the events' `costCents`: the same sum the breakdowns answer as `costCents`.",
          "`budgetCents` is the company's monthly budget (its active calendar-month policy on billed cents; 0 when none), whatever the range: `utilizationPercent` is `spendCents` over it, times 100, to two decimals (0 when the budget is 0), so it is the month's utilisation when the range is the current UTC month.",
          WHO,
        ].join(' '),
        params: companyParams,
        querystring: rangeQuery,
        response: { 200: costSummaryResponse, ...authenticated(), ...errors(RANGE_ERRORS, ...COMPANY_ERRORS) },
      },
    },
    async (request) => {
      const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
      const range = rangeOf(request.query);
      const [usage, budgetCents] = await Promise.all([
        spendOf(db, company.id, range),
        monthlyBudgetOf(db, 'company', company.id).then((b) => b.budgetMonthlyCents),
      ]);
      return {
        ...range,
        spendCents: usage.costCents,
        budgetCents,
        utilizationPercent: utilizationPercent(usage.costCents, budgetCents),
      };
    },
  );

  for (const { path, kind, summary, keys, response } of BREAKDOWNS) {
    app.get(
      `/api/companies/:companyId/costs/${path}`,
      {
        schema: {
          tags,
          summary,
          description: `${keys} ${SUMMED} ${ROW_FIELDS} Rows are ordered by \`costCents\`, largest first (ties by key); at most ${MAX_BREAKDOWN_ROWS} rows are answered, the top ones by spend. ${WHO}`,
          params: companyParams,
          querystring: rangeQuery,
          response: { 200: response, ...authenticated(), ...errors(RANGE_ERRORS, ...COMPANY_ERRORS) },
        },
      },
      async (request) => {
        const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
        return costBreakdown(db, company.id, kind, rangeOf(request.query));
      },
    );
  }

  app.get(
    '/api/companies/:companyId/costs/window-spend',
    {
      schema: {
        tags,
        summary: 'Rolling spend over the last 5 hours, 24 hours and 7 days',
        description: [
          'One row per window (`5h`, `24h`, `7d`, in that order): the cost events with `occurredAt` at or after now minus the window, by the server clock, with no upper bound (an event stamped up to 5 minutes ahead, as cost-events accepts, is already counted).',
          `Every billing type counts; ${ROW_FIELDS} Read from the rollups plus the partial first hour from the events.`,
          WHO,
        ].join(' '),
        params: companyParams,
        response: { 200: windowSpendResponse, ...authenticated(), ...errors(...COMPANY_ERRORS) },
      },
    },
    async (request) => {
      const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
      return windowSpend(db, company.id);
    },
  );

  app.get(
    '/api/companies/:companyId/costs/quota-windows',
    {
      schema: {
        tags,
        summary: 'Provider quota windows (diagnostic)',
        description: [
          'Board only. Computed from the cost events recorded here, not asked of any provider: for each `provider` with at least one cost event whose `occurredAt` lies in the last 7 days (by the server clock), sorted by name:',
          '`fiveHour` sums the events at or after now minus 5 hours, `sevenDay` those at or after now minus 7 days (spend, input, cached input and output tokens, event count; every billing type, since subscription quotas are what these windows are about).',
          "`fiveHour.oldestEventAt` is the oldest such event's `occurredAt` and `oldestEventLeavesAt` that plus 5 hours: the moment it drops out of the rolling window and its usage stops counting (null when the 5-hour window is empty).",
          'Usage the provider counts but that was never reported as a cost event is not seen.',
        ].join(' '),
        params: companyParams,
        response: {
          200: quotaWindowsResponse,
          ...authenticated(),
          ...errors(
            [403, "an agent caller (board only), or the company is not one of the caller's"],
            [404, 'no such company'],
          ),
        },
      },
    },
    async (request) => {
      return quotaWindows(contextOf(db, request), request.params.companyId);
    },
  );
}
