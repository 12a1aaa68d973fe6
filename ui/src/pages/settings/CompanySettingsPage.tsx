// Company settings: branding (name, description, brand colour, logo), archive and delete.
// The company is read under the 'company' resource, so an edit made elsewhere (another tab, the
// CEO agent) arrives live; a save here also refreshes the companies list, which the switcher reads.
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { companyQuery } from '../../queries/company';
import { BrandingForm } from './BrandingForm';
import { DangerZone } from './DangerZone';
import { LogoCard } from './LogoCard';

export function CompanySettingsPage() {
  const { companyId = '' } = useParams();
  const company = useQuery(companyQuery(companyId));
  return (
    <div className="page settings-page">
      <PageHeader title="Company settings" />
      {company.isPending && <Loading label="Loading the company" />}
      {company.isError && (
        <ErrorNotice error={company.error} retry={() => company.refetch()} title="The company could not be loaded" />
      )}
      {company.data && (
        <>
          {company.data.status === 'archived' && (
            <p className="notice notice-warning" role="status">
              {company.data.name} is archived: it is hidden from the company list and switcher, and its data is kept.
              Set it active again below.
            </p>
          )}
          <BrandingForm key={company.data.id} company={company.data} />
          <LogoCard company={company.data} />
          <DangerZone company={company.data} />
        </>
      )}
    </div>
  );
}
