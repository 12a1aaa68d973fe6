import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { createdAt, id, ts, updatedAt } from './columns.ts';
import { companies } from './companies.ts';

export const agents = pgTable(
  'agents',
  {
    id: id(),
    companyId: uuid('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    urlKey: text('url_key').notNull(),
    role: text('role').notNull().default('general'),
    title: text('title'),
    capabilities: text('capabilities'),
    reportsTo: uuid('reports_to').references((): AnyPgColumn => agents.id, { onDelete: 'set null' }),
    adapterType: text('adapter_type').notNull(),
    adapterConfig: jsonb('adapter_config').$type<Record<string, unknown>>().notNull().default({}),
    runtimeConfig: jsonb('runtime_config').$type<Record<string, unknown>>().notNull().default({}),
    budgetMonthlyCents: integer('budget_monthly_cents').notNull().default(0),
    spentMonthlyCents: integer('spent_monthly_cents').notNull().default(0),
    status: text('status').notNull().default('idle'),
    permissions: jsonb('permissions').$type<{ canCreateAgents?: boolean }>().notNull().default({}),
    // Explicit task-assignment grant (PATCH /permissions canAssignTasks). SPEC keeps only canCreateAgents
    // in `permissions`; this grant surfaces through the agent's `access` block.
    canAssignTasks: boolean('can_assign_tasks').notNull().default(false),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    pauseReason: text('pause_reason'),
    lastHeartbeatAt: ts('last_heartbeat_at'),
    terminatedAt: ts('terminated_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Terminated agents release their shortname, so uniqueness covers live agents only.
    uniqueIndex('agents_company_url_key_uq').on(t.companyId, t.urlKey).where(sql`${t.status} <> 'terminated'`),
    index('agents_company_status_idx').on(t.companyId, t.status),
  ],
);

export const agentApiKeys = pgTable(
  'agent_api_keys',
  {
    id: id(),
    companyId: uuid('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    agentId: uuid('agent_id').notNull().references(() => agents.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    keyHash: text('key_hash').notNull().unique(),
    createdAt: createdAt(),
    lastUsedAt: ts('last_used_at'),
    revokedAt: ts('revoked_at'),
  },
  (t) => [index('agent_api_keys_agent_idx').on(t.agentId, t.createdAt)],
);

/**
 * Wakeup queue. Producers (manual wakeup, mentions, assignment, approvals) insert rows in their own
 * transaction; the engine claims them with FOR UPDATE SKIP LOCKED.
 */
export const agentWakeupRequests = pgTable(
  'agent_wakeup_requests',
  {
    id: id(),
    companyId: uuid('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    agentId: uuid('agent_id').notNull().references(() => agents.id, { onDelete: 'cascade' }),
    source: text('source').notNull(), // timer | assignment | on_demand | automation
    triggerDetail: text('trigger_detail'), // manual | ping | callback | system
    reason: text('reason'),
    payload: jsonb('payload').$type<Record<string, unknown>>(),
    issueId: uuid('issue_id'),
    idempotencyKey: text('idempotency_key'),
    forceFreshSession: boolean('force_fresh_session').notNull().default(false),
    status: text('status').notNull().default('queued'), // queued | claimed | completed | skipped | cancelled
    requestedByActorType: text('requested_by_actor_type').notNull(),
    requestedByActorId: text('requested_by_actor_id').notNull(),
    createdAt: createdAt(),
    claimedAt: ts('claimed_at'),
    finishedAt: ts('finished_at'),
  },
  (t) => [
    index('wakeups_queue_idx').on(t.status, t.createdAt),
    index('wakeups_agent_idx').on(t.agentId, t.createdAt),
    uniqueIndex('wakeups_idempotency_uq').on(t.agentId, t.idempotencyKey).where(sql`${t.idempotencyKey} is not null`),
  ],
);

/** A run of an agent. Terminal statuses: succeeded, failed, cancelled, timed_out. */
export const heartbeatRuns = pgTable(
  'heartbeat_runs',
  {
    id: id(),
    companyId: uuid('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    agentId: uuid('agent_id').notNull().references(() => agents.id, { onDelete: 'cascade' }),
    status: text('status').notNull().default('queued'), // queued | running | succeeded | failed | cancelled | timed_out
    invocationSource: text('invocation_source'),
    adapterType: text('adapter_type'),
    wakeupRequestId: uuid('wakeup_request_id'),
    usageJson: jsonb('usage_json'),
    resultJson: jsonb('result_json'),
    logBytes: integer('log_bytes').notNull().default(0),
    // Why a run ended badly (for instance a lease that expired); null while live or on success.
    error: text('error'),
    startedAt: ts('started_at'),
    finishedAt: ts('finished_at'),
    createdAt: createdAt(),
    // The lease clock: every heartbeat or update of a live run moves it; failStaleRuns times out
    // running runs whose clock stopped.
    updatedAt: updatedAt(),
  },
  (t) => [
    index('heartbeat_runs_agent_idx').on(t.agentId, t.createdAt.desc()),
    index('heartbeat_runs_status_idx').on(t.status, t.updatedAt),
  ],
);
