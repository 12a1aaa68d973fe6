// How much of a budget is used: a bar with the warn line marked, in the info tone below it, warning
// past it, danger at the limit; the figures in the metric's unit (money as dollars, never cents).
import type { Tone } from '../../lib/statuses';
import { budgetAmount } from './amounts';

/** Below the warn line info, past it warning, at or over the limit danger. */
export function budgetTone(share: number, warnPercent: number): Tone {
  return share >= 1 ? 'danger' : share * 100 >= warnPercent ? 'warning' : 'info';
}

export function BudgetBar({
  name,
  metric,
  observed,
  amount,
  warnPercent,
}: {
  name: string;
  metric: string;
  observed: number;
  amount: number;
  warnPercent: number;
}) {
  const share = amount > 0 ? observed / amount : 0;
  const percent = Math.round(share * 1000) / 10;
  const tone = budgetTone(share, warnPercent);
  const text = `${budgetAmount(metric, observed)} of ${budgetAmount(metric, amount)} (${percent}%)`;
  return (
    <div className={`budget-bar budget-bar-${tone}`}>
      <svg role="img" aria-label={`${name}: ${text}`} width="100%" height="8">
        <rect x="0" y="0" width="100%" height="8" rx="3" className="bar-track" />
        <rect x="0" y="0" width={`${Math.min(100, share * 100)}%`} height="8" rx="3" className="budget-bar-fill" />
        <rect x={`${warnPercent}%`} y="0" width="1.5" height="8" className="budget-bar-mark" />
      </svg>
      <span className="muted">{text}</span>
    </div>
  );
}
