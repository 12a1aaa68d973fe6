// Issues and what hangs off them: relations, comments, documents, attachments, per-user state.
import { sql, type SQL } from 'drizzle-orm';
import {
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  unique,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { agents, heartbeatRuns } from './agents.ts';
import { createdAt, id, ts, updatedAt } from './columns.ts';
import { assets, companies } from './companies.ts';
import { goals, projects, projectWorkspaces } from './work.ts';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

export const issues = pgTable(
  'issues',
  {
    id: id(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    identifier: text('identifier').notNull(),
    title: text('title').notNull(),
    description: text('description'),
    status: text('status').notNull().default('backlog'),
    priority: text('priority').notNull().default('medium'), // critical | high | medium | low
    // Sort key for "ordered by priority", kept by the database so the list index can serve it.
    priorityRank: smallint('priority_rank').generatedAlwaysAs(
      (): SQL => sql`case ${issues.priority} when 'critical' then 0 when 'high' then 1 when 'medium' then 2 else 3 end`,
    ),
    projectId: uuid('project_id').references(() => projects.id, { onDelete: 'set null' }),
    goalId: uuid('goal_id').references(() => goals.id, { onDelete: 'set null' }),
    parentId: uuid('parent_id').references((): AnyPgColumn => issues.id, { onDelete: 'set null' }),
    assigneeAgentId: uuid('assignee_agent_id').references(() => agents.id, { onDelete: 'set null' }),
    assigneeUserId: uuid('assignee_user_id'),
    createdByAgentId: uuid('created_by_agent_id'),
    createdByUserId: uuid('created_by_user_id'),
    billingCode: text('billing_code'),
    labelIds: jsonb('label_ids').$type<string[]>().notNull().default([]),
    executionPolicy: jsonb('execution_policy').$type<Record<string, unknown>>(),
    executionWorkspaceId: uuid('execution_workspace_id').references(() => projectWorkspaces.id, {
      onDelete: 'set null',
    }),
    executionWorkspacePreference: text('execution_workspace_preference'),
    executionWorkspaceSettings: jsonb('execution_workspace_settings').$type<Record<string, unknown>>(),
    // The run holding the checkout lock; cleared on release.
    checkoutRunId: uuid('checkout_run_id'),
    startedAt: ts('started_at'),
    completedAt: ts('completed_at'),
    cancelledAt: ts('cancelled_at'),
    hiddenAt: ts('hidden_at'),
    originKind: text('origin_kind').notNull().default('manual'),
    originId: text('origin_id'),
    searchVector: tsvector('search_vector').generatedAlwaysAs(
      (): SQL =>
        sql`setweight(to_tsvector('simple', ${issues.identifier}), 'A') || setweight(to_tsvector('english', ${issues.title}), 'A') || setweight(to_tsvector('english', coalesce(${issues.description}, '')), 'B')`,
    ),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('issues_identifier_uq').on(t.identifier),
    unique('issues_company_number_uq').on(t.companyId, t.number),
    // The list's default order (priority, then most recently updated) read straight off an index,
    // with and without a status filter, so `limit` stops the scan early at 100k issues a company.
    index('issues_company_priority_idx').on(t.companyId, t.priorityRank, t.updatedAt.desc()),
    index('issues_company_status_idx').on(t.companyId, t.status, t.priorityRank, t.updatedAt.desc()),
    // Per-agent and per-project lists in list order: an agent whose issues are all low priority must
    // not make the list walk every higher-priority issue of the company first.
    index('issues_company_assignee_idx').on(t.companyId, t.assigneeAgentId, t.priorityRank, t.updatedAt.desc()),
    index('issues_company_assignee_user_idx').on(t.companyId, t.assigneeUserId),
    index('issues_company_creator_user_idx').on(t.companyId, t.createdByUserId),
    // In list order too: participantAgentId reads the issues an agent created as one ordered stream.
    index('issues_company_creator_agent_idx').on(t.companyId, t.createdByAgentId, t.priorityRank, t.updatedAt.desc()),
    index('issues_company_exec_workspace_idx').on(t.companyId, t.executionWorkspaceId),
    // GIN indexes here skip the pending list (fastupdate): with it, every search and label lookup also
    // scans up to gin_pending_list_limit (4 MB) of unmerged entries until the next vacuum, which cost
    // ~10 ms per search at 100k issues; writing each entry straight into the index is cheap by comparison.
    index('issues_labels_idx').using('gin', t.labelIds.op('jsonb_path_ops')).with({ fastupdate: false }),
    index('issues_company_project_idx').on(t.companyId, t.projectId, t.priorityRank, t.updatedAt.desc()),
    // The board's goal filter, in list order like the project one.
    index('issues_company_goal_idx').on(t.companyId, t.goalId, t.priorityRank, t.updatedAt.desc()),
    index('issues_company_parent_idx').on(t.companyId, t.parentId),
    index('issues_company_origin_idx').on(t.companyId, t.originKind, t.originId),
    // A routine's live execution issue (concurrency policies, routine lists): found without reading
    // the routine's finished ones.
    index('issues_live_routine_execution_idx')
      .on(t.originId)
      .where(sql`${t.originKind} = 'routine_execution' and ${t.status} not in ('done', 'cancelled')`),
    // (company, words) in one GIN (btree_gin): a word common in other companies costs nothing here.
    index('issues_search_idx').using('gin', t.companyId, t.searchVector).with({ fastupdate: false }),
  ],
);

/** "issueId is blocked by blockedByIssueId" (type blocks). */
export const issueRelations = pgTable(
  'issue_relations',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    issueId: uuid('issue_id')
      .notNull()
      .references(() => issues.id, { onDelete: 'cascade' }),
    blockedByIssueId: uuid('blocked_by_issue_id')
      .notNull()
      .references(() => issues.id, { onDelete: 'cascade' }),
    type: text('type').notNull().default('blocks'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.issueId, t.blockedByIssueId] }),
    index('issue_relations_blocker_idx').on(t.blockedByIssueId),
  ],
);

