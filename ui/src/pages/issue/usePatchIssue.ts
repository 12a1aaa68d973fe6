// One way to change the issue: PATCH, then the detail answer is merged into the cache at once and
// the detail refetched (its related objects: project, goal, blockers). A refusal (422 for the board) stays on
// the mutation for the control that made it to show, in the server's words.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import type { paths } from '../../api/schema';
import { issueKeys, issueListKeys, type IssueDetail } from '../../queries/issues';

export type IssuePatch = NonNullable<
  paths['/api/issues/{issueId}']['patch']['requestBody']
>['content']['application/json'];

export function usePatchIssue(companyId: string, issueId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (patch: IssuePatch) =>
      data(await api.PATCH('/api/issues/{issueId}', { params: { path: { issueId } }, body: patch })),
    onSuccess: (updated) => {
      queryClient.setQueriesData<IssueDetail>({ queryKey: issueKeys.all(companyId) }, (old) =>
        old && old.id === updated.id ? { ...old, ...updated } : old,
      );
      void queryClient.invalidateQueries({ queryKey: issueKeys.all(companyId) });
      void queryClient.invalidateQueries({ queryKey: issueListKeys.all(companyId) });
    },
  });
}
