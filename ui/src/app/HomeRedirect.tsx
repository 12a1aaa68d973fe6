import { useQuery } from '@tanstack/react-query';
import { Navigate } from 'react-router';
import { companiesQuery } from '../queries/instance';
import { Loading } from '../components/Loading';
import { ErrorNotice } from '../components/ErrorNotice';
import { lastCompanyId } from './last-company';

/** `/`: the company last open in this browser, else the first, else onboarding. */
export function HomeRedirect() {
  const companies = useQuery(companiesQuery());
  if (companies.isPending) return <Loading label="Loading companies" />;
  if (companies.isError) return <ErrorNotice error={companies.error} retry={() => companies.refetch()} />;
  const active = companies.data.filter((company) => company.status !== 'archived');
  const target = active.find((company) => company.id === lastCompanyId()) ?? active[0];
  if (!target) return <Navigate to="/onboarding" replace />;
  return <Navigate to={`/c/${target.id}/dashboard`} replace />;
}
