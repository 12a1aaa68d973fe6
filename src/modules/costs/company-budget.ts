// The company's monthly budget, as the summaries read it. The one place that knows where it is
// stored: the active company policy on billed cents per UTC calendar month (0 when there is none).
import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { budgetPolicies } from '../../db/schema/index.ts';

export async function companyMonthlyBudgetCents(db: DbOrTx, companyId: string): Promise<number> {
  const [policy] = await db
    .select({ amount: budgetPolicies.amountCents })
    .from(budgetPolicies)
    .where(
      and(
        eq(budgetPolicies.companyId, companyId),
        eq(budgetPolicies.scopeType, 'company'),
        eq(budgetPolicies.scopeId, companyId),
        eq(budgetPolicies.metric, 'billed_cents'),
        eq(budgetPolicies.windowKind, 'calendar_month_utc'),
        eq(budgetPolicies.isActive, true),
      ),
    )
    .limit(1);
  return policy?.amount ?? 0;
}
