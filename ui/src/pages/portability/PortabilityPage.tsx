import { PageHeader } from '../../components/PageHeader';

export function PortabilityPage() {
  return (
    <div className="page">
      <PageHeader title="Export and import" />
    </div>
  );
}
