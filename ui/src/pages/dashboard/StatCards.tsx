// The dashboard snapshot (GET /api/companies/{id}/dashboard) as calm cards, each leading to its page.
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ErrorNotice } from '../../components/ErrorNotice';
import { dashboardQuery } from '../../queries/dashboard';
import { Loading } from '../../components/Loading';
import { cents } from '../../lib/format';

export function StatCards({ companyId }: { companyId: string }) {
  const snapshot = useQuery(dashboardQuery(companyId));
  if (snapshot.isPending) return <Loading label="Loading the dashboard" />;
  if (snapshot.isError)
    return (
      <ErrorNotice error={snapshot.error} retry={() => snapshot.refetch()} title="The dashboard could not be loaded" />
    );
  const { agents, tasks, costs, pendingApprovals, budgets } = snapshot.data;
  const base = `/c/${companyId}`;
  const budgetTrouble =
    budgets.activeIncidents + budgets.pausedAgents + budgets.pausedProjects + budgets.pendingApprovals;
  return (
    <section aria-label="Summary" className="grid stat-cards">
      <StatCard to={`${base}/agents`} label="Agents" value={agents.active + agents.paused + agents.error}>
        {agents.running} running · {agents.paused} paused
        {agents.error > 0 && <span className="badge badge-danger">{agents.error} in error</span>}
      </StatCard>
      <StatCard to={`${base}/issues`} label="Open issues" value={tasks.open}>
        {tasks.inProgress} in progress · {tasks.blocked} blocked · {tasks.done} done
      </StatCard>
      <StatCard to={`${base}/agents`} label="Spend this month" value={cents(costs.monthSpendCents)}>
        {costs.monthBudgetCents > 0 ? (
          <>
            of {cents(costs.monthBudgetCents)} budget
            <Meter percent={costs.monthUtilizationPercent} />
          </>
        ) : (
          'no monthly budget set'
        )}
      </StatCard>
      <StatCard to={`${base}/approvals`} label="Pending approvals" value={pendingApprovals}>
        {pendingApprovals === 0 ? 'nothing waits on the board' : 'waiting on the board'}
      </StatCard>
      <StatCard
        to={`${base}/inbox`}
        label="Budget health"
        value={budgets.activeIncidents === 0 ? 'Healthy' : plural(budgets.activeIncidents, 'incident')}
      >
        {budgetTrouble === 0
          ? 'no incidents, nothing stopped'
          : [
              budgets.pausedAgents > 0 && `${plural(budgets.pausedAgents, 'agent')} paused`,
              budgets.pausedProjects > 0 && `${plural(budgets.pausedProjects, 'project')} paused`,
              budgets.pendingApprovals > 0 && `${plural(budgets.pendingApprovals, 'override')} to approve`,
            ]
              .filter(Boolean)
              .join(' · ') || 'open incidents'}
      </StatCard>
    </section>
  );
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

function StatCard({
  to,
  label,
  value,
  children,
}: {
  to: string;
  label: string;
  value: ReactNode;
  children: ReactNode;
}) {
  return (
    <Link to={to} className="card stat stat-card">
      <span className="stat-label">{label}</span>
      <span className="value">{value}</span>
      <span className="muted stat-detail">{children}</span>
    </Link>
  );
}

/** Spend against budget; warns from 80 %, alarms past 100 %. */
function Meter({ percent }: { percent: number }) {
  const tone = percent >= 100 ? 'danger' : percent >= 80 ? 'warning' : 'ok';
  return (
    <span className={`meter meter-${tone}`} role="img" aria-label={`${percent}% of the monthly budget used`}>
      <span style={{ width: `${Math.min(100, percent)}%` }} />
    </span>
  );
}
