import { PageHeader } from '../../components/PageHeader';

export function InstanceSettingsPage() {
  return (
    <div className="page">
      <PageHeader title="Instance settings" />
    </div>
  );
}
