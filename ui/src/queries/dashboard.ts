// The dashboard snapshot ('dashboard'): the sidebar's counts and the dashboard's cards read this one
// query, refreshed by every activity event and every run status change (live/invalidation.ts).
import { queryOptions } from '@tanstack/react-query';
import { api, data } from '../api/client';
import { companyResource } from '../api/keys';

const dashboard = companyResource('dashboard');
export const dashboardKeys = { ...dashboard, snapshot: (companyId: string) => dashboard.key(companyId, 'snapshot') };

export const dashboardQuery = (companyId: string) =>
  queryOptions({
    queryKey: dashboardKeys.snapshot(companyId),
    queryFn: async () =>
      data(await api.GET('/api/companies/{companyId}/dashboard', { params: { path: { companyId } } })),
  });
