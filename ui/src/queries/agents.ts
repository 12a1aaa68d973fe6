// The company's agents: the list every page shares (names, pickers, the org chart) and one agent with
// what hangs off it (its API keys, its skill selection). 'agents' is refreshed by activity on agents,
// approvals, runs and costs, 'agent' by the same on one agent (live/invalidation.ts); nothing polls.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api, data } from '../api/client';
import { companyResource } from '../api/keys';
import type { paths } from '../api/schema';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
export type Agent = Json<paths['/api/companies/{companyId}/agents']['get']['responses'][200]>[number];
export type AgentDetail = Json<paths['/api/agents/{agentId}']['get']['responses'][200]>;
export type AgentKey = Json<paths['/api/agents/{agentId}/keys']['get']['responses'][200]>[number];
export type AgentSkills = Json<paths['/api/agents/{agentId}/skills']['get']['responses'][200]>;

const agents = companyResource('agents');
export const agentListKeys = { ...agents, list: (companyId: string) => agents.key(companyId, 'list') };

const agent = companyResource('agent');
export const agentKeys = {
  ...agent,
  detail: (companyId: string, agentId: string) => agent.key(companyId, agentId),
  apiKeys: (companyId: string, agentId: string) => agent.key(companyId, agentId, 'keys'),
  skills: (companyId: string, agentId: string) => agent.key(companyId, agentId, 'skills'),
};

/** The company's live agents (the server bounds the list at 1000, oldest first). */
export const agentsQuery = (companyId: string) =>
  queryOptions({
    queryKey: agentListKeys.list(companyId),
    queryFn: async () => data(await api.GET('/api/companies/{companyId}/agents', { params: { path: { companyId } } })),
  });

export const agentQuery = (companyId: string, agentId: string) =>
  queryOptions({
    queryKey: agentKeys.detail(companyId, agentId),
    queryFn: async () =>
      data(await api.GET('/api/agents/{agentId}', { params: { path: { agentId }, query: { companyId } } })),
  });

/** The agent's API keys, revoked ones included (the audit trail keeps them). */
export const agentApiKeysQuery = (companyId: string, agentId: string) =>
  queryOptions({
    queryKey: agentKeys.apiKeys(companyId, agentId),
    queryFn: async () => data(await api.GET('/api/agents/{agentId}/keys', { params: { path: { agentId } } })),
  });

/** The agent's skill selection as its adapter sees it (desired skills and how each is delivered). */
export const agentSkillsQuery = (companyId: string, agentId: string) =>
  queryOptions({
    queryKey: agentKeys.skills(companyId, agentId),
    queryFn: async () => data(await api.GET('/api/agents/{agentId}/skills', { params: { path: { agentId } } })),
  });

/**
 * The company's agents by id, from the one shared agents query: `nameOf` for text (a short id for an
 * agent not listed, i.e. terminated, or before the list loads), `knownName` where an unknown agent
 * shows as nothing rather than a UUID.
 */
export function useAgentNames(companyId: string) {
  const list = useQuery(agentsQuery(companyId));
  const { data: listed, error, refetch } = list;
  return useMemo(() => {
    const names = new Map(listed?.map((one) => [one.id, one.name]));
    return {
      agents: listed ?? [],
      /** The list's failure (names then fall back to short ids), and its retry. */
      error,
      retry: () => void refetch(),
      knownName: (agentId: string | null | undefined): string | undefined => (agentId ? names.get(agentId) : undefined),
      nameOf: (agentId: string): string => names.get(agentId) ?? `agent ${agentId.slice(0, 8)}`,
    };
  }, [listed, error, refetch]);
}
