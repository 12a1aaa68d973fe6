// The sidebar's live counts. Each comes from a bounded read and is refreshed by the live layer
// (resources 'counts', 'dashboard' and 'inbox').
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, data } from '../api/client';
import { companyKey } from '../api/keys';
import { inboxQuery } from '../pages/inbox/inbox-query';

/** The dashboard snapshot: the sidebar's counts and the dashboard's cards read this one query. */
export const dashboardQuery = (companyId: string) =>
  queryOptions({
    queryKey: companyKey(companyId, 'dashboard'),
    queryFn: async () =>
      data(await api.GET('/api/companies/{companyId}/dashboard', { params: { path: { companyId } } })),
  });

export interface SidebarCounts {
  openIssues: number;
  pendingApprovals: number;
  runningRuns: number;
  /** Unread items of the board user's inbox (the inbox page's own query, shared). */
  unreadInbox: number;
}

export function useSidebarCounts(companyId: string) {
  const dashboard = useQuery(dashboardQuery(companyId));
  const running = useQuery({
    queryKey: companyKey(companyId, 'counts', 'running-runs'),
    queryFn: async () =>
      data(
        await api.GET('/api/companies/{companyId}/heartbeat-runs', {
          params: { path: { companyId }, query: { status: 'running', limit: 100 } },
        }),
      ).length,
  });
  const inbox = useQuery(inboxQuery(companyId));
  const counts: Partial<SidebarCounts> = {
    ...(dashboard.data && { openIssues: dashboard.data.tasks.open, pendingApprovals: dashboard.data.pendingApprovals }),
    ...(running.data !== undefined && { runningRuns: running.data }),
    ...(inbox.data && { unreadInbox: inbox.data.unreadCount }),
  };
  return counts;
}
