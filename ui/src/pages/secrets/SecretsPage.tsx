import { PageHeader } from '../../components/PageHeader';

export function SecretsPage() {
  return (
    <div className="page">
      <PageHeader title="Secrets" />
    </div>
  );
}
