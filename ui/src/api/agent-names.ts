// The company's agents by name, for pages that name agents by id (approvals, activity): one cached,
// live query ('agents' resource) under its own key, apart from the agents page's queries.
import { useQuery } from '@tanstack/react-query';
import { api, data } from './client';
import { companyKey } from './keys';

export function useAgentNames(companyId: string) {
  const agents = useQuery({
    queryKey: companyKey(companyId, 'agents', 'names'),
    queryFn: async () => data(await api.GET('/api/companies/{companyId}/agents', { params: { path: { companyId } } })),
  });
  /** The agent's name; a short id for one not listed (terminated) or before the list loads. */
  const nameOf = (agentId: string): string => agents.data?.find((agent) => agent.id === agentId)?.name ?? `agent ${agentId.slice(0, 8)}`;
  return { agents: agents.data ?? [], nameOf };
}
