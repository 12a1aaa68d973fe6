// The company itself ('company'): its settings, the name budget scopes show, its logo's source.
// Company activity refreshes it, and with it the instance's companies list (live/company-events.ts).
import { queryOptions, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../api/client';
import { companyResource, instanceKeys } from '../api/keys';

const company = companyResource('company');
export const companyKeys = {
  ...company,
  detail: (companyId: string) => company.key(companyId, 'detail'),
  logoSource: (companyId: string, assetId: string | null) => company.key(companyId, 'logo-source', assetId),
};

const fetchCompany = async (companyId: string) =>
  data(await api.GET('/api/companies/{companyId}', { params: { path: { companyId } } }));
export type Company = Awaited<ReturnType<typeof fetchCompany>>;

export const companyQuery = (companyId: string) =>
  queryOptions({ queryKey: companyKeys.detail(companyId), queryFn: () => fetchCompany(companyId) });

/**
 * The source of an SVG logo, to show it inline (null for another image type, shown by its URL). An
 * asset never changes: a new logo is a new asset, so a new key.
 */
export const logoSourceQuery = (companyId: string, assetId: string | null) =>
  queryOptions({
    queryKey: companyKeys.logoSource(companyId, assetId),
    enabled: assetId !== null,
    queryFn: async () => {
      if (assetId === null) return null;
      const result = await api.GET('/api/assets/{assetId}/content', {
        params: { path: { assetId } },
        parseAs: 'text',
      });
      const text = data(result) as unknown as string;
      return result.response.headers.get('content-type')?.startsWith('image/svg+xml') ? text : null;
    },
    staleTime: Infinity,
  });

/** After a change: the company as saved, and every list that names it (switcher, palette, home). */
export function useCompanyChanged(companyId: string) {
  const queryClient = useQueryClient();
  return (saved?: Company) => {
    if (saved) queryClient.setQueryData(companyKeys.detail(companyId), saved);
    void queryClient.invalidateQueries({ queryKey: instanceKeys.companies });
  };
}
