// Who the agent is in the company: its place in the org (the chain up to the top, its direct
// reports), its state and adapter. Reports come from the shared agents list (bounded, live).
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { AgentStatusBadge } from '../../components/agents/AgentStatusBadge';
import { agentsQuery, type AgentDetail } from '../../queries/agents';
import { ErrorNotice } from '../../components/ErrorNotice';
import { cents, fullTime, timeAgo } from '../../lib/format';

export function OverviewTab({ companyId, agent }: { companyId: string; agent: AgentDetail }) {
  const agents = useQuery(agentsQuery(companyId));
  const reports = (agents.data ?? []).filter((a) => a.reportsTo === agent.id);
  const manager = agent.chainOfCommand[0];
  const agentLink = (id: string) => `/c/${companyId}/agents/${id}`;

  return (
    <div className="agent-overview">
      <dl className="facts">
        <dt>Status</dt>
        <dd>
          <AgentStatusBadge status={agent.status} pauseReason={agent.pauseReason} />
        </dd>
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
        <dd className="mono">{agent.adapterType}</dd>
        <dt>Budget this month</dt>
        <dd>
          {cents(agent.spentMonthlyCents)} spent
          {agent.budgetMonthlyCents > 0 ? ` of ${cents(agent.budgetMonthlyCents)}` : ' (no monthly budget)'}
        </dd>
        <dt>Created</dt>
        <dd title={fullTime(agent.createdAt)}>{timeAgo(agent.createdAt)}</dd>
        <dt>Last heartbeat</dt>
        <dd>
          {agent.lastHeartbeatAt ? (
            <span title={fullTime(agent.lastHeartbeatAt)}>{timeAgo(agent.lastHeartbeatAt)}</span>
          ) : (
            <span className="muted">Never</span>
          )}
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
