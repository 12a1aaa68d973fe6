// What project responses show. A full project embeds its goals and workspaces, loaded here in two
// queries for any number of projects.
import { asc, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { projectWorkspaces, type projects, type workspaceOperations } from '../../db/schema/index.ts';
import { presentGoalSummary } from '../goals/present.ts';
import { goalSummariesOf } from './goal-links.ts';

export type Project = typeof projects.$inferSelect;
export type Workspace = typeof projectWorkspaces.$inferSelect;
export type WorkspaceOperation = typeof workspaceOperations.$inferSelect;
export type GoalSummary = Parameters<typeof presentGoalSummary>[0];

export function presentWorkspace(ws: Workspace) {
  return {
    id: ws.id,
    companyId: ws.companyId,
    projectId: ws.projectId,
    name: ws.name,
    sourceType: ws.sourceType,
    cwd: ws.cwd,
    repoUrl: ws.repoUrl,
    repoRef: ws.repoRef,
    defaultRef: ws.defaultRef,
    visibility: ws.visibility,
    isPrimary: ws.isPrimary,
    setupCommand: ws.setupCommand,
    cleanupCommand: ws.cleanupCommand,
    remoteProvider: ws.remoteProvider,
    remoteWorkspaceRef: ws.remoteWorkspaceRef,
    sharedWorkspaceKey: ws.sharedWorkspaceKey,
    metadata: ws.metadata,
    runtimeConfig: ws.runtimeConfig,
    desiredState: ws.desiredState,
    closedAt: ws.closedAt,
    createdAt: ws.createdAt,
    updatedAt: ws.updatedAt,
  };
}

export function presentOperation(op: WorkspaceOperation) {
  return {
    id: op.id,
    companyId: op.companyId,
    workspaceId: op.workspaceId,
    action: op.action,
    desiredState: op.desiredState,
    status: op.status,
    actorType: op.actorType,
    actorId: op.actorId,
    createdAt: op.createdAt,
  };
}

/** The compact form other resources embed (issue detail, mentions, routines). */
export function presentProjectSummary(project: Project) {
  return {
    id: project.id,
    companyId: project.companyId,
    name: project.name,
    urlKey: project.urlKey,
    status: project.status,
    color: project.color,
    goalId: project.goalId,
    leadAgentId: project.leadAgentId,
    targetDate: project.targetDate,
    archivedAt: project.archivedAt,
    pausedAt: project.pausedAt,
  };
}

/**
 * `codebase` is where the project's code lives, as agents see it: the primary workspace's
 * location (the working directory for project-scoped tasks), or null without workspaces.
 */
function codebaseOf(primary: Workspace | null) {
  if (!primary) return null;
  return { workspaceId: primary.id, sourceType: primary.sourceType, cwd: primary.cwd, repoUrl: primary.repoUrl, repoRef: primary.repoRef, defaultRef: primary.defaultRef };
}

export function presentProject(project: Project, goals: GoalSummary[], workspaces: Workspace[]) {
  const primary = workspaces.find((w) => w.isPrimary) ?? null;
  return {
    ...presentProjectSummary(project),
    description: project.description,
    goalIds: goals.map((g) => g.id),
    goals: goals.map(presentGoalSummary),
    env: project.env,
    executionWorkspacePolicy: project.executionWorkspacePolicy,
    pauseReason: project.pauseReason,
    codebase: codebaseOf(primary),
    workspaces: workspaces.map(presentWorkspace),
    primaryWorkspace: primary ? presentWorkspace(primary) : null,
    createdAt: project.createdAt,
    updatedAt: project.updatedAt,
  };
}

/** Full project responses for many projects: goals and workspaces in two queries, not per project. */
export async function presentProjects(db: DbOrTx, list: Project[]) {
  const ids = list.map((p) => p.id);
  const [goalRows, workspaceRows] = await Promise.all([
    goalSummariesOf(db, ids),
    ids.length === 0 ? Promise.resolve([] as Workspace[]) : db.select().from(projectWorkspaces).where(inArray(projectWorkspaces.projectId, ids)).orderBy(asc(projectWorkspaces.createdAt), asc(projectWorkspaces.id)),
  ]);
  const goalsBy = new Map<string, GoalSummary[]>();
  for (const g of goalRows) goalsBy.set(g.projectId, [...(goalsBy.get(g.projectId) ?? []), g]);
  const workspacesBy = new Map<string, Workspace[]>();
  for (const w of workspaceRows) workspacesBy.set(w.projectId, [...(workspacesBy.get(w.projectId) ?? []), w]);
  return list.map((p) => presentProject(p, goalsBy.get(p.id) ?? [], workspacesBy.get(p.id) ?? []));
}

export async function presentOneProject(db: DbOrTx, project: Project) {
  return (await presentProjects(db, [project]))[0]!;
}
