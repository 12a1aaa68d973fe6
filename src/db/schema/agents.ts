import { sql } from 'drizzle-orm';
import {
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
import { createdAt, id, ts, updatedAt } from './columns.ts';
import { companies } from './companies.ts';

export const agents = pgTable(
  'agents',
  {
    id: id(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    urlKey: text('url_key').notNull(),
    role: text('role').notNull().default('general'),
    title: text('title'),
    capabilities: text('capabilities'),
    reportsTo: uuid('reports_to').references((): AnyPgColumn => agents.id, { onDelete: 'set null' }),
    adapterType: text('adapter_type').notNull(),
    adapterConfig: jsonb('adapter_config').$type<Record<string, unknown>>().notNull().default({}),
    runtimeConfig: jsonb('runtime_config').$type<Record<string, unknown>>().notNull().default({}),
    status: text('status').notNull().default('idle'),
    permissions: jsonb('permissions').$type<{ canCreateAgents?: boolean }>().notNull().default({}),
    // Explicit task-assignment grant (PATCH /permissions canAssignTasks). SPEC keeps only canCreateAgents
    // in `permissions`; this grant surfaces through the agent's `access` block.
    canAssignTasks: boolean('can_assign_tasks').notNull().default(false),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    pauseReason: text('pause_reason'),
    // Why the agent is in `error`: the error of the run that put it there. Written with the status by
    // the run that settles it (runs/lifecycle.ts); shown only while the status is `error`.
    errorReason: text('error_reason'),
    // Set when the wake budget (runtimeConfig.maxRunsPerHour) turned a wake away: until then further
    // wakes are skipped too. Shown on the agent so the board sees why it is quiet.
    wakeRateLimitedUntil: ts('wake_rate_limited_until'),
    lastHeartbeatAt: ts('last_heartbeat_at'),
    terminatedAt: ts('terminated_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Terminated agents release their shortname, so uniqueness covers live agents only.
    uniqueIndex('agents_company_url_key_uq').on(t.companyId, t.urlKey).where(sql`${t.status} <> 'terminated'`),
    index('agents_company_status_idx').on(t.companyId, t.status),
    // The timer loop's scan: only agents whose heartbeat is on.
    index('agents_heartbeat_enabled_idx')
      .on(t.id)
      .where(
        sql`(${t.runtimeConfig} -> 'heartbeat' ->> 'enabled') = 'true' and ${t.status} not in ('paused', 'terminated', 'pending_approval')`,
      ),
  ],
);

export const agentApiKeys = pgTable(
  'agent_api_keys',
  {
    id: id(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    agentId: uuid('agent_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    keyHash: text('key_hash').notNull().unique(),
    createdAt: createdAt(),
    lastUsedAt: ts('last_used_at'),
    revokedAt: ts('revoked_at'),
  },
  (t) => [index('agent_api_keys_agent_idx').on(t.agentId, t.createdAt)],
);

/**
 * Wakeup queue. Producers (manual wakeup, mentions, assignment, approvals, timers) insert rows in
 * their own transaction; a trigger (src/db/sql/engine-notify.sql) NOTIFYs the dispatchers, which
 * claim rows with FOR UPDATE SKIP LOCKED.
 *
 * Status: queued (claimable once runAt has passed) -> claimed (a dispatcher holds it) -> completed
 * (it became runId) | coalesced (merged into the live run runId) | deferred (waiting for the issue's
 * or the agent's live run to end; promoted back to queued then) | skipped | cancelled | failed
 * (claims kept failing: lastError). outcomeReason says why for everything but completed.
 */
export const agentWakeupRequests = pgTable(
  'agent_wakeup_requests',
  {
    id: id(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    agentId: uuid('agent_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    source: text('source').notNull(), // timer | assignment | on_demand | automation
    triggerDetail: text('trigger_detail'), // manual | ping | callback | system
    reason: text('reason'),
    payload: jsonb('payload').$type<Record<string, unknown>>(),
    issueId: uuid('issue_id'),
    idempotencyKey: text('idempotency_key'),
    forceFreshSession: boolean('force_fresh_session').notNull().default(false),
    status: text('status').notNull().default('queued'),
    outcomeReason: text('outcome_reason'),
    runId: uuid('run_id'),
    runAt: ts('run_at').notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    lockedBy: text('locked_by'),
    lockedAt: ts('locked_at'),
    lastError: text('last_error'),
    requestedByActorType: text('requested_by_actor_type').notNull(),
    requestedByActorId: text('requested_by_actor_id').notNull(),
    createdAt: createdAt(),
    claimedAt: ts('claimed_at'),
    finishedAt: ts('finished_at'),
  },
  (t) => [
    // What a dispatcher claims: only queued rows are in it, so it stays small however long the history.
    index('wakeups_claimable_idx').on(t.runAt).where(sql`${t.status} = 'queued'`),
    index('wakeups_deferred_idx').on(t.agentId, t.issueId).where(sql`${t.status} = 'deferred'`),
    // Claims whose dispatcher died: found by the reaper.
    index('wakeups_claimed_idx').on(t.lockedAt).where(sql`${t.status} = 'claimed'`),
    index('wakeups_agent_idx').on(t.agentId, t.createdAt),
    index('wakeups_run_idx').on(t.runId).where(sql`${t.runId} is not null`),
    // Retention prunes finished rows oldest first.
    index('wakeups_finished_idx').on(t.finishedAt).where(sql`${t.finishedAt} is not null`),
    uniqueIndex('wakeups_idempotency_uq').on(t.agentId, t.idempotencyKey).where(sql`${t.idempotencyKey} is not null`),
  ],
);

/**
 * A run of an agent. Live statuses: queued, running; terminal: succeeded, failed, cancelled,
 * timed_out. The database holds the engine's invariants: at most one live run per issue (unique
 * partial index), and a live run always has a lease the reaper can judge.
 */
/** Where the engine ran a run's work (the four places src/engine/run-preparation.ts chooses from). */
export const RUN_WORKSPACE_KINDS = ['execution_workspace', 'agent_cwd', 'project_workspace', 'agent_home'] as const;
export type RunWorkspaceKind = (typeof RUN_WORKSPACE_KINDS)[number];

/** What a change of the work tree came to: `git diff --shortstat` against the run's starting commit. */
export interface RunDiffStat {
  filesChanged: number;
  insertions: number;
  deletions: number;
}

/** heartbeat_runs.workspace: the run's directory and, when it is a git work tree, what the run changed there. */
export interface RunWorkspaceRecord {
  cwd: string;
  kind: RunWorkspaceKind;
  /** null when the directory is not a git work tree (or git could not say in time). */
  git: {
    branch: string | null;
    baseCommit: string;
    /** null while the run is live, or when git could not say in time at its end. */
    diffStat: RunDiffStat | null;
  } | null;
}

export const heartbeatRuns = pgTable(
  'heartbeat_runs',
  {
    id: id(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    agentId: uuid('agent_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    status: text('status').notNull().default('queued'), // queued | running | succeeded | failed | cancelled | timed_out
    invocationSource: text('invocation_source'),
    adapterType: text('adapter_type'),
    wakeupRequestId: uuid('wakeup_request_id'),
    // The issue the run is about: its wake's issue, or for a run first seen on a checkout the issue it
    // first checked out; null for wakes about no issue.
    issueId: uuid('issue_id'),
    wakeReason: text('wake_reason'),
    usageJson: jsonb('usage_json'),
    resultJson: jsonb('result_json'),
    logBytes: integer('log_bytes').notNull().default(0),
    logTruncated: boolean('log_truncated').notNull().default(false),
    exitCode: integer('exit_code'),
    signal: text('signal'),
    // Why a run ended badly (for instance a lease that expired); null while live or on success.
    error: text('error'),
    // The same as one code of the closed list in src/core/run-failures.ts (the detail stays in
    // `error`); null while live or on success. Checked in code, not by a CHECK constraint: the list
    // lives in core, above this band, and its one writer (finishRun) only takes a typed code.
    errorCode: text('error_code'),
    // Where the engine ran the work and what it changed there (RunWorkspaceRecord); null for a run
    // that never reached its workspace, or one first seen on a checkout (the engine ran nothing).
    workspace: jsonb('workspace').$type<RunWorkspaceRecord>(),
    // The replica executing the run (stable across its restarts) and that replica's boot: a restart
    // reaps the runs of its previous boot at once instead of waiting for their leases.
    ownerReplica: text('owner_replica'),
    ownerBoot: text('owner_boot'),
    // Process group of the work (pid == pgid): killed by whoever reaps the run.
    pid: integer('pid'),
    // The lease: renewed by the owner while the adapter is alive; a live run past it is reaped.
    leaseExpiresAt: ts('lease_expires_at'),
    // Hard end of the work (start + adapterConfig.timeoutSec); graceSec later it is killed.
    deadlineAt: ts('deadline_at'),
    graceSec: integer('grace_sec'),
    startedAt: ts('started_at'),
    finishedAt: ts('finished_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('heartbeat_runs_agent_idx').on(t.agentId, t.createdAt.desc()),
    index('heartbeat_runs_company_idx').on(t.companyId, t.createdAt.desc(), t.id.desc()),
    index('heartbeat_runs_live_idx').on(t.leaseExpiresAt).where(sql`${t.status} in ('queued', 'running')`),
    index('heartbeat_runs_agent_live_idx').on(t.agentId).where(sql`${t.status} in ('queued', 'running')`),
    index('heartbeat_runs_finished_idx').on(t.finishedAt).where(sql`${t.finishedAt} is not null`),
    // The company run list filtered by errorCode (newest first): a rare code would otherwise walk all
    // of a company's runs in heartbeat_runs_company_idx. Only ended-badly runs have an entry.
    index('heartbeat_runs_company_error_idx')
      .on(t.companyId, t.errorCode, t.createdAt.desc(), t.id.desc())
      .where(sql`${t.errorCode} is not null`),
    // One live engine run per issue, whichever replica or code path creates it. A run first seen on a
    // checkout names the issue it checked out first, but holds an issue only through the checkout
    // lock (issues.checkoutRunId), which is its own guard: it is left out here, so a release frees the
    // issue for the engine at once and not when that run's lease lapses.
    uniqueIndex('heartbeat_runs_issue_live_uq')
      .on(t.issueId)
      .where(
        sql`${t.issueId} is not null and ${t.status} in ('queued', 'running') and ${t.invocationSource} is distinct from 'checkout'`,
      ),
  ],
);

/**
 * The key an `http` adapter agent's receiver checks `X-Service-Signature` with: one per agent,
 * sealed like a secret version (AES-256-GCM under the master key), shown once when (re)generated.
 */
export const agentSigningSecrets = pgTable('agent_signing_secrets', {
  agentId: uuid('agent_id')
    .primaryKey()
    .references(() => agents.id, { onDelete: 'cascade' }),
  companyId: uuid('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  iv: text('iv').notNull(),
  authTag: text('auth_tag').notNull(),
  ciphertext: text('ciphertext').notNull(),
  createdAt: createdAt(),
});

/**
 * The run log, in the database so every replica can serve it (the log route, the live streams)
 * whichever replica runs the work. Chunks are what the owner flushed (masked, NUL-free text), in
 * order; `byteOffset` is the UTF-8 offset of the chunk's first byte in the whole log, so a reader
 * resumes from any offset. `stream` is where the chunk's text came from (a chunk never mixes
 * stdout and stderr); rows stored before it was recorded read as stdout. The per-run size cap
 * bounds the rows of one run; retention the rest.
 */
export const heartbeatRunLogChunks = pgTable(
  'heartbeat_run_log_chunks',
  {
    runId: uuid('run_id')
      .notNull()
      .references(() => heartbeatRuns.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    byteOffset: integer('byte_offset').notNull(),
    stream: text('stream', { enum: ['stdout', 'stderr'] })
      .notNull()
      .default('stdout'),
    content: text('content').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.seq] })],
);

/**
 * The runtime session (Claude Code session id, Codex thread id) an agent last used per issue, so
 * the next wake about the same issue resumes the conversation and another issue starts its own.
 * `taskKey` is the issue id, or '' for runs about no issue (an empty string rather than NULL so
 * the primary key covers it). One row per adapter type: a session of one CLI means nothing to
 * another.
 */
export const agentTaskSessions = pgTable(
  'agent_task_sessions',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    agentId: uuid('agent_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    taskKey: text('task_key').notNull(),
    adapterType: text('adapter_type').notNull(),
    sessionId: text('session_id').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.agentId, t.taskKey, t.adapterType] })],
);
