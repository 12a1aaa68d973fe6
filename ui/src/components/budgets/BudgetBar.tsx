// How much of a budget is used: a bar with the warn line marked, amber past it, red at the limit.
import { budgetAmount } from './amounts';

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
  const tone = share >= 1 ? 'budget-bar-over' : share * 100 >= warnPercent ? 'budget-bar-warn' : 'budget-bar-fill';
  const text = `${budgetAmount(metric, observed)} of ${budgetAmount(metric, amount)} (${percent}%)`;
  return (
    <div className="budget-bar">
      <svg role="img" aria-label={`${name}: ${text}`} width="100%" height="8">
        <rect x="0" y="0" width="100%" height="8" rx="3" className="bar-track" />
        <rect x="0" y="0" width={`${Math.min(100, share * 100)}%`} height="8" rx="3" className={tone} />
        <rect x={`${warnPercent}%`} y="0" width="1.5" height="8" className="budget-bar-over" />
      </svg>
      <span className="muted">{text}</span>
    </div>
  );
}
