// The company the settings page edits, read under the 'company' resource, and what a change here
// refreshes. Its own module: the page and each of its cards use it.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import { companyKey, instanceKeys } from '../../api/keys';

export type Company = Awaited<ReturnType<typeof fetchCompany>>;

async function fetchCompany(companyId: string) {
  return data(await api.GET('/api/companies/{companyId}', { params: { path: { companyId } } }));
}

export function useCompany(companyId: string) {
  return useQuery({ queryKey: companyKey(companyId, 'company'), queryFn: () => fetchCompany(companyId) });
}

/** After a change: this page's company and every list that names it (switcher, palette, home). */
export function useCompanyChanged(companyId: string) {
  const queryClient = useQueryClient();
  return (company?: Company) => {
    if (company) queryClient.setQueryData(companyKey(companyId, 'company'), company);
    void queryClient.invalidateQueries({ queryKey: instanceKeys.companies });
  };
}
