// The project's budget policies with what their window has observed: a bar each, or "no budget".
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { budgetOverviewQuery } from '../../queries/budgets';
import { SpendBar } from '../agents/SpendBar';

const WINDOW_LABELS: Record<string, string> = { calendar_month_utc: 'this month (UTC)', lifetime: 'lifetime' };

export function ProjectBudget({ companyId, projectId }: { companyId: string; projectId: string }) {
  const overview = useQuery(budgetOverviewQuery(companyId));
  const policies =
    overview.data?.policies.filter((policy) => policy.scopeType === 'project' && policy.scopeId === projectId) ?? [];
  return (
    <section className="card routine-section" aria-labelledby="project-budget">
      <h2 id="project-budget">Budget</h2>
      {overview.isPending ? (
        <Loading label="Loading budget" />
      ) : overview.isError ? (
        <ErrorNotice error={overview.error} title="The budget could not be loaded" retry={() => overview.refetch()} />
      ) : policies.length === 0 ? (
        <p className="muted">
          No budget policy for this project. <Link to={`/c/${companyId}/budgets`}>Set one on the budgets page</Link>.
        </p>
      ) : (
        <ul className="compact-list">
          {policies.map((policy) => (
            <li key={policy.id}>
              {policy.metric === 'billed_cents' ? (
                <SpendBar spentCents={policy.observed} budgetCents={policy.amount} />
              ) : (
                <span className="spend">
                  {policy.observed} of {policy.amount} {policy.metric} ({Math.round(policy.utilizationPercent)}%)
                </span>
              )}{' '}
              <span className="muted">
                {WINDOW_LABELS[policy.windowKind] ?? policy.windowKind} · warn at {policy.warnPercent}%
                {policy.hardStopEnabled ? ' · hard stop' : ''}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