export const issueComments = pgTable(
  'issue_comments',
  {
    id: id(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    issueId: uuid('issue_id')
      .notNull()
      .references(() => issues.id, { onDelete: 'cascade' }),
    body: text('body').notNull(),
    authorAgentId: uuid('author_agent_id'),
    authorUserId: uuid('author_user_id'),
    runId: text('run_id'),
    searchVector: tsvector('search_vector').generatedAlwaysAs(
      (): SQL => sql`to_tsvector('english', ${issueComments.body})`,
    ),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('issue_comments_issue_idx').on(t.issueId, t.createdAt, t.id),
    index('issue_comments_company_author_idx').on(t.companyId, t.authorAgentId),
    // touchedByUserId / unreadForUserId: issues a board user commented on.
    index('issue_comments_company_author_user_idx').on(t.companyId, t.authorUserId),
    index('issue_comments_search_idx').using('gin', t.companyId, t.searchVector).with({ fastupdate: false }),
  ],
);

export const issueDocuments = pgTable(
  'issue_documents',
  {
    id: id(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    issueId: uuid('issue_id')
      .notNull()
      .references(() => issues.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    title: text('title'),
    format: text('format').notNull().default('markdown'),
    latestRevisionId: uuid('latest_revision_id'),
    latestRevisionNumber: integer('latest_revision_number').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [unique('issue_documents_issue_key_uq').on(t.issueId, t.key)],
);

export const issueDocumentRevisions = pgTable(
  'issue_document_revisions',
  {
    id: id(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    documentId: uuid('document_id')
      .notNull()
      .references(() => issueDocuments.id, { onDelete: 'cascade' }),
    revisionNumber: integer('revision_number').notNull(),
    title: text('title'),
    body: text('body').notNull(),
    changeSummary: text('change_summary'),
    createdByAgentId: uuid('created_by_agent_id'),
    createdByUserId: uuid('created_by_user_id'),
    createdAt: createdAt(),
  },
  (t) => [unique('issue_document_revisions_uq').on(t.documentId, t.revisionNumber)],
);

export const issueAttachments = pgTable(
  'issue_attachments',
  {
    id: id(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    issueId: uuid('issue_id')
      .notNull()
      .references(() => issues.id, { onDelete: 'cascade' }),
    assetId: uuid('asset_id')
      .notNull()
      .references(() => assets.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [index('issue_attachments_issue_idx').on(t.issueId, t.createdAt)],
);

/** Per board user: read and inbox-archive marks (unreadForUserId, inboxArchivedByUserId filters). */
export const issueUserStates = pgTable(
  'issue_user_states',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    issueId: uuid('issue_id')
      .notNull()
      .references(() => issues.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull(),
    lastReadAt: ts('last_read_at'),
    archivedAt: ts('archived_at'),
    touchedAt: ts('touched_at'),
  },
  (t) => [
    primaryKey({ columns: [t.issueId, t.userId] }),
    index('issue_user_states_user_idx').on(t.companyId, t.userId),
  ],
);

/** Which runs touched which issues (GET /issues/{id}/runs, GET /heartbeat-runs/{runId}/issues). */
export const heartbeatRunIssues = pgTable(
  'heartbeat_run_issues',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    runId: uuid('run_id')
      .notNull()
      .references(() => heartbeatRuns.id, { onDelete: 'cascade' }),
    issueId: uuid('issue_id')
      .notNull()
      .references(() => issues.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.runId, t.issueId] }),
    index('heartbeat_run_issues_issue_idx').on(t.issueId, t.createdAt),
  ],
);

/**
 * Issues per company and status, kept by a trigger on issues (src/db/sql/issue-counts.sql) so every
 * write path counts, and the dashboard reads a handful of rows instead of counting 100k issues.
 * Each count is split over shards (the writing backend's pid picks one): one row per (company,
 * status) was locked by every create in the company until its commit, which serialised them. A
 * shard may go negative; the sum over shards is the count.
 */
export const companyIssueCounts = pgTable(
  'company_issue_counts',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    status: text('status').notNull(),
    shard: smallint('shard').notNull().default(0),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.status, t.shard] })],
);

/**
 * Isolated execution workspaces: one git worktree per issue, on branch `boardroom/<identifier>`,
 * for projects whose executionWorkspacePolicy is `{ "mode": "isolated" }` (modules/execution-workspaces).
 * One row per issue, ever: a closed workspace is not reopened (checkout answers 409 workspace_closed).
 * status open -> closed in the transaction that closes the issue; removedAt once the engine has
 * removed the worktree directory (the branch is kept). workProduct is the branch's last snapshot
 * (commits ahead of the base, diff stat), taken after each run and at removal, so the issue detail
 * reads it without running git.
 */
export const executionWorkspaces = pgTable(
  'execution_workspaces',
  {
    id: id(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    issueId: uuid('issue_id')
      .notNull()
      .references(() => issues.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    projectWorkspaceId: uuid('project_workspace_id').references(() => projectWorkspaces.id, { onDelete: 'set null' }),
    repoPath: text('repo_path').notNull(),
    path: text('path').notNull(),
    branch: text('branch').notNull(),
    baseRef: text('base_ref').notNull(),
    baseCommit: text('base_commit').notNull(),
    status: text('status').notNull().default('open'), // open | closed
    workProduct: jsonb('work_product').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    closedAt: ts('closed_at'),
    removedAt: ts('removed_at'),
  },
  (t) => [
    uniqueIndex('execution_workspaces_issue_uq').on(t.issueId),
    index('execution_workspaces_company_idx').on(t.companyId, t.createdAt),
    // The engine's sweep: closed workspaces whose worktree is still on disk.
    index('execution_workspaces_pending_removal_idx')
      .on(t.closedAt)
      .where(sql`${t.status} = 'closed' and ${t.removedAt} is null`),
  ],
);
