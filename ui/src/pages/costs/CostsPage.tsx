import { PageHeader } from '../../components/PageHeader';

export function CostsPage() {
  return (
    <div className="page">
      <PageHeader title="Costs" />
    </div>
  );
}
