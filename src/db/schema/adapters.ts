// Instance-level adapter state (SPEC "Adapters", board scope): one row per adapter type the operator
// has touched. An installed external package has its source and install directory; a built-in type
// has a row only once its config or override block was set (install fields null). No company_id:
// adapters belong to the instance, not to a tenant.
import { jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.ts';

export interface AdapterOverride {
  /** Force-disabled: runs of agents with this adapter type fail with a clear error. */
  disabled?: boolean;
  /** Reinstall fetches this version; an install or reinstall that yields another version is refused. */
  pinnedVersion?: string | null;
}

export const adapterInstalls = pgTable('adapter_installs', {
  type: text('type').primaryKey(),
  /** npm package name, or the `name` in the package.json of a local path. Null for a built-in's settings row. */
  packageName: text('package_name'),
  version: text('version'),
  /** Set when installed from a local path (reinstall copies it again). */
  localPath: text('local_path'),
  /** Where the package lives under the data directory; null for a built-in's settings row. */
  installDir: text('install_dir'),
  config: jsonb('config').$type<Record<string, unknown>>().notNull().default({}),
  override: jsonb('override').$type<AdapterOverride>().notNull().default({}),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});
