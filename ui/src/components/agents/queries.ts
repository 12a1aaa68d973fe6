// The agent reads the agents pages and the org chart share, as queryOptions so every page caches
// them under one key. Keys use the live resources 'agents', 'agent' and 'runs', so activity and run
// events refresh them (live/invalidation.ts); nothing here polls.
import { queryOptions } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import { companyKey } from '../../api/keys';
import type { paths } from '../../api/schema';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
export type Agent = Json<paths['/api/companies/{companyId}/agents']['get']['responses'][200]>[number];
export type AgentDetail = Json<paths['/api/agents/{agentId}']['get']['responses'][200]>;
export type Run = Json<paths['/api/companies/{companyId}/heartbeat-runs']['get']['responses'][200]>[number];
export type AgentStatus = Agent['status'];
export type AgentKey = Json<paths['/api/agents/{agentId}/keys']['get']['responses'][200]>[number];

/** The company's live agents (the server bounds the list at 1000, oldest first). */
export const agentsQuery = (companyId: string) =>
  queryOptions({
    queryKey: companyKey(companyId, 'agents'),
    queryFn: async () => data(await api.GET('/api/companies/{companyId}/agents', { params: { path: { companyId } } })),
  });

export const agentQuery = (companyId: string, agentId: string) =>
  queryOptions({
    queryKey: companyKey(companyId, 'agent', agentId),
    queryFn: async () =>
      data(await api.GET('/api/agents/{agentId}', { params: { path: { agentId }, query: { companyId } } })),
  });

// A company with more live runs than this is far beyond one board screen; the list says so.
export const LIVE_RUNS_LIMIT = 200;

/** The company's queued and running runs (two bounded reads), newest first. */
export const liveRunsQuery = (companyId: string) =>
  queryOptions({
    queryKey: companyKey(companyId, 'runs', 'live'),
    queryFn: async () => {
      const read = async (status: 'running' | 'queued') =>
        data(
          await api.GET('/api/companies/{companyId}/heartbeat-runs', {
            params: { path: { companyId }, query: { status, limit: LIVE_RUNS_LIMIT } },
          }),
        );
      const [running, queued] = await Promise.all([read('running'), read('queued')]);
      return [...running, ...queued];
    },
  });

export const isLive = (run: Pick<Run, 'status'>) => run.status === 'queued' || run.status === 'running';
