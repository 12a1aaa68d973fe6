// Finance events and the finance summary ('finance'): a recorded event writes a finance.recorded
// activity entry, which refreshes them (live/invalidation.ts).
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, data } from '../api/client';
import { companyResource } from '../api/keys';

const finance = companyResource('finance');
export const financeKeys = {
  ...finance,
  events: (companyId: string, limit: number) => finance.key(companyId, 'events', limit),
  summary: (companyId: string) => finance.key(companyId, 'summary'),
};

export const FINANCE_PAGE = 100;
export const FINANCE_MAX = 500;

/** The newest `limit` events; while more load, the ones shown stay. */
export const financeEventsQuery = (companyId: string, limit: number) =>
  queryOptions({
    queryKey: financeKeys.events(companyId, limit),
    queryFn: async () =>
      data(
        await api.GET('/api/companies/{companyId}/costs/finance-events', {
          params: { path: { companyId }, query: { limit } },
        }),
      ),
    placeholderData: keepPreviousData,
  });

export const financeSummaryQuery = (companyId: string) =>
  queryOptions({
    queryKey: financeKeys.summary(companyId),
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
