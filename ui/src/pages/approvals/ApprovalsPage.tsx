import { PageHeader } from '../../components/PageHeader';

export function ApprovalsPage() {
  return (
    <div className="page">
      <PageHeader title="Approvals" />
    </div>
  );
}
