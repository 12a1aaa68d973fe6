// The wakeup queue, and the only writer of its rows (test/single-writer.test.ts holds every other
// file to that): producers enqueue inside their own transaction; the engine's dispatcher claims
// rows with FOR UPDATE SKIP LOCKED and records each decision (./decide.ts); a run's end promotes
// the wakes deferred behind it; pause, terminate and budget stops cancel waiting wakes; the reaper
// requeues stranded ones and retention deletes old finished ones.
//
// Wakeup rows are the last lock of the one order (runs/lock-order.ts): callers hold the agent (and
// the issue and run rows they need) before calling any of these inside a transaction.
import { and, eq, inArray, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import { agentWakeupRequests, issues } from '../../db/schema/index.ts';
import { type WakeupRequest, oneRow } from '../../db/rows.ts';
import { actorStamp, type Actor } from '../../core/actor.ts';

export type WakeupSource = 'timer' | 'assignment' | 'on_demand' | 'automation';
export type WakeupTriggerDetail = 'manual' | 'ping' | 'callback' | 'system';

export interface WakeupInput {
  companyId: string;
  agentId: string;
  source: WakeupSource;
  triggerDetail?: WakeupTriggerDetail | null;
  reason?: string | null;
  payload?: Record<string, unknown> | null;
  issueId?: string | null;
  idempotencyKey?: string | null;
  forceFreshSession?: boolean;
}
// Claimed rows whose dispatcher died are put back after this long (the reaper does it).
const CLAIM_TIMEOUT_SEC = 60;
// A wake that failed this many claims stops being retried (status failed, lastError kept).
const MAX_WAKE_ATTEMPTS = 5;

/**
 * Queues a wakeup. A repeated idempotencyKey for the same agent returns the first request instead
 * of queueing a second one (`created: false`): the one place idempotency is decided, by the unique
 * (agent, idempotencyKey) index, so concurrent repeats cannot both queue.
 */
export async function enqueueWakeup(
  tx: DbOrTx,
  actor: Actor,
  input: WakeupInput,
): Promise<{ request: WakeupRequest; created: boolean }> {
  const stamp = actorStamp(actor);
  const values = {
    companyId: input.companyId,
    agentId: input.agentId,
    source: input.source,
    triggerDetail: input.triggerDetail ?? null,
    reason: input.reason ?? null,
    payload: input.payload ?? null,
    issueId: input.issueId ?? null,
    idempotencyKey: input.idempotencyKey ?? null,
    forceFreshSession: input.forceFreshSession ?? false,
    requestedByActorType: stamp.actorType,
    requestedByActorId: stamp.actorId,
  };
  const [inserted] = await tx.insert(agentWakeupRequests).values(values).onConflictDoNothing().returning();
  if (inserted) return { request: inserted, created: true };
  // Turned away by the unique (agent, idempotency key): the wake asked before.
  const existing = await tx
    .select()
    .from(agentWakeupRequests)
    .where(
      sql`${agentWakeupRequests.agentId} = ${input.agentId} and ${agentWakeupRequests.idempotencyKey} = ${input.idempotencyKey ?? null}`,
    );
  return { request: oneRow(existing, 'wakeup request under this idempotency key'), created: false };
}

export async function claimWakeups(db: Db, replica: string, limit: number): Promise<WakeupRequest[]> {
  const claimable = db
    .select({ id: agentWakeupRequests.id })
    .from(agentWakeupRequests)
    .where(and(eq(agentWakeupRequests.status, 'queued'), sql`${agentWakeupRequests.runAt} <= now()`))
    .orderBy(agentWakeupRequests.runAt, agentWakeupRequests.id)
    .limit(limit)
    .for('update', { skipLocked: true });
  return db
    .update(agentWakeupRequests)
    .set({
      status: 'claimed',
      lockedBy: replica,
      lockedAt: sql`now()`,
      claimedAt: sql`now()`,
      attempts: sql`${agentWakeupRequests.attempts} + 1`,
    })
    .where(inArray(agentWakeupRequests.id, claimable))
    .returning();
}

export type WakeOutcome = 'completed' | 'coalesced' | 'deferred' | 'skipped' | 'cancelled';

/** Records the dispatcher's decision on a claimed wake: finished, or (deferred) waiting for a promotion. */
export async function recordWakeOutcome(
  tx: Tx,
  wakeId: string,
  decision: { outcome: WakeOutcome; reason: string | null; runId: string | null },
): Promise<void> {
  const finished = decision.outcome !== 'deferred';
  await tx
    .update(agentWakeupRequests)
    .set({
      status: decision.outcome,
      outcomeReason: decision.reason,
      runId: decision.runId,
      lockedBy: null,
      lockedAt: null,
      ...(finished ? { finishedAt: sql`now()` } : { runAt: sql`now()` }),
    })
    .where(eq(agentWakeupRequests.id, wakeId));
}

/** A claim that threw: back to the queue with backoff, or failed for good after MAX_WAKE_ATTEMPTS. */
export async function releaseFailedClaim(db: Db, wake: WakeupRequest, error: string): Promise<void> {
  const givesUp = wake.attempts >= MAX_WAKE_ATTEMPTS;
  await db
    .update(agentWakeupRequests)
    .set({
      status: givesUp ? 'failed' : 'queued',
      lastError: error.slice(0, 2000),
      lockedBy: null,
      lockedAt: null,
      ...(givesUp
        ? { finishedAt: sql`now()`, outcomeReason: 'dispatch_failed' }
        : { runAt: sql`now() + make_interval(secs => ${2 ** wake.attempts})` }),
    })
    .where(and(eq(agentWakeupRequests.id, wake.id), eq(agentWakeupRequests.status, 'claimed')));
}

/**
 * Safety nets the reaper runs: claims held by a dispatcher that died go back to the queue, and
 * deferred wakes are looked at again after a while even if the promotion that should have
 * released them never came (nothing waits forever on a missed signal).
 */
export async function requeueStrandedWakes(db: Db, recheckAfterSec: number): Promise<number> {
  const rows = await db
    .update(agentWakeupRequests)
    .set({ status: 'queued', runAt: sql`now()`, lockedBy: null, lockedAt: null })
    .where(
      sql`(${agentWakeupRequests.status} = 'claimed' and ${agentWakeupRequests.lockedAt} < now() - make_interval(secs => ${CLAIM_TIMEOUT_SEC}))
        or (${agentWakeupRequests.status} = 'deferred' and ${agentWakeupRequests.runAt} < now() - make_interval(secs => ${recheckAfterSec}))`,
    )
    .returning({ id: agentWakeupRequests.id });
  return rows.length;
}

/**
 * Wakes waiting behind a finished run go back to the queue: those about its issue (or an issue
 * whose checkout it held) and those waiting for a slot of its agent.
 */
export async function promoteDeferredWakes(
  tx: Tx,
  run: { id: string; agentId: string; issueId: string | null },
): Promise<void> {
  const heldIssues = tx.select({ id: issues.id }).from(issues).where(eq(issues.checkoutRunId, run.id));
  const aboutIssue = run.issueId
    ? sql`(${agentWakeupRequests.issueId} = ${run.issueId} or ${agentWakeupRequests.issueId} in ${heldIssues})`
    : sql`${agentWakeupRequests.issueId} in ${heldIssues}`;
  await tx
    .update(agentWakeupRequests)
    .set({ status: 'queued', runAt: sql`now()`, lockedBy: null, lockedAt: null })
    .where(
      and(
        eq(agentWakeupRequests.status, 'deferred'),
        sql`(${aboutIssue} or (${agentWakeupRequests.agentId} = ${run.agentId} and ${agentWakeupRequests.outcomeReason} = 'agent_busy'))`,
      ),
    );
}

/** Cancels the waiting (queued or deferred) wakes of an agent, or about the issues `issueIds` selects. */
export async function cancelWaitingWakes(
  tx: Tx,
  scope: { agentId: string } | { issueIds: SQLWrapper },
  reason: string,
): Promise<void> {
  const which =
    'agentId' in scope
      ? eq(agentWakeupRequests.agentId, scope.agentId)
      : inArray(agentWakeupRequests.issueId, scope.issueIds);
  await tx
    .update(agentWakeupRequests)
    .set({ status: 'cancelled', outcomeReason: reason, finishedAt: sql`now()`, lockedBy: null, lockedAt: null })
    .where(and(which, inArray(agentWakeupRequests.status, ['queued', 'deferred'])));
}

/** Retention: one batch of finished wakes older than the cutoff deleted (their partial index on finished_at); how many. */
export async function pruneFinishedWakes(tx: Tx, cutoff: SQL, batch: number): Promise<number> {
  const deleted = await tx.execute(sql`
    delete from ${agentWakeupRequests} where id in (
      select id from ${agentWakeupRequests} where finished_at is not null and finished_at < ${cutoff} order by finished_at limit ${batch})`);
  return deleted.rowCount ?? 0;
}
