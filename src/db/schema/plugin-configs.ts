// A plugin's config, per company (issue 27 sections 1 and 5): the values of the manifest's
// `configSchema` that company's board saved. Per company because its secret references name that
// company's secrets; a reference is a secret id, never a value.
import { integer, jsonb, pgTable, primaryKey, uuid } from 'drizzle-orm/pg-core';
import { updatedAt } from './columns.ts';
import { companies } from './companies.ts';
import { users } from './identity.ts';
import { plugins } from './plugins.ts';

export const pluginConfigs = pgTable(
  'plugin_configs',
  {
    pluginId: uuid('plugin_id')
      .notNull()
      .references(() => plugins.id, { onDelete: 'cascade' }),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** The config as saved (schema defaults are applied when it is read, so a new default reaches old configs). */
    config: jsonb('config').$type<Record<string, unknown>>().notNull(),
    /** 1 on the first save, one more on each. */
    revision: integer('revision').notNull(),
    updatedByUserId: uuid('updated_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.pluginId, t.companyId] })],
);
