// The plugin registry as the instance owner manages it (SPEC "Plugins", issue 27 section 1):
// install, upgrade and uninstall packages, and make an installed plugin available on the instance
// or not. A package is staged under <dataDir>/plugins/.staging-*, read and validated there, and then
// stored whole in the database (store.ts) in one transaction with its record, so a failure at any
// step leaves the previous state: nothing for an install, the previous version (and status) for an
// upgrade. The staging folder is removed either way. No plugin code runs here: the worker runtime
// (a later part of issue 27) starts workers from materialisePlugin's folder.
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { and, asc, eq } from 'drizzle-orm';
import type { Ctx } from '../../core/context.ts';
import { conflict, notFound, unprocessable } from '../../core/errors.ts';
import { localPathOf, readPackageJson, stagePackage, type PackageSource } from '../../core/package-staging.ts';
import { oneRow } from '../../db/rows.ts';
import { pluginCompanyEnablements, plugins, type PluginSource } from '../../db/schema/index.ts';
import { PLUGIN_EXAMPLES_DIR } from '../../paths.ts';
import { announcePluginStop } from './change.ts';
import { syncJobSchedules } from './jobs.ts';
import type { PluginManifest } from './manifest.ts';
import { readPluginPackage, type PluginPackage } from './package.ts';
import { assertMayManagePlugins, assertMayReadPlugins } from './policy.ts';
import type { PluginRow } from './present.ts';
import { collectBlobs, lockBlobStore, pluginCacheDir, pluginsRoot, storeBlobs } from './store.ts';

/** What the plugin use cases need beside the context: where staging and cache folders live. */
export interface PluginDeps {
  dataDir: string;
}

export interface InstallInput {
  packageName: string;
  version?: string | undefined;
  isLocalPath?: boolean | undefined;
}

export interface PluginExample {
  id: string;
  displayName: string;
  description: string;
  localPath: string;
}

// The registry is listed whole (no paging): a natural bound on what an operator installs.
export const MAX_PLUGINS = 100;

export const manifestOf = (row: PluginRow) => row.manifest as PluginManifest;

const sourceOf = (input: InstallInput): PluginSource => {
  const localPath = localPathOf(input);
  return { packageName: input.packageName, version: localPath ? null : (input.version ?? null), localPath };
};

