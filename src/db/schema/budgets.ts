// What budgets measure and what they raised. Scope usage is a counter per (scope, window) kept in
// the transaction of each cost event and each finished run, so a budget check reads one row per
// scope instead of summing events. A window is a UTC month ('2026-11') or 'lifetime': a new month is
// a new row that starts at zero, so nothing resets on the first.
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { approvals } from './approvals.ts';
import { createdAt, id, ts, updatedAt } from './columns.ts';
import { budgetPolicies, companies } from './companies.ts';

export const budgetScopeUsage = pgTable(
  'budget_scope_usage',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    scopeType: text('scope_type').notNull(), // company | agent | project
    scopeId: uuid('scope_id').notNull(),
    windowKey: text('window_key').notNull(), // YYYY-MM (UTC) | lifetime
    billedCents: bigint('billed_cents', { mode: 'number' }).notNull().default(0),
    tokens: bigint('tokens', { mode: 'number' }).notNull().default(0),
    runs: bigint('runs', { mode: 'number' }).notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.scopeType, t.scopeId, t.windowKey] }),
    index('budget_scope_usage_company_idx').on(t.companyId, t.windowKey),
  ],
);

export const budgetIncidents = pgTable(
  'budget_incidents',
  {
    id: id(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    policyId: uuid('policy_id')
      .notNull()
      .references(() => budgetPolicies.id, { onDelete: 'cascade' }),
    scopeType: text('scope_type').notNull(),
    scopeId: uuid('scope_id').notNull(),
    metric: text('metric').notNull(),
    windowKey: text('window_key').notNull(),
    kind: text('kind').notNull(), // soft (warn threshold) | hard (100 percent)
    status: text('status').notNull().default('open'), // open | resolved
    thresholdPercent: integer('threshold_percent').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    observed: bigint('observed', { mode: 'number' }).notNull(),
    // A hard incident whose stop is still to be applied: the stop runs in its own transaction right
    // after the one that raised the incident commits (or by the engine's sweep), so a cost event's
    // transaction never takes agent or run locks.
    stopPending: boolean('stop_pending').notNull().default(false),
    // Hard incidents with hard stop: what the stop paused, so resuming releases only that.
    pausedAgentIds: uuid('paused_agent_ids').array().notNull().default(sql`'{}'::uuid[]`),
    pausedProjectId: uuid('paused_project_id'),
    approvalId: uuid('approval_id').references(() => approvals.id, { onDelete: 'set null' }),
    resolution: text('resolution'), // keep_paused | raise_budget_and_resume | override_approved
    resolvedByUserId: text('resolved_by_user_id'),
    resolvedAt: ts('resolved_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // One open incident per policy, window and threshold: concurrent crossings insert one, the rest
    // do nothing. Once resolved (a raised budget), crossing the new line may raise a new one.
    uniqueIndex('budget_incidents_open_uq').on(t.policyId, t.windowKey, t.kind).where(sql`${t.status} = 'open'`),
    index('budget_incidents_stop_pending_idx').on(t.createdAt).where(sql`${t.stopPending}`),
    index('budget_incidents_company_open_idx').on(t.companyId, t.createdAt).where(sql`${t.status} = 'open'`),
  ],
);
