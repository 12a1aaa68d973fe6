// Scope usage counters (budget_scope_usage): per scope (company, agent, project) and window (UTC
// month, lifetime), the billed cents, tokens and finished runs. Written in the transaction of each
// cost event and each finished run; read by budget checks and by the month spend of agents and
// companies. A new month is a new row, so nothing resets on the first of the month.
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { budgetScopeUsage } from '../../db/schema/index.ts';
import { utcMonth } from '../../lib/month.ts';

export type BudgetScope = 'company' | 'agent' | 'project';
export type BudgetMetric = 'billed_cents' | 'tokens' | 'runs';
export type WindowKind = 'calendar_month_utc' | 'lifetime';
export const LIFETIME = 'lifetime';

export interface ScopeRef {
  scopeType: BudgetScope;
  scopeId: string;
}

export interface UsageDelta {
  billedCents?: number;
  tokens?: number;
  runs?: number;
}

export type ScopeUsage = typeof budgetScopeUsage.$inferSelect;

/** The window a policy of this kind reads at `at`. */
export const windowKeyOf = (kind: WindowKind, at: Date) => (kind === 'lifetime' ? LIFETIME : utcMonth(at));

/** The scopes one piece of spend counts for. */
export function scopesOf(companyId: string, agentId: string | null, projectId: string | null): ScopeRef[] {
  return [
    { scopeType: 'company', scopeId: companyId },
    ...(agentId ? [{ scopeType: 'agent' as const, scopeId: agentId }] : []),
    ...(projectId ? [{ scopeType: 'project' as const, scopeId: projectId }] : []),
  ];
}

export const metricValue = (row: Pick<ScopeUsage, 'billedCents' | 'tokens' | 'runs'>, metric: BudgetMetric) =>
  metric === 'billed_cents' ? row.billedCents : metric === 'tokens' ? row.tokens : row.runs;

export const metricDelta = (delta: UsageDelta, metric: BudgetMetric) =>
  (metric === 'billed_cents' ? delta.billedCents : metric === 'tokens' ? delta.tokens : delta.runs) ?? 0;

/**
 * Adds `delta` to every scope's month (of `at`) and lifetime counters in one statement, rows in a
 * fixed order so concurrent writers lock them in the same order. Returns the counters after.
 */
export async function addScopeUsage(
  tx: DbOrTx,
  companyId: string,
  scopes: ScopeRef[],
  at: Date,
  delta: UsageDelta,
): Promise<ScopeUsage[]> {
  const rows = scopes
    .flatMap((s) =>
      [utcMonth(at), LIFETIME].map((windowKey) => ({
        companyId,
        ...s,
        windowKey,
        billedCents: delta.billedCents ?? 0,
        tokens: delta.tokens ?? 0,
        runs: delta.runs ?? 0,
      })),
    )
    .sort((a, b) =>
      `${a.scopeType}${a.scopeId}${a.windowKey}`.localeCompare(`${b.scopeType}${b.scopeId}${b.windowKey}`),
    );
  return tx
    .insert(budgetScopeUsage)
    .values(rows)
    .onConflictDoUpdate({
      target: [budgetScopeUsage.scopeType, budgetScopeUsage.scopeId, budgetScopeUsage.windowKey],
      set: {
        billedCents: sql`${budgetScopeUsage.billedCents} + excluded.billed_cents`,
        tokens: sql`${budgetScopeUsage.tokens} + excluded.tokens`,
        runs: sql`${budgetScopeUsage.runs} + excluded.runs`,
        updatedAt: sql`now()`,
      },
    })
    .returning();
}

/** Observed value of one scope in one window (0 when nothing was recorded). */
export async function observed(db: DbOrTx, scope: ScopeRef, windowKey: string, metric: BudgetMetric): Promise<number> {
  const [row] = await db
    .select()
    .from(budgetScopeUsage)
    .where(
      and(
        eq(budgetScopeUsage.scopeType, scope.scopeType),
        eq(budgetScopeUsage.scopeId, scope.scopeId),
        eq(budgetScopeUsage.windowKey, windowKey),
      ),
    );
  return row ? metricValue(row, metric) : 0;
}
