import { budgetTone } from '../../components/budgets/BudgetBar';
import { cents } from '../../lib/format';

/** This month's spend against the monthly budget: a small bar (decoration) and the figures (the content). */
export function SpendBar({ spentCents, budgetCents }: { spentCents: number; budgetCents: number }) {
  if (budgetCents <= 0) {
    return (
      <span className="spend">
        {cents(spentCents)} <span className="muted">· no budget</span>
      </span>
    );
  }
  const percent = Math.round((spentCents / budgetCents) * 100);
  const tone = budgetTone(spentCents / budgetCents, 80);
  return (
    <span className="spend">
      <span className={`spend-bar spend-bar-${tone}`} aria-hidden="true">
        <span style={{ width: `${Math.min(100, percent)}%` }} />
      </span>
      <span>
        {cents(spentCents)}{' '}
        <span className="muted">
          of {cents(budgetCents)} ({percent}%)
        </span>
      </span>
    </span>
  );
}
