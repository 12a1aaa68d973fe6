// Budget evaluation: on every usage change (cost event, finished run) and every policy change.
//
// A usage change raises an incident when it crosses a line: the warn line (warnPercent) gives a soft
// incident, 100 percent a hard one. The counters are row-locked by the upsert that moved them, so
// concurrent events see strictly increasing values and exactly one of them has before < line <=
// after; the partial unique index (one open incident per policy, window and threshold) backs it.
// A policy change compares the current total with the line instead: lowering a budget below what
// was spent stops the scope at once.
//
// A hard incident of a policy with hardStopEnabled is written with stopPending: that row is the
// outbox entry the engine consumes (engine/budget-stops.ts) to pause the scope, cancel its work and
// ask the board for an override in a transaction of its own, so the transaction that records spend
// only ever locks counters and no caller has to remember to apply the stop.
import { and, eq, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { budgetIncidents, budgetPolicies } from '../../db/schema/index.ts';
import type { Actor } from '../../core/actor.ts';
import { recordActivity } from '../activity/record.ts';
import {
  metricDelta,
  metricValue,
  observed,
  windowKeyOf,
  type BudgetMetric,
  type BudgetScope,
  type ScopeUsage,
  type UsageDelta,
  type WindowKind,
} from './usage.ts';

type Policy = typeof budgetPolicies.$inferSelect;
export type BudgetIncident = typeof budgetIncidents.$inferSelect;

const warnLine = (policy: Policy) => Math.ceil((policy.amount * policy.warnPercent) / 100);

/** After counters moved by `delta` (rows as returned by addScopeUsage). Returns the incidents raised. */
export async function evaluateCrossings(
  tx: DbOrTx,
  actor: Actor,
  rows: ScopeUsage[],
  delta: UsageDelta,
  now = new Date(),
): Promise<BudgetIncident[]> {
  if (rows.length === 0) return [];
  const scopes = [...new Map(rows.map((r) => [`${r.scopeType}:${r.scopeId}`, r])).values()];
  const policies = await tx
    .select()
    .from(budgetPolicies)
    .where(
      and(
        eq(budgetPolicies.isActive, true),
        or(...scopes.map((s) => and(eq(budgetPolicies.scopeType, s.scopeType), eq(budgetPolicies.scopeId, s.scopeId)))),
      ),
    );
  const raised: BudgetIncident[] = [];
  for (const policy of policies) {
    // A calendar policy reads the current month only: spend dated in an earlier month does not count.
    const windowKey = windowKeyOf(policy.windowKind as WindowKind, now);
    const row = rows.find(
      (r) => r.scopeType === policy.scopeType && r.scopeId === policy.scopeId && r.windowKey === windowKey,
    );
    if (!row) continue;
    const metric = policy.metric as BudgetMetric;
    const after = metricValue(row, metric);
    const before = after - metricDelta(delta, metric);
    if (before < policy.amount && after >= policy.amount)
      raised.push(...(await raiseIncident(tx, actor, { policy, kind: 'hard', windowKey, value: after })));
    else if (policy.notifyEnabled && before < warnLine(policy) && after >= warnLine(policy))
      raised.push(...(await raiseIncident(tx, actor, { policy, kind: 'soft', windowKey, value: after })));
  }
  return raised;
}

/** A policy was created or changed: where its scope stands now decides. */
export async function evaluatePolicyNow(
  tx: DbOrTx,
  actor: Actor,
  policy: Policy,
  now = new Date(),
): Promise<BudgetIncident[]> {
  if (!policy.isActive) return [];
  const windowKey = windowKeyOf(policy.windowKind as WindowKind, now);
  const value = await observed(
    tx,
    { scopeType: policy.scopeType as BudgetScope, scopeId: policy.scopeId },
    windowKey,
    policy.metric as BudgetMetric,
  );
  if (value >= policy.amount) return raiseIncident(tx, actor, { policy, kind: 'hard', windowKey, value });
  if (policy.notifyEnabled && value >= warnLine(policy))
    return raiseIncident(tx, actor, { policy, kind: 'soft', windowKey, value });
  return [];
}

/** A line of `policy` crossed: soft at its warn line, hard at 100 percent, at `value` in the window `windowKey`. */
interface Crossing {
  policy: Policy;
  kind: 'soft' | 'hard';
  windowKey: string;
  value: number;
}

async function raiseIncident(
  tx: DbOrTx,
  actor: Actor,
  { policy, kind, windowKey, value }: Crossing,
): Promise<BudgetIncident[]> {
  const [incident] = await tx
    .insert(budgetIncidents)
    .values({
      companyId: policy.companyId,
      policyId: policy.id,
      scopeType: policy.scopeType,
      scopeId: policy.scopeId,
      metric: policy.metric,
      windowKey,
      kind,
      thresholdPercent: kind === 'hard' ? 100 : policy.warnPercent,
      amount: policy.amount,
      observed: value,
      stopPending: kind === 'hard' && policy.hardStopEnabled,
    })
    .onConflictDoNothing()
    .returning();
  if (!incident) return [];
  await recordActivity(tx, actor, {
    companyId: policy.companyId,
    action: kind === 'hard' ? 'budget.hard_limit_reached' : 'budget.warn_threshold_reached',
    entityType: 'budget_incident',
    entityId: incident.id,
    details: {
      policyId: policy.id,
      scopeType: policy.scopeType,
      scopeId: policy.scopeId,
      metric: policy.metric,
      windowKey,
      amount: policy.amount,
      observed: value,
      hardStop: incident.stopPending,
    },
  });
  return [incident];
}

/** Open incidents of a company, newest first (bounded). */
export async function openIncidents(db: DbOrTx, companyId: string): Promise<BudgetIncident[]> {
  return db
    .select()
    .from(budgetIncidents)
    .where(and(eq(budgetIncidents.companyId, companyId), eq(budgetIncidents.status, 'open')))
    .orderBy(budgetIncidents.createdAt)
    .limit(500);
}
