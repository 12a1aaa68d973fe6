// What project responses show. A full project embeds its goals and workspaces, loaded here in two
// queries for any number of projects. The response schemas below document each shape and type
// its presenter (the route's serializer applies them).
import { asc, inArray } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '../../db/client.ts';
import { projectWorkspaces, workspaceRuntimeServices, type workspaceOperations } from '../../db/schema/index.ts';
import type { Project } from '../../db/rows.ts';
import { timestampOut, uuidOut } from '../../http/openapi.ts';
import { presentGoalSummary } from '../goals/present.ts';
import { goalLevel, goalStatus } from '../goals/schemas.ts';
import { goalSummariesOf } from '../goals/project-goals.ts';
import { projectStatus, runtimeAction, workspaceSourceType } from './schemas.ts';

export type Workspace = typeof projectWorkspaces.$inferSelect;
export type WorkspaceOperation = typeof workspaceOperations.$inferSelect;
export type GoalSummary = Parameters<typeof presentGoalSummary>[0];

const text = () => z.string().nullable();
const jsonObject = () => z.record(z.string(), z.unknown()).nullable();
const desiredState = z.enum(['running', 'stopped']);

/** The live state columns of a runtime service (never its log: that has its own route). */
const serviceState = {
  status: workspaceRuntimeServices.status,
  pid: workspaceRuntimeServices.pid,
  startedAt: workspaceRuntimeServices.startedAt,
  exitCode: workspaceRuntimeServices.exitCode,
  restarts: workspaceRuntimeServices.restarts,
  lastError: workspaceRuntimeServices.lastError,
  updatedAt: workspaceRuntimeServices.updatedAt,
};
export interface RuntimeServiceState {
  status: string;
  pid: number | null;
  startedAt: Date | null;
  exitCode: number | null;
  restarts: number;
  lastError: string | null;
  updatedAt: Date;
}
/** A workspace row, with the live state of its runtime service where it was loaded. */
export type WorkspaceView = Workspace & { runtimeService?: RuntimeServiceState | null };

async function runtimeServicesOf(db: DbOrTx, workspaceIds: string[]) {
  const rows =
    workspaceIds.length === 0
      ? []
      : await db
          .select({ workspaceId: workspaceRuntimeServices.workspaceId, ...serviceState })
          .from(workspaceRuntimeServices)
          .where(inArray(workspaceRuntimeServices.workspaceId, workspaceIds));
  return new Map(rows.map((r) => [r.workspaceId, r]));
}

/** Attaches the runtime-service state to each workspace (one query). */
export async function withRuntimeServices(db: DbOrTx, list: Workspace[]): Promise<WorkspaceView[]> {
  const services = await runtimeServicesOf(
    db,
    list.map((w) => w.id),
  );
  // A workspace nothing ever started has no service row.
  return list.map((ws) => ({ ...ws, runtimeService: services.get(ws.id) ?? null }));
}

export async function withRuntimeService(db: DbOrTx, ws: Workspace): Promise<WorkspaceView> {
  return { ...ws, runtimeService: (await runtimeServicesOf(db, [ws.id])).get(ws.id) ?? null };
}

const runtimeServiceResponse = z
  .object({
    desiredState: desiredState.nullable().describe("the workspace's desiredState"),
    status: z
      .enum(['starting', 'running', 'stopped', 'crashed', 'backoff'])
      .describe(
        '`backoff`: crashed, waiting to be started again; `crashed`: the replica supervising it stopped, another start follows',
      ),
    pid: z.number().int().nullable().describe('the process (group leader) while it runs'),
    startedAt: timestampOut().nullable().describe('when the current or last process started'),
    exitCode: z.number().int().nullable().describe('the exit code of the last crash'),
    restarts: z.number().int().describe('restarts after crashes so far'),
    lastError: text().describe('why the last process ended'),
    updatedAt: timestampOut(),
  })
  .describe('the live state of the runtime service; null before the engine first started it');

