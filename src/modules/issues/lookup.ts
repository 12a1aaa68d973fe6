// The compact issue columns; finding an issue by UUID or identifier is core/issue-access.ts.
import { issues } from '../../db/schema/index.ts';
import type { Issue } from '../../db/rows.ts';

/** The columns of the compact issue form (presentIssueSummary), for queries that need no more. */
export const issueSummaryColumns = {
  id: issues.id,
  identifier: issues.identifier,
  title: issues.title,
  status: issues.status,
  priority: issues.priority,
  assigneeAgentId: issues.assigneeAgentId,
  projectId: issues.projectId,
  goalId: issues.goalId,
  parentId: issues.parentId,
};
export type IssueSummaryRow = Pick<Issue, keyof typeof issueSummaryColumns>;
