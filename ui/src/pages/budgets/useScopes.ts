// Names of the company, its agents and projects, for the scopes budget policies and incidents name.
// Each is the query every page shares (agents, projects, the company), so live events keep them fresh.
import { useQuery } from '@tanstack/react-query';
import { agentsQuery } from '../../queries/agents';
import { companyQuery } from '../../queries/company';
import { projectsQuery } from '../../queries/projects';

export function useScopes(companyId: string) {
  const agents = useQuery(agentsQuery(companyId));
  const projects = useQuery(projectsQuery(companyId));
  const company = useQuery(companyQuery(companyId));
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