/** A project workspace (SPEC section 2, Project workspace). */
export const workspaceResponse = z
  .object({
    id: uuidOut(),
    companyId: uuidOut(),
    projectId: uuidOut(),
    name: z.string(),
    sourceType: workspaceSourceType,
    cwd: text().describe('local directory'),
    repoUrl: text().describe('repository address'),
    repoRef: text(),
    defaultRef: text(),
    visibility: text(),
    isPrimary: z.boolean().describe("the one workspace agents use as working directory for the project's tasks"),
    setupCommand: text(),
    cleanupCommand: text(),
    remoteProvider: text(),
    remoteWorkspaceRef: text(),
    sharedWorkspaceKey: text(),
    metadata: jsonObject(),
    runtimeConfig: jsonObject().describe(
      'runtime-service configuration `{ command, env? }`; start and restart need a command',
    ),
    desiredState: desiredState.nullable().describe('what the last runtime-service action asked for; null before any'),
    runtimeService: runtimeServiceResponse.nullable(),
    closedAt: timestampOut()
      .nullable()
      .describe('set when an isolated execution workspace was closed; checkout into it is refused'),
    createdAt: timestampOut(),
    updatedAt: timestampOut(),
  })
  .describe('The workspace');

export type WorkspaceResponse = z.output<typeof workspaceResponse>;

export function presentWorkspace(ws: WorkspaceView): WorkspaceResponse {
  const service = ws.runtimeService ?? null;
  return {
    id: ws.id,
    companyId: ws.companyId,
    projectId: ws.projectId,
    name: ws.name,
    sourceType: ws.sourceType as WorkspaceResponse['sourceType'],
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
    desiredState: ws.desiredState as WorkspaceResponse['desiredState'],
    runtimeService: service && {
      ...service,
      desiredState: ws.desiredState as WorkspaceResponse['desiredState'],
      status: service.status as NonNullable<WorkspaceResponse['runtimeService']>['status'],
    },
    closedAt: ws.closedAt,
    createdAt: ws.createdAt,
    updatedAt: ws.updatedAt,
  };
}

/** A runtime-service action as recorded for the engine (which supervises the process). */
export const workspaceOperationResponse = z
  .object({
    id: uuidOut(),
    companyId: uuidOut(),
    workspaceId: uuidOut(),
    action: runtimeAction,
    desiredState,
    status: z.string().describe('`requested` until the engine acts on it'),
    actorType: z.enum(['user', 'agent', 'system']),
    actorId: z.string().describe('board user id, agent id, or the name of a system component'),
    createdAt: timestampOut(),
  })
  .describe('The recorded runtime-service operation');

export type WorkspaceOperationResponse = z.output<typeof workspaceOperationResponse>;

export function presentOperation(op: WorkspaceOperation): WorkspaceOperationResponse {
  return {
    id: op.id,
    companyId: op.companyId,
    workspaceId: op.workspaceId,
    action: op.action as WorkspaceOperationResponse['action'],
    desiredState: op.desiredState as WorkspaceOperationResponse['desiredState'],
    status: op.status,
    actorType: op.actorType as WorkspaceOperationResponse['actorType'],
    actorId: op.actorId,
    createdAt: op.createdAt,
  };
}

/** The compact form other resources embed (issue detail, mentions, routines). */
export const projectSummaryResponse = z
  .object({
    id: uuidOut(),
    companyId: uuidOut(),
    name: z.string(),
    urlKey: z.string().describe('the project shortname, unique in the company; usable in place of the id'),
    status: projectStatus,
    color: z.string().describe('hex colour (`#rgb` or `#rrggbb`), from a palette unless given'),
    goalId: uuidOut().nullable().describe('legacy single goal: the first linked goal'),
    leadAgentId: uuidOut().nullable(),
    targetDate: text().describe('ISO date or date-time, as given'),
    archivedAt: timestampOut().nullable(),
    pausedAt: timestampOut().nullable().describe('set by a budget hard stop; a paused project refuses checkouts'),
  })
  .describe('A project in brief');

export type ProjectSummaryResponse = z.output<typeof projectSummaryResponse>;

export function presentProjectSummary(project: Project): ProjectSummaryResponse {
  return {
    id: project.id,
    companyId: project.companyId,
    name: project.name,
    urlKey: project.urlKey,
    status: project.status as ProjectSummaryResponse['status'],
    color: project.color,
    goalId: project.goalId,
    leadAgentId: project.leadAgentId,
    targetDate: project.targetDate,
    archivedAt: project.archivedAt,
    pausedAt: project.pausedAt,
  };
}

