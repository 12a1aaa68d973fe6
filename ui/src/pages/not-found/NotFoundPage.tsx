import { PageHeader } from '../../components/PageHeader';

export function NotFoundPage() {
  return (
    <div className="page">
      <PageHeader title="Page not found" />
    </div>
  );
}
