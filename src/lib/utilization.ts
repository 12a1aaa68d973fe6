/** Percent of the budget, two decimals; 0 when there is no budget. */
export function utilizationPercent(costCents: number, budgetCents: number): number {
  return budgetCents > 0 ? Math.round((costCents / budgetCents) * 10_000) / 100 : 0;
}
