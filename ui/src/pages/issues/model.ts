// The issue as the list route answers it, and the vocabulary the page shows it with.
import type { paths } from '../../api/schema';

export type Issue =
  paths['/api/companies/{companyId}/issues']['get']['responses'][200]['content']['application/json'][number];
export type IssueStatus = Issue['status'];
export type IssuePriority = Issue['priority'];
export type CreateIssueBody = NonNullable<
  paths['/api/companies/{companyId}/issues']['post']['requestBody']
>['content']['application/json'];

/** Board columns, left to right: SPEC's order, with blocked beside in_progress and the terminal states last. */
export const STATUSES = [
  'backlog',
  'todo',
  'in_progress',
  'blocked',
  'in_review',
  'done',
  'cancelled',
] as const satisfies readonly IssueStatus[];
export const PRIORITIES = ['critical', 'high', 'medium', 'low'] as const satisfies readonly IssuePriority[];

const STATUS_LABELS: Record<IssueStatus, string> = {
  backlog: 'Backlog',
  todo: 'Todo',
  in_progress: 'In progress',
  blocked: 'Blocked',
  in_review: 'In review',
  done: 'Done',
  cancelled: 'Cancelled',
};
export const statusLabel = (status: IssueStatus): string => STATUS_LABELS[status];
export const priorityLabel = (priority: IssuePriority): string => priority[0]!.toUpperCase() + priority.slice(1);

export const isStatus = (value: string): value is IssueStatus => (STATUSES as readonly string[]).includes(value);

/** The issue page's address: the identifier (ACME-12) reads better than a UUID, and the detail route takes both. */
export const issuePath = (companyId: string, issue: Pick<Issue, 'identifier'>): string =>
  `/c/${companyId}/issues/${issue.identifier}`;
