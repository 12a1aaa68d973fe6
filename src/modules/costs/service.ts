// Recording cost events. One transaction: the event, the agent's and the company's spend counters
// for the current UTC month (see month.ts), and the activity entry. The same use case serves the
// cost-events route and the engine (usage a run reports while it runs).
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { agents, companies, costEvents, heartbeatRuns, issues } from '../../db/schema/index.ts';
import { actorStamp, systemActor } from '../../core/actor.ts';
import type { Ctx } from '../../core/context.ts';
import { unprocessable } from '../../core/errors.ts';
import type { AdapterUsage } from '../../engine/adapters/types.ts';
import { recordActivity } from '../activity/record.ts';
import { assertIssueRefsInCompany, requireSiblingIssue } from '../issues/references.ts';
import { utcMonth } from './month.ts';
import { costCentsOf, type PriceTable } from './pricing.ts';
import { addToRollups } from './rollup.ts';
import type { CreateCostEvent } from './schemas.ts';

export type CostEvent = typeof costEvents.$inferSelect;

/** How far ahead of the server clock occurredAt may be (clock skew), so every event lands in a month already counted. */
export const MAX_FUTURE_SKEW_MS = 5 * 60_000;

export async function recordCostEvent(ctx: Ctx, companyId: string, input: CreateCostEvent, now = new Date()): Promise<CostEvent> {
  const occurredAt = new Date(input.occurredAt);
  if (occurredAt.getTime() > now.getTime() + MAX_FUTURE_SKEW_MS) throw unprocessable('occurredAt lies in the future');
  return ctx.db.transaction(async (tx) => {
    const [agent] = await tx.select({ id: agents.id }).from(agents).where(and(eq(agents.id, input.agentId), eq(agents.companyId, companyId)));
    if (!agent) throw unprocessable('agentId must name an agent of the company', { agentId: input.agentId });
    await assertIssueRefsInCompany(tx, companyId, { projectId: input.projectId, goalId: input.goalId });
    // An issue's event counts for the issue's project unless the caller says otherwise.
    const issue = input.issueId ? await requireSiblingIssue(tx, companyId, input.issueId, 'issueId') : null;
    if (input.heartbeatRunId) {
      const [run] = await tx.select({ id: heartbeatRuns.id }).from(heartbeatRuns).where(and(eq(heartbeatRuns.id, input.heartbeatRunId), eq(heartbeatRuns.agentId, agent.id)));
      if (!run) throw unprocessable('heartbeatRunId must name a run of the same agent', { heartbeatRunId: input.heartbeatRunId });
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
      })
      .returning();
    await addToRollups(tx, event!);
    const month = utcMonth(now);
    if (utcMonth(occurredAt) === month && input.costCents > 0) await addToMonth(tx, companyId, agent.id, month, input.costCents);
    await recordActivity(tx, ctx.actor, {
      companyId,
      action: 'cost.reported',
      entityType: 'cost_event',
      entityId: event!.id,
      details: { agentId: agent.id, costCents: event!.costCents, provider: event!.provider, model: event!.model, billingType: event!.billingType, ...(event!.issueId && { issueId: event!.issueId }) },
    });
    return event!;
  });
}

/** Adds to this month's counters; a counter still on an older month starts again from this amount. */
async function addToMonth(tx: DbOrTx, companyId: string, agentId: string, month: string, cents: number): Promise<void> {
  const next = (t: typeof agents | typeof companies) => ({
    spentMonthlyCents: sql`case when ${t.spentMonth} = ${month} then ${t.spentMonthlyCents} + ${cents} else ${cents} end`,
    spentMonth: month,
  });
  await tx.update(agents).set(next(agents)).where(eq(agents.id, agentId));
  await tx.update(companies).set(next(companies)).where(eq(companies.id, companyId));
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
export async function recordRunUsage(db: DbOrTx, run: RunUsageContext, usage: AdapterUsage, prices: PriceTable, now = new Date()): Promise<CostEvent> {
  const provider = usage.provider?.trim() || 'unknown';
  const model = usage.model?.trim() || 'unknown';
  const billingType = usage.billingType ?? 'unknown';
  const counts = { inputTokens: usage.inputTokens ?? 0, cachedInputTokens: usage.cachedInputTokens ?? 0, outputTokens: usage.outputTokens ?? 0 };
  const costCents = costCentsOf({ provider, model, billingType, ...counts, ...(usage.costCents !== undefined && { costCents: usage.costCents }) }, prices);
  const [issue] = run.issueId ? await db.select({ id: issues.id }).from(issues).where(eq(issues.id, run.issueId)) : [];
  return recordCostEvent({ db, actor: systemActor('engine', run.runId) }, run.companyId, {
    agentId: run.agentId,
    provider,
    model,
    billingType: billingType as CreateCostEvent['billingType'],
    costCents,
    occurredAt: now.toISOString(),
    issueId: issue?.id ?? null,
    heartbeatRunId: run.runId,
    ...counts,
  }, now);
}
