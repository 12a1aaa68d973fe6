// Labels: a company's own vocabulary for its issues (issues.label_ids holds their ids). The name is
// unique per company whatever its case ("Bug" and "bug" are one label), which the index enforces even
// when two creates race; the colour is a tone name of the board's palette (modules/labels/schemas.ts).
import { sql } from 'drizzle-orm';
import { pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.ts';
import { companies } from './companies.ts';

export const labels = pgTable(
  'labels',
  {
    id: id(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    color: text('color').notNull().default('neutral'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // Also the list's order: a company's labels by name, case folded.
  (t) => [uniqueIndex('labels_company_name_uq').on(t.companyId, sql`lower(${t.name})`)],
);
