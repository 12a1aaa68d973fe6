// A budget incident (or the budget override approval asking about it) as a sentence people read:
// "Gus reached 107% of a $15.00 monthly budget". Never its ids or raw cents.
import { formatMoney } from '../../lib/format';
import { budgetAmount } from '../../components/budgets/amounts';

export interface BudgetFacts {
  scopeType: string;
  /** The agent's or project's name; null when unknown. */
  scopeName: string | null;
  metric: string;
  amount: number;
  observed: number;
  /** `YYYY-MM` for a monthly window, `lifetime`; unknown: the scope's default window (SPEC). */
  windowKey?: string | null;
}

function whose(facts: BudgetFacts): string {
  if (facts.scopeType === 'company') return 'The company';
  if (facts.scopeType === 'project') return facts.scopeName ? `Project ${facts.scopeName}` : 'A project';
  return facts.scopeName ?? 'An agent';
}

export function budgetSentence(facts: BudgetFacts): string {
  const lifetime = facts.windowKey ? facts.windowKey === 'lifetime' : facts.scopeType === 'project';
  const period = lifetime ? 'lifetime' : 'monthly';
  const percent = facts.amount > 0 ? Math.round((facts.observed / facts.amount) * 100) : 100;
  const budget =
    facts.metric === 'billed_cents'
      ? `a ${formatMoney(facts.amount)} ${period} budget`
      : `a ${period} budget of ${budgetAmount(facts.metric, facts.amount)}`;
  return `${whose(facts)} reached ${percent}% of ${budget}`;
}

/** The facts a budget_override_required approval carries in its payload, or null for another payload. */
export function budgetFactsOf(
  payload: Record<string, unknown>,
  nameOf: (scopeType: string, scopeId: string) => string | null,
): (BudgetFacts & { incidentId: string }) | null {
  const { incidentId, scopeType, scopeId, metric, amount, observed, windowKey } = payload;
  if (typeof incidentId !== 'string' || typeof scopeType !== 'string' || typeof scopeId !== 'string') return null;
  if (typeof metric !== 'string' || typeof amount !== 'number' || typeof observed !== 'number') return null;
  return {
    incidentId,
    scopeType,
    scopeName: nameOf(scopeType, scopeId),
    metric,
    amount,
    observed,
    windowKey: typeof windowKey === 'string' ? windowKey : null,
  };
}
