// A budget's amount in its metric's unit, as people read it, and back from what they type.
import { cents, tokenCount } from '../../lib/format';

export type BudgetMetric = 'billed_cents' | 'tokens' | 'runs';

export function budgetAmount(metric: string, value: number): string {
  if (metric === 'billed_cents') return cents(value);
  if (metric === 'tokens') return `${tokenCount(value)} tokens`;
  return `${value.toLocaleString()} runs`;
}

/** The number a form field shows for an amount: dollars for money, the count otherwise. */
export const amountField = (metric: string, value: number): string =>
  metric === 'billed_cents' ? (value / 100).toFixed(2) : String(value);

/** What was typed, in the metric's unit (cents for money); NaN when it is not a number. */
export function parseAmount(metric: string, text: string): number {
  const value = Number(text.replace(/[$,\s]/g, ''));
  if (text.trim() === '' || !Number.isFinite(value)) return Number.NaN;
  return metric === 'billed_cents' ? Math.round(value * 100) : Math.round(value);
}
