// Project workspace use cases. Every mutation locks the project row first, so workspace changes
// of one project are serialised and the one-primary invariant holds under concurrency (the
// partial unique index project_workspaces_primary_uq is the last line of defence).
import { and, asc, count, eq, ne, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { projects, projectWorkspaces, workspaceOperations, workspaceRuntimeServices } from '../../db/schema/index.ts';
import { actorStamp, type Actor } from '../../core/actor.ts';
import { notFound, unprocessable } from '../../core/errors.ts';
import { recordActivity } from '../activity/record.ts';
import type { Ctx } from '../../core/context.ts';
import { type Project, oneRow } from '../../db/rows.ts';
import type { Workspace, WorkspaceOperation } from './present.ts';
import type { RuntimeAction, WorkspaceInput } from './schemas.ts';
import { assertMayChangeProjects } from './policy.ts';

const DESIRED_STATE: Record<RuntimeAction, 'running' | 'stopped'> = {
  start: 'running',
  restart: 'running',
  stop: 'stopped',
};
/** Workspaces per project: every project response embeds them all, so the count bounds its size. */
export const MAX_WORKSPACES_PER_PROJECT = 20;
/** The runtime-service log tail kept per workspace (characters). */
export const LOG_TAIL_CHARS = 1024 * 1024;

type WorkspaceFields = Omit<WorkspaceInput, 'isPrimary' | 'name'> & {
  name: string;
  sourceType: NonNullable<WorkspaceInput['sourceType']>;
};

/**
 * SPEC workspace rules, checked on what would be stored (create input or PATCH merged with the row).
 * A remote_managed workspace has its own rule, remoteWorkspaceRef or repoUrl, in place of the general
 * "cwd or repoUrl": it lives on a remote provider, so a local cwd is neither needed nor enough.
 */
function assertWorkspaceRules(
  ws: Pick<WorkspaceFields, 'cwd' | 'repoUrl' | 'sourceType' | 'remoteWorkspaceRef'>,
): void {
  if (ws.sourceType === 'remote_managed') {
    if (!ws.remoteWorkspaceRef && !ws.repoUrl)
      throw unprocessable('a remote_managed workspace needs remoteWorkspaceRef or repoUrl');
    return;
  }
  if (!ws.cwd && !ws.repoUrl) throw unprocessable('a workspace needs at least one of cwd or repoUrl');
}

function defaultName(input: WorkspaceInput): string {
  const from = input.cwd ?? input.repoUrl ?? input.remoteWorkspaceRef ?? '';
  const last = from
    .replace(/[/\\]+$/, '')
    .split(/[/\\:]/)
    .pop()
    ?.replace(/\.git$/, '');
  return last || 'Workspace';
}

function withDefaults(input: WorkspaceInput): WorkspaceFields {
  const { isPrimary: _ignored, ...fields } = input;
  // A repository without a local directory is a git_repo; everything else starts as a local path.
  return {
    ...fields,
    name: input.name ?? defaultName(input),
    sourceType: input.sourceType ?? (input.repoUrl && !input.cwd ? 'git_repo' : 'local_path'),
  };
}

async function lockProject(tx: Tx, projectId: string): Promise<void> {
  const [row] = await tx.select({ id: projects.id }).from(projects).where(eq(projects.id, projectId)).for('update');
  if (!row) throw notFound('project');
}

async function loadWorkspace(tx: DbOrTx, project: Project, workspaceId: string): Promise<Workspace> {
  const [ws] = await tx
    .select()
    .from(projectWorkspaces)
    .where(and(eq(projectWorkspaces.id, workspaceId), eq(projectWorkspaces.projectId, project.id)));
  if (!ws) throw notFound('workspace');
  return ws;
}

async function demoteOthers(tx: DbOrTx, projectId: string, keepId: string | null): Promise<void> {
  await tx
    .update(projectWorkspaces)
    .set({ isPrimary: false, updatedAt: sql`now()` })
    .where(
      and(
        eq(projectWorkspaces.projectId, projectId),
        eq(projectWorkspaces.isPrimary, true),
        keepId ? ne(projectWorkspaces.id, keepId) : undefined,
      ),
    );
}

/** Makes the oldest workspace other than `exceptId` primary; returns it, or null when there is none. */
async function promoteOldest(tx: DbOrTx, projectId: string, exceptId: string): Promise<Workspace | null> {
  const [next] = await tx
    .select({ id: projectWorkspaces.id })
    .from(projectWorkspaces)
    .where(and(eq(projectWorkspaces.projectId, projectId), ne(projectWorkspaces.id, exceptId)))
    .orderBy(asc(projectWorkspaces.createdAt), asc(projectWorkspaces.id))
    .limit(1);
  if (!next) return null;
  return oneRow(
    await tx
      .update(projectWorkspaces)
      .set({ isPrimary: true, updatedAt: sql`now()` })
      .where(eq(projectWorkspaces.id, next.id))
      .returning(),
    'workspace of the locked project',
  );
}

export async function listWorkspaces(db: DbOrTx, projectId: string): Promise<Workspace[]> {
  return db
    .select()
    .from(projectWorkspaces)
    .where(eq(projectWorkspaces.projectId, projectId))
    .orderBy(asc(projectWorkspaces.createdAt), asc(projectWorkspaces.id))
    .limit(MAX_WORKSPACES_PER_PROJECT);
}

/**
 * Inserts a workspace inside the caller's transaction (project create or workspace create), which
 * must hold the project lock or have created the project. The first workspace is always primary.
 */
export async function insertWorkspace(
  tx: DbOrTx,
  actor: Actor,
  project: Project,
  input: WorkspaceInput,
): Promise<Workspace> {
  const fields = withDefaults(input);
  assertWorkspaceRules(fields);
  const [{ n } = { n: 0 }] = await tx
    .select({ n: count() })
    .from(projectWorkspaces)
    .where(eq(projectWorkspaces.projectId, project.id));
  if (n >= MAX_WORKSPACES_PER_PROJECT)
    throw unprocessable(`a project holds at most ${MAX_WORKSPACES_PER_PROJECT} workspaces`);
  const existing = n > 0;
  const isPrimary = !existing || input.isPrimary === true;
  if (isPrimary && existing) await demoteOthers(tx, project.id, null);
  const ws = oneRow(
    await tx
      .insert(projectWorkspaces)
      .values({ ...fields, companyId: project.companyId, projectId: project.id, isPrimary })
      .returning(),
    'workspace',
  );
  await recordActivity(tx, actor, {
    companyId: project.companyId,
    action: 'project.workspace_created',
    entityType: 'project_workspace',
    entityId: ws.id,
    details: { projectId: project.id, name: ws.name, isPrimary },
  });
  return ws;
}

export async function createWorkspace(ctx: Ctx, project: Project, input: WorkspaceInput): Promise<Workspace> {
  await assertMayChangeProjects(ctx, 'project.createWorkspace', project.companyId);
  return ctx.db.transaction(async (tx) => {
    await lockProject(tx, project.id);
    return insertWorkspace(tx, ctx.actor, project, input);
  });
}

export async function updateWorkspace(
  ctx: Ctx,
  project: Project,
  workspaceId: string,
  patch: WorkspaceInput,
): Promise<Workspace> {
  await assertMayChangeProjects(ctx, 'project.updateWorkspace', project.companyId);
  return ctx.db.transaction(async (tx) => {
    await lockProject(tx, project.id);
    const current = await loadWorkspace(tx, project, workspaceId);
    const { isPrimary, ...changes } = patch;
    const defined = Object.fromEntries(
      Object.entries(changes).filter(([, v]) => v !== undefined),
    ) as Partial<WorkspaceFields>;
    assertWorkspaceRules({ ...current, ...defined } as WorkspaceFields);
    // The partial unique index allows one primary at a time: demote before promoting.
    if (isPrimary === true && !current.isPrimary) await demoteOthers(tx, project.id, current.id);
    const demoting = isPrimary === false && current.isPrimary;
    const updated = oneRow(
      await tx
        .update(projectWorkspaces)
        .set({ ...defined, ...(isPrimary !== undefined && { isPrimary }), updatedAt: sql`now()` })
        .where(eq(projectWorkspaces.id, current.id))
        .returning(),
      'workspace of the locked project',
    );
    if (demoting && !(await promoteOldest(tx, project.id, current.id))) {
      throw unprocessable('the only workspace of a project stays primary');
    }
    await recordActivity(tx, ctx.actor, {
      companyId: project.companyId,
      action: 'project.workspace_updated',
      entityType: 'project_workspace',
      entityId: current.id,
      details: { projectId: project.id, changes: patch },
    });
    return updated;
  });
}

/** Deletes the workspace; when it was primary, the oldest remaining workspace becomes primary. */
export async function deleteWorkspace(ctx: Ctx, project: Project, workspaceId: string): Promise<Workspace> {
  await assertMayChangeProjects(ctx, 'project.deleteWorkspace', project.companyId);
  return ctx.db.transaction(async (tx) => {
    await lockProject(tx, project.id);
    const current = await loadWorkspace(tx, project, workspaceId);
    await tx.delete(projectWorkspaces).where(eq(projectWorkspaces.id, current.id));
    const promoted = current.isPrimary ? await promoteOldest(tx, project.id, current.id) : null;
    await recordActivity(tx, ctx.actor, {
      companyId: project.companyId,
      action: 'project.workspace_deleted',
      entityType: 'project_workspace',
      entityId: current.id,
      details: { projectId: project.id, name: current.name, promotedWorkspaceId: promoted?.id ?? null },
    });
    return current;
  });
}

/** `runtimeConfig` as the engine's supervisor reads it: a shell command line and extra environment (docs/engine.md, "Workspace runtime services"). */
export interface RuntimeConfig {
  command: string;
  env: Record<string, string>;
}

export function parseRuntimeConfig(config: Record<string, unknown> | null): RuntimeConfig | null {
  if (!config || typeof config.command !== 'string' || config.command.trim() === '') return null;
  const env: Record<string, string> = {};
  if (config.env && typeof config.env === 'object' && !Array.isArray(config.env)) {
    for (const [k, v] of Object.entries(config.env))
      if (typeof v === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) env[k] = v;
  }
  return { command: config.command, env };
}

/** Start and restart need something to run: a local directory and a runtime command. */
function assertRunnable(ws: Workspace): void {
  const localCwd = Boolean(ws.cwd) && ws.sourceType !== 'remote_managed';
  const configured = parseRuntimeConfig(ws.runtimeConfig) !== null;
  if (!localCwd || !configured) {
    throw unprocessable('start and restart need a workspace with a local cwd and a runtimeConfig with a command', {
      hasLocalCwd: localCwd,
      hasRuntimeConfig: configured,
    });
  }
}

/**
 * Records the desired state and an operation row; the engine's supervisor (engine/runtime-services.ts)
 * converges on the desired state and applies the requested operations.
 */
export async function runWorkspaceAction(
  ctx: Ctx,
  project: Project,
  workspaceId: string,
  action: RuntimeAction,
): Promise<{ workspace: Workspace; operation: WorkspaceOperation }> {
  await assertMayChangeProjects(ctx, 'project.controlRuntimeServices', project.companyId);
  return ctx.db.transaction(async (tx) => {
    await lockProject(tx, project.id);
    const current = await loadWorkspace(tx, project, workspaceId);
    if (action !== 'stop') assertRunnable(current);
    const desiredState = DESIRED_STATE[action];
    const workspace = oneRow(
      await tx
        .update(projectWorkspaces)
        .set({ desiredState, updatedAt: sql`now()` })
        .where(eq(projectWorkspaces.id, current.id))
        .returning(),
      'workspace of the locked project',
    );
    const stamp = actorStamp(ctx.actor);
    const operation = oneRow(
      await tx
        .insert(workspaceOperations)
        .values({
          companyId: project.companyId,
          workspaceId: current.id,
          action,
          desiredState,
          actorType: stamp.actorType,
          actorId: stamp.actorId,
        })
        .returning(),
      'workspace operation',
    );
    await recordActivity(tx, ctx.actor, {
      companyId: project.companyId,
      action: `project.workspace_runtime_${action}`,
      entityType: 'project_workspace',
      entityId: current.id,
      details: { projectId: project.id, desiredState, operationId: operation.id },
    });
    return { workspace, operation };
  });
}

export interface RuntimeServiceLog {
  workspaceId: string;
  /** Where `content` starts (absolute, in characters of everything the service ever wrote). */
  offset: number;
  nextOffset: number;
  /** Characters written so far; only the last LOG_TAIL_CHARS of them are kept. */
  totalChars: number;
  /** The asked offset was older than the kept tail: content starts at the oldest kept character. */
  truncated: boolean;
  content: string;
}

/**
 * A slice of the runtime service's log tail: from the absolute character `offset`, or (`at: 'end'`)
 * the last `limit` characters written, so a reader of the newest output needs no second read to
 * learn the total. Empty before the service first ran.
 */
export async function readRuntimeServiceLog(
  db: DbOrTx,
  project: Project,
  workspaceId: string,
  from: { offset: number } | { at: 'end' },
  limit: number,
): Promise<RuntimeServiceLog> {
  const ws = await loadWorkspace(db, project, workspaceId);
  const t = workspaceRuntimeServices;
  const firstKept = sql`${t.logWritten} - length(${t.log})`;
  const asked = 'offset' in from ? sql`${from.offset}::bigint` : sql`greatest(${t.logWritten} - ${limit}, 0)`;
  const [row] = await db
    .select({
      total: t.logWritten,
      firstKept: firstKept.mapWith(Number),
      asked: asked.mapWith(Number),
      content: sql<string>`substr(${t.log}, least(greatest(${asked} - (${firstKept}), 0), length(${t.log}))::int + 1, ${limit})`,
    })
    .from(t)
    .where(eq(t.workspaceId, ws.id));
  const total = row?.total ?? 0;
  const askedOffset = row?.asked ?? ('offset' in from ? from.offset : 0);
  const start = Math.min(Math.max(askedOffset, row?.firstKept ?? 0), total);
  const content = row?.content ?? '';
  // Offsets count code points, as PostgreSQL's length() does (not UTF-16 units).
  return {
    workspaceId: ws.id,
    offset: start,
    nextOffset: start + [...content].length,
    totalChars: total,
    truncated: askedOffset < (row?.firstKept ?? 0),
    content,
  };
}
