// Cost events: what agents' work cost, as reported by adapters (mid-run usage) or by callers of the
// cost-events route. Append-only; the per-month counters on agents and companies are kept in the
// same transaction as each insert.
import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { agents } from './agents.ts';
import { createdAt, id, ts } from './columns.ts';
import { companies } from './companies.ts';
import { issues } from './issues.ts';
import { goals, projects } from './work.ts';

export const costEvents = pgTable(
  'cost_events',
  {
    id: id(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    // Spend outlives a deleted agent, issue, project or goal: the reference is cleared, the money stays.
    agentId: uuid('agent_id').references(() => agents.id, { onDelete: 'set null' }),
    issueId: uuid('issue_id').references(() => issues.id, { onDelete: 'set null' }),
    projectId: uuid('project_id').references(() => projects.id, { onDelete: 'set null' }),
    goalId: uuid('goal_id').references(() => goals.id, { onDelete: 'set null' }),
    // No foreign key: finished runs are pruned after the retention period, their costs are not.
    heartbeatRunId: uuid('heartbeat_run_id'),
    billingCode: text('billing_code'),
    provider: text('provider').notNull(),
    model: text('model').notNull(),
    biller: text('biller').notNull(),
    billingType: text('billing_type').notNull().default('unknown'),
    inputTokens: bigint('input_tokens', { mode: 'number' }).notNull().default(0),
    cachedInputTokens: bigint('cached_input_tokens', { mode: 'number' }).notNull().default(0),
    outputTokens: bigint('output_tokens', { mode: 'number' }).notNull().default(0),
    costCents: integer('cost_cents').notNull(),
    occurredAt: ts('occurred_at').notNull(),
    reportedByActorType: text('reported_by_actor_type').notNull(),
    reportedByActorId: text('reported_by_actor_id').notNull(),
    // A caller's name for the report: a retried POST with the same key is the same event, never spend twice.
    idempotencyKey: text('idempotency_key'),
    createdAt: createdAt(),
  },
  (t) => [
    index('cost_events_company_time_idx').on(t.companyId, t.occurredAt),
    index('cost_events_agent_time_idx').on(t.agentId, t.occurredAt),
    index('cost_events_run_idx').on(t.heartbeatRunId).where(sql`${t.heartbeatRunId} is not null`),
    uniqueIndex('cost_events_idempotency_uq')
      .on(t.companyId, t.idempotencyKey)
      .where(sql`${t.idempotencyKey} is not null`),
  ],
);
