import { PageHeader } from '../../components/PageHeader';

export function RoutinesPage() {
  return (
    <div className="page">
      <PageHeader title="Routines" />
    </div>
  );
}
