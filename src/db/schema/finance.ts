// Finance events: money that is not token usage (platform fees, credit purchases and refunds,
// manual adjustments), recorded by the board. Append-only; read by indexed aggregates per company.
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, ts } from './columns.ts';
import { companies } from './companies.ts';

export const financeEvents = pgTable(
  'finance_events',
  {
    id: id(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    direction: text('direction').notNull(), // debit | credit
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(), // ISO 4217
    estimated: boolean('estimated').notNull().default(false),
    biller: text('biller'),
    description: text('description'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>(),
    occurredAt: ts('occurred_at').notNull(),
    recordedByActorType: text('recorded_by_actor_type').notNull(),
    recordedByActorId: text('recorded_by_actor_id').notNull(),
    /** The caller's name for this record: a retried POST returns the first event instead of recording the money twice. */
    idempotencyKey: text('idempotency_key'),
    createdAt: createdAt(),
  },
  (t) => [
    index('finance_events_company_time_idx').on(t.companyId, t.occurredAt.desc(), t.id.desc()),
    uniqueIndex('finance_events_idempotency_uq')
      .on(t.companyId, t.idempotencyKey)
      .where(sql`${t.idempotencyKey} is not null`),
  ],
);
