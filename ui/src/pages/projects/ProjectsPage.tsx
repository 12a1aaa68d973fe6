import { PageHeader } from '../../components/PageHeader';

export function ProjectsPage() {
  return (
    <div className="page">
      <PageHeader title="Projects" />
    </div>
  );
}
