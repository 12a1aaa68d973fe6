// A plugin's own state (issue 27 section 3, the `state` capability): small JSON values by key, kept
// per plugin and company (a worker never reads another company's), and bounded by the host API
// (src/engine/plugins/state.ts). Uninstalling the plugin or deleting the company takes them along.
import { index, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { updatedAt } from './columns.ts';
import { companies } from './companies.ts';
import { plugins } from './plugins.ts';

export const pluginState = pgTable(
  'plugin_state',
  {
    pluginId: uuid('plugin_id')
      .notNull()
      .references(() => plugins.id, { onDelete: 'cascade' }),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    value: jsonb('value').$type<unknown>().notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.pluginId, t.companyId, t.key] }),
    // A company's deletion cascades through it.
    index('plugin_state_company_idx').on(t.companyId),
  ],
);
