// The company's goals (the goals page's tree, and the pickers of issues and projects), refreshed by
// goal activity (live/invalidation.ts).
import { queryOptions } from '@tanstack/react-query';
import { api, data } from '../api/client';
import { companyResource } from '../api/keys';
import type { paths } from '../api/schema';

export type Goal =
  paths['/api/companies/{companyId}/goals']['get']['responses'][200]['content']['application/json'][number];

const goals = companyResource('goals');
export const goalKeys = { ...goals, list: (companyId: string) => goals.key(companyId, 'list') };

export const goalsQuery = (companyId: string) =>
  queryOptions({
    queryKey: goalKeys.list(companyId),
    queryFn: async () => data(await api.GET('/api/companies/{companyId}/goals', { params: { path: { companyId } } })),
  });
