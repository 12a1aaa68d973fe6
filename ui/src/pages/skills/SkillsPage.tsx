import { PageHeader } from '../../components/PageHeader';

export function SkillsPage() {
  return (
    <div className="page">
      <PageHeader title="Skills" />
    </div>
  );
}
