// A plugin's local folders (SPEC "Plugins": the local-folders routes). A plugin may declare folders
// it reads (`localFolders[]`, capability `folders.read`); none is mounted until the instance owner
// picks a server path for it, per company. Picking a path exposes the server's disk, so it is the
// instance owner's alone (as importing from a server path is), and a path is refused when it is not
// an existing readable directory, when it is the filesystem root or a system folder, or when it holds
// or sits inside the data directory (keys, the database, other plugins' files). The company's worker
// then sees the folder read-only: under bubblewrap at /folders/<key>, elsewhere at its own path (a
// weaker sandbox reads what its user may read anyway). A change restarts that company's workers on
// every replica (change.ts), so the next call runs with the new mount.
import { constants } from 'node:fs';
import { access, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { Company } from '../../core/access.ts';
import type { Ctx } from '../../core/context.ts';
import { notFound, unprocessable } from '../../core/errors.ts';
import { assertMay } from '../../core/permissions.ts';
import type { DbOrTx } from '../../db/client.ts';
import { pluginLocalFolders } from '../../db/schema/index.ts';
import { recordActivity } from '../activity/record.ts';
import { announcePluginStop } from './change.ts';
import { pluginCompanyFor } from './policy.ts';
import type { PluginRow } from './present.ts';
import { getPlugin, manifestOf } from './service.ts';

/** System folders never mounted, nor anything inside them. */
const SYSTEM_DIRS = ['/proc', '/sys', '/dev', '/boot', '/etc', '/root', '/run', '/var/run', '/var/lib/postgresql'];

export interface LocalFolder {
  key: string;
  description: string;
  /** The mounted server path, or null when the instance owner has not picked one. */
  path: string | null;
}

export interface FolderCheck {
  /** The path as it would be mounted: absolute, links resolved (null when it does not exist). */
  path: string | null;
  ok: boolean;
  /** Why it would be refused, in words (empty when ok). */
  problems: string[];
}

export interface FolderStatus extends LocalFolder {
  /** The mounted path as it is now (it may have been removed or made unreadable since). */
  check: FolderCheck | null;
}

interface FolderDeps {
  dataDir: string;
}

const inside = (child: string, parent: string) =>
  parent === path.sep || child === parent || child.startsWith(parent + path.sep);

/** Whether `candidate` may be mounted, and the resolved path it would be. */
export async function checkFolderPath(deps: FolderDeps, candidate: string): Promise<FolderCheck> {
  if (!path.isAbsolute(candidate) || candidate.includes('\0'))
    return { path: null, ok: false, problems: ['the path must be absolute'] };
  const resolved = await realpath(candidate).catch(() => null);
  if (!resolved) return { path: null, ok: false, problems: ['no such folder on the server'] };
  const problems: string[] = [];
  const info = await stat(resolved);
  if (!info.isDirectory()) problems.push('not a folder');
  else if (
    !(await access(resolved, constants.R_OK | constants.X_OK).then(
      () => true,
      () => false,
    ))
  )
    problems.push('the server cannot read it');
  if (resolved === path.sep) problems.push('the filesystem root is never mounted');
  const system = SYSTEM_DIRS.find((dir) => inside(resolved, dir));
  if (system) problems.push(`${system} is a system folder, never mounted`);
  const dataDir = await realpath(deps.dataDir).catch(() => path.resolve(deps.dataDir));
  if (inside(resolved, dataDir) || inside(dataDir, resolved))
    problems.push("it holds or is inside the server's data directory (keys, database, plugin files)");
  return { path: resolved, ok: problems.length === 0, problems };
}

/** The folders the plugin declares, with the path mounted for the company (board of the company). */
export async function listLocalFolders(ctx: Ctx, pluginId: string, companyId: string): Promise<LocalFolder[]> {
  const company = await pluginCompanyFor(ctx, 'plugin.readCompany', companyId);
  const declared = declaredFolders(await getPlugin(ctx, pluginId));
  const mounted = await mountedFolders(ctx.db, pluginId, company.id);
  return declared.map((folder) => ({ ...folder, path: mounted.get(folder.key) ?? null }));
}

export async function localFolderStatus(
  ctx: Ctx,
  deps: FolderDeps,
  pluginId: string,
  companyId: string,
  folderKey: string,
): Promise<FolderStatus> {
  const folder = (await listLocalFolders(ctx, pluginId, companyId)).find((f) => f.key === folderKey);
  if (!folder) throw notFound('local folder');
  return { ...folder, check: folder.path ? await checkFolderPath(deps, folder.path) : null };
}

/** What a PUT of `candidate` would do, without doing it (instance owner). */
export async function validateLocalFolder(
  ctx: Ctx,
  deps: FolderDeps,
  pluginId: string,
  companyId: string,
  folderKey: string,
  candidate: string,
): Promise<FolderCheck> {
  await declaredFolder(ctx, pluginId, companyId, folderKey);
  return checkFolderPath(deps, candidate);
}

/** Mounts `candidate` for the company's workers (null unmounts); 422 with the problems when refused. */
export async function putLocalFolder(
  ctx: Ctx,
  deps: FolderDeps,
  pluginId: string,
  companyId: string,
  folderKey: string,
  candidate: string | null,
): Promise<LocalFolder> {
  const { company, folder } = await declaredFolder(ctx, pluginId, companyId, folderKey);
  let mounted: string | null = null;
  if (candidate !== null) {
    const check = await checkFolderPath(deps, candidate);
    if (!check.ok || !check.path)
      throw unprocessable(`the folder cannot be mounted: ${check.problems.join('; ')}`, {
        field: 'path',
        problems: check.problems,
      });
    mounted = check.path;
  }
  await ctx.db.transaction(async (tx) => {
    const where = and(
      eq(pluginLocalFolders.pluginId, pluginId),
      eq(pluginLocalFolders.companyId, company.id),
      eq(pluginLocalFolders.folderKey, folderKey),
    );
    if (mounted === null) await tx.delete(pluginLocalFolders).where(where);
    else {
      const values = {
        path: mounted,
        updatedByUserId: ctx.actor.kind === 'board' ? ctx.actor.userId : null,
        updatedAt: new Date(),
      };
      await tx
        .insert(pluginLocalFolders)
        .values({ pluginId, companyId: company.id, folderKey, ...values })
        .onConflictDoUpdate({
          target: [pluginLocalFolders.pluginId, pluginLocalFolders.companyId, pluginLocalFolders.folderKey],
          set: values,
        });
    }
    await recordActivity(tx, ctx.actor, {
      companyId: company.id,
      action: mounted === null ? 'plugin.folder_unmounted' : 'plugin.folder_mounted',
      entityType: 'plugin',
      entityId: pluginId,
      details: { folderKey, path: mounted },
    });
    // Running workers were started with the old mounts: restarted on every replica.
    await announcePluginStop(tx, pluginId, company.id);
  });
  return { ...folder, path: mounted };
}

/** key → path of the folders mounted for the plugin in the company: what a worker starts with. */
export async function mountedFolders(db: DbOrTx, pluginId: string, companyId: string): Promise<Map<string, string>> {
  const rows = await db
    .select({ key: pluginLocalFolders.folderKey, path: pluginLocalFolders.path })
    .from(pluginLocalFolders)
    .where(and(eq(pluginLocalFolders.pluginId, pluginId), eq(pluginLocalFolders.companyId, companyId)));
  return new Map(rows.map((row) => [row.key, row.path]));
}

/** A manifest stored before `localFolders` existed has none. */
const declaredFolders = (plugin: PluginRow) => manifestOf(plugin).localFolders ?? [];

/** The instance owner's check, the company and the declared folder: 403, then 404 for each. */
async function declaredFolder(
  ctx: Ctx,
  pluginId: string,
  companyId: string,
  folderKey: string,
): Promise<{ company: Company; folder: { key: string; description: string } }> {
  await assertMay(ctx, 'plugin.mountFolder', {});
  const company = await pluginCompanyFor(ctx, 'plugin.readCompany', companyId);
  const folder = declaredFolders(await getPlugin(ctx, pluginId)).find((f) => f.key === folderKey);
  if (!folder) throw notFound('local folder');
  return { company, folder };
}
