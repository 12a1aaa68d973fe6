import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, ts, updatedAt } from './columns.ts';

export const companies = pgTable('companies', {
  id: id(),
  name: text('name').notNull(),
  description: text('description'),
  status: text('status').notNull().default('active'),
  issuePrefix: text('issue_prefix').notNull().unique(),
  // Next issue number; bumped by one conditional UPDATE so concurrent creates never share a number.
  issueCounter: integer('issue_counter').notNull().default(1),
  requireBoardApprovalForNewAgents: boolean('require_board_approval_for_new_agents').notNull().default(false),
  brandColor: text('brand_color'),
  logoAssetId: uuid('logo_asset_id'),
  pausedAt: ts('paused_at'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** Stored bytes (logos, attachments): metadata here, content-addressed bytes in the storage backend. */
export const assets = pgTable(
  'assets',
  {
    id: id(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(), // logo | attachment
    contentType: text('content_type').notNull(),
    byteSize: integer('byte_size').notNull(),
    sha256: text('sha256').notNull(),
    originalName: text('original_name'),
    createdByUserId: uuid('created_by_user_id'),
    createdByAgentId: uuid('created_by_agent_id'),
    createdAt: createdAt(),
  },
  (t) => [index('assets_company_idx').on(t.companyId, t.createdAt)],
);

/**
 * Budget policies: the one source of truth for budgets (a company's or agent's budgetMonthlyCents is
 * its active billed_cents calendar-month policy). scopeId is the company, agent or project id;
 * metric billed_cents, tokens or runs; windowKind calendar_month_utc or lifetime. One active policy
 * per (scope, metric, window).
 */
export const budgetPolicies = pgTable(
  'budget_policies',
  {
    id: id(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    scopeType: text('scope_type').notNull(), // company | agent | project
    scopeId: uuid('scope_id').notNull(),
    metric: text('metric').notNull().default('billed_cents'),
    windowKind: text('window_kind').notNull(),
    // Cents, tokens or runs, after the metric (the column keeps its first name: renaming it buys nothing).
    amount: bigint('amount_cents', { mode: 'number' }).notNull(),
    warnPercent: integer('warn_percent').notNull().default(80),
    hardStopEnabled: boolean('hard_stop_enabled').notNull().default(true),
    notifyEnabled: boolean('notify_enabled').notNull().default(true),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('budget_policies_scope_uq')
      .on(t.companyId, t.scopeType, t.scopeId, t.metric, t.windowKind)
      .where(sql`${t.isActive}`),
    // Every agent and company view reads its scope's monthly budget by scope id alone.
    index('budget_policies_scope_idx').on(t.scopeId, t.scopeType).where(sql`${t.isActive}`),
  ],
);
