// POST /skills/scan-projects (SPEC Skills): finds SKILL.md in each local project workspace's
// well-known skill folders and at its root, and stores what it finds as `project_scan` skills keyed
// `project/<workspaceId>/<slug>`. Non-destructive: workspace files are only read, a key held by any
// other source is reported as a conflict and left alone, and two skills of one workspace with the
// same slug keep the first (the order below) and report the second.
import { and, eq, inArray, isNotNull, isNull, or } from 'drizzle-orm';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { projectWorkspaces } from '../../db/schema/index.ts';
import { inTransaction, type Ctx } from '../../core/context.ts';
import { unprocessable } from '../../core/errors.ts';
import { recordActivity } from '../activity/record.ts';
import { readSkillFolder, type SkillPackage } from './package.ts';
import { storePackage, type Skill } from './service.ts';
import { assertMayManageSkills } from './policy.ts';

/**
 * Searched in this order inside each workspace: `skills/` and its `.curated`, `.experimental`,
 * `.system` subfolders (SPEC), then the agent-tool folders SPEC leaves unnamed (our choice: Claude
 * Code's and Codex's), each holding one folder per skill; then the workspace root itself.
 */
export const WELL_KNOWN_FOLDERS = [
  'skills',
  'skills/.curated',
  'skills/.experimental',
  'skills/.system',
  '.claude/skills',
  '.codex/skills',
] as const;
/** A scan stores at most this many skills per workspace (a folder of thousands is not a skill library). */
export const MAX_SCANNED_PER_WORKSPACE = 100;

export interface ScanEntry {
  workspaceId: string;
  path: string;
  key: string;
}

export interface ScanResult {
  imported: (ScanEntry & { skill: Skill })[];
  updated: (ScanEntry & { skill: Skill })[];
  skipped: ScanEntry[];
  conflicts: (ScanEntry & { reason: string })[];
  warnings: string[];
}

type Workspace = { id: string; projectId: string; cwd: string | null; name: string };

export async function scanProjects(
  ctx: Ctx,
  companyId: string,
  filter: { projectIds?: string[] | undefined; workspaceIds?: string[] | undefined },
): Promise<ScanResult> {
  await assertMayManageSkills(ctx, 'skill.scanProjects', companyId);
  const workspaces = await selectWorkspaces(ctx, companyId, filter);
  const warnings: string[] = [];
  const found: { workspace: Workspace; dir: string; pkg: SkillPackage }[] = [];
  // Reading the disk happens before the transaction; storing in one.
  for (const workspace of workspaces) {
    if (!workspace.cwd || !path.isAbsolute(workspace.cwd) || !(await isDir(workspace.cwd))) {
      warnings.push(`workspace ${workspace.name} (${workspace.id}): no local folder to scan`);
      continue;
    }
    const candidates: { dir: string; atRoot: boolean }[] = [];
    for (const rel of WELL_KNOWN_FOLDERS) {
      const base = path.join(workspace.cwd, rel);
      const entries = await readdir(base, { withFileTypes: true }).catch(() => []);
      for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
        if (e.isDirectory() && !e.name.startsWith('.'))
          candidates.push({ dir: path.join(base, e.name), atRoot: false });
      }
    }
    candidates.push({ dir: workspace.cwd, atRoot: true });
    let count = 0;
    for (const c of candidates) {
      if (!(await isFile(path.join(c.dir, 'SKILL.md')))) continue;
      if (++count > MAX_SCANNED_PER_WORKSPACE) {
        warnings.push(
          `workspace ${workspace.name}: more than ${MAX_SCANNED_PER_WORKSPACE} skills, the rest not scanned`,
        );
        break;
      }
      try {
        found.push({ workspace, dir: c.dir, pkg: await readSkillFolder(c.dir, { subfoldersOnly: c.atRoot }) });
      } catch (err) {
        warnings.push(`skipped ${c.dir}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }

  return inTransaction(ctx, async (tx) => {
    const result: ScanResult = { imported: [], updated: [], skipped: [], conflicts: [], warnings };
    const seen = new Set<string>();
    for (const { workspace, dir, pkg } of found) {
      const defaultKey = (slug: string) => `project/${workspace.id}/${slug}`;
      const entry = { workspaceId: workspace.id, path: dir, key: pkg.keyOverride ?? defaultKey(pkg.slug) };
      if (seen.has(entry.key)) {
        result.conflicts.push({ ...entry, reason: `another folder of this scan already gave ${entry.key}` });
        continue;
      }
      seen.add(entry.key);
      const outcome = await storePackage(tx, companyId, pkg, {
        sourceKind: 'project_scan',
        sourceLocator: dir,
        defaultKey,
        exclusive: true,
      });
      if (outcome.status === 'conflict') result.conflicts.push({ ...entry, reason: outcome.reason });
      else if (outcome.status === 'created') result.imported.push({ ...entry, skill: outcome.skill });
      else if (outcome.status === 'updated') result.updated.push({ ...entry, skill: outcome.skill });
      else result.skipped.push(entry);
    }
    if (result.imported.length + result.updated.length > 0) {
      await recordActivity(tx, ctx.actor, {
        companyId,
        action: 'company.skills_imported',
        entityType: 'company',
        entityId: companyId,
        details: {
          source: { kind: 'project_scan', workspaceIds: workspaces.map((w) => w.id) },
          skills: [
            ...result.imported.map((i) => ({ key: i.key, status: 'created' })),
            ...result.updated.map((i) => ({ key: i.key, status: 'updated' })),
          ],
          conflicts: result.conflicts.map((c) => c.key),
        },
      });
    }
    return result;
  });
}

/** The company's local workspaces, narrowed by the filter; ids outside the company are a 422. */
async function selectWorkspaces(
  ctx: Ctx,
  companyId: string,
  filter: { projectIds?: string[] | undefined; workspaceIds?: string[] | undefined },
): Promise<Workspace[]> {
  const projectIds = filter.projectIds ?? [];
  const workspaceIds = filter.workspaceIds ?? [];
  const narrowed = projectIds.length + workspaceIds.length > 0;
  const rows = await ctx.db
    .select({
      id: projectWorkspaces.id,
      projectId: projectWorkspaces.projectId,
      cwd: projectWorkspaces.cwd,
      name: projectWorkspaces.name,
    })
    .from(projectWorkspaces)
    .where(
      and(
        eq(projectWorkspaces.companyId, companyId),
        isNull(projectWorkspaces.closedAt),
        isNotNull(projectWorkspaces.cwd),
        narrowed
          ? or(
              ...(projectIds.length ? [inArray(projectWorkspaces.projectId, projectIds)] : []),
              ...(workspaceIds.length ? [inArray(projectWorkspaces.id, workspaceIds)] : []),
            )
          : undefined,
      ),
    )
    .orderBy(projectWorkspaces.createdAt, projectWorkspaces.id)
    .limit(500);
  const missingProjects = projectIds.filter((id) => !rows.some((w) => w.projectId === id));
  const missingWorkspaces = workspaceIds.filter((id) => !rows.some((w) => w.id === id));
  if (missingProjects.length || missingWorkspaces.length) {
    throw unprocessable('projects or workspaces not found in this company (or without a local folder)', {
      projectIds: missingProjects,
      workspaceIds: missingWorkspaces,
    });
  }
  return rows;
}

const isDir = (p: string) =>
  stat(p).then(
    (s) => s.isDirectory(),
    () => false,
  );
const isFile = (p: string) =>
  stat(p).then(
    (s) => s.isFile(),
    () => false,
  );
