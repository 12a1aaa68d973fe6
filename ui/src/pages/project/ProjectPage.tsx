import { PageHeader } from '../../components/PageHeader';

export function ProjectPage() {
  return (
    <div className="page">
      <PageHeader title="Project" />
    </div>
  );
}
