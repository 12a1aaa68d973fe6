import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns.ts';
import { companies } from './companies.ts';

/** Append-only audit trail: a trigger (src/db/sql/activity-append-only.sql) refuses UPDATE and DELETE. */
export const activityLog = pgTable(
  'activity_log',
  {
    id: id(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    actorType: text('actor_type').notNull(), // agent | user | system
    actorId: text('actor_id').notNull(),
    action: text('action').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id').notNull(),
    agentId: uuid('agent_id'),
    runId: text('run_id'),
    details: jsonb('details'),
    /**
     * The size of `details` as the event stream sends it, computed once on insert: a stream read
     * budgets its bytes over up to 200 rows, and measuring each row there meant reading (and
     * decompressing) every one of them, even those the budget then left for the next read.
     */
    detailsBytes: integer('details_bytes').notNull().generatedAlwaysAs(sql`coalesce(octet_length(details::text), 0)`),
    createdAt: createdAt(),
    /**
     * The writing transaction's id (64-bit, never wraps): the order of the live event stream
     * (src/modules/events/). Unlike createdAt it tells, with the reader's snapshot, whether an
     * earlier transaction could still commit an entry before this one; see src/modules/events/read.ts.
     * Entries written before the column existed hold 0.
     */
    txId: bigint('tx_id', { mode: 'number' }).notNull().default(sql`(pg_current_xact_id()::text)::bigint`),
  },
  (t) => [
    index('activity_company_created_idx').on(t.companyId, t.createdAt.desc()),
    index('activity_company_entity_idx').on(t.companyId, t.entityType, t.entityId, t.createdAt.desc()),
    index('activity_company_agent_idx').on(t.companyId, t.agentId, t.createdAt.desc()),
    // The board's activity filters (GET activity?action=, ?actorId=): newest first within the match.
    index('activity_company_action_idx').on(t.companyId, t.action, t.createdAt.desc()),
    index('activity_company_actor_idx').on(t.companyId, t.actorId, t.createdAt.desc()),
    index('activity_company_tx_idx').on(t.companyId, t.txId, t.id),
    // A run's own timeline (GET activity?runId=): most entries carry no run, so only those that do.
    index('activity_company_run_idx').on(t.companyId, t.runId, t.createdAt.desc()).where(sql`${t.runId} is not null`),
  ],
);
