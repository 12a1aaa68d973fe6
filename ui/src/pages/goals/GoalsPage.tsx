import { PageHeader } from '../../components/PageHeader';

export function GoalsPage() {
  return (
    <div className="page">
      <PageHeader title="Goals" />
    </div>
  );
}
