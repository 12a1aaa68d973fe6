import { PageHeader } from '../../components/PageHeader';

export function ActivityPage() {
  return (
    <div className="page">
      <PageHeader title="Activity" />
    </div>
  );
}
