// Budget policies with what their windows observed, and the open incidents ('budgets'), refreshed by
// cost events, policies and incidents (live/invalidation.ts).
import { queryOptions } from '@tanstack/react-query';
import { api, data } from '../api/client';
import { companyResource } from '../api/keys';
import type { paths } from '../api/schema';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
type BudgetOverview = Json<paths['/api/companies/{companyId}/budgets/overview']['get']['responses'][200]>;
export type Policy = BudgetOverview['policies'][number];
export type Incident = BudgetOverview['activeIncidents'][number];
export type ScopeType = Policy['scopeType'];

const budgets = companyResource('budgets');
export const budgetKeys = { ...budgets, overview: (companyId: string) => budgets.key(companyId, 'overview') };

export const budgetOverviewQuery = (companyId: string) =>
  queryOptions({
    queryKey: budgetKeys.overview(companyId),
    queryFn: async () =>
      data(await api.GET('/api/companies/{companyId}/budgets/overview', { params: { path: { companyId } } })),
  });
