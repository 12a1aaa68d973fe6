import { pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { companies } from './companies.ts';
import { ts } from './columns.ts';

/**
 * Per board user: when they last marked a board inbox item read (GET /api/companies/{id}/inbox).
 * `itemKey` is the item's stable key (`approval:<id>`, `run:<id>`, `budget_incident:<id>`,
 * `issue:<id>`); an item is unread while it changed after `readAt`, so an approval sent back for
 * revision, or an issue that moved again, comes back as unread. A mark outlives its item (a few
 * short rows per decided approval or resolved incident); the inbox reads marks only for the items
 * it shows, by primary key.
 */
export const inboxReadMarks = pgTable(
  'inbox_read_marks',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull(),
    itemKey: text('item_key').notNull(),
    readAt: ts('read_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.userId, t.itemKey] })],
);
