import { PageHeader } from '../../components/PageHeader';

export function OrgPage() {
  return (
    <div className="page">
      <PageHeader title="Org chart" />
    </div>
  );
}
