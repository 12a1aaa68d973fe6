import { PageHeader } from '../../components/PageHeader';

export function DashboardPage() {
  return (
    <div className="page">
      <PageHeader title="Dashboard" />
    </div>
  );
}
