// Spend of the chosen window grouped one way: a bar chart of the largest rows and the full table
// (its equivalent for screen readers, with tokens next to cents). Agents show their status, so a
// budget stop is visible where the spend is.
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Link } from 'react-router';
import { AgentStatusBadge } from '../../components/agents/AgentStatusBadge';
import { agentsQuery } from '../../queries/agents';
import { BarChart } from '../../components/BarChart';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { cents, tokenCount } from '../../lib/format';
import { breakdownQuery, groupingLabel, windowLabel, type GroupingId, type WindowId } from '../../queries/costs';
import { TableScroll } from '../../components/TableScroll';

export function Breakdown({
  companyId,
  grouping,
  window,
}: {
  companyId: string;
  grouping: GroupingId;
  window: WindowId;
}) {
  const breakdown = useQuery(breakdownQuery(companyId, grouping, window));
  // The statuses of the agent rows (the one agents read every page shares).
  const agents = useQuery(agentsQuery(companyId));
  const tableId = useId();

  if (breakdown.isError)
    return (
      <ErrorNotice
        error={breakdown.error}
        title="The breakdown could not be loaded"
        retry={() => void breakdown.refetch()}
      />
    );
  if (!breakdown.data) return <Loading label="Loading the breakdown" />;
  const { rows } = breakdown.data;
  // The figures shown (the previous grouping's while the next loads) name the title, not the props.
  const { grouping: shownGrouping, window: shownWindow } = breakdown.data;
  const title = `Spend by ${groupingLabel(shownGrouping).toLowerCase()}, ${windowLabel(shownWindow).toLowerCase()}`;
  if (rows.length === 0) {
    return (
      <section className="card cost-breakdown" aria-label={title} aria-busy={breakdown.isPlaceholderData}>
        <p className="muted">
          No spend in this window. Runs report cost as they run; other usage can be recorded with POST /api/companies/
          {'{companyId}'}/cost-events.
        </p>
      </section>
    );
  }
  const agentById = new Map((agents.data ?? []).map((a) => [a.id, a]));
  return (
    <section className="card cost-breakdown" aria-label={title} aria-busy={breakdown.isPlaceholderData}>
      <BarChart
        title={title}
        tableId={tableId}
        bars={rows.map((r) => ({ key: r.key, label: r.label, value: r.costCents, shown: cents(r.costCents) }))}
      />
      <TableScroll label={title}>
        <table className="table cost-table cost-breakdown-table" id={tableId}>
          <caption className="visually-hidden">{title}</caption>
          <thead>
            <tr>
              <th scope="col">{groupingLabel(shownGrouping)}</th>
              <th scope="col" className="num">
                Cost
              </th>
              <th scope="col" className="num">
                Input tokens
              </th>
              <th scope="col" className="num">
                Cached
              </th>
              <th scope="col" className="num">
                Output tokens
              </th>
              <th scope="col" className="num">
                Events
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => {
              const agent = r.agentId ? agentById.get(r.agentId) : undefined;
              return (
                <tr key={r.key}>
                  <th scope="row">
                    {r.agentId ? <Link to={`/c/${companyId}/agents/${r.agentId}`}>{r.label}</Link> : r.label}
                    {agent && agent.status !== 'idle' && (
                      <>
                        {' '}
                        <AgentStatusBadge status={agent.status} pauseReason={agent.pauseReason} />
                      </>
                    )}
                  </th>
                  <td className="num">{cents(r.costCents)}</td>
                  <td className="num">{tokenCount(r.inputTokens)}</td>
                  <td className="num">{tokenCount(r.cachedInputTokens)}</td>
                  <td className="num">{tokenCount(r.outputTokens)}</td>
                  <td className="num">{r.eventCount.toLocaleString()}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableScroll>
    </section>
  );
}
