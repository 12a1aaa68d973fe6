// One way to change the issue: PATCH, then the detail answer is merged into the cache at once and
// the detail refetched (its related objects: project, goal, blockers). A refusal (422 for the board) stays on
// the mutation for the control that made it to show, in the server's words. The command palette
// changes an issue through the same call and cache update (patchIssue, useIssuePatched).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import type { paths } from '../../api/schema';
import { issueKeys, issueListKeys, type IssueDetail } from '../../queries/issues';

export type IssuePatch = NonNullable<
  paths['/api/issues/{issueId}']['patch']['requestBody']
>['content']['application/json'];

export async function patchIssue(issueId: string, patch: IssuePatch) {
  return data(await api.PATCH('/api/issues/{issueId}', { params: { path: { issueId } }, body: patch }));
}

/** What follows a change: the answer merged into the cached detail, the issue and the lists read again. */
export function useIssuePatched(companyId: string) {
  const queryClient = useQueryClient();
  return (updated: Awaited<ReturnType<typeof patchIssue>>) => {
    queryClient.setQueriesData<IssueDetail>({ queryKey: issueKeys.all(companyId) }, (old) =>
      old && old.id === updated.id ? { ...old, ...updated } : old,
    );
    void queryClient.invalidateQueries({ queryKey: issueKeys.all(companyId) });
    void queryClient.invalidateQueries({ queryKey: issueListKeys.all(companyId) });
  };
}

export function usePatchIssue(companyId: string, issueId: string) {
  const patched = useIssuePatched(companyId);
  return useMutation({ mutationFn: (patch: IssuePatch) => patchIssue(issueId, patch), onSuccess: patched });
}
