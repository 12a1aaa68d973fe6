// The budgets page's reads, under the live resources 'budgets' (policies, incidents), 'agents' and
// 'projects' (scope names): a cost event, an incident or a stop refreshes them without polling.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import { companyKey } from '../../api/keys';
import type { paths } from '../../api/schema';
import { agentsQuery } from '../../components/agents/queries';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
export type Overview = Json<paths['/api/companies/{companyId}/budgets/overview']['get']['responses'][200]>;
export type Policy = Overview['policies'][number];
export type Incident = Overview['activeIncidents'][number];
export type ScopeType = Policy['scopeType'];

export const budgetOverviewQuery = (companyId: string) =>
  queryOptions({
    queryKey: companyKey(companyId, 'budgets', 'overview'),
    queryFn: async () =>
      data(await api.GET('/api/companies/{companyId}/budgets/overview', { params: { path: { companyId } } })),
  });

/** Names of the company, its agents and projects, for the scopes policies and incidents name. */
export function useScopes(companyId: string) {
  const agents = useQuery(agentsQuery(companyId));
  const projects = useQuery({
    queryKey: companyKey(companyId, 'projects', 'list'),
    queryFn: async () =>
      data(await api.GET('/api/companies/{companyId}/projects', { params: { path: { companyId } } })),
  });
  const company = useQuery({
    queryKey: companyKey(companyId, 'company'),
    queryFn: async () => data(await api.GET('/api/companies/{companyId}', { params: { path: { companyId } } })),
  });
  const nameOf = (scopeType: string, scopeId: string): string => {
    if (scopeType === 'agent') return agents.data?.find((a) => a.id === scopeId)?.name ?? 'Deleted agent';
    if (scopeType === 'project') return projects.data?.find((p) => p.id === scopeId)?.name ?? 'Deleted project';
    return company.data?.name ?? 'The company';
  };
  return {
    agents: agents.data ?? [],
    projects: projects.data ?? [],
    nameOf,
    error: agents.error ?? projects.error ?? company.error,
  };
}
