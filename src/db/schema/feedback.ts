import { index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, ts } from './columns.ts';
import { companies } from './companies.ts';

/**
 * Board feedback on agent output (a vote on a comment, document or run), with the consent state of
 * sharing it. Read by GET /api/companies/{companyId}/feedback-traces.
 */
export const feedbackTraces = pgTable(
  'feedback_traces',
  {
    id: id(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    issueId: uuid('issue_id'),
    projectId: uuid('project_id'),
    vote: text('vote').notNull(), // up | down
    status: text('status').notNull().default('pending'), // pending | shared | withheld
    sharedAt: ts('shared_at'),
    payload: jsonb('payload').$type<Record<string, unknown>>(),
    createdByUserId: uuid('created_by_user_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('feedback_traces_company_created_idx').on(t.companyId, t.createdAt.desc()),
    index('feedback_traces_company_issue_idx').on(t.companyId, t.issueId),
  ],
);
