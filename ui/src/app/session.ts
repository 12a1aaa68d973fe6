// Who is signed in. In local_trusted mode the server answers for the local board user without any
// credential, so the board never shows sign-in there; elsewhere a 401 leads to /sign-in.
import { useQuery } from '@tanstack/react-query';
import { api, data } from '../api/client';
import { instanceKeys } from '../api/keys';

export function useMe() {
  return useQuery({
    queryKey: instanceKeys.me,
    queryFn: async () => data(await api.GET('/api/cli-auth/me')),
    staleTime: Infinity,
  });
}

export function useCompanies() {
  return useQuery({ queryKey: instanceKeys.companies, queryFn: async () => data(await api.GET('/api/companies')) });
}
