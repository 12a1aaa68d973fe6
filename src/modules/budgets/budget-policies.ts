// Budget policies: the one source of truth for budgets. A company's or agent's budgetMonthlyCents
// is its active billed_cents policy over calendar_month_utc; PATCH .../budgets writes that policy,
// POST .../budgets/policies any other (tokens, runs, lifetime, projects). Every change is evaluated
// at once: a budget lowered below what was already spent stops the scope like a crossing would.
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { preparedPerDb } from '../../db/prepared.ts';
import { agents, budgetPolicies, projects } from '../../db/schema/index.ts';
import type { Actor } from '../../core/actor.ts';
import type { Ctx } from '../../core/context.ts';
import { badRequest, conflict, notFound, unprocessable } from '../../core/errors.ts';
import { recordActivity } from '../activity/record.ts';
import { evaluatePolicyNow } from './evaluate.ts';
import type { CreatePolicy, UpdatePolicy } from './schemas.ts';
import { utcMonth } from '../../lib/month.ts';
import type { BudgetScope, WindowKind } from './usage.ts';
import { entryOf } from '../../lib/maps.ts';
import { oneRow } from '../../db/rows.ts';
import { assertMayUpdatePolicy, companyForNewPolicy } from './policy.ts';

export type BudgetPolicy = typeof budgetPolicies.$inferSelect;

/** SPEC policy defaults: company and agent budgets are monthly, project budgets lifetime. */
export const DEFAULT_WINDOW: Record<BudgetScope, WindowKind> = {
  company: 'calendar_month_utc',
  agent: 'calendar_month_utc',
  project: 'lifetime',
};

const monthlyCents = and(
  eq(budgetPolicies.metric, 'billed_cents'),
  eq(budgetPolicies.windowKind, 'calendar_month_utc'),
  eq(budgetPolicies.isActive, true),
);

export interface MonthlyBudgetChange {
  companyId: string;
  scopeType: BudgetScope;
  /** The company's id or the agent's. */
  scopeId: string;
  amountCents: number;
}

/**
 * Sets the monthly budget of a company or agent: a positive amount creates or updates its active
 * calendar-month billed_cents policy, zero switches it off. Evaluated at once.
 */
export async function syncMonthlyBudgetPolicy(
  tx: Tx,
  actor: Actor,
  { companyId, scopeType, scopeId, amountCents }: MonthlyBudgetChange,
): Promise<void> {
  const scope = and(
    eq(budgetPolicies.companyId, companyId),
    eq(budgetPolicies.scopeType, scopeType),
    eq(budgetPolicies.scopeId, scopeId),
    monthlyCents,
  );
  if (amountCents <= 0) {
    await tx.update(budgetPolicies).set({ isActive: false, updatedAt: sql`now()` }).where(scope);
    return;
  }
  const [updated] = await tx
    .update(budgetPolicies)
    .set({ amount: amountCents, updatedAt: sql`now()` })
    .where(scope)
    .returning();
  const policy =
    updated ??
    oneRow(
      await tx
        .insert(budgetPolicies)
        .values({
          companyId,
          scopeType,
          scopeId,
          windowKind: 'calendar_month_utc',
          metric: 'billed_cents',
          amount: amountCents,
        })
        .returning(),
      'budget policy',
    );
  await evaluatePolicyNow(tx, actor, policy);
}

/** budgetMonthlyCents and spentMonthlyCents of companies or agents, for their presenters. */
export interface MonthlyBudget {
  budgetMonthlyCents: number;
  spentMonthlyCents: number;
}

// Every agent and company view carries both numbers: one prepared round trip for any number of scopes.
const monthlyBudgetRows = preparedPerDb((db: DbOrTx) =>
  db
    .select({
      scopeId: sql<string>`ids.id`,
      budget: sql<string | null>`(select p.amount_cents from budget_policies p
        where p.scope_id = ids.id and p.scope_type = ${sql.placeholder('scopeType')} and p.is_active
          and p.metric = 'billed_cents' and p.window_kind = 'calendar_month_utc')`,
      spent: sql<string | null>`(select u.billed_cents from budget_scope_usage u
        where u.scope_type = ${sql.placeholder('scopeType')} and u.scope_id = ids.id and u.window_key = ${sql.placeholder('month')})`,
    })
    .from(sql`unnest(${sql.placeholder('ids')}::uuid[]) as ids(id)`)
    .prepare('monthly_budgets'),
);

export async function monthlyBudgets(
  db: DbOrTx,
  scopeType: 'company' | 'agent',
  ids: string[],
  now = new Date(),
): Promise<Map<string, MonthlyBudget>> {
  if (ids.length === 0) return new Map();
  const rows = await monthlyBudgetRows(db).execute({ scopeType, ids, month: utcMonth(now) });
  return new Map(
    rows.map((r) => [
      r.scopeId,
      { budgetMonthlyCents: Number(r.budget ?? 0), spentMonthlyCents: Number(r.spent ?? 0) },
    ]),
  );
}

