// The issues page's own pieces over the shared reads (queries/issues.ts): names for ids in rows and
// cards, and the status move with its optimistic update.
import { useMutation, useQuery, useQueryClient, type InfiniteData, type QueryKey } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api, data } from '../../api/client';
import type { IssueStatus } from '../../lib/statuses';
import { useAgentNames } from '../../queries/agents';
import { issueListKeys, type Issue, type IssuePage } from '../../queries/issues';
import { projectsQuery } from '../../queries/projects';

export interface Names {
  agent(id: string | null): string | undefined;
  project(id: string | null): string | undefined;
}

/** Names for ids, for rows and cards (an id not (yet) known shows as nothing rather than a UUID). */
export function useNames(companyId: string): Names {
  const { knownName } = useAgentNames(companyId);
  const projects = useQuery(projectsQuery(companyId)).data;
  return useMemo(() => {
    const projectNames = new Map(projects?.map((project) => [project.id, project.name]));
    return {
      agent: knownName,
      project: (id) => (id ? projectNames.get(id) : undefined),
    };
  }, [knownName, projects]);
}

type Pages = InfiniteData<IssuePage, string | null>;
const MOVE = ['move-issue'];

/** The status a board column's key ends with (see issueListKeys.column). */
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
  const board = issueListKeys.board(companyId);
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
        void queryClient.invalidateQueries({ queryKey: issueListKeys.all(companyId) });
    },
  });
}
