import { PageHeader } from '../../components/PageHeader';

export function AgentsPage() {
  return (
    <div className="page">
      <PageHeader title="Agents" />
    </div>
  );
}
