import { useQueryClient } from '@tanstack/react-query';
import { agentListKeys } from '../../queries/agents';
import { approvalKeys, approvalListKeys } from '../../queries/approvals';
import { dashboardKeys } from '../../queries/dashboard';
import { inboxKeys } from '../../queries/inbox';
import { countKeys } from '../../queries/runs';

/** What a decision or a resubmission changes: the approval, the lists and counts that show it, and a hire's agent. */
const DECIDED_BY = [approvalKeys, approvalListKeys, inboxKeys, agentListKeys, countKeys, dashboardKeys];

/** Reads again everything an approval's change shows in (the live stream would too, within a second). */
export function useRefreshAfterDecision(companyId: string): () => Promise<unknown> {
  const queryClient = useQueryClient();
  return () =>
    Promise.all(DECIDED_BY.map((resource) => queryClient.invalidateQueries({ queryKey: resource.all(companyId) })));
}
