// Cost summaries: what the company's cost events add up to over a time range, in total and broken
// down by agent, agent and model, provider, biller, billing type or project, plus the rolling windows.
//
// What is summed: every cost event of the company whose occurredAt lies in [from, to) (from
// inclusive, to exclusive; an omitted bound is open), whatever its billing type, so
// subscription-included usage counts with its tokens at the 0 cents it was recorded at. Finance
// events are not cost events and are not in these sums. costCents is the sum of the events' costCents;
// inputTokens, cachedInputTokens and outputTokens are the sums of the events' counts; eventCount is
// how many events there were.
//
// How: one SQL statement (one snapshot) that adds whole UTC months, then whole days, then whole
// hours from the rollups of the breakdown that has the grouping columns, and reads only the partial
// first and last hours from cost_events over the (company_id, occurred_at) index (see rollup.ts).
// Rollups and events are written in one transaction, so every event is counted exactly once.
import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { ceilTo, floorTo, GRAINS, HOUR_MS, type Grain, type RollupBreakdown } from './rollup.ts';
import type { Ctx } from '../../core/context.ts';
import { companyForQuotaWindows } from './policy.ts';

/** A half-open range [from, to); null is an open bound. */
export interface Range {
  from: Date | null;
  to: Date | null;
}

/** The most rows a breakdown answers: the top ones by spend. */
export const MAX_BREAKDOWN_ROWS = 500;

interface Span {
  source: Grain | 'events';
  from: Date | null;
  to: Date | null;
}

/**
 * Splits [from, to) into whole months, whole days and whole hours (each from the rollups of that
 * grain) and the partial first and last hours (from the events). At most one month span, two day
 * spans, two hour spans and two event spans.
 */
export function planSpans({ from, to }: Range, grains: readonly Grain[] = GRAINS): Span[] {
  if (from && to && from.getTime() >= to.getTime()) return [];
  const [grain, ...finer] = grains;
  if (!grain) return [{ source: 'events', from, to }];
  const lo = from ? ceilTo(grain, from) : null;
  const hi = to ? floorTo(grain, to) : null;
  if (lo && hi && lo.getTime() >= hi.getTime()) return planSpans({ from, to }, finer);
  const spans: Span[] = [{ source: grain, from: lo, to: hi }];
  if (from && lo && lo.getTime() > from.getTime()) spans.push(...planSpans({ from, to: lo }, finer));
  if (to && hi && hi.getTime() < to.getTime()) spans.push(...planSpans({ from: hi, to }, finer));
  return spans;
}

/** Columns a summary can group on; the same names in cost_rollups and cost_events. */
export type GroupColumn = 'agent_id' | 'project_id' | 'provider' | 'biller' | 'model' | 'billing_type';

/** One SELECT per span, each already summed per group; rollup rows of `breakdown`, which must hold `columns`. */
function spanSelects(
  companyId: string,
  breakdown: RollupBreakdown,
  range: Range,
  label: string,
  columns: GroupColumn[],
): SQL[] {
  const keys = sql.raw(columns.map((c) => `${c}, `).join(''));
  const groupBy = columns.length > 0 ? sql.raw(` group by ${columns.join(', ')}`) : sql.raw('');
  return planSpans(range).map((span) => {
    if (span.source === 'events') {
      return sql`select ${label}::text as win, ${keys}sum(cost_cents)::bigint as cost, sum(input_tokens)::bigint as input, sum(cached_input_tokens)::bigint as cached, sum(output_tokens)::bigint as output, count(*)::bigint as events
        from cost_events where company_id = ${companyId} and occurred_at >= ${span.from} and occurred_at < ${span.to}${groupBy}`;
    }
    const bounds = [
      span.from && sql` and bucket_start >= ${span.from}`,
      span.to && sql` and bucket_start < ${span.to}`,
    ].filter(Boolean) as SQL[];
    return sql`select ${label}::text as win, ${keys}sum(cost_cents)::bigint as cost, sum(input_tokens)::bigint as input, sum(cached_input_tokens)::bigint as cached, sum(output_tokens)::bigint as output, sum(event_count)::bigint as events
      from cost_rollups where company_id = ${companyId} and breakdown = ${breakdown} and grain = ${span.source}${sql.join(bounds)}${groupBy}`;
  });
}

/**
 * The summed spans of one or more labelled ranges, grouped by `columns` (and the label), as a
 * subquery: columns `win`, the group columns, `cost`, `input`, `cached`, `output`, `events`.
 * A range with nothing in it yields no rows.
 */
