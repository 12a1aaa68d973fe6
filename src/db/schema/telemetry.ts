// Local product telemetry (e.g. `skill_imported`): recorded beside the change, never sent anywhere.
// Kept per company for a bounded time (modules/telemetry/record.ts prunes on write).
import { index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns.ts';
import { companies } from './companies.ts';

export const telemetryEvents = pgTable(
  'telemetry_events',
  {
    id: id(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    properties: jsonb('properties').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('telemetry_events_company_created_idx').on(t.companyId, t.createdAt),
    index('telemetry_events_company_name_idx').on(t.companyId, t.name, t.createdAt),
  ],
);
