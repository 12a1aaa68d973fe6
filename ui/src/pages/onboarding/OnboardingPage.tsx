import { PageHeader } from '../../components/PageHeader';

export function OnboardingPage() {
  return (
    <div className="page">
      <PageHeader title="Welcome" />
    </div>
  );
}