function grouped(
  companyId: string,
  breakdown: RollupBreakdown,
  ranges: { label: string; range: Range }[],
  columns: GroupColumn[],
): SQL {
  const selects = ranges.flatMap(({ label, range }) => spanSelects(companyId, breakdown, range, label, columns));
  const keys = sql.raw(columns.map((c) => `, ${c}`).join(''));
  // A query over an empty plan (from = to) still needs a well-typed, empty relation.
  const union =
    selects.length > 0
      ? sql.join(selects, sql` union all `)
      : sql`select null::text as win${sql.raw(columns.map((c) => `, null::${c.endsWith('_id') ? 'uuid' : 'text'} as ${c}`).join(''))}, 0::bigint as cost, 0::bigint as input, 0::bigint as cached, 0::bigint as output, 0::bigint as events where false`;
  return sql`select win${keys}, sum(cost) as cost, sum(input) as input, sum(cached) as cached, sum(output) as output, sum(events) as events
    from (${union}) spans where events > 0 group by win${keys}`;
}

export interface Usage {
  costCents: number;
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  eventCount: number;
}

const USAGE = sql.raw(
  'coalesce(sum(g.cost), 0)::float8 as "costCents", coalesce(sum(g.input), 0)::float8 as "inputTokens", coalesce(sum(g.cached), 0)::float8 as "cachedInputTokens", coalesce(sum(g.output), 0)::float8 as "outputTokens", coalesce(sum(g.events), 0)::float8 as "eventCount"',
);
const ZERO: Usage = { costCents: 0, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, eventCount: 0 };

async function rows<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  return (await db.execute(query)).rows as T[];
}

/** The usage of several labelled ranges in one statement; a range with no events reads as zeros. */
export async function usageByRange<L extends string>(
  db: DbOrTx,
  companyId: string,
  ranges: { label: L; range: Range }[],
): Promise<Record<L, Usage>> {
  const found = await rows<Usage & { win: L }>(
    db,
    sql`select g.win, ${USAGE} from (${grouped(companyId, 'provider', ranges, [])}) g group by g.win`,
  );
  const out = {} as Record<L, Usage>;
  for (const { label } of ranges) {
    const row = found.find((r) => r.win === label);
    out[label] = row
      ? {
          costCents: row.costCents,
          inputTokens: row.inputTokens,
          cachedInputTokens: row.cachedInputTokens,
          outputTokens: row.outputTokens,
          eventCount: row.eventCount,
        }
      : { ...ZERO };
  }
  return out;
}

export async function spendOf(db: DbOrTx, companyId: string, range: Range): Promise<Usage> {
  return (await usageByRange(db, companyId, [{ label: 'range', range }])).range;
}

// Breakdowns. Agents and projects are joined after summing (a deleted agent's or project's spend
// is reported under null, as its events carry null); rows are ordered by spend, largest first, then
// by their keys, and at most MAX_BREAKDOWN_ROWS are answered.

interface Breakdown {
  /** The rollups that hold the grouping columns. */
  rollup: RollupBreakdown;
  columns: GroupColumn[];
  keys: string;
  join: (companyId: string) => SQL;
  groupBy: string;
  orderBy: string;
}

const BREAKDOWNS = {
  agent: {
    rollup: 'agent_model',
    columns: ['agent_id'],
    keys: 'a.id as "agentId", a.name as "agentName"',
    join: (companyId: string) => sql`left join agents a on a.id = g.agent_id and a.company_id = ${companyId}`,
    groupBy: 'a.id, a.name',
    orderBy: 'a.name nulls last, a.id',
  },
  agentModel: {
    rollup: 'agent_model',
    columns: ['agent_id', 'provider', 'model'],
    keys: 'a.id as "agentId", a.name as "agentName", g.provider, g.model',
    join: (companyId: string) => sql`left join agents a on a.id = g.agent_id and a.company_id = ${companyId}`,
    groupBy: 'a.id, a.name, g.provider, g.model',
    orderBy: 'a.name nulls last, a.id, g.provider, g.model',
  },
  provider: {
    rollup: 'provider',
    columns: ['provider'],
    keys: 'g.provider',
    join: () => sql``,
    groupBy: 'g.provider',
    orderBy: 'g.provider',
  },
  biller: {
    rollup: 'provider',
    columns: ['biller'],
    keys: 'g.biller',
    join: () => sql``,
    groupBy: 'g.biller',
    orderBy: 'g.biller',
  },
  billingType: {
    rollup: 'provider',
    columns: ['billing_type'],
    keys: 'g.billing_type as "billingType"',
    join: () => sql``,
    groupBy: 'g.billing_type',
    orderBy: 'g.billing_type',
  },
  project: {
    rollup: 'project',
    columns: ['project_id'],
    keys: 'p.id as "projectId", p.name as "projectName"',
    join: (companyId: string) => sql`left join projects p on p.id = g.project_id and p.company_id = ${companyId}`,
    groupBy: 'p.id, p.name',
    orderBy: 'p.name nulls last, p.id',
  },
} satisfies Record<string, Breakdown>;

