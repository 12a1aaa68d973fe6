// What the agent is doing and how it is doing: its live run with the last lines of its transcript,
// the issues assigned to it, its spend against its monthly budget, how its recent runs ended, and its
// place in the org (the chain up to the top, its direct reports). Every list here is a bounded read.
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router';
import { AgentStatusBadge } from '../../components/agents/AgentStatusBadge';
import { BudgetBar } from '../../components/budgets/BudgetBar';
import { AgentAvatar } from '../../components/display/AgentAvatar';
import { LivePill } from '../../components/display/LivePill';
import { RelativeTime } from '../../components/display/RelativeTime';
import { StatusIcon } from '../../components/display/StatusIcon';
import { ErrorNotice } from '../../components/ErrorNotice';
import { adapterLabel } from '../../components/runs/adapter-label';
import { runHref } from '../../components/runs/run-href';
import { isLive, runStatusLabel } from '../../components/runs/run-status';
import { TranscriptViewer } from '../../components/runs/TranscriptViewer';
import { Icon } from '../../components/ui/Icon';
import { cents } from '../../lib/format';
import { agentsQuery, type AgentDetail } from '../../queries/agents';
import { agentIssuesQuery } from '../../queries/issues';
import { agentRunsQuery, type Run } from '../../queries/runs';
import { RUNS_PAGE_SIZE } from './RunsTab';

/** Issues listed on the overview; the issues list filtered to the agent has the rest. */
const RECENT_ISSUES = 8;

export function OverviewTab({ companyId, agent }: { companyId: string; agent: AgentDetail }) {
  const agents = useQuery(agentsQuery(companyId));
  const runs = useInfiniteQuery(agentRunsQuery(companyId, agent.id, RUNS_PAGE_SIZE));
  const recent = runs.data?.pages[0] ?? [];
  const reports = (agents.data ?? []).filter((a) => a.reportsTo === agent.id);
  const manager = agent.chainOfCommand[0];
  const agentLink = (id: string) => `/c/${companyId}/agents/${id}`;

  return (
    <div className="agent-overview">
      <div className="agent-overview-grid">
        <section className="card agent-card" aria-labelledby="agent-now">
          <h2 id="agent-now">Now</h2>
          {runs.isError && (
            <ErrorNotice error={runs.error} retry={() => runs.refetch()} title="The runs could not be loaded" />
          )}
          {runs.data && <NowRunning companyId={companyId} agent={agent} runs={recent} />}
        </section>
        <section className="card agent-card" aria-labelledby="agent-spend">
          <h2 id="agent-spend">Spend this month</h2>
          {agent.budgetMonthlyCents > 0 ? (
            <BudgetBar
              name="Spend this month"
              metric="billed_cents"
              observed={agent.spentMonthlyCents}
              amount={agent.budgetMonthlyCents}
              warnPercent={80}
            />
          ) : (
            <p>
              {cents(agent.spentMonthlyCents)} spent <span className="muted">· no monthly budget</span>
            </p>
          )}
        </section>
        <section className="card agent-card" aria-labelledby="agent-success">
          <h2 id="agent-success">Success rate</h2>
          {runs.data && <SuccessRate runs={recent} />}
        </section>
      </div>
      <section className="card agent-card" aria-labelledby="agent-issues">
        <h2 id="agent-issues">Assigned issues</h2>
        <AssignedIssues companyId={companyId} agent={agent} />
      </section>
      <dl className="facts">
        <dt>Manager</dt>
        <dd>
          {manager ? (
            <Link to={agentLink(manager.id)}>{manager.name}</Link>
          ) : (
            <span className="muted">None: top of the org</span>
          )}
        </dd>
        <dt>Org position</dt>
        <dd>
          {agent.chainOfCommand.length === 0 ? (
            'Top of the org'
          ) : (
            <nav aria-label="Chain of command">
              <ol className="chain">
                {[...agent.chainOfCommand].reverse().map((link) => (
                  <li key={link.id}>
                    <Link to={agentLink(link.id)}>{link.name}</Link>
                  </li>
                ))}
                <li aria-current="page">{agent.name}</li>
              </ol>
            </nav>
          )}
        </dd>
        <dt>Adapter</dt>
        <dd>{adapterLabel(agent.adapterType)}</dd>
        <dt>Created</dt>
        <dd>
          <RelativeTime at={agent.createdAt} />
        </dd>
        <dt>Last heartbeat</dt>
        <dd>
          {agent.lastHeartbeatAt ? <RelativeTime at={agent.lastHeartbeatAt} /> : <span className="muted">Never</span>}
        </dd>
      </dl>
      <section aria-labelledby="direct-reports">
        <h2 id="direct-reports">Direct reports</h2>
        {agents.isError && (
          <ErrorNotice
            error={agents.error}
            retry={() => agents.refetch()}
            title="The direct reports could not be loaded"
          />
        )}
        {agents.data && reports.length === 0 && <p className="muted">No one reports to {agent.name}.</p>}
        {reports.length > 0 && (
          <ul className="reports">
            {reports.map((report) => (
              <li key={report.id}>
                <AgentAvatar id={report.id} name={report.name} size={20} />
                <Link to={agentLink(report.id)}>{report.name}</Link>{' '}
                <AgentStatusBadge status={report.status} pauseReason={report.pauseReason} />
                {report.title && <span className="muted"> · {report.title}</span>}
              </li>
            ))}
          </ul>
        )}
      </section>
      {agent.capabilities && (
        <section aria-labelledby="capabilities">
          <h2 id="capabilities">Capabilities</h2>
          <p className="capabilities">{agent.capabilities}</p>
        </section>
      )}
    </div>
  );
}

