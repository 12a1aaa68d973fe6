// What stops work, said first: agents paused by a budget hard stop and agents in error, each with the
// page that resolves it (the budgets page; the one agent in error, or the agents list). Nothing shows
// while every agent can work.
import { Banner } from '../../components/ui/Banner';
import { ButtonLink } from '../../components/ui/Button';
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
    <div className="dashboard-banner">
      {byBudget.length > 0 && (
        <Banner
          tone="warning"
          title={`${byBudget.length} ${one(byBudget.length) ? 'agent is' : 'agents are'} paused by budget`}
          action={
            <ButtonLink size="sm" to={`${base}/budgets`}>
              Review budgets
            </ButtonLink>
          }
        />
      )}
      {inError.length > 0 && (
        <Banner
          tone="danger"
          title={`${inError.length} ${one(inError.length) ? 'agent is' : 'agents are'} in error`}
          action={
            onlyInError ? (
              <ButtonLink size="sm" to={`${base}/agents/${onlyInError.id}`}>
                Open {onlyInError.name}
              </ButtonLink>
            ) : (
              <ButtonLink size="sm" to={`${base}/agents`}>
                Open agents
              </ButtonLink>
            )
          }
        />
      )}
    </div>
  );
}
