// What the issues pages need beyond the shared reads (queries/issues.ts) and the status words
// (lib/statuses.ts): the create body and an issue's address.
import type { paths } from '../../api/schema';
import { issueStatuses } from '../../lib/statuses';
import type { Issue } from '../../queries/issues';

export type CreateIssueBody = NonNullable<
  paths['/api/companies/{companyId}/issues']['post']['requestBody']
>['content']['application/json'];

/** The issue page's address: the identifier (ACME-12) reads better than a UUID, and the detail route takes both. */
export const issuePath = (companyId: string, issue: Pick<Issue, 'identifier'>): string =>
  `/c/${companyId}/issues/${issue.identifier}`;

/** Statuses a person can set: in_progress is reached only by checkout (the server answers 422). */
export const SETTABLE_STATUSES = issueStatuses.list.filter((status) => status !== 'in_progress');
