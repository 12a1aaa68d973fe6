// The agent's first run, live: its status and transcript as it works. The company's event stream is
// opened here (onboarding is outside the company frame), so the run's status changes refresh it.
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, data } from '../../api/client';
import { LiveCompany } from '../../app/live';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { RunFailure } from '../../components/runs/RunFailure';
import { TranscriptViewer } from '../../components/runs/TranscriptViewer';
import type { CreatedAgent } from './AgentStep';
import type { CreatedCompany } from './CompanyStep';
import type { CreatedIssue } from './IssueStep';
import { StepActions } from './StepActions';
import { runStatusLabel, runStatusTone } from '../../components/runs/run-status';
import { issueWokenRunsQuery } from '../../queries/runs';
import { StatusPill } from '../../components/display/StatusPill';

interface Props {
  company: CreatedCompany;
  agent: CreatedAgent;
  issue: CreatedIssue;
  onBack: () => void;
}

export function FirstRunStep(props: Props) {
  return (
    <LiveCompany companyId={props.company.id}>
      <FirstRun {...props} />
    </LiveCompany>
  );
}

function FirstRun({ company, agent, issue, onBack }: Props) {
  const companyId = company.id;
  const runs = useQuery(issueWokenRunsQuery(companyId, issue.id, 1));
  const wake = useMutation({
    mutationFn: async () =>
      data(
        await api.POST('/api/agents/{agentId}/wakeup', {
          params: { path: { agentId: agent.id } },
          body: { reason: 'onboarding', payload: { issueId: issue.id } },
        }),
      ),
    onSuccess: () => runs.refetch(),
  });
  const run = runs.data?.[0];

  return (
    <section aria-labelledby="run-step-heading">
      <h2 id="run-step-heading">
        {agent.name}'s first run on{' '}
        <Link to={`/c/${companyId}/issues/${issue.id}`}>
          {issue.identifier} {issue.title}
        </Link>
      </h2>
      {runs.isPending ? (
        <Loading label="Looking for the run" />
      ) : runs.isError ? (
        <ErrorNotice error={runs.error} retry={() => runs.refetch()} title="The run could not be loaded" />
      ) : !run ? (
        <div className="notice" role="status">
          <p>Waiting for {agent.name} to wake…</p>
          <p className="muted">The assignment woke the agent; its run appears here as soon as it starts.</p>
          <button type="button" onClick={() => wake.mutate()} disabled={wake.isPending}>
            Wake it now
          </button>
          {wake.isError && <ErrorNotice error={wake.error} title="The agent could not be woken" />}
        </div>
      ) : (
        <>
          <p className="run-status" role="status">
            Run status: <StatusPill tone={runStatusTone(run.status)}>{runStatusLabel(run.status)}</StatusPill>
          </p>
          <RunFailure run={run} />
          <TranscriptViewer companyId={companyId} run={run} label={`Transcript of ${agent.name}'s first run`} />
        </>
      )}
      <StepActions onBack={onBack}>
        <Link className="button primary" to={`/c/${companyId}/dashboard`}>
          Go to the dashboard
        </Link>
      </StepActions>
    </section>
  );
}
