import { PageHeader } from '../../components/PageHeader';

export function FinancePage() {
  return (
    <div className="page">
      <PageHeader title="Finance" />
    </div>
  );
}
