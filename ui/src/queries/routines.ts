// Routines: the list and the server's preview of a schedule ('routines'), one routine and its runs
// ('routine'). Routine activity, and the issue activity that completes or fails a routine run,
// refresh them (live/invalidation.ts).
import { queryOptions } from '@tanstack/react-query';
import { api, data } from '../api/client';
import { companyResource } from '../api/keys';
import type { paths } from '../api/schema';

export type RoutineListItem =
  paths['/api/companies/{companyId}/routines']['get']['responses'][200]['content']['application/json'][number];
export type RoutineDetail = paths['/api/routines/{routineId}']['get']['responses'][200]['content']['application/json'];

const routines = companyResource('routines');
export const routineListKeys = {
  ...routines,
  list: (companyId: string) => routines.key(companyId, 'list'),
  schedulePreview: (companyId: string, expression: string, zone: string) =>
    routines.key(companyId, 'schedule-preview', expression, zone),
};

const routine = companyResource('routine');
export const routineKeys = {
  ...routine,
  detail: (companyId: string, routineId: string) => routine.key(companyId, routineId),
  runs: (companyId: string, routineId: string) => routine.key(companyId, routineId, 'runs'),
};

/** Routines listed at most (the page says so when it shows this many). */
export const ROUTINES_LIMIT = 200;
export const routinesQuery = (companyId: string) =>
  queryOptions({
    queryKey: routineListKeys.list(companyId),
    queryFn: async () =>
      data(
        await api.GET('/api/companies/{companyId}/routines', {
          params: { path: { companyId }, query: { limit: ROUTINES_LIMIT } },
        }),
      ),
  });

/** The next five fire times of an expression in a zone, as the server's scheduler reads it (the board never computes cron times itself). */
export const schedulePreviewQuery = (companyId: string, cronExpression: string, timezone: string) => {
  const expression = cronExpression.trim();
  const zone = timezone.trim() || 'UTC';
  return queryOptions({
    queryKey: routineListKeys.schedulePreview(companyId, expression, zone),
    queryFn: async () =>
      data(
        await api.GET('/api/companies/{companyId}/routines/schedule-preview', {
          params: { path: { companyId }, query: { cronExpression: expression, timezone: zone, count: 5 } },
        }),
      ),
    enabled: expression.length > 0,
    retry: false,
    staleTime: 30_000,
  });
};

export const routineQuery = (companyId: string, routineId: string) =>
  queryOptions({
    queryKey: routineKeys.detail(companyId, routineId),
    queryFn: async () => data(await api.GET('/api/routines/{routineId}', { params: { path: { routineId } } })),
  });

const RUNS_LIMIT = 50;
/** The routine's newest runs. */
export const routineRunsQuery = (companyId: string, routineId: string) =>
  queryOptions({
    queryKey: routineKeys.runs(companyId, routineId),
    queryFn: async () =>
      data(
        await api.GET('/api/routines/{routineId}/runs', {
          params: { path: { routineId }, query: { limit: RUNS_LIMIT } },
        }),
      ),
  });
