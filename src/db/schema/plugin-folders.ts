// A plugin's local folders (SPEC "Plugins": local-folders routes): the server path the instance owner
// picked for one declared folder (`localFolders[].key`) of one company's plugin. The worker of that
// company sees it read-only; a folder without a row is not mounted.
import { pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { updatedAt } from './columns.ts';
import { companies } from './companies.ts';
import { plugins } from './plugins.ts';

export const pluginLocalFolders = pgTable(
  'plugin_local_folders',
  {
    pluginId: uuid('plugin_id')
      .notNull()
      .references(() => plugins.id, { onDelete: 'cascade' }),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    folderKey: text('folder_key').notNull(),
    /** Absolute and resolved (no links), as validated when it was put. */
    path: text('path').notNull(),
    updatedByUserId: uuid('updated_by_user_id'),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.pluginId, t.companyId, t.folderKey] })],
);
