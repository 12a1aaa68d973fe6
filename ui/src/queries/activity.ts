// The audit trail ('activity'), refreshed by every activity event (live/invalidation.ts).
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, data } from '../api/client';
import { companyResource } from '../api/keys';
import type { paths } from '../api/schema';

type ActivityQuery = NonNullable<paths['/api/companies/{companyId}/activity']['get']['parameters']['query']>;

const activity = companyResource('activity');
export const activityKeys = {
  ...activity,
  list: (companyId: string, query: ActivityQuery) => activity.key(companyId, query),
};

/** The newest entries matching the filters; while other filters load, the previous entries stay shown. */
export const activityQuery = (companyId: string, query: ActivityQuery) =>
  queryOptions({
    queryKey: activityKeys.list(companyId, query),
    queryFn: async () =>
      data(await api.GET('/api/companies/{companyId}/activity', { params: { path: { companyId }, query } })),
    placeholderData: keepPreviousData,
  });
