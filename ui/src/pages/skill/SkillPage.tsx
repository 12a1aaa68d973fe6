import { PageHeader } from '../../components/PageHeader';

export function SkillPage() {
  return (
    <div className="page">
      <PageHeader title="Skill" />
    </div>
  );
}
