// Issues: the lists ('issues': the issues page's pages and board columns, search, sub-issues, a
// project's and a routine's issues) and one issue with what hangs off it ('issue': the detail, its
// comments and attachments). Issue activity refreshes both; a comment or attachment only 'issue'
// (live/invalidation.ts). Nothing here polls.
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { api, data } from '../api/client';
import { companyResource } from '../api/keys';
import type { paths } from '../api/schema';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
type ListQuery = NonNullable<paths['/api/companies/{companyId}/issues']['get']['parameters']['query']>;
/** An issue as the list route answers it. */
export type Issue = Json<paths['/api/companies/{companyId}/issues']['get']['responses'][200]>[number];
export type IssueDetail = Json<paths['/api/issues/{issueId}']['get']['responses'][200]>;
export type IssueActivity = Json<paths['/api/issues/{issueId}/activity']['get']['responses'][200]>[number];
export type Attachment = Json<paths['/api/issues/{issueId}/attachments']['get']['responses'][200]>[number];

const lists = companyResource('issues');
export const issueListKeys = {
  ...lists,
  pages: (companyId: string, query: ListQuery) => lists.key(companyId, 'list', query),
  /** Every board column: the prefix a card move updates in place. */
  board: (companyId: string) => lists.key(companyId, 'board'),
  /** A board column is the list narrowed to its status, which ends its key (a card move finds columns by it). */
  column: (companyId: string, query: ListQuery, status: string) => lists.key(companyId, 'board', query, status),
  search: (companyId: string, q: string, limit: number) => lists.key(companyId, 'search', q, limit),
  children: (companyId: string, parentId: string) => lists.key(companyId, 'children', parentId),
  ofProject: (companyId: string, projectId: string, limit: number) => lists.key(companyId, 'project', projectId, limit),
  ofRoutine: (companyId: string, routineId: string) => lists.key(companyId, 'routine-executions', routineId),
  ofAgent: (companyId: string, agentId: string, limit: number) => lists.key(companyId, 'agent', agentId, limit),
};

const issue = companyResource('issue');
export const issueKeys = {
  ...issue,
  detail: (companyId: string, issueRef: string) => issue.key(companyId, issueRef),
  comments: (companyId: string, issueId: string) => issue.key(companyId, issueId, 'comments'),
  attachments: (companyId: string, issueId: string) => issue.key(companyId, issueId, 'attachments'),
  activity: (companyId: string, issueId: string) => issue.key(companyId, issueId, 'activity'),
};

const listIssues = async (companyId: string, query: ListQuery) =>
  data(await api.GET('/api/companies/{companyId}/issues', { params: { path: { companyId }, query } }));

export interface IssuePage {
  issues: Issue[];
  nextCursor: string | null;
}
/** Rows per request: a few screens of the list, a small answer (the route allows up to 500). */
export const PAGE_SIZE = 100;
/** Cards per column and request: more than a column shows; "Show more" asks for the next ones. */
const COLUMN_PAGE_SIZE = 30;
const NEXT_CURSOR = 'x-next-cursor';

