// The sidebar's live counts. Each comes from a bounded read and is refreshed by the live layer
// (resources 'counts', 'dashboard' and 'inbox').
import { useQuery } from '@tanstack/react-query';
import { dashboardQuery } from '../queries/dashboard';
import { inboxQuery } from '../queries/inbox';
import { runningRunCountQuery } from '../queries/runs';

export interface SidebarCounts {
  openIssues: number;
  pendingApprovals: number;
  runningRuns: number;
  /** Unread items of the board user's inbox (the inbox page's own query, shared). */
  unreadInbox: number;
}

export function useSidebarCounts(companyId: string) {
  const dashboard = useQuery(dashboardQuery(companyId));
  const running = useQuery(runningRunCountQuery(companyId));
  const inbox = useQuery(inboxQuery(companyId));
  const counts: Partial<SidebarCounts> = {
    ...(dashboard.data && { openIssues: dashboard.data.tasks.open, pendingApprovals: dashboard.data.pendingApprovals }),
    ...(running.data !== undefined && { runningRuns: running.data }),
    ...(inbox.data && { unreadInbox: inbox.data.unreadCount }),
  };
  return counts;
}
