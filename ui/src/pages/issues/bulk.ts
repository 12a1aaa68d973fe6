// Changing several issues at once: the server has no bulk route, so one PATCH per issue, a few at a
// time (a hundred selected issues are not a hundred requests at once), with progress as they answer
// and, at the end, which ones failed and why.
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { api, data, errorMessage } from '../../api/client';
import type { IssueStatus } from '../../lib/statuses';
import { issueKeys, issueListKeys, type Issue } from '../../queries/issues';

/** Requests in flight at once. */
export const BULK_CONCURRENCY = 4;

export type IssueChange = { status: IssueStatus } | { assigneeAgentId: string | null };

export interface BulkFailure {
  issue: Pick<Issue, 'id' | 'identifier' | 'title'>;
  message: string;
}

export interface BulkProgress {
  done: number;
  total: number;
  failures: BulkFailure[];
  running: boolean;
}

/** Runs `work` over `items`, at most `limit` at a time, reporting each settled one. */
export async function eachBounded<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
  settled: () => void,
): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      try {
        await work(item);
      } finally {
        settled();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/** PATCHes each issue with the change; the lists refresh once all have answered. */
export function useBulkUpdate(companyId: string) {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<BulkProgress | null>(null);
  const run = useCallback(
    async (issues: readonly Pick<Issue, 'id' | 'identifier' | 'title'>[], change: IssueChange) => {
      const failures: BulkFailure[] = [];
      let done = 0;
      setProgress({ done, total: issues.length, failures, running: true });
      await eachBounded(
        issues,
        BULK_CONCURRENCY,
        async (issue) => {
          try {
            data(await api.PATCH('/api/issues/{issueId}', { params: { path: { issueId: issue.id } }, body: change }));
          } catch (error) {
            failures.push({ issue, message: errorMessage(error) });
          }
        },
        () => {
          done += 1;
          setProgress({ done, total: issues.length, failures: [...failures], running: done < issues.length });
        },
      );
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: issueListKeys.all(companyId) }),
        queryClient.invalidateQueries({ queryKey: issueKeys.all(companyId) }),
      ]);
      return failures;
    },
    [companyId, queryClient],
  );
  return { progress, run, dismiss: () => setProgress(null) };
}
