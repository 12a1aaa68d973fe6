import { useQueryClient } from '@tanstack/react-query';
import { companyKey, type Resource } from '../../api/keys';

/** What a decision or a resubmission changes: the approval, the lists and counts that show it, and a hire's agent. */
const DECIDED_BY: Resource[] = ['approval', 'approvals', 'inbox', 'agents', 'org', 'counts', 'dashboard'];

/** Reads again everything an approval's change shows in (the live stream would too, within a second). */
export function useRefreshAfterDecision(companyId: string): () => Promise<unknown> {
  const queryClient = useQueryClient();
  return () =>
    Promise.all(
      DECIDED_BY.map((resource) => queryClient.invalidateQueries({ queryKey: companyKey(companyId, resource) })),
    );
}
