// Cost rollups: the sums of cost_events per UTC hour, day and month, each for three breakdowns
// (the key columns a summary groups on). recordCostEvent upserts the event's nine rows in its own
// transaction (src/modules/costs/rollup.ts); summaries add whole buckets from here and read only the
// partial edge hours from cost_events. Key columns outside a row's breakdown hold '' (text) or null.
import { sql } from 'drizzle-orm';
import { bigint, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';
import { companies } from './companies.ts';

/** The key of "no agent" / "no project" in the unique index (NULLS NOT DISTINCT needs PostgreSQL 15). */
export const NO_ID = '00000000-0000-0000-0000-000000000000';

export const costRollups = pgTable(
  'cost_rollups',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** Which key columns the row groups on: agent_model (agent, provider, model), provider (provider, biller, billing type), project. */
    breakdown: text('breakdown').notNull(),
    grain: text('grain').notNull(), // hour | day | month
    /** The first instant of the UTC hour, day or month the row sums. */
    bucketStart: ts('bucket_start').notNull(),
    // No foreign keys: a deleted agent or project clears the reference on its events but stays here
    // (clearing it would merge rows under the unique key). Readers join agents and projects and
    // report spend of deleted ones under null, as the events themselves do.
    agentId: uuid('agent_id'),
    projectId: uuid('project_id'),
    provider: text('provider').notNull().default(''),
    biller: text('biller').notNull().default(''),
    model: text('model').notNull().default(''),
    billingType: text('billing_type').notNull().default(''),
    costCents: bigint('cost_cents', { mode: 'number' }).notNull(),
    inputTokens: bigint('input_tokens', { mode: 'number' }).notNull(),
    cachedInputTokens: bigint('cached_input_tokens', { mode: 'number' }).notNull(),
    outputTokens: bigint('output_tokens', { mode: 'number' }).notNull(),
    eventCount: bigint('event_count', { mode: 'number' }).notNull(),
  },
  (t) => [
    // The upsert's conflict target, and (leading with company, breakdown, grain, bucket) the index of every range read.
    uniqueIndex('cost_rollups_key_uq').on(
      t.companyId,
      t.breakdown,
      t.grain,
      t.bucketStart,
      sql`coalesce(${t.agentId}, ${sql.raw(`'${NO_ID}'::uuid`)})`,
      sql`coalesce(${t.projectId}, ${sql.raw(`'${NO_ID}'::uuid`)})`,
      t.provider,
      t.biller,
      t.model,
      t.billingType,
    ),
  ],
);
