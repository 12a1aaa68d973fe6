import { PageHeader } from '../../components/PageHeader';

export function AgentPage() {
  return (
    <div className="page">
      <PageHeader title="Agent" />
    </div>
  );
}
