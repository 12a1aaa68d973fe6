import { PageHeader } from '../../components/PageHeader';

export function BudgetsPage() {
  return (
    <div className="page">
      <PageHeader title="Budgets" />
    </div>
  );
}
