import { index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns.ts';
import { companies } from './companies.ts';

/** Append-only audit trail: a trigger (src/db/sql/activity-append-only.sql) refuses UPDATE and DELETE. */
export const activityLog = pgTable(
  'activity_log',
  {
    id: id(),
    companyId: uuid('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    actorType: text('actor_type').notNull(), // agent | user | system
    actorId: text('actor_id').notNull(),
    action: text('action').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id').notNull(),
    agentId: uuid('agent_id'),
    runId: text('run_id'),
    details: jsonb('details'),
    createdAt: createdAt(),
  },
  (t) => [
    index('activity_company_created_idx').on(t.companyId, t.createdAt.desc()),
    index('activity_company_entity_idx').on(t.companyId, t.entityType, t.entityId, t.createdAt.desc()),
    index('activity_company_agent_idx').on(t.companyId, t.agentId, t.createdAt.desc()),
  ],
);
