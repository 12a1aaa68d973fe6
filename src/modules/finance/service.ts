// Finance events: non-token money (fees, credit purchases and refunds, adjustments), recorded by the
// board. One transaction per event with its `finance.recorded` activity entry. Reads are indexed
// aggregates over the company's (company_id, occurred_at) index: finance events are entered by
// people, a few per day, so no rollup is kept for them.
import { and, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import { financeEvents } from '../../db/schema/index.ts';
import { actorStamp } from '../../core/actor.ts';
import type { Ctx } from '../../core/context.ts';
import { recordActivity } from '../activity/record.ts';
import { MAX_BREAKDOWN_ROWS, type Range } from '../costs/summaries.ts';
import type { CreateFinanceEvent } from './schemas.ts';
import { oneRow } from '../../db/rows.ts';
import { financeCompanyFor } from './policy.ts';

export type FinanceEvent = typeof financeEvents.$inferSelect;

/**
 * `created: false`: the company already has an event with this idempotencyKey, returned as it is
 * (a concurrent twin waits on the unique index and lands here), and nothing is recorded again.
 */
export async function recordFinanceEvent(
  ctx: Ctx,
  companyRef: string,
  input: CreateFinanceEvent,
): Promise<{ event: FinanceEvent; created: boolean }> {
  const { id: companyId } = await financeCompanyFor(ctx, 'finance.record', companyRef);
  return ctx.db.transaction(async (tx) => {
    const stamp = actorStamp(ctx.actor);
    const [event] = await tx
      .insert(financeEvents)
      .values({
        companyId,
        kind: input.kind,
        direction: input.direction,
        amountCents: input.amountCents,
        currency: input.currency,
        estimated: input.estimated ?? false,
        biller: input.biller ?? null,
        description: input.description || null,
        metadata: input.metadata ?? null,
        occurredAt: new Date(input.occurredAt),
        recordedByActorType: stamp.actorType,
        recordedByActorId: stamp.actorId,
        idempotencyKey: input.idempotencyKey ?? null,
      })
      .onConflictDoNothing()
      .returning();
    if (!event) {
      // Only the idempotency key's unique index turns the row away: the event was recorded before.
      const existing = input.idempotencyKey
        ? await tx
            .select()
            .from(financeEvents)
            .where(and(eq(financeEvents.companyId, companyId), eq(financeEvents.idempotencyKey, input.idempotencyKey)))
        : [];
      return { event: oneRow(existing, 'finance event under this idempotency key'), created: false };
    }
    await recordActivity(tx, ctx.actor, {
      companyId,
      action: 'finance.recorded',
      entityType: 'finance_event',
      entityId: event.id,
      details: {
        kind: event.kind,
        direction: event.direction,
        amountCents: event.amountCents,
        currency: event.currency,
        estimated: event.estimated,
        ...(event.biller && { biller: event.biller }),
      },
    });
    return { event, created: true };
  });
}

function inRange(companyId: string, range: Range): SQL | undefined {
  return and(
    eq(financeEvents.companyId, companyId),
    range.from ? gte(financeEvents.occurredAt, range.from) : undefined,
    range.to ? lt(financeEvents.occurredAt, range.to) : undefined,
  );
}

/** Newest first (occurredAt, then id). */
export async function listFinanceEvents(
  ctx: Ctx,
  companyRef: string,
  range: Range,
  limit: number,
): Promise<FinanceEvent[]> {
  const { id: companyId } = await financeCompanyFor(ctx, 'finance.read', companyRef);
  return ctx.db
    .select()
    .from(financeEvents)
    .where(inRange(companyId, range))
    .orderBy(desc(financeEvents.occurredAt), desc(financeEvents.id))
    .limit(limit);
}

export interface FinanceTotals {
  currency: string;
  debitCents: number;
  creditCents: number;
  netCents: number;
  eventCount: number;
}

const totals = {
  currency: financeEvents.currency,
  debitCents: sql<number>`coalesce(sum(${financeEvents.amountCents}) filter (where ${financeEvents.direction} = 'debit'), 0)::float8`,
  creditCents: sql<number>`coalesce(sum(${financeEvents.amountCents}) filter (where ${financeEvents.direction} = 'credit'), 0)::float8`,
  netCents: sql<number>`coalesce(sum(case when ${financeEvents.direction} = 'debit' then ${financeEvents.amountCents} else -${financeEvents.amountCents} end), 0)::float8`,
  eventCount: sql<number>`count(*)::float8`,
};

/** Debits, credits and net (debits minus credits) per currency, by currency code. */
export async function financeSummary(ctx: Ctx, companyRef: string, range: Range): Promise<FinanceTotals[]> {
  const { id: companyId } = await financeCompanyFor(ctx, 'finance.read', companyRef);
  return ctx.db
    .select(totals)
    .from(financeEvents)
    .where(inRange(companyId, range))
    .groupBy(financeEvents.currency)
    .orderBy(financeEvents.currency)
    .limit(MAX_BREAKDOWN_ROWS);
}

const gross = sql`sum(${financeEvents.amountCents}) desc`;

/** Totals per biller and currency; largest gross (debits plus credits) first, at most MAX_BREAKDOWN_ROWS. */
export async function financeByBiller(
  ctx: Ctx,
  companyRef: string,
  range: Range,
): Promise<(FinanceTotals & { biller: string | null })[]> {
  const { id: companyId } = await financeCompanyFor(ctx, 'finance.read', companyRef);
  return ctx.db
    .select({ biller: financeEvents.biller, ...totals })
    .from(financeEvents)
    .where(inRange(companyId, range))
    .groupBy(financeEvents.biller, financeEvents.currency)
    .orderBy(gross, sql`${financeEvents.biller} nulls last`, financeEvents.currency)
    .limit(MAX_BREAKDOWN_ROWS);
}

/** Totals per kind and currency; largest gross (debits plus credits) first, at most MAX_BREAKDOWN_ROWS. */
export async function financeByKind(
  ctx: Ctx,
  companyRef: string,
  range: Range,
): Promise<(FinanceTotals & { kind: string })[]> {
  const { id: companyId } = await financeCompanyFor(ctx, 'finance.read', companyRef);
  return ctx.db
    .select({ kind: financeEvents.kind, ...totals })
    .from(financeEvents)
    .where(inRange(companyId, range))
    .groupBy(financeEvents.kind, financeEvents.currency)
    .orderBy(gross, financeEvents.kind, financeEvents.currency)
    .limit(MAX_BREAKDOWN_ROWS);
}
