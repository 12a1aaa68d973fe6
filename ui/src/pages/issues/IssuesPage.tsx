import { PageHeader } from '../../components/PageHeader';

export function IssuesPage() {
  return (
    <div className="page">
      <PageHeader title="Issues" />
    </div>
  );
}
