// Goals, projects and project workspaces.
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { agents } from './agents.ts';
import { createdAt, id, ts, updatedAt } from './columns.ts';
import { companies } from './companies.ts';

export const goals = pgTable(
  'goals',
  {
    id: id(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description'),
    level: text('level').notNull().default('task'), // company | team | agent | task
    status: text('status').notNull().default('planned'), // planned | active | achieved | cancelled
    parentId: uuid('parent_id').references((): AnyPgColumn => goals.id, { onDelete: 'set null' }),
    ownerAgentId: uuid('owner_agent_id').references(() => agents.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('goals_company_idx').on(t.companyId, t.createdAt)],
);

export const projects = pgTable(
  'projects',
  {
    id: id(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    urlKey: text('url_key').notNull(),
    description: text('description'),
    status: text('status').notNull().default('backlog'),
    // Legacy single goal, kept equal to the first linked goal (project_goals position 0).
    goalId: uuid('goal_id').references(() => goals.id, { onDelete: 'set null' }),
    leadAgentId: uuid('lead_agent_id').references(() => agents.id, { onDelete: 'set null' }),
    targetDate: text('target_date'),
    color: text('color').notNull(),
    env: jsonb('env').$type<Record<string, unknown>>(),
    executionWorkspacePolicy: jsonb('execution_workspace_policy').$type<Record<string, unknown>>(),
    archivedAt: ts('archived_at'),
    // Set by a budget hard stop; checkout into a paused project answers 409.
    pausedAt: ts('paused_at'),
    pauseReason: text('pause_reason'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('projects_company_url_key_uq').on(t.companyId, t.urlKey),
    index('projects_url_key_idx').on(t.urlKey),
  ],
);

export const projectGoals = pgTable(
  'project_goals',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    goalId: uuid('goal_id')
      .notNull()
      .references(() => goals.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.goalId] }), index('project_goals_goal_idx').on(t.goalId)],
);

export const projectWorkspaces = pgTable(
  'project_workspaces',
  {
    id: id(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    sourceType: text('source_type').notNull().default('local_path'), // local_path | git_repo | remote_managed | non_git_path
    cwd: text('cwd'),
    repoUrl: text('repo_url'),
    repoRef: text('repo_ref'),
    defaultRef: text('default_ref'),
    visibility: text('visibility'),
    isPrimary: boolean('is_primary').notNull().default(false),
    setupCommand: text('setup_command'),
    cleanupCommand: text('cleanup_command'),
    remoteProvider: text('remote_provider'),
    remoteWorkspaceRef: text('remote_workspace_ref'),
    sharedWorkspaceKey: text('shared_workspace_key'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>(),
    runtimeConfig: jsonb('runtime_config').$type<Record<string, unknown>>(),
    desiredState: text('desired_state'), // running | stopped
    // An isolated execution workspace that was closed: checkout into it answers 409.
    closedAt: ts('closed_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('project_workspaces_project_idx').on(t.projectId, t.createdAt),
    // The engine's convergence loop looks for services that should run.
    index('project_workspaces_desired_running_idx').on(t.id).where(sql`${t.desiredState} = 'running'`),
    // At most one primary per project, enforced by the database.
    uniqueIndex('project_workspaces_primary_uq').on(t.projectId).where(sql`${t.isPrimary}`),
  ],
);

/** Runtime-service actions (start, stop, restart) as recorded operations. */
export const workspaceOperations = pgTable(
  'workspace_operations',
  {
    id: id(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => projectWorkspaces.id, { onDelete: 'cascade' }),
    action: text('action').notNull(),
    desiredState: text('desired_state').notNull(),
    status: text('status').notNull().default('requested'),
    actorType: text('actor_type').notNull(),
    actorId: text('actor_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('workspace_operations_ws_idx').on(t.workspaceId, t.createdAt),
    index('workspace_operations_requested_idx').on(t.workspaceId).where(sql`${t.status} = 'requested'`),
  ],
);

/**
 * The live state of a workspace's runtime service, written by the one replica that supervises it
 * (claimed with a lease like a run, so two replicas never both start it). The log tail lives here
 * so any replica can serve it: `log` holds at most the last LOG_TAIL_CHARS characters of
 * everything written, `logWritten` counts all characters ever written (absolute offsets).
 */
export const workspaceRuntimeServices = pgTable(
  'workspace_runtime_services',
  {
    workspaceId: uuid('workspace_id')
      .primaryKey()
      .references(() => projectWorkspaces.id, { onDelete: 'cascade' }),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    ownerReplica: text('owner_replica'),
    ownerBoot: text('owner_boot'),
    leaseExpiresAt: ts('lease_expires_at'),
    status: text('status').notNull().default('stopped'), // starting | running | stopped | crashed | backoff
    pid: integer('pid'),
    startedAt: ts('started_at'),
    exitCode: integer('exit_code'),
    restarts: integer('restarts').notNull().default(0),
    lastError: text('last_error'),
    log: text('log').notNull().default(''),
    logWritten: bigint('log_written', { mode: 'number' }).notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [index('workspace_runtime_services_owner_idx').on(t.ownerReplica, t.ownerBoot)],
);
