// The company's agents by name, for pages that name agents by id (approvals, activity): the one agents
// query every page shares (live through the 'agents' resource).
import { useQuery } from '@tanstack/react-query';
import { agentsQuery } from '../components/agents/queries';

export function useAgentNames(companyId: string) {
  const agents = useQuery(agentsQuery(companyId));
  /** The agent's name; a short id for one not listed (terminated) or before the list loads. */
  const nameOf = (agentId: string): string =>
    agents.data?.find((agent) => agent.id === agentId)?.name ?? `agent ${agentId.slice(0, 8)}`;
  return { agents: agents.data ?? [], nameOf };
}
