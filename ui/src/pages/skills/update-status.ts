// Whether a code-host or catalog skill is behind its tracking ref. Kept outside the company's live
// keys: each check calls the code host, so activity must not repeat it; a check is asked for.
import { queryOptions } from '@tanstack/react-query';
import { api, data } from '../../api/client';

export const updateStatusQuery = (companyId: string, skillId: string) =>
  queryOptions({
    queryKey: ['skill-update-status', skillId] as const,
    queryFn: async () =>
      data(
        await api.GET('/api/companies/{companyId}/skills/{skillId}/update-status', {
          params: { path: { companyId, skillId } },
        }),
      ),
    // A failure is shown with its retry rather than repeated against the host.
    retry: false,
    staleTime: 60_000,
  });

/** Skills pinned to a commit, the only ones update-status can answer for. */
export const isTracked = (sourceKind: string) => sourceKind === 'codehost' || sourceKind === 'catalog';
