// Plugins (SPEC "Plugins", issue 27): installed by the instance owner, turned on by each company.
// A plugin's files live here, not on one replica's disk: every file of the package is a row of
// plugin_blobs keyed by its SHA-256, and the plugin lists path → hash, so every replica
// materialises the same bytes into its local cache. Blobs are shared between plugins with the same
// file; one no plugin lists any more is deleted with the install that last listed it.
import { customType, index, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, ts, updatedAt } from './columns.ts';
import { companies } from './companies.ts';

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/** Where an install came from, so an upgrade with an empty body fetches the same source again. */
export interface PluginSource {
  packageName: string;
  /** The version or range asked for (npm only). */
  version: string | null;
  /** The absolute path it was copied from; null for an npm package. */
  localPath: string | null;
}

export const plugins = pgTable('plugins', {
  id: id(),
  /** The manifest's `id`: one install per key on the instance. */
  pluginKey: text('plugin_key').notNull().unique(),
  packageName: text('package_name').notNull(),
  version: text('version').notNull(),
  /** Instance availability: `ready` or `disabled` (the worker runtime adds `error`). */
  status: text('status').notNull().default('ready'),
  /** The validated manifest (src/modules/plugins/manifest.ts), as stored: never executed. */
  manifest: jsonb('manifest').$type<Record<string, unknown>>().notNull(),
  /** Every file of the package, by path relative to the package root → the SHA-256 of its bytes. */
  files: jsonb('files').$type<Record<string, string>>().notNull(),
  totalBytes: integer('total_bytes').notNull(),
  source: jsonb('source').$type<PluginSource>().notNull(),
  lastError: text('last_error'),
  /**
   * Bumped by every change that must restart the plugin's workers (instance disable, upgrade, a
   * company's disable or folder mount): a worker remembers the revision it started with, so a
   * replica hearing the change late stops only the workers started before it (plugins/change.ts).
   */
  revision: integer('revision').notNull().default(0),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const pluginBlobs = pgTable('plugin_blobs', {
  sha256: text('sha256').primaryKey(),
  size: integer('size').notNull(),
  bytes: bytea('bytes').notNull(),
});

/** A company's consent: the plugin runs for it only while `enabled`, with `capabilities` as consented. */
export const pluginCompanyEnablements = pgTable(
  'plugin_company_enablements',
  {
    pluginId: uuid('plugin_id')
      .notNull()
      .references(() => plugins.id, { onDelete: 'cascade' }),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** `enabled`, `disabled`, or `upgrade_pending` (an upgrade asked for capabilities not consented yet). */
    status: text('status').notNull(),
    capabilities: jsonb('capabilities').$type<string[]>().notNull(),
    consentedByUserId: uuid('consented_by_user_id'),
    consentedAt: ts('consented_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.pluginId, t.companyId] }),
    index('plugin_company_enablements_company_idx').on(t.companyId),
  ],
);
