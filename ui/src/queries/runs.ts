// Heartbeat runs: the company's live runs (the agents list's "current run"), an agent's runs a page at
// a time, the runs about an issue; the dashboard's "Now" rows ('live-runs', whose last log lines the
// live layer puts in from run_log events) and the sidebar's running count ('counts'). A run changing
// status refreshes all of them (live/invalidation.ts); nothing here polls.
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { api, data } from '../api/client';
import { companyResource } from '../api/keys';
import type { paths } from '../api/schema';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
export type Run = Json<paths['/api/companies/{companyId}/heartbeat-runs']['get']['responses'][200]>[number];
/** A run as the issue's runs list answers it (the company's runs list answers the same brief). */
export type RunSummary = Json<paths['/api/issues/{issueId}/runs']['get']['responses'][200]>[number];
export type LiveRun = Json<paths['/api/companies/{companyId}/live-runs']['get']['responses'][200]>[number];

const runs = companyResource('runs');
export const runKeys = {
  ...runs,
  live: (companyId: string) => runs.key(companyId, 'live'),
  ofAgent: (companyId: string, agentId: string) => runs.key(companyId, 'agent', agentId),
  wokenFor: (companyId: string, issueId: string, limit: number) => runs.key(companyId, 'woken-for', issueId, limit),
  checkedOut: (companyId: string, issueId: string, limit: number) => runs.key(companyId, 'checked-out', issueId, limit),
};

const liveRuns = companyResource('live-runs');
export const liveRunKeys = { ...liveRuns, rows: (companyId: string, limit: number) => liveRuns.key(companyId, limit) };

const counts = companyResource('counts');
export const countKeys = { ...counts, runningRuns: (companyId: string) => counts.key(companyId, 'running-runs') };

const listRuns = async (
  companyId: string,
  query: NonNullable<paths['/api/companies/{companyId}/heartbeat-runs']['get']['parameters']['query']>,
) => data(await api.GET('/api/companies/{companyId}/heartbeat-runs', { params: { path: { companyId }, query } }));

// A company with more live runs than this is far beyond one board screen; the list says so.
export const LIVE_RUNS_LIMIT = 200;

/** The company's queued and running runs (two bounded reads), newest first. */
export const liveRunsQuery = (companyId: string) =>
  queryOptions({
    queryKey: runKeys.live(companyId),
    queryFn: async () => {
      const [running, queued] = await Promise.all([
        listRuns(companyId, { status: 'running', limit: LIVE_RUNS_LIMIT }),
        listRuns(companyId, { status: 'queued', limit: LIVE_RUNS_LIMIT }),
      ]);
      return [...running, ...queued];
    },
  });

/** The agent's runs, newest first, a page at a time (keyset: `before` = the last run of a page). */
export const agentRunsQuery = (companyId: string, agentId: string, pageSize: number) =>
  infiniteQueryOptions({
    queryKey: runKeys.ofAgent(companyId, agentId),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      listRuns(companyId, { agentId, limit: pageSize, ...(pageParam && { before: pageParam }) }),
    getNextPageParam: (last) => (last.length === pageSize ? last.at(-1)?.runId : undefined),
  });

/** The newest runs woken for the issue. */
export const issueWokenRunsQuery = (companyId: string, issueId: string, limit: number) =>
  queryOptions({
    queryKey: runKeys.wokenFor(companyId, issueId, limit),
    queryFn: () => listRuns(companyId, { issueId, limit }),
  });

/** The newest runs that checked the issue out (a second list on the server). */
export const issueCheckoutRunsQuery = (companyId: string, issueId: string, limit: number) =>
  queryOptions({
    queryKey: runKeys.checkedOut(companyId, issueId, limit),
    queryFn: async () =>
      data(await api.GET('/api/issues/{issueId}/runs', { params: { path: { issueId }, query: { limit } } })),
  });

/** "Now": every live run with its agent, issue and last log line (GET .../live-runs), the newest `limit`. */
export const liveRunRowsQuery = (companyId: string, limit: number) =>
  queryOptions({
    queryKey: liveRunKeys.rows(companyId, limit),
    queryFn: async () =>
      data(
        await api.GET('/api/companies/{companyId}/live-runs', { params: { path: { companyId }, query: { limit } } }),
      ),
  });

/** How many runs are running, for the sidebar (bounded: it shows "100" for more). */
export const runningRunCountQuery = (companyId: string) =>
  queryOptions({
    queryKey: countKeys.runningRuns(companyId),
    queryFn: async () => (await listRuns(companyId, { status: 'running', limit: 100 })).length,
  });

export type RunDetail = Json<paths['/api/heartbeat-runs/{runId}']['get']['responses'][200]>;

/** One run with its outcome (the run page); a run status change refreshes it with the other run reads. */
export const runQuery = (companyId: string, runId: string) =>
  queryOptions({
    queryKey: runKeys.key(companyId, 'detail', runId),
    queryFn: async () => data(await api.GET('/api/heartbeat-runs/{runId}', { params: { path: { runId } } })),
  });

/** The issues the run touched (GET /api/heartbeat-runs/{runId}/issues). */
export const runIssuesQuery = (companyId: string, runId: string) =>
  queryOptions({
    queryKey: runKeys.key(companyId, 'issues', runId),
    queryFn: async () => data(await api.GET('/api/heartbeat-runs/{runId}/issues', { params: { path: { runId } } })),
  });

/** How much of a finished run's log end is read for its last line (a collapsed transcript). */
const LOG_TAIL_BYTES = 4096;

/** The end of a finished run's log: one bounded read, not the whole log, for a collapsed transcript. */
export const runLogTailQuery = (companyId: string, runId: string, logBytes: number) =>
  queryOptions({
    queryKey: runKeys.key(companyId, 'log-tail', runId, logBytes),
    queryFn: async () =>
      data(
        await api.GET('/api/heartbeat-runs/{runId}/log', {
          params: { path: { runId }, query: { offset: Math.max(0, logBytes - LOG_TAIL_BYTES), limit: LOG_TAIL_BYTES } },
        }),
      ).content,
    staleTime: Number.POSITIVE_INFINITY,
  });
