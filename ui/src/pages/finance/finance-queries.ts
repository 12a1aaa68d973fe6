// The finance page's reads, under the live resource 'finance' (a recorded event writes a
// finance.recorded activity entry, which refreshes them).
import { queryOptions } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import { companyKey } from '../../api/keys';

export const FINANCE_PAGE = 100;
export const FINANCE_MAX = 500;

export const financeEventsQuery = (companyId: string, limit: number) =>
  queryOptions({
    queryKey: companyKey(companyId, 'finance', 'events', limit),
    queryFn: async () =>
      data(
        await api.GET('/api/companies/{companyId}/costs/finance-events', {
          params: { path: { companyId }, query: { limit } },
        }),
      ),
  });

export const financeSummaryQuery = (companyId: string) =>
  queryOptions({
    queryKey: companyKey(companyId, 'finance', 'summary'),
    queryFn: async () => {
      const params = { params: { path: { companyId } } };
      const [summary, byBiller, byKind] = await Promise.all([
        api.GET('/api/companies/{companyId}/costs/finance-summary', params).then(data),
        api.GET('/api/companies/{companyId}/costs/finance-by-biller', params).then(data),
        api.GET('/api/companies/{companyId}/costs/finance-by-kind', params).then(data),
      ]);
      return { summary, byBiller, byKind };
    },
  });
