// The sidebar's live counts. Each comes from a bounded read and is refreshed by the live layer
// (resources 'counts' and 'dashboard').
import { useQuery } from '@tanstack/react-query';
import { api, data } from '../api/client';
import { companyKey } from '../api/keys';

export interface SidebarCounts {
  openIssues: number;
  pendingApprovals: number;
  runningRuns: number;
}

export function useSidebarCounts(companyId: string) {
  const dashboard = useQuery({
    queryKey: companyKey(companyId, 'dashboard'),
    queryFn: async () => data(await api.GET('/api/companies/{companyId}/dashboard', { params: { path: { companyId } } })),
  });
  const running = useQuery({
    queryKey: companyKey(companyId, 'counts', 'running-runs'),
    queryFn: async () =>
      data(await api.GET('/api/companies/{companyId}/heartbeat-runs', { params: { path: { companyId }, query: { status: 'running', limit: 100 } } })).length,
  });
  const counts: Partial<SidebarCounts> = {
    ...(dashboard.data && { openIssues: dashboard.data.tasks.open, pendingApprovals: dashboard.data.pendingApprovals }),
    ...(running.data !== undefined && { runningRuns: running.data }),
  };
  return counts;
}
