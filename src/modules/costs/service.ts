// Recording cost events. One transaction: the event, the scope usage counters (company, agent,
// project; month and lifetime) with the budget evaluation, and the activity entry. The same use case serves the
// cost-events route and the engine (usage a run reports while it runs).
import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { agents, costEvents, heartbeatRuns, issues } from '../../db/schema/index.ts';
import { actorStamp, systemActor } from '../../core/actor.ts';
import type { Ctx } from '../../core/context.ts';
import { unprocessable } from '../../core/errors.ts';
import type { AdapterUsage } from '../../adapters/types.ts';
import { recordActivity } from '../activity/record.ts';
import { assertIssueRefsInCompany, requireSiblingIssue } from '../../core/issue-access.ts';
import { evaluateCrossings } from '../budgets/evaluate.ts';
import { addScopeUsage, scopesOf } from '../budgets/usage.ts';
import { costCentsOf, type PriceTable } from '../../core/pricing.ts';
import { addToRollups } from './rollup.ts';
import type { CreateCostEvent } from './schemas.ts';
import { oneRow } from '../../db/rows.ts';
import { assertMayReportCost } from './policy.ts';

export type CostEvent = typeof costEvents.$inferSelect;

/** How far ahead of the server clock occurredAt may be (clock skew), so every event lands in a month already counted. */
export const MAX_FUTURE_SKEW_MS = 5 * 60_000;

/**
 * Records one event. A hard incident it raises is applied by the engine once this commits
 * (engine/budget-stops.ts). `created: false`: the company already has an event with this idempotencyKey, returned as it is
 * (nothing counted again; a concurrent twin waits on the unique index and lands here).
 */
export async function recordCostEvent(
  ctx: Ctx,
  companyId: string,
  input: CreateCostEvent,
  now = new Date(),
): Promise<{ event: CostEvent; created: boolean }> {
  await assertMayReportCost(ctx, companyId, input.agentId);
  const occurredAt = new Date(input.occurredAt);
  if (occurredAt.getTime() > now.getTime() + MAX_FUTURE_SKEW_MS) throw unprocessable('occurredAt lies in the future');
  return ctx.db.transaction(async (tx) => {
    const [agent] = await tx
      .select({ id: agents.id })
      .from(agents)
      .where(and(eq(agents.id, input.agentId), eq(agents.companyId, companyId)));
    if (!agent) throw unprocessable('agentId must name an agent of the company', { agentId: input.agentId });
    await assertIssueRefsInCompany(tx, companyId, { projectId: input.projectId, goalId: input.goalId });
    // An issue's event counts for the issue's project unless the caller says otherwise.
    const issue = input.issueId ? await requireSiblingIssue(tx, companyId, input.issueId, 'issueId') : null;
    if (input.heartbeatRunId) {
      const [run] = await tx
        .select({ id: heartbeatRuns.id })
        .from(heartbeatRuns)
        .where(and(eq(heartbeatRuns.id, input.heartbeatRunId), eq(heartbeatRuns.agentId, agent.id)));
      if (!run)
        throw unprocessable('heartbeatRunId must name a run of the same agent', {
          heartbeatRunId: input.heartbeatRunId,
        });
    }
    const stamp = actorStamp(ctx.actor);
    const [event] = await tx
      .insert(costEvents)
      .values({
        companyId,
        agentId: agent.id,
        issueId: issue?.id ?? null,
        projectId: input.projectId ?? issue?.projectId ?? null,
        goalId: input.goalId ?? issue?.goalId ?? null,
        heartbeatRunId: input.heartbeatRunId ?? null,
        billingCode: input.billingCode ?? issue?.billingCode ?? null,
        provider: input.provider,
        model: input.model,
        biller: input.biller ?? input.provider,
        billingType: input.billingType ?? 'unknown',
        inputTokens: input.inputTokens ?? 0,
        cachedInputTokens: input.cachedInputTokens ?? 0,
        outputTokens: input.outputTokens ?? 0,
        costCents: input.costCents,
        occurredAt,
        reportedByActorType: stamp.actorType,
        reportedByActorId: stamp.actorId,
        idempotencyKey: input.idempotencyKey ?? null,
      })
      .onConflictDoNothing()
      .returning();
    if (!event) {
      // Only the idempotency key's unique index turns the row away: the event was recorded before.
      const existing = input.idempotencyKey
        ? await tx
            .select()
            .from(costEvents)
            .where(and(eq(costEvents.companyId, companyId), eq(costEvents.idempotencyKey, input.idempotencyKey)))
        : [];
      return { event: oneRow(existing, 'cost event under this idempotency key'), created: false };
    }
    await addToRollups(tx, event);
    // Counters and budgets: every scope the event counts for, in its month and lifetime.
    const delta = { billedCents: event.costCents, tokens: event.inputTokens + event.outputTokens };
    const usage = await addScopeUsage(tx, companyId, scopesOf(companyId, agent.id, event.projectId), occurredAt, delta);
    await evaluateCrossings(tx, ctx.actor, usage, delta, now);
    await recordActivity(tx, ctx.actor, {
      companyId,
      action: 'cost.reported',
      entityType: 'cost_event',
      entityId: event.id,
      details: {
        agentId: agent.id,
        costCents: event.costCents,
        provider: event.provider,
        model: event.model,
        billingType: event.billingType,
        ...(event.issueId && { issueId: event.issueId }),
      },
    });
    return { event, created: true };
  });
}

export interface RunUsageContext {
  runId: string;
  companyId: string;
  agentId: string;
  issueId: string | null;
}

/**
 * A usage report from a live run becomes a cost event as it arrives: the adapter's costCents when
 * it reports one, else the price table's; subscription-included usage at 0 cents, tokens kept.
 */
export async function recordRunUsage(
  db: DbOrTx,
  run: RunUsageContext,
  usage: AdapterUsage,
  prices: PriceTable,
  now = new Date(),
): Promise<{ event: CostEvent; created: boolean }> {
  const provider = usage.provider?.trim() || 'unknown';
  const model = usage.model?.trim() || 'unknown';
  const billingType = usage.billingType ?? 'unknown';
  const counts = {
    inputTokens: usage.inputTokens ?? 0,
    cachedInputTokens: usage.cachedInputTokens ?? 0,
    outputTokens: usage.outputTokens ?? 0,
  };
  const costCents = costCentsOf(
    { provider, model, billingType, ...counts, ...(usage.costCents !== undefined && { costCents: usage.costCents }) },
    prices,
  );
  const [issue] = run.issueId ? await db.select({ id: issues.id }).from(issues).where(eq(issues.id, run.issueId)) : [];
  return recordCostEvent(
    { db, actor: systemActor('engine', run.runId) },
    run.companyId,
    {
      agentId: run.agentId,
      provider,
      model,
      billingType: billingType as CreateCostEvent['billingType'],
      costCents,
      occurredAt: now.toISOString(),
      issueId: issue?.id ?? null,
      heartbeatRunId: run.runId,
      ...counts,
    },
    now,
  );
}
