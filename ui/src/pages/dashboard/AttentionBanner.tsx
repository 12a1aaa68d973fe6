// What stops work, said first: agents paused by a budget hard stop and agents in error, each with the
// page that resolves it (the budgets page; the one agent in error, or the agents list). Nothing shows
// while every agent can work.
import { Link } from 'react-router';
import { AlertTriangle } from 'lucide-react';
import { Icon } from '../../components/ui/Icon';
import { useAgentNames } from '../../queries/agents';

/** The pause reason a budget hard stop writes (src/engine/budget-stops.ts). */
const BUDGET_PAUSE = 'budget';

export function AttentionBanner({ companyId }: { companyId: string }) {
  const { agents } = useAgentNames(companyId);
  const base = `/c/${companyId}`;
  const byBudget = agents.filter((agent) => agent.status === 'paused' && agent.pauseReason === BUDGET_PAUSE);
  const inError = agents.filter((agent) => agent.status === 'error');
  if (byBudget.length === 0 && inError.length === 0) return null;
  const one = (count: number) => count === 1;
  const onlyInError = one(inError.length) ? inError[0] : undefined;
  return (
    <div className="dashboard-banner" role="status">
      {byBudget.length > 0 && (
        <p className="banner banner-warning">
          <Icon icon={AlertTriangle} />
          <span>
            {byBudget.length} {one(byBudget.length) ? 'agent is' : 'agents are'} paused by budget ·{' '}
            <Link to={`${base}/budgets`}>Review budgets</Link>
          </span>
        </p>
      )}
      {inError.length > 0 && (
        <p className="banner banner-danger">
          <Icon icon={AlertTriangle} />
          <span>
            {inError.length} {one(inError.length) ? 'agent is' : 'agents are'} in error ·{' '}
            {onlyInError ? (
              <Link to={`${base}/agents/${onlyInError.id}`}>Open {onlyInError.name}</Link>
            ) : (
              <Link to={`${base}/agents`}>Open agents</Link>
            )}
          </span>
        </p>
      )}
    </div>
  );
}