const pagesOf = (queryKey: readonly unknown[], companyId: string, query: ListQuery, limit: number) =>
  infiniteQueryOptions({
    queryKey,
    queryFn: async ({ pageParam }): Promise<IssuePage> => {
      const result = await api.GET('/api/companies/{companyId}/issues', {
        params: { path: { companyId }, query: { ...query, limit, ...(pageParam && { cursor: pageParam }) } },
      });
      return { issues: data(result), nextCursor: result.response.headers.get(NEXT_CURSOR) };
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

/** The issues list, a page at a time (keyset, X-Next-Cursor): `fetchNextPage` as the reader nears the end. */
export const issuePagesQuery = (companyId: string, query: ListQuery) =>
  pagesOf(issueListKeys.pages(companyId, query), companyId, query, PAGE_SIZE);

/** One board column: the list narrowed to a status, a column's worth at a time. */
export const issueColumnQuery = (companyId: string, query: ListQuery, status: NonNullable<Issue['status']>) => {
  const scoped = { ...query, status };
  return pagesOf(issueListKeys.column(companyId, scoped, status), companyId, scoped, COLUMN_PAGE_SIZE);
};

/** Issues matching a title or identifier (the list route's `q`); asks nothing for an empty text. */
export const issueSearchQuery = (companyId: string, q: string, limit: number) =>
  queryOptions({
    queryKey: issueListKeys.search(companyId, q, limit),
    queryFn: () => listIssues(companyId, { q, limit }),
    enabled: q.length > 0,
    staleTime: 10_000,
  });

/** How many sub-issues the issue page shows: the newest ones. */
export const SUB_ISSUE_PAGE = 100;
export const subIssuesQuery = (companyId: string, parentId: string) =>
  queryOptions({
    queryKey: issueListKeys.children(companyId, parentId),
    queryFn: () => listIssues(companyId, { parentId, limit: SUB_ISSUE_PAGE }),
  });

/** The project's latest issues (its page links to the issues list filtered to it for the rest). */
export const projectIssuesQuery = (companyId: string, projectId: string, limit: number) =>
  queryOptions({
    queryKey: issueListKeys.ofProject(companyId, projectId, limit),
    queryFn: () => listIssues(companyId, { projectId, limit }),
  });

/** The latest issues assigned to the agent (its page links to the issues list filtered to it for the rest). */
export const agentIssuesQuery = (companyId: string, agentId: string, limit: number) =>
  queryOptions({
    queryKey: issueListKeys.ofAgent(companyId, agentId, limit),
    queryFn: () => listIssues(companyId, { assigneeAgentId: agentId, limit }),
  });

/** The routine's execution issues, to name each run's issue (one bounded read, not one per run). */
export const routineIssuesQuery = (companyId: string, routineId: string) =>
  queryOptions({
    queryKey: issueListKeys.ofRoutine(companyId, routineId),
    queryFn: () => listIssues(companyId, { originKind: 'routine_execution', originId: routineId, limit: 500 }),
  });

/** One issue in full, by identifier (ACME-12) or id. */
export const issueQuery = (companyId: string, issueRef: string) =>
  queryOptions({
    queryKey: issueKeys.detail(companyId, issueRef),
    queryFn: async () => data(await api.GET('/api/issues/{issueId}', { params: { path: { issueId: issueRef } } })),
  });

/** How many comments the issue page shows: the newest ones, oldest first. */
export const COMMENT_PAGE = 200;
export const issueCommentsQuery = (companyId: string, issueId: string) =>
  queryOptions({
    queryKey: issueKeys.comments(companyId, issueId),
    queryFn: async () =>
      data(
        await api.GET('/api/issues/{issueId}/comments', {
          params: { path: { issueId }, query: { order: 'desc', limit: COMMENT_PAGE } },
        }),
      ).reverse(),
  });

export const issueAttachmentsQuery = (companyId: string, issueId: string) =>
  queryOptions({
    queryKey: issueKeys.attachments(companyId, issueId),
    queryFn: async () => data(await api.GET('/api/issues/{issueId}/attachments', { params: { path: { issueId } } })),
  });

/** How many of the issue's activity entries its timeline reads: the newest ones. */
export const ISSUE_ACTIVITY_PAGE = 200;
/** The issue's activity (status and assignee changes, documents...), oldest first. */
export const issueActivityQuery = (companyId: string, issueId: string) =>
  queryOptions({
    queryKey: issueKeys.activity(companyId, issueId),
    queryFn: async () =>
      data(
        await api.GET('/api/issues/{issueId}/activity', {
          params: { path: { issueId }, query: { limit: ISSUE_ACTIVITY_PAGE } },
        }),
      ).reverse(),
  });
