import { PageHeader } from '../../components/PageHeader';

export function ApprovalPage() {
  return (
    <div className="page">
      <PageHeader title="Approval" />
    </div>
  );
}