const projectGoalResponse = z
  .object({ id: uuidOut(), title: z.string(), level: goalLevel, status: goalStatus })
  .describe('A linked goal in brief');

/**
 * `codebase` is where the project's code lives, as agents see it: the primary workspace's
 * location (the working directory for project-scoped tasks), or null without workspaces.
 */
const codebaseResponse = z
  .object({
    workspaceId: uuidOut(),
    sourceType: workspaceSourceType,
    cwd: text(),
    repoUrl: text(),
    repoRef: text(),
    defaultRef: text(),
  })
  .describe("where the project's code lives: the primary workspace's location; null without workspaces");

function codebaseOf(primary: Workspace | null): z.output<typeof codebaseResponse> | null {
  if (!primary) return null;
  const ws = presentWorkspace(primary);
  return {
    workspaceId: ws.id,
    sourceType: ws.sourceType,
    cwd: ws.cwd,
    repoUrl: ws.repoUrl,
    repoRef: ws.repoRef,
    defaultRef: ws.defaultRef,
  };
}

/** A project (SPEC section 2, Project) with its goals and workspaces, as every project route returns it. */
export const projectResponse = projectSummaryResponse
  .extend({
    description: text(),
    goalIds: z.array(uuidOut()).describe('linked goals, in order (at most 50)'),
    goals: z.array(projectGoalResponse).describe('the linked goals in brief, in the order of goalIds'),
    env: jsonObject().describe(
      'environment bindings: NAME to a plain string, `{ "type": "plain", "value" }` or a secret reference `{ "type": "secret_ref", "secretId", "version" }`',
    ),
    executionWorkspacePolicy: jsonObject().describe(
      'advanced runtime policy, free-form; `{ "mode": "isolated" }` gives each issue its own git worktree',
    ),
    pauseReason: text().describe('why a budget hard stop paused the project'),
    codebase: codebaseResponse.nullable(),
    workspaces: z.array(workspaceResponse).describe('every workspace, oldest first (at most 20)'),
    primaryWorkspace: workspaceResponse.nullable().describe('the primary workspace; null without workspaces'),
    createdAt: timestampOut(),
    updatedAt: timestampOut(),
  })
  .describe('The project');

export type ProjectResponse = z.output<typeof projectResponse>;

export function presentProject(project: Project, goals: GoalSummary[], workspaces: WorkspaceView[]): ProjectResponse {
  const primary = workspaces.find((w) => w.isPrimary) ?? null;
  return {
    ...presentProjectSummary(project),
    description: project.description,
    goalIds: goals.map((g) => g.id),
    goals: goals.map((g) => {
      const brief = presentGoalSummary(g);
      return {
        ...brief,
        level: brief.level as z.output<typeof goalLevel>,
        status: brief.status as z.output<typeof goalStatus>,
      };
    }),
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
export async function presentProjects(db: DbOrTx, list: Project[]): Promise<ProjectResponse[]> {
  return list.map(
    await projectPresenter(
      db,
      list.map((p) => p.id),
    ),
  );
}

export async function presentOneProject(db: DbOrTx, project: Project): Promise<ProjectResponse> {
  return (await projectPresenter(db, [project.id]))(project);
}

/** The presenter of the projects `ids`, with their goals and workspaces read in two queries. */
async function projectPresenter(db: DbOrTx, ids: string[]): Promise<(project: Project) => ProjectResponse> {
  const [goalRows, workspaceRows] = await Promise.all([
    goalSummariesOf(db, ids),
    ids.length === 0
      ? Promise.resolve([] as Workspace[])
      : db
          .select()
          .from(projectWorkspaces)
          .where(inArray(projectWorkspaces.projectId, ids))
          .orderBy(asc(projectWorkspaces.createdAt), asc(projectWorkspaces.id))
          .then((rows) => withRuntimeServices(db, rows)),
  ]);
  const goalsBy = new Map<string, GoalSummary[]>();
  for (const g of goalRows) goalsBy.set(g.projectId, [...(goalsBy.get(g.projectId) ?? []), g]);
  const workspacesBy = new Map<string, WorkspaceView[]>();
  for (const w of workspaceRows) workspacesBy.set(w.projectId, [...(workspacesBy.get(w.projectId) ?? []), w]);
  return (p) => presentProject(p, goalsBy.get(p.id) ?? [], workspacesBy.get(p.id) ?? []);
}
