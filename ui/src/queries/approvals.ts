// Approvals: the list by status ('approvals') and one approval with its comments and linked issues
// ('approval'). Approval activity refreshes both (live/invalidation.ts).
import { queryOptions } from '@tanstack/react-query';
import { api, data } from '../api/client';
import { companyResource } from '../api/keys';
import type { ApprovalStatus } from '../lib/statuses';

const approvals = companyResource('approvals');
export const approvalListKeys = {
  ...approvals,
  list: (companyId: string, status: ApprovalStatus | 'all') => approvals.key(companyId, status),
};

const approval = companyResource('approval');
export const approvalKeys = {
  ...approval,
  detail: (companyId: string, approvalId: string) => approval.key(companyId, approvalId),
  comments: (companyId: string, approvalId: string) => approval.key(companyId, approvalId, 'comments'),
  issues: (companyId: string, approvalId: string) => approval.key(companyId, approvalId, 'issues'),
};

/** Approvals listed at most (the page says so when it shows this many). */
export const APPROVALS_LIMIT = 200;
/** The company's approvals in one status (or all), newest first. */
export const approvalsQuery = (companyId: string, status: ApprovalStatus | 'all') =>
  queryOptions({
    queryKey: approvalListKeys.list(companyId, status),
    queryFn: async () =>
      data(
        await api.GET('/api/companies/{companyId}/approvals', {
          params: { path: { companyId }, query: { limit: APPROVALS_LIMIT, ...(status !== 'all' && { status }) } },
        }),
      ),
  });

export const approvalQuery = (companyId: string, approvalId: string) =>
  queryOptions({
    queryKey: approvalKeys.detail(companyId, approvalId),
    queryFn: async () => data(await api.GET('/api/approvals/{approvalId}', { params: { path: { approvalId } } })),
  });

/** Comments shown on an approval, oldest first. */
export const APPROVAL_COMMENTS = 500;
export const approvalCommentsQuery = (companyId: string, approvalId: string) =>
  queryOptions({
    queryKey: approvalKeys.comments(companyId, approvalId),
    queryFn: async () =>
      data(
        await api.GET('/api/approvals/{approvalId}/comments', {
          params: { path: { approvalId }, query: { limit: APPROVAL_COMMENTS } },
        }),
      ),
  });

export const approvalIssuesQuery = (companyId: string, approvalId: string) =>
  queryOptions({
    queryKey: approvalKeys.issues(companyId, approvalId),
    queryFn: async () =>
      data(await api.GET('/api/approvals/{approvalId}/issues', { params: { path: { approvalId } } })),
  });