export async function monthlyBudgetOf(db: DbOrTx, scopeType: 'company' | 'agent', id: string): Promise<MonthlyBudget> {
  return entryOf(await monthlyBudgets(db, scopeType, [id]), id, 'monthly budget');
}

/** The scope a policy names must be the company itself, or one of its agents or projects (422). */
async function assertScopeInCompany(
  tx: DbOrTx,
  companyId: string,
  scopeType: BudgetScope,
  scopeId: string,
): Promise<void> {
  const table = scopeType === 'agent' ? agents : scopeType === 'project' ? projects : null;
  const found = table
    ? (
        await tx
          .select({ id: table.id })
          .from(table)
          .where(and(eq(table.id, scopeId), eq(table.companyId, companyId)))
      ).length > 0
    : scopeId === companyId;
  if (!found)
    throw unprocessable(
      `scopeId must name ${scopeType === 'company' ? 'this company' : `a ${scopeType} of this company`}`,
      { scopeId },
    );
}

export async function createPolicy(ctx: Ctx, companyId: string, input: CreatePolicy): Promise<BudgetPolicy> {
  await companyForNewPolicy(ctx, companyId);
  return ctx.db.transaction(async (tx) => {
    const scopeId = input.scopeType === 'company' ? (input.scopeId ?? companyId) : input.scopeId;
    // The route's schema says so too; callers with no route in front (engine, MCP) meet it here.
    if (scopeId === undefined) throw badRequest(`scopeId is required for a ${input.scopeType} budget`);
    await assertScopeInCompany(tx, companyId, input.scopeType, scopeId);
    const windowKind = input.windowKind ?? DEFAULT_WINDOW[input.scopeType];
    const metric = input.metric ?? 'billed_cents';
    const isActive = input.isActive ?? true;
    const [policy] = await tx
      .insert(budgetPolicies)
      .values({
        companyId,
        scopeType: input.scopeType,
        scopeId,
        metric,
        windowKind,
        amount: input.amount,
        warnPercent: input.warnPercent ?? 80,
        hardStopEnabled: input.hardStopEnabled ?? true,
        notifyEnabled: input.notifyEnabled ?? true,
        isActive,
      })
      .onConflictDoNothing()
      .returning();
    if (!policy)
      throw conflict(
        `an active ${metric} ${windowKind} policy already exists for this ${input.scopeType}; change it instead`,
        { scopeType: input.scopeType, scopeId, metric, windowKind },
      );
    await recordActivity(tx, ctx.actor, {
      companyId,
      action: 'budget.policy_created',
      entityType: 'budget_policy',
      entityId: policy.id,
      details: { scopeType: policy.scopeType, scopeId, metric, windowKind, amount: policy.amount },
    });
    if (isActive) await evaluatePolicyNow(tx, ctx.actor, policy);
    return policy;
  });
}

/**
 * Changes a policy's amount, thresholds or switches; evaluated at once like a new one, so an amount
 * lowered below what the window has observed stops the scope. Another company's policy is 404.
 */
/** A policy of this company, or 404 (another company's policy is 404 for every caller). */
export async function requirePolicy(db: DbOrTx, companyId: string, policyId: string): Promise<BudgetPolicy> {
  const [policy] = await db
    .select()
    .from(budgetPolicies)
    .where(and(eq(budgetPolicies.id, policyId), eq(budgetPolicies.companyId, companyId)));
  if (!policy) throw notFound('budget policy');
  return policy;
}

export async function updatePolicy(
  ctx: Ctx,
  companyId: string,
  policyId: string,
  input: UpdatePolicy,
): Promise<BudgetPolicy> {
  await assertMayUpdatePolicy(ctx, companyId);
  return ctx.db.transaction(async (tx) => {
    // Activating a policy whose scope, metric and window already has an active one breaks the
    // partial unique index: a 409 (conflict) through the database error mapping.
    const [policy] = await tx
      .update(budgetPolicies)
      .set({ ...input, updatedAt: sql`now()` })
      .where(and(eq(budgetPolicies.id, policyId), eq(budgetPolicies.companyId, companyId)))
      .returning();
    if (!policy) throw notFound('budget policy');
    await recordActivity(tx, ctx.actor, {
      companyId,
      action: 'budget.policy_updated',
      entityType: 'budget_policy',
      entityId: policy.id,
      details: { ...input, scopeType: policy.scopeType, scopeId: policy.scopeId },
    });
    await evaluatePolicyNow(tx, ctx.actor, policy);
    return policy;
  });
}

export async function listPolicies(db: DbOrTx, companyId: string): Promise<BudgetPolicy[]> {
  return db
    .select()
    .from(budgetPolicies)
    .where(and(eq(budgetPolicies.companyId, companyId), eq(budgetPolicies.isActive, true)))
    .orderBy(budgetPolicies.createdAt)
    .limit(1000);
}
