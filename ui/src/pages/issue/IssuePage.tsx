import { PageHeader } from '../../components/PageHeader';

export function IssuePage() {
  return (
    <div className="page">
      <PageHeader title="Issue" />
    </div>
  );
}
