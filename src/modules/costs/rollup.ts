// Keeping cost_rollups in step with cost_events. recordCostEvent calls addToRollups in its own
// transaction right after the insert, so rollups and events always agree: a summary that adds whole
// buckets from the rollups and the partial edge hours from the events counts every event once.
//
// The shape comes from what reads cost at 1M events (bench/costs.ts, 25 agents, 6 models, 5
// projects over 90 days). One rollup on the full key (agent, project, provider, biller, model,
// billing type) per hour and day had ~300 rows per day: an all-time sum read 27,000 day rows and
// took 35 ms, a 30-day range 17 ms at the median. So each event is summed three times, each on
// the key columns of the breakdowns that read it (agent_model: by-agent and by-agent-model;
// provider: by-provider, by-biller, summary, window-spend, quota-windows; project: by-project),
// at three grains (hour, day, month): a range reads whole months, then whole days, then whole
// hours, then the events of its partial first and last hours. Nine rows per event, written by one
// upsert statement in a fixed order, so concurrent events lock shared rows in the same order.
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { NO_ID } from '../../db/schema/index.ts';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

export const GRAINS = ['month', 'day', 'hour'] as const;
export type Grain = (typeof GRAINS)[number];

/** The start of the UTC hour, day or month holding `at` (epoch milliseconds have no leap seconds). */
export function floorTo(grain: Grain, at: Date): Date {
  const ms = at.getTime();
  if (grain === 'hour') return new Date(Math.floor(ms / HOUR_MS) * HOUR_MS);
  if (grain === 'day') return new Date(Math.floor(ms / DAY_MS) * DAY_MS);
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}

/** The first UTC hour, day or month boundary at or after `at`. */
export function ceilTo(grain: Grain, at: Date): Date {
  const floor = floorTo(grain, at);
  if (floor.getTime() === at.getTime()) return floor;
  if (grain === 'month') return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
  return new Date(floor.getTime() + (grain === 'hour' ? HOUR_MS : DAY_MS));
}

/** The key columns each breakdown groups on (the others hold '' or null in its rows). */
export const BREAKDOWN_KEYS = {
  agent_model: ['agent_id', 'provider', 'model'],
  provider: ['provider', 'biller', 'billing_type'],
  project: ['project_id'],
} as const;
export type RollupBreakdown = keyof typeof BREAKDOWN_KEYS;
const BREAKDOWNS = Object.keys(BREAKDOWN_KEYS) as RollupBreakdown[];

/** What a cost event contributes to its rollup rows. */
export interface RollupInput {
  companyId: string;
  agentId: string | null;
  projectId: string | null;
  provider: string;
  biller: string;
  model: string;
  billingType: string;
  costCents: number;
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  occurredAt: Date;
}

const KEY = sql.raw(
  `company_id, breakdown, grain, bucket_start, (coalesce(agent_id, '${NO_ID}'::uuid)), (coalesce(project_id, '${NO_ID}'::uuid)), provider, biller, model, billing_type`,
);
const COLUMNS = sql.raw(
  'company_id, breakdown, grain, bucket_start, agent_id, project_id, provider, biller, model, billing_type, cost_cents, input_tokens, cached_input_tokens, output_tokens, event_count',
);

/** Adds one event to its nine rollup rows (each inserted on first use). */
export async function addToRollups(tx: DbOrTx, e: RollupInput): Promise<void> {
  const has = (b: RollupBreakdown, column: string) => (BREAKDOWN_KEYS[b] as readonly string[]).includes(column);
  const rows = BREAKDOWNS.flatMap((b) =>
    GRAINS.map(
      (grain) =>
        sql`(${e.companyId}::uuid, ${b}, ${grain}, ${floorTo(grain, e.occurredAt)}::timestamptz, ${has(b, 'agent_id') ? e.agentId : null}::uuid, ${has(b, 'project_id') ? e.projectId : null}::uuid, ${has(b, 'provider') ? e.provider : ''}, ${has(b, 'biller') ? e.biller : ''}, ${has(b, 'model') ? e.model : ''}, ${has(b, 'billing_type') ? e.billingType : ''}, ${e.costCents}::bigint, ${e.inputTokens}::bigint, ${e.cachedInputTokens}::bigint, ${e.outputTokens}::bigint, 1::bigint)`,
    ),
  );
  await tx.execute(sql`
    insert into cost_rollups (${COLUMNS}) values ${sql.join(rows, sql`, `)}
    on conflict (${KEY}) do update set
      cost_cents = cost_rollups.cost_cents + excluded.cost_cents,
      input_tokens = cost_rollups.input_tokens + excluded.input_tokens,
      cached_input_tokens = cost_rollups.cached_input_tokens + excluded.cached_input_tokens,
      output_tokens = cost_rollups.output_tokens + excluded.output_tokens,
      event_count = cost_rollups.event_count + 1`);
}

/**
 * Recomputes one company's rollups from its events: exactly the rows addToRollups builds event by
 * event (the migration that created the table ran the same for every company). For repair, and for
 * the benchmark, which loads its events in bulk. Run it in a transaction, with nothing recording
 * costs for the company meanwhile.
 */
export async function rebuildRollups(tx: DbOrTx, companyId: string): Promise<void> {
  await tx.execute(sql`delete from cost_rollups where company_id = ${companyId}`);
  // Hours on the full key first (a few hundred thousand rows from a million events), then every
  // breakdown and grain from those.
  await tx.execute(sql`
    with hours as (
      select company_id, date_trunc('hour', occurred_at, 'UTC') as hour, agent_id, project_id, provider, biller, model, billing_type,
             sum(cost_cents) as cost, sum(input_tokens) as input, sum(cached_input_tokens) as cached, sum(output_tokens) as output, count(*) as events
      from cost_events where company_id = ${companyId}
      group by 1, 2, 3, 4, 5, 6, 7, 8
    )
    insert into cost_rollups (${COLUMNS})
    select h.company_id, b.breakdown, g.grain, date_trunc(g.grain, h.hour, 'UTC'),
           case when b.breakdown = 'agent_model' then h.agent_id end,
           case when b.breakdown = 'project' then h.project_id end,
           case when b.breakdown in ('agent_model', 'provider') then h.provider else '' end,
           case when b.breakdown = 'provider' then h.biller else '' end,
           case when b.breakdown = 'agent_model' then h.model else '' end,
           case when b.breakdown = 'provider' then h.billing_type else '' end,
           sum(h.cost), sum(h.input), sum(h.cached), sum(h.output), sum(h.events)
    from hours h
    cross join (values ('agent_model'), ('provider'), ('project')) as b(breakdown)
    cross join (values ('hour'), ('day'), ('month')) as g(grain)
    group by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10`);
}
