// The query and response schemas of the cost summaries (summary-routes.ts).
import { z } from 'zod';
import { timestampOut, uuidOut } from '../../http/openapi.ts';
import { BILLING_TYPES } from '../../core/cost-bounds.ts';
import { MAX_BREAKDOWN_ROWS, SPEND_WINDOWS, type Range } from './summaries.ts';

const instant = (what: string) =>
  z.iso
    .datetime({ offset: true })
    .optional()
    .describe(
      `${what}: an ISO 8601 date-time with \`Z\` or an offset, e.g. \`2026-11-01T00:00:00Z\` (precision beyond milliseconds is dropped)`,
    );

const rangeFields = {
  from: instant('start of the range, inclusive; omitted: from the first event'),
  to: instant('end of the range, exclusive; omitted: up to the latest event'),
};

/** `from` (inclusive) and `to` (exclusive), both optional, plus any other query fields; from after to is 400. */
export function rangeQueryWith<T extends z.ZodRawShape>(extra: T) {
  return z.object({ ...rangeFields, ...extra }).superRefine((q, ctx) => {
    const { from, to } = q as RangeQuery;
    if (from && to && Date.parse(from) > Date.parse(to))
      ctx.addIssue({ code: 'custom', path: ['from'], message: '`from` must not be after `to`' });
  });
}
export const rangeQuery = rangeQueryWith({});
export type RangeQuery = { from?: string | undefined; to?: string | undefined };

export function rangeOf(q: RangeQuery): Range {
  return { from: q.from ? new Date(q.from) : null, to: q.to ? new Date(q.to) : null };
}

const cents = (what: string) => z.number().int().describe(what);
const usageFields = {
  costCents: cents("sum of the events' costCents"),
  inputTokens: z.number().int().describe('sum of inputTokens (cached input included)'),
  cachedInputTokens: z.number().int().describe('sum of cachedInputTokens, the part of inputTokens served from cache'),
  outputTokens: z.number().int().describe('sum of outputTokens'),
  eventCount: z.number().int().describe('number of cost events'),
};
const appliedRange = {
  from: timestampOut().nullable().describe('the range start as applied (null: open)'),
  to: timestampOut().nullable().describe('the range end as applied, exclusive (null: open)'),
};

export const costSummaryResponse = z
  .object({
    ...appliedRange,
    spendCents: cents("sum of costCents of the company's cost events with occurredAt in [from, to)"),
    budgetCents: cents("the company's monthly budget: its active calendar-month policy on billed cents, 0 when none"),
    utilizationPercent: z
      .number()
      .describe('spendCents / budgetCents x 100, rounded to two decimals; 0 when budgetCents is 0'),
  })
  .describe('Spend over the range against the monthly budget');

const agentKeys = {
  agentId: uuidOut().nullable().describe('null for spend of agents since deleted'),
  agentName: z.string().nullable(),
};
const rows = <T extends z.ZodRawShape>(keys: T, what: string) =>
  z
    .array(z.object({ ...keys, ...usageFields }))
    .describe(`${what}, largest costCents first (then by key); at most ${MAX_BREAKDOWN_ROWS} rows`);

export const byAgentResponse = rows(agentKeys, 'Spend per agent');
export const byAgentModelResponse = rows(
  { ...agentKeys, provider: z.string(), model: z.string() },
  'Spend per agent, provider and model',
);
export const byProviderResponse = rows({ provider: z.string() }, 'Spend per provider');
export const byBillerResponse = rows(
  { biller: z.string().describe("who bills for the usage (the event's biller, which defaults to its provider)") },
  'Spend per biller',
);
export const byBillingTypeResponse = rows(
  {
    billingType: z
      .enum(BILLING_TYPES)
      .describe(
        "the events' billingType: `subscription_included` usage is covered by a subscription (0 cents, tokens kept); the others are billed",
      ),
  },
  'Spend per billing type',
);
export const byProjectResponse = rows(
  {
    projectId: uuidOut().nullable().describe('null for events with no project (or of a project since deleted)'),
    projectName: z.string().nullable(),
  },
  'Spend per project',
);

export const windowSpendResponse = z
  .array(
    z.object({
      window: z.enum(SPEND_WINDOWS.map((w) => w.window)),
      hours: z.number().int().describe("the window's length in hours"),
      from: timestampOut().describe('now minus the window: events with occurredAt at or after it count'),
      ...usageFields,
    }),
  )
  .describe('The rolling windows 5h, 24h and 7d, in that order');

const windowUsage = {
  from: timestampOut().describe('start of the window (now minus its length)'),
  ...usageFields,
};
export const quotaWindowsResponse = z
  .array(
    z.object({
      provider: z.string(),
      fiveHour: z
        .object({
          ...windowUsage,
          oldestEventAt: timestampOut()
            .nullable()
            .describe('occurredAt of the oldest event in the 5-hour window; null when it is empty'),
          oldestEventLeavesAt: timestampOut()
            .nullable()
            .describe('oldestEventAt + 5 hours: when that event drops out of the window and its usage frees up'),
        })
        .describe('the rolling 5-hour window'),
      sevenDay: z.object(windowUsage).describe('the rolling 7-day window'),
    }),
  )
  .describe(`Every provider with cost events in the last 7 days, by name (at most ${MAX_BREAKDOWN_ROWS})`);
