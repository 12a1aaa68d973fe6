import { PageHeader } from '../../components/PageHeader';

export function CompanySettingsPage() {
  return (
    <div className="page">
      <PageHeader title="Company settings" />
    </div>
  );
}