export type BreakdownKind = keyof typeof BREAKDOWNS;

export interface BreakdownRows {
  agent: Usage & { agentId: string | null; agentName: string | null };
  agentModel: Usage & { agentId: string | null; agentName: string | null; provider: string; model: string };
  provider: Usage & { provider: string };
  biller: Usage & { biller: string };
  billingType: Usage & { billingType: string };
  project: Usage & { projectId: string | null; projectName: string | null };
}

export async function costBreakdown<K extends BreakdownKind>(
  db: DbOrTx,
  companyId: string,
  kind: K,
  range: Range,
): Promise<BreakdownRows[K][]> {
  const b: Breakdown = BREAKDOWNS[kind];
  return rows<BreakdownRows[K]>(
    db,
    sql`select ${sql.raw(b.keys)}, ${USAGE}
      from (${grouped(companyId, b.rollup, [{ label: 'range', range }], b.columns)}) g ${b.join(companyId)}
      group by ${sql.raw(b.groupBy)}
      order by "costCents" desc, ${sql.raw(b.orderBy)}
      limit ${MAX_BREAKDOWN_ROWS}`,
  );
}

// Rolling windows: each from `now` minus its length, with no upper bound (an event stamped a few
// minutes ahead of the server clock, as cost-events allows, is already in every window).
export const SPEND_WINDOWS = [
  { window: '5h', hours: 5 },
  { window: '24h', hours: 24 },
  { window: '7d', hours: 168 },
] as const;
export type SpendWindow = (typeof SPEND_WINDOWS)[number]['window'];

export async function windowSpend(db: DbOrTx, companyId: string, now = new Date()) {
  const ranges = SPEND_WINDOWS.map(({ window, hours }) => ({
    label: window,
    hours,
    range: { from: new Date(now.getTime() - hours * HOUR_MS), to: null },
  }));
  const usage = await usageByRange<SpendWindow>(db, companyId, ranges);
  return ranges.map(({ label, hours, range }) => ({
    window: label,
    hours,
    from: range.from,
    ...usage[label],
  }));
}

// Quota windows (board diagnostic): per provider seen in the last 7 days, what the rolling 5-hour
// and 7-day windows hold, and when the oldest event of the 5-hour window leaves it.
const QUOTA_PROVIDERS = MAX_BREAKDOWN_ROWS;

export async function quotaWindows(ctx: Ctx, companyRef: string, now = new Date()) {
  const { id: companyId } = await companyForQuotaWindows(ctx, companyRef);
  const { db } = ctx;
  const fiveHoursFrom = new Date(now.getTime() - 5 * HOUR_MS);
  const sevenDaysFrom = new Date(now.getTime() - 168 * HOUR_MS);
  const [usage, oldest] = await Promise.all([
    rows<Usage & { win: '5h' | '7d'; provider: string }>(
      db,
      sql`select g.win, g.provider, ${USAGE}
        from (${grouped(
          companyId,
          'provider',
          [
            { label: '5h', range: { from: fiveHoursFrom, to: null } },
            { label: '7d', range: { from: sevenDaysFrom, to: null } },
          ],
          ['provider'],
        )}) g
        group by g.win, g.provider`,
    ),
    // The 5-hour window's own events, over the (company_id, occurred_at) index.
    rows<{ provider: string; oldestMs: number }>(
      db,
      sql`select provider, (extract(epoch from min(occurred_at)) * 1000)::float8 as "oldestMs" from cost_events where company_id = ${companyId} and occurred_at >= ${fiveHoursFrom} group by provider`,
    ),
  ]);
  const providers = [...new Set(usage.filter((r) => r.win === '7d').map((r) => r.provider))]
    .sort()
    .slice(0, QUOTA_PROVIDERS);
  const pick = (win: '5h' | '7d', provider: string): Usage => {
    const row = usage.find((r) => r.win === win && r.provider === provider);
    return row
      ? {
          costCents: row.costCents,
          inputTokens: row.inputTokens,
          cachedInputTokens: row.cachedInputTokens,
          outputTokens: row.outputTokens,
          eventCount: row.eventCount,
        }
      : { ...ZERO };
  };
  return providers.map((provider) => {
    const oldestMs = oldest.find((r) => r.provider === provider)?.oldestMs;
    const first = oldestMs === undefined ? null : new Date(oldestMs);
    return {
      provider,
      fiveHour: {
        from: fiveHoursFrom,
        ...pick('5h', provider),
        oldestEventAt: first,
        oldestEventLeavesAt: first && new Date(first.getTime() + 5 * HOUR_MS),
      },
      sevenDay: { from: sevenDaysFrom, ...pick('7d', provider) },
    };
  });
}