/** The live run (the newest, when several) with its last lines, or when the agent last ran. */
function NowRunning({ companyId, agent, runs }: { companyId: string; agent: AgentDetail; runs: Run[] }) {
  const live = runs.find(isLive);
  if (!live) {
    const last = runs[0];
    return last ? (
      <p>
        Not running. <Link to={runHref(companyId, last.runId)}>Last run</Link>{' '}
        {runStatusLabel(last.status).toLowerCase()} <RelativeTime at={last.finishedAt ?? last.createdAt} />.
      </p>
    ) : (
      <p className="muted">Not running, and no runs yet: wake {agent.name} or assign it an issue.</p>
    );
  }
  return (
    <div className="agent-live-run">
      <p className="agent-live-run-head">
        <LivePill label={live.status === 'queued' ? 'Queued' : 'Running'} since={live.startedAt} />
        <Link to={runHref(companyId, live.runId)}>
          Open the run <Icon icon={ArrowRight} size={14} />
        </Link>
      </p>
      <TranscriptViewer companyId={companyId} run={live} collapsed label={`Last lines of ${agent.name}'s live run`} />
    </div>
  );
}

/** Succeeded out of the finished runs among the recent ones; says over how many. */
function SuccessRate({ runs }: { runs: Run[] }) {
  const finished = runs.filter((run) => !isLive(run));
  if (finished.length === 0) return <p className="muted">No finished runs yet.</p>;
  const succeeded = finished.filter((run) => run.status === 'succeeded').length;
  const percent = Math.round((succeeded / finished.length) * 100);
  return (
    <p>
      <span className="agent-figure">{percent}%</span>{' '}
      <span className="muted">
        {succeeded} of the last {finished.length} finished {finished.length === 1 ? 'run' : 'runs'} succeeded
      </span>
    </p>
  );
}

function AssignedIssues({ companyId, agent }: { companyId: string; agent: AgentDetail }) {
  const issues = useQuery(agentIssuesQuery(companyId, agent.id, RECENT_ISSUES));
  const allHref = `/c/${companyId}/issues?assignee=${agent.id}`;
  if (issues.isError)
    return (
      <ErrorNotice
        error={issues.error}
        retry={() => issues.refetch()}
        title="The assigned issues could not be loaded"
      />
    );
  if (!issues.data) return null;
  if (issues.data.length === 0) return <p className="muted">No issues are assigned to {agent.name}.</p>;
  return (
    <>
      <ul className="agent-issues">
        {issues.data.map((issue) => (
          <li key={issue.id}>
            <StatusIcon kind="issue" status={issue.status} size={14} />
            <span className="muted mono">{issue.identifier}</span>
            <Link className="row-title" to={`/c/${companyId}/issues/${issue.identifier ?? issue.id}`}>
              {issue.title}
            </Link>
            <RelativeTime at={issue.updatedAt} className="muted" />
          </li>
        ))}
      </ul>
      {issues.data.length === RECENT_ISSUES && (
        <Link to={allHref}>
          All issues of {agent.name} <Icon icon={ArrowRight} size={14} />
        </Link>
      )}
    </>
  );
}
