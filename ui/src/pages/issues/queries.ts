// The issues page's data: keyset pages of the list (X-Next-Cursor), the company's agents, projects and
// goals for filters and names, and the status move with its optimistic update. Every key is under the
// 'issues' resource (or the referenced one), so live events refresh it; nothing polls.
import {
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type InfiniteData,
  type QueryKey,
} from '@tanstack/react-query';
import { useMemo } from 'react';
import { api, data } from '../../api/client';
import { agentsQuery } from '../../components/agents/queries';
import { companyKey } from '../../api/keys';
import type { Issue, IssueStatus } from './model';
import type { listQuery } from './url-state';

export interface IssuePage {
  issues: Issue[];
  nextCursor: string | null;
}
type ListQuery = ReturnType<typeof listQuery>;

/** Rows per request: a few screens of the list, a small answer (the route allows up to 500). */
export const PAGE_SIZE = 100;
/** Cards per column and request: more than a column shows; "Show more" asks for the next ones. */
const COLUMN_PAGE_SIZE = 30;
const NEXT_CURSOR = 'x-next-cursor';

async function fetchPage(
  companyId: string,
  query: ListQuery,
  cursor: string | null,
  limit: number,
): Promise<IssuePage> {
  const result = await api.GET('/api/companies/{companyId}/issues', {
    params: { path: { companyId }, query: { ...query, limit, ...(cursor && { cursor }) } },
  });
  return { issues: data(result), nextCursor: result.response.headers.get(NEXT_CURSOR) };
}

/**
 * The list, a page at a time: `fetchNextPage` as the reader nears the end. A board column is the
 * list narrowed to its status, keyed by that status last (the move below finds columns by it).
 */
export function useIssuePages(companyId: string, query: ListQuery, column?: IssueStatus) {
  const scoped = column ? { ...query, status: column } : query;
  return useInfiniteQuery({
    queryKey: companyKey(companyId, 'issues', column ? 'board' : 'list', scoped, column ?? null),
    queryFn: ({ pageParam }) => fetchPage(companyId, scoped, pageParam, column ? COLUMN_PAGE_SIZE : PAGE_SIZE),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}

export function useAgents(companyId: string) {
  return useQuery(agentsQuery(companyId));
}

export function useProjects(companyId: string) {
  return useQuery({
    queryKey: companyKey(companyId, 'projects', 'list'),
    queryFn: async () =>
      data(await api.GET('/api/companies/{companyId}/projects', { params: { path: { companyId } } })),
  });
}

export function useGoals(companyId: string) {
  return useQuery({
    queryKey: companyKey(companyId, 'goals', 'list'),
    queryFn: async () => data(await api.GET('/api/companies/{companyId}/goals', { params: { path: { companyId } } })),
  });
}

export interface Names {
  agent(id: string | null): string | undefined;
  project(id: string | null): string | undefined;
}

/** Names for ids, for rows and cards (an id not (yet) known shows as nothing rather than a UUID). */
export function useNames(companyId: string): Names {
  const agents = useAgents(companyId).data;
  const projects = useProjects(companyId).data;
  return useMemo(() => {
    const agentNames = new Map(agents?.map((agent) => [agent.id, agent.name]));
    const projectNames = new Map(projects?.map((project) => [project.id, project.name]));
    return {
      agent: (id) => (id ? agentNames.get(id) : undefined),
      project: (id) => (id ? projectNames.get(id) : undefined),
    };
  }, [agents, projects]);
}

type Pages = InfiniteData<IssuePage, string | null>;
const MOVE = ['move-issue'];

/** The status a board column's key ends with (see useIssuePages). */
const columnStatus = (key: QueryKey): unknown => key[key.length - 1];

function moveCard(pages: Pages, issue: Issue, to: IssueStatus, isTarget: boolean): Pages {
  const without = pages.pages.map((page) => ({ ...page, issues: page.issues.filter((card) => card.id !== issue.id) }));
  if (isTarget && without[0]) without[0] = { ...without[0], issues: [{ ...issue, status: to }, ...without[0].issues] };
  return { ...pages, pages: without };
}

/**
 * PATCH an issue's status from a board drag: the card moves at once, goes back if the server refuses
 * (the caller shows the server's reason), and the board refetches once the last move settles.
 */
export function useMoveIssue(companyId: string) {
  const queryClient = useQueryClient();
  const board = companyKey(companyId, 'issues', 'board');
  return useMutation({
    mutationKey: MOVE,
    mutationFn: async ({ issue, to }: { issue: Issue; to: IssueStatus }) =>
      data(await api.PATCH('/api/issues/{issueId}', { params: { path: { issueId: issue.id } }, body: { status: to } })),
    onMutate: async ({ issue, to }) => {
      await queryClient.cancelQueries({ queryKey: board });
      const before = queryClient.getQueriesData<Pages>({ queryKey: board });
      for (const [key, pages] of before) {
        if (pages) queryClient.setQueryData<Pages>(key, moveCard(pages, issue, to, columnStatus(key) === to));
      }
      return { before };
    },
    onError: (_error, _move, context) => {
      for (const [key, pages] of context?.before ?? []) queryClient.setQueryData(key, pages);
    },
    onSettled: () => {
      // This mutation still counts as running here: 1 means no other move is in flight.
      if (queryClient.isMutating({ mutationKey: MOVE }) === 1)
        void queryClient.invalidateQueries({ queryKey: companyKey(companyId, 'issues') });
    },
  });
}