/** Fetches the source into a fresh staging folder and reads the plugin from it; the folder is gone afterwards. */
async function fetchPlugin(deps: PluginDeps, source: PluginSource): Promise<PluginPackage> {
  const root = pluginsRoot(deps.dataDir);
  await mkdir(root, { recursive: true, mode: 0o700 });
  const staging = await mkdtemp(path.join(root, '.staging-'));
  try {
    const request: PackageSource = {
      localPath: source.localPath,
      packageName: source.packageName,
      version: source.version ?? undefined,
    };
    const staged = await stagePackage(request, staging);
    return await readPluginPackage(path.join(staging, staged.relDir), staged.manifest);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

const filesOf = (pkg: PluginPackage) => Object.fromEntries(pkg.files.map((f) => [f.path, f.sha256]));

async function findPlugin(ctx: Ctx, pluginId: string): Promise<PluginRow> {
  const [row] = await ctx.db.select().from(plugins).where(eq(plugins.id, pluginId));
  if (!row) throw notFound('plugin');
  return row;
}

export async function listPlugins(ctx: Ctx): Promise<PluginRow[]> {
  await assertMayReadPlugins(ctx);
  return ctx.db.select().from(plugins).orderBy(asc(plugins.pluginKey));
}

export async function getPlugin(ctx: Ctx, pluginId: string): Promise<PluginRow> {
  await assertMayReadPlugins(ctx);
  return findPlugin(ctx, pluginId);
}

export async function installPlugin(ctx: Ctx, deps: PluginDeps, input: InstallInput): Promise<PluginRow> {
  await assertMayManagePlugins(ctx);
  const source = sourceOf(input);
  const pkg = await fetchPlugin(deps, source);
  return ctx.db.transaction(async (tx) => {
    await lockBlobStore(tx);
    const [existing] = await tx.select({ id: plugins.id }).from(plugins).where(eq(plugins.pluginKey, pkg.manifest.id));
    if (existing)
      throw conflict(`plugin ${pkg.manifest.id} is already installed: upgrade or uninstall it`, {
        pluginId: existing.id,
      });
    if ((await tx.$count(plugins)) >= MAX_PLUGINS)
      throw unprocessable(`at most ${MAX_PLUGINS} plugins can be installed`);
    await storeBlobs(tx, pkg.files);
    const rows = await tx
      .insert(plugins)
      .values({
        pluginKey: pkg.manifest.id,
        packageName: pkg.packageName,
        version: pkg.manifest.version,
        status: 'ready',
        manifest: pkg.manifest,
        files: filesOf(pkg),
        totalBytes: pkg.totalBytes,
        source,
      })
      .returning();
    return oneRow(rows, 'plugin');
  });
}

/**
 * Replaces the plugin's package with the one `input` names, or the recorded source fetched again.
 * Its status stays; a company whose consent does not cover the new capabilities goes to
 * `upgrade_pending` (the plugin does not run for it until its board consents again), and one whose
 * consent covers them keeps only the capabilities the new manifest still declares.
 */
export async function upgradePlugin(
  ctx: Ctx,
  deps: PluginDeps,
  pluginId: string,
  input: Partial<InstallInput>,
): Promise<PluginRow> {
  await assertMayManagePlugins(ctx);
  const before = await findPlugin(ctx, pluginId);
  const source = input.packageName ? sourceOf({ ...input, packageName: input.packageName }) : before.source;
  const pkg = await fetchPlugin(deps, source);
  if (pkg.manifest.id !== before.pluginKey)
    throw unprocessable(`the package is plugin ${pkg.manifest.id}, not ${before.pluginKey}`, { field: 'id' });
  return ctx.db.transaction(async (tx) => {
    await lockBlobStore(tx);
    const [current] = await tx.select().from(plugins).where(eq(plugins.id, pluginId)).for('update');
    if (!current) throw notFound('plugin');
    await storeBlobs(tx, pkg.files);
    const rows = await tx
      .update(plugins)
      .set({
        packageName: pkg.packageName,
        version: pkg.manifest.version,
        manifest: pkg.manifest,
        files: filesOf(pkg),
        totalBytes: pkg.totalBytes,
        source,
        updatedAt: new Date(),
      })
      .where(eq(plugins.id, pluginId))
      .returning();
    const wanted = new Set(pkg.manifest.capabilities);
    const enablements = await tx
      .select()
      .from(pluginCompanyEnablements)
      .where(eq(pluginCompanyEnablements.pluginId, pluginId));
    for (const e of enablements) {
      const consented = new Set(e.capabilities);
      const covered = [...wanted].every((c) => consented.has(c));
      const status = e.status === 'disabled' ? 'disabled' : covered ? 'enabled' : 'upgrade_pending';
      await tx
        .update(pluginCompanyEnablements)
        .set({
          status,
          // Consent never grows without the board; it shrinks with what the plugin no longer declares.
          capabilities: e.capabilities.filter((c) => wanted.has(c)),
          updatedAt: new Date(),
        })
        .where(
          and(eq(pluginCompanyEnablements.pluginId, pluginId), eq(pluginCompanyEnablements.companyId, e.companyId)),
        );
    }
    await syncJobSchedules(tx, pluginId);
    await collectBlobs(tx, Object.values(current.files));
    // Workers run the old files: every replica stops them, and the next call starts the new version.
    await announcePluginStop(tx, pluginId, null);
    return oneRow(rows, 'plugin');
  });
}

/** Removes the record, every company's enablement, the blobs no other plugin lists, and this replica's cache. */
export async function uninstallPlugin(ctx: Ctx, deps: PluginDeps, pluginId: string): Promise<void> {
  await assertMayManagePlugins(ctx);
  await findPlugin(ctx, pluginId);
  await ctx.db.transaction(async (tx) => {
    await lockBlobStore(tx);
    const [removed] = await tx.delete(plugins).where(eq(plugins.id, pluginId)).returning();
    if (!removed) throw notFound('plugin');
    await collectBlobs(tx, Object.values(removed.files));
    await announcePluginStop(tx, pluginId, null);
  });
  await rm(pluginCacheDir(deps.dataDir, pluginId), { recursive: true, force: true });
}

/** Instance availability: `ready` lets companies turn it on; `disabled` holds it off for every company. */
export async function setPluginStatus(ctx: Ctx, pluginId: string, status: 'ready' | 'disabled'): Promise<PluginRow> {
  await assertMayManagePlugins(ctx);
  return ctx.db.transaction(async (tx) => {
    const rows = await tx
      .update(plugins)
      .set({ status, ...(status === 'ready' && { lastError: null }), updatedAt: new Date() })
      .where(eq(plugins.id, pluginId))
      .returning();
    const [row] = rows;
    if (!row) throw notFound('plugin');
    if (status === 'disabled') await announcePluginStop(tx, pluginId, null);
    await syncJobSchedules(tx, pluginId);
    return row;
  });
}

/** The example packages shipped in the repository (plugins/examples/<name>/), each read and validated as an install would. */
export async function listExamples(ctx: Ctx): Promise<PluginExample[]> {
  await assertMayReadPlugins(ctx);
  const names = (await readdir(PLUGIN_EXAMPLES_DIR, { withFileTypes: true }).catch(() => []))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const examples: PluginExample[] = [];
  for (const name of names) {
    const dir = path.join(PLUGIN_EXAMPLES_DIR, name);
    const { manifest } = await readPluginPackage(dir, await readPackageJson(dir));
    examples.push({
      id: manifest.id,
      displayName: manifest.displayName,
      description: manifest.description,
      localPath: dir,
    });
  }
  return examples;
}
