// Recovery: no run stays live after the replica running it is gone or past its deadline.
//
// reapExpiredRuns is the periodic sweep. A transaction-scoped advisory lock keeps two replicas from
// reading a batch at the same instant; it is released before the batch is ended, so two replicas
// can still pick the same run, and the second finisher then changes nothing. It ends live runs
// whose lease lapsed (their owner stopped renewing: crashed, killed, partitioned) as failed, and
// runs past deadline plus grace as timed_out (codes lease_lost, checkout_run_lapsed for a run first
// seen on a checkout, and timeout: core/run-failures.ts); each goes through finishRun, so the issue it held is
// free again, deferred wakes move on and the agent's status follows. Each run is ended in a
// transaction of its own: one transaction ending runs of several agents would break the lock order
// (lock-order.ts). Whoever ends a run first wins; a second finisher changes nothing.
//
// reapPreviousBoot is the start-up sweep: a replica that restarts ends the runs of its previous
// life at once instead of waiting for their leases (code server_restart: a graceful stop ends its
// runs itself, as server_shutdown, so a run left live by a previous boot means that boot died).
import { and, eq, inArray, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { transactionWithRetry, type RetryOptions } from '../../db/retry.ts';
import { heartbeatRuns } from '../../db/schema/index.ts';
import { systemActor } from '../../core/actor.ts';
import { finishRun } from './lifecycle.ts';
import type { RunErrorCode } from '../../core/run-failures.ts';
import type { HeartbeatRun } from '../../db/rows.ts';
import { LIVE_RUN_STATUSES } from '../../core/statuses.ts';
import { CHECKOUT_RUN_LEASE_SEC } from './service.ts';

const REAPER_LOCK_KEY = 7_310_451_023;
/** Why a run first seen on a checkout ended: nothing else tells the engine its agent is done with it. */
export const CHECKOUT_RUN_LAPSED = `no checkout with this run for ${CHECKOUT_RUN_LEASE_SEC / 60} minutes: a run first seen on a checkout ends when its agent stops using it (or cancels it)`;
const REAP_BATCH = 100;
const live = inArray(heartbeatRuns.status, [...LIVE_RUN_STATUSES]);
const pastDeadline = sql`${heartbeatRuns.deadlineAt} + make_interval(secs => coalesce(${heartbeatRuns.graceSec}, 0)) < now()`;

/** The runs it ended, or null when another replica is picking its batch right now. */
export async function reapExpiredRuns(db: Db, retry: RetryOptions = {}): Promise<HeartbeatRun[] | null> {
  const expired = await db.transaction(async (tx) => {
    const lock = await tx.execute<{ ok: boolean }>(sql`select pg_try_advisory_xact_lock(${REAPER_LOCK_KEY}) as ok`);
    if (!lock.rows[0]?.ok) return null;
    return tx
      .select({
        id: heartbeatRuns.id,
        invocationSource: heartbeatRuns.invocationSource,
        overDeadline: sql<boolean>`coalesce(${pastDeadline}, false)`,
      })
      .from(heartbeatRuns)
      .where(and(live, or(sql`${heartbeatRuns.leaseExpiresAt} < now()`, pastDeadline)))
      .limit(REAP_BATCH);
  });
  if (!expired) return null;
  return endEach(
    db,
    expired.map(({ id, invocationSource, overDeadline }) =>
      overDeadline
        ? {
            id,
            status: 'timed_out' as const,
            errorCode: 'timeout' as const,
            error: 'deadline and grace passed while the run was still live',
          }
        : invocationSource === 'checkout'
          ? { id, status: 'failed' as const, errorCode: 'checkout_run_lapsed' as const, error: CHECKOUT_RUN_LAPSED }
          : {
              id,
              status: 'failed' as const,
              errorCode: 'lease_lost' as const,
              error: 'lease expired: the replica running it stopped renewing it (crashed, killed or cut off)',
            },
    ),
    retry,
  );
}

export async function reapPreviousBoot(
  db: Db,
  owner: { replica: string; boot: string },
  retry: RetryOptions = {},
): Promise<HeartbeatRun[]> {
  const orphans = await db
    .select({ id: heartbeatRuns.id })
    .from(heartbeatRuns)
    .where(and(live, eq(heartbeatRuns.ownerReplica, owner.replica), ne(heartbeatRuns.ownerBoot, owner.boot)));
  return endEach(
    db,
    orphans.map(({ id }) => ({
      id,
      status: 'failed' as const,
      errorCode: 'server_restart' as const,
      error: 'the server running it restarted before it finished',
    })),
    retry,
  );
}

async function endEach(
  db: Db,
  ends: { id: string; status: 'failed' | 'timed_out'; errorCode: RunErrorCode; error: string }[],
  retry: RetryOptions,
): Promise<HeartbeatRun[]> {
  const ended: HeartbeatRun[] = [];
  for (const { id, ...end } of ends) {
    const run = await transactionWithRetry(db, (tx) => finishRun(tx, systemActor('reaper'), id, end), retry);
    if (run) ended.push(run);
  }
  return ended;
}
