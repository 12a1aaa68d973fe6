// A guided start: a company, its first agent, its first issue assigned to that agent, and then the
// agent's first run, live. Each step validates, shows the server's errors and can go back; what a
// step created stays created (going back shows it, going forward again reuses it).
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { lastCompanyId } from '../../app/last-company';
import { PageHeader } from '../../components/PageHeader';
import { companiesQuery } from '../../queries/instance';
import { AgentStep, type CreatedAgent } from './AgentStep';
import { CompanyStep, type CreatedCompany } from './CompanyStep';
import { FirstRunStep } from './FirstRunStep';
import { IssueStep, type CreatedIssue } from './IssueStep';

const STEPS = ['Company', 'Agent', 'Issue', 'First run'] as const;

export function OnboardingPage() {
  const [step, setStep] = useState(0);
  const [company, setCompany] = useState<CreatedCompany | null>(null);
  const [agent, setAgent] = useState<CreatedAgent | null>(null);
  const [issue, setIssue] = useState<CreatedIssue | null>(null);
  const back = () => setStep((current) => Math.max(0, current - 1));
  // Reached from the company switcher: a way back to the company that was open.
  const existing =
    useQuery(companiesQuery()).data?.filter(
      (candidate) => candidate.status !== 'archived' && candidate.id !== company?.id,
    ) ?? [];
  const returnTo = existing.find((candidate) => candidate.id === lastCompanyId()) ?? existing[0];

  return (
    <div className="page onboarding">
      <PageHeader
        title={company ? `Set up ${company.name}` : 'Start a company'}
        actions={
          returnTo && step === 0 && !company && <Link to={`/c/${returnTo.id}/dashboard`}>Back to {returnTo.name}</Link>
        }
      >
        <p className="muted">
          Four steps: a company, an agent to work in it, an issue for that agent, and its first run.
        </p>
      </PageHeader>
      <ol className="steps" aria-label="Steps">
        {STEPS.map((name, index) => (
          <li
            key={name}
            className={index === step ? 'step-current' : index < step ? 'step-done' : undefined}
            aria-current={index === step ? 'step' : undefined}
          >
            <span className="step-number" aria-hidden="true">
              {index < step ? '✓' : index + 1}
            </span>
            {name}
          </li>
        ))}
      </ol>
      <div className="card onboarding-card">
        {step === 0 && (
          <CompanyStep
            created={company}
            onDone={(created) => {
              setCompany(created);
              setStep(1);
            }}
          />
        )}
        {step === 1 && company && (
          <AgentStep
            companyId={company.id}
            created={agent}
            onBack={back}
            onDone={(created) => {
              setAgent(created);
              setStep(2);
            }}
          />
        )}
        {step === 2 && company && agent && (
          <IssueStep
            companyId={company.id}
            agent={agent}
            created={issue}
            onBack={back}
            onDone={(created) => {
              setIssue(created);
              setStep(3);
            }}
          />
        )}
        {step === 3 && company && agent && issue && (
          <FirstRunStep company={company} agent={agent} issue={issue} onBack={back} />
        )}
      </div>
    </div>
  );
}
