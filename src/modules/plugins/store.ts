// The plugin's bytes in PostgreSQL and in each replica's cache. Blobs are written and collected
// under one transaction-scoped advisory lock, so an uninstall never deletes a blob an install on
// another replica is about to list. materialisePlugin is what the worker runtime calls before it
// starts a worker: it writes the current version's files from the database into
// <dataDir>/plugins/cache/<pluginId>/<tree hash>/, checking every file's hash, and reuses that
// folder while it still holds exactly those bytes.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { eq, inArray, sql } from 'drizzle-orm';
import { notFound } from '../../core/errors.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { pluginBlobs, plugins } from '../../db/schema/index.ts';
import { sha256, type PluginFile } from './package.ts';

// Any constant the other advisory locks of the schema do not use: the plugin blob store's.
const BLOB_LOCK = 0x706c7567;

/** The folder under the data directory holding plugin staging and cache folders. */
export const pluginsRoot = (dataDir: string) => path.join(dataDir, 'plugins');
export const pluginCacheDir = (dataDir: string, pluginId: string) => path.join(pluginsRoot(dataDir), 'cache', pluginId);

/** Held until the transaction ends: blob writes and collection on every replica take turns. */
export async function lockBlobStore(tx: Tx): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${BLOB_LOCK})`);
}

/** Stores each file's bytes once (a blob another plugin has already is shared). */
export async function storeBlobs(tx: Tx, files: PluginFile[]): Promise<void> {
  const seen = new Set<string>();
  for (const file of files) {
    if (seen.has(file.sha256)) continue;
    seen.add(file.sha256);
    await tx
      .insert(pluginBlobs)
      .values({ sha256: file.sha256, size: file.bytes.length, bytes: file.bytes })
      .onConflictDoNothing();
  }
}

/** Deletes those of `hashes` no plugin lists any more (call after the row that listed them changed). */
export async function collectBlobs(tx: Tx, hashes: Iterable<string>): Promise<void> {
  const candidates = [...new Set(hashes)];
  if (candidates.length === 0) return;
  await tx.execute(sql`
    delete from plugin_blobs b
    where b.sha256 in (${sql.join(
      candidates.map((h) => sql`${h}`),
      sql`, `,
    )})
      and not exists (select 1 from plugins p, jsonb_each_text(p.files) f where f.value = b.sha256)`);
}

/** One name for a set of files: the hash of its sorted path → hash list. */
export function treeHash(files: Record<string, string>): string {
  const lines = Object.entries(files)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([file, hash]) => `${hash}  ${file}\n`);
  return createHash('sha256').update(lines.join('')).digest('hex');
}

/** Whether `dir` holds every file with exactly its listed hash. */
async function holds(dir: string, files: Record<string, string>): Promise<boolean> {
  for (const [file, hash] of Object.entries(files)) {
    const bytes = await readFile(path.join(dir, file)).catch(() => null);
    if (!bytes || sha256(bytes) !== hash) return false;
  }
  return true;
}

/**
 * The local folder holding the plugin's current files, written from the database when this replica
 * does not have them yet (or has them damaged), every blob checked against its hash. Idempotent;
 * folders of the plugin's other versions are removed. 404 when the plugin is not installed.
 */
export function materialisePlugin(db: DbOrTx, dataDir: string, pluginId: string): Promise<string> {
  // One at a time per cache folder in this process: two workers of the plugin (two companies)
  // starting at once would otherwise each replace the folder, removing the one the other had just
  // bound into its sandbox.
  const base = pluginCacheDir(dataDir, pluginId);
  const run = (materialising.get(base) ?? Promise.resolve()).then(
    () => materialiseNow(db, base, pluginId),
    () => materialiseNow(db, base, pluginId),
  );
  materialising.set(base, run);
  void run.then(
    () => materialising.get(base) === run && materialising.delete(base),
    () => materialising.get(base) === run && materialising.delete(base),
  );
  return run;
}

const materialising = new Map<string, Promise<string>>();

async function materialiseNow(db: DbOrTx, base: string, pluginId: string): Promise<string> {
  const [plugin] = await db.select({ files: plugins.files }).from(plugins).where(eq(plugins.id, pluginId));
  if (!plugin) throw notFound('plugin');
  const target = path.join(base, treeHash(plugin.files));
  if (!(await holds(target, plugin.files))) {
    await mkdir(base, { recursive: true, mode: 0o700 });
    const scratch = path.join(base, `.tmp-${randomBytes(6).toString('hex')}`);
    try {
      await writeTree(db, scratch, plugin.files);
      await rm(target, { recursive: true, force: true });
      await rename(scratch, target);
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }
  for (const name of await readdir(base)) {
    if (name !== path.basename(target) && !name.startsWith('.tmp-'))
      await rm(path.join(base, name), { recursive: true, force: true });
  }
  return target;
}

async function writeTree(db: DbOrTx, dir: string, files: Record<string, string>): Promise<void> {
  const hashes = [...new Set(Object.values(files))];
  const rows = hashes.length ? await db.select().from(pluginBlobs).where(inArray(pluginBlobs.sha256, hashes)) : [];
  const blobs = new Map(rows.map((row) => [row.sha256, row.bytes]));
  for (const [file, hash] of Object.entries(files)) {
    const bytes = blobs.get(hash);
    if (!bytes || sha256(bytes) !== hash)
      throw new Error(`plugin blob ${hash} for ${file} is ${bytes ? 'damaged' : 'missing'} in the database`);
    const full = path.resolve(dir, file);
    // The paths were listed by the install from the package's own walk; a stored path that leaves the folder is not one.
    if (!full.startsWith(dir + path.sep)) throw new Error(`plugin file path ${file} leaves the cache folder`);
    await mkdir(path.dirname(full), { recursive: true, mode: 0o700 });
    await writeFile(full, bytes, { mode: 0o600 });
  }
}
