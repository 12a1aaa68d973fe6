// An agent's lifecycle calls, one copy for every place that acts on an agent (its page's buttons, the
// command palette): pause, resume, terminate and wake now, then the reads they change.
import { useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import { agentKeys, agentListKeys } from '../../queries/agents';

export type Lifecycle = 'pause' | 'resume' | 'terminate';

export async function changeLifecycle(agentId: string, action: Lifecycle) {
  const path = { params: { path: { agentId } } };
  if (action === 'pause') return data(await api.POST('/api/agents/{agentId}/pause', path));
  if (action === 'resume') return data(await api.POST('/api/agents/{agentId}/resume', path));
  return data(await api.POST('/api/agents/{agentId}/terminate', path));
}

/** A wake from the board (on demand); the answer says whether a run was queued or why it was skipped. */
export async function wakeAgent(agentId: string) {
  return data(
    await api.POST('/api/agents/{agentId}/wakeup', {
      params: { path: { agentId } },
      body: { source: 'on_demand', triggerDetail: 'manual', reason: 'Woken from the board' },
    }),
  );
}

/** Why a wake was skipped, in words; null when a run was queued. */
export function wakeSkipped(result: Awaited<ReturnType<typeof wakeAgent>>): string | null {
  if (!('skipped' in result)) return null;
  return `The wake was skipped: ${result.reason === 'wake_rate_limited' ? 'its wake budget for this hour is spent (maxRunsPerHour)' : 'timer wakes are off for this agent'}.`;
}

/** Reads again the agent and the list after a lifecycle change. */
export function useRefreshAgent(companyId: string): (agentId: string) => Promise<unknown> {
  const queryClient = useQueryClient();
  return (agentId) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: agentKeys.detail(companyId, agentId) }),
      queryClient.invalidateQueries({ queryKey: agentListKeys.all(companyId) }),
    ]);
}
