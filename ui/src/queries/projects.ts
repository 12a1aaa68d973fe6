// Projects: the list (issues, budgets and the projects page name projects from it) and one project
// with its goals and workspaces, and a workspace's runtime-service output. Project and workspace
// activity refreshes them (live/invalidation.ts); runtime services change without an event, so the
// project page follows an action's outcome itself and an open log panel reads on a timer.
import { queryOptions } from '@tanstack/react-query';
import { api, data } from '../api/client';
import { companyResource } from '../api/keys';
import type { paths } from '../api/schema';
import { isServiceLive, type ServiceStatus } from '../lib/statuses';

/** One project as its page reads it, with its goals and workspaces. */
export type Project = paths['/api/projects/{projectId}']['get']['responses'][200]['content']['application/json'];

const projects = companyResource('projects');
export const projectKeys = {
  ...projects,
  list: (companyId: string) => projects.key(companyId, 'list'),
  detail: (companyId: string, projectId: string) => projects.key(companyId, 'detail', projectId),
  runtimeLogs: (companyId: string, workspaceId: string, status: ServiceStatus | undefined) =>
    projects.key(companyId, 'runtime-logs', workspaceId, status),
};

export const projectsQuery = (companyId: string) =>
  queryOptions({
    queryKey: projectKeys.list(companyId),
    queryFn: async () =>
      data(await api.GET('/api/companies/{companyId}/projects', { params: { path: { companyId } } })),
  });

export const projectQuery = (companyId: string, projectId: string) =>
  queryOptions({
    queryKey: projectKeys.detail(companyId, projectId),
    queryFn: async () => data(await api.GET('/api/projects/{projectId}', { params: { path: { projectId } } })),
  });

/** Characters of a runtime service's output shown: the newest ones, in one read. */
const LOG_LIMIT = 16_384;

/**
 * The newest output of a workspace's runtime service. The status is part of the key: a start, restart
 * or crash reads the output again. No event announces output: while the service is live the query
 * reads it every 2 s (one bounded read); stopped, it reads nothing more.
 */
export const runtimeLogsQuery = (
  companyId: string,
  projectId: string,
  workspaceId: string,
  status: ServiceStatus | undefined,
) =>
  queryOptions({
    queryKey: projectKeys.runtimeLogs(companyId, workspaceId, status),
    queryFn: async () =>
      data(
        await api.GET('/api/projects/{projectId}/workspaces/{workspaceId}/runtime-services/logs', {
          params: { path: { projectId, workspaceId }, query: { at: 'end', limit: LOG_LIMIT } },
        }),
      ),
    refetchInterval: isServiceLive(status) ? 2000 : false,
  });
