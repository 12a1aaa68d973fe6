// Keeps the monthly budget policy of a company or agent in step with its budgetMonthlyCents.
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { budgetPolicies } from '../../db/schema/index.ts';

export type BudgetScope = 'company' | 'agent' | 'project';

/** A positive amount creates or updates the active calendar-month policy; zero deactivates it. */
export async function syncMonthlyBudgetPolicy(tx: DbOrTx, companyId: string, scopeType: BudgetScope, scopeId: string, amountCents: number): Promise<void> {
  const scope = and(
    eq(budgetPolicies.companyId, companyId),
    eq(budgetPolicies.scopeType, scopeType),
    eq(budgetPolicies.scopeId, scopeId),
    eq(budgetPolicies.windowKind, 'calendar_month_utc'),
    eq(budgetPolicies.metric, 'billed_cents'),
    eq(budgetPolicies.isActive, true),
  );
  if (amountCents <= 0) {
    await tx.update(budgetPolicies).set({ isActive: false, updatedAt: sql`now()` }).where(scope);
    return;
  }
  const [updated] = await tx.update(budgetPolicies).set({ amountCents, updatedAt: sql`now()` }).where(scope).returning({ id: budgetPolicies.id });
  if (!updated) {
    await tx.insert(budgetPolicies).values({ companyId, scopeType, scopeId, windowKind: 'calendar_month_utc', metric: 'billed_cents', amountCents });
  }
}
