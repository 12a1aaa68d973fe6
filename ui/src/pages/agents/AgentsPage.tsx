// The company's agents at a glance: who they are, their state, what each runs right now and how much
// of this month's budget it has spent. Live through the 'agents' and 'runs' resources.
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link, useParams } from 'react-router';
import { AgentStatusBadge } from '../../components/agents/AgentStatusBadge';
import { agentsQuery } from '../../queries/agents';
import { LIVE_RUNS_LIMIT, liveRunsQuery, type Run } from '../../queries/runs';
import { RunIssueLink } from '../../components/agents/RunIssueLink';
import { AgentAvatar } from '../../components/display/AgentAvatar';
import { LivePill } from '../../components/display/LivePill';
import { StatusPill } from '../../components/display/StatusPill';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { enumLabel, fullTime } from '../../lib/format';
import { SpendBar } from './SpendBar';

export function AgentsPage() {
  const { companyId = '' } = useParams();
  const agents = useQuery(agentsQuery(companyId));
  const liveRuns = useQuery(liveRunsQuery(companyId));
  const currentRuns = useMemo(() => newestRunByAgent(liveRuns.data ?? []), [liveRuns.data]);

  return (
    <div className="page">
      <PageHeader
        title="Agents"
        actions={
          <Link className="button" to={`/c/${companyId}/org`}>
            Org chart
          </Link>
        }
      />
      {agents.isPending && <Loading label="Loading agents" />}
      {agents.isError && (
        <ErrorNotice error={agents.error} retry={() => agents.refetch()} title="The agents could not be loaded" />
      )}
      {liveRuns.isError && (
        <ErrorNotice
          error={liveRuns.error}
          retry={() => liveRuns.refetch()}
          title="The current runs could not be loaded"
        />
      )}
      {agents.data && agents.data.length === 0 && (
        <p className="notice">
          No agents yet. Create one through onboarding or POST /api/companies/{'{companyId}'}/agents; it then appears
          here.
        </p>
      )}
      {agents.data && agents.data.length > 0 && (
        <table className="table agents-table">
          <caption className="visually-hidden">The company's agents, oldest first</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Role</th>
              <th scope="col">Status</th>
              <th scope="col">Adapter</th>
              <th scope="col">Current run</th>
              <th scope="col">Spend this month</th>
            </tr>
          </thead>
          <tbody>
            {agents.data.map((agent) => {
              const run = currentRuns.get(agent.id);
              return (
                <tr key={agent.id}>
                  <th scope="row" className="agent-name-cell">
                    <span className="agent-cell">
                      <AgentAvatar id={agent.id} name={agent.name} status={agent.status} />
                      <span className="agent-name-lines">
                        <Link to={`/c/${companyId}/agents/${agent.id}`} className="row-link">
                          {agent.name}
                        </Link>
                        {agent.title && <span className="muted">{agent.title}</span>}
                      </span>
                    </span>
                  </th>
                  <td>{enumLabel(agent.role)}</td>
                  <td>
                    <AgentStatusBadge status={agent.status} pauseReason={agent.pauseReason} />
                  </td>
                  <td>{enumLabel(agent.adapterType)}</td>
                  <td>
                    {run ? (
                      <CurrentRun companyId={companyId} agentId={agent.id} run={run} />
                    ) : (
                      <span className="muted">None</span>
                    )}
                  </td>
                  <td>
                    <SpendBar spentCents={agent.spentMonthlyCents} budgetCents={agent.budgetMonthlyCents} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {liveRuns.data && liveRuns.data.length >= LIVE_RUNS_LIMIT && (
        <p className="muted">More than {LIVE_RUNS_LIMIT} runs are live; some agents' current runs may not show.</p>
      )}
    </div>
  );
}

/** A running run as a live pill ticking its time; a queued one waits in the info tone. */
function CurrentRun({ companyId, agentId, run }: { companyId: string; agentId: string; run: Run }) {
  const since = run.startedAt ?? run.createdAt;
  return (
    <span className="current-run">
      <Link to={`/c/${companyId}/agents/${agentId}/runs`} className="row-link" title={`since ${fullTime(since)}`}>
        {run.status === 'running' ? (
          <LivePill label="Running" since={since} />
        ) : (
          <StatusPill tone="info">Queued</StatusPill>
        )}
      </Link>
      {run.issueId && (
        <>
          {' · '}
          <RunIssueLink companyId={companyId} issueId={run.issueId} />
        </>
      )}
    </span>
  );
}

/** Each agent's newest live run (a running one before a queued one). */
function newestRunByAgent(runs: Run[]): Map<string, Run> {
  const byAgent = new Map<string, Run>();
  for (const run of runs) {
    const seen = byAgent.get(run.agentId);
    if (!seen || (seen.status === 'queued' && run.status === 'running')) byAgent.set(run.agentId, run);
  }
  return byAgent;
}
