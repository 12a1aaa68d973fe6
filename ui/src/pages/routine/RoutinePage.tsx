import { PageHeader } from '../../components/PageHeader';

export function RoutinePage() {
  return (
    <div className="page">
      <PageHeader title="Routine" />
    </div>
  );
}
