import { index, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, ts, updatedAt } from './columns.ts';
import { companies } from './companies.ts';
import { issues } from './issues.ts';

export const approvals = pgTable(
  'approvals',
  {
    id: id(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    type: text('type').notNull(), // hire_agent | approve_ceo_strategy | budget_override_required | request_board_approval
    status: text('status').notNull().default('pending'), // pending | revision_requested | approved | rejected
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    requestedByAgentId: uuid('requested_by_agent_id'),
    requestedByUserId: uuid('requested_by_user_id'),
    decisionNote: text('decision_note'),
    decidedByUserId: uuid('decided_by_user_id'),
    decidedAt: ts('decided_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('approvals_company_status_idx').on(t.companyId, t.status, t.createdAt.desc())],
);

export const approvalIssues = pgTable(
  'approval_issues',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    approvalId: uuid('approval_id')
      .notNull()
      .references(() => approvals.id, { onDelete: 'cascade' }),
    issueId: uuid('issue_id')
      .notNull()
      .references(() => issues.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.approvalId, t.issueId] }), index('approval_issues_issue_idx').on(t.issueId)],
);

export const approvalComments = pgTable(
  'approval_comments',
  {
    id: id(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    approvalId: uuid('approval_id')
      .notNull()
      .references(() => approvals.id, { onDelete: 'cascade' }),
    body: text('body').notNull(),
    authorAgentId: uuid('author_agent_id'),
    authorUserId: uuid('author_user_id'),
    createdAt: createdAt(),
  },
  (t) => [index('approval_comments_approval_idx').on(t.approvalId, t.createdAt)],
);
