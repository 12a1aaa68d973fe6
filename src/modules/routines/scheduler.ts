// The routine scheduler: schedule triggers whose nextRunAt has come fire, exactly once per tick,
// whatever the number of replicas and restarts.
//
// Exactly once, twice over: due triggers are claimed with FOR UPDATE SKIP LOCKED and their
// nextRunAt moves past `now` in the same transaction that records the runs (a second replica
// either skips the locked row or, after the commit, no longer finds it due); and each schedule run
// carries its tick (`scheduledFor`), unique per trigger, so even a stale reader cannot record a
// tick twice. The scan reads the partial index on nextRunAt (only triggers that will fire are in
// it), so its cost follows the number of due triggers, not of triggers.
//
// Catch-up (the routine's catchUpPolicy), for ticks that passed while no scheduler ran. A tick
// later than LATE_AFTER_MS is "missed"; the latest on-time tick always fires.
//  - skip_missed: missed ticks do not fire; they are recorded as one `skipped` run that says how many.
//  - enqueue_missed_with_cap: the latest MISSED_TICKS_CAP missed ticks fire (one run each); older
//    ones are recorded as one `skipped` run that says how many.
// Either way nextRunAt moves to the first tick after now: never a burst, never a silent gap.
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { routineRuns, routines, routineTriggers } from '../../db/schema/index.ts';
import { systemActor } from '../../core/actor.ts';
import { decideRun, recordRun } from './routine-runs.ts';
import { ticksBetween } from './schedule.ts';
import type { Routine, RoutineTrigger } from './service.ts';

/** A tick this late (the scheduler was down or stalled) counts as missed. */
export const LATE_AFTER_MS = 60_000;
/** enqueue_missed_with_cap fires at most this many missed ticks per catch-up. */
export const MISSED_TICKS_CAP = 10;
/** Triggers handled per transaction; the loop repeats while a batch comes back full. */
const DUE_BATCH = 100;

const scheduler = systemActor('scheduler');

interface TickPlan {
  fire: Date[];
  skipped: { count: number; atLeast: boolean; first: Date; last: Date } | null;
}

export function planTicks(
  routine: Pick<Routine, 'catchUpPolicy'>,
  ticks: Date[],
  more: boolean,
  nowMs: number,
): TickPlan {
  const onTime = ticks.filter((t) => nowMs - t.getTime() <= LATE_AFTER_MS);
  const missed = ticks.filter((t) => nowMs - t.getTime() > LATE_AFTER_MS);
  const keep = routine.catchUpPolicy === 'enqueue_missed_with_cap' ? missed.slice(-MISSED_TICKS_CAP) : [];
  const dropped = missed.slice(0, missed.length - keep.length);
  const [first] = dropped;
  const last = dropped.at(-1);
  return {
    fire: [...keep, ...onTime],
    skipped: first && last ? { count: dropped.length, atLeast: more, first, last } : null,
  };
}

/** Decisions of one pass run this many at a time (each takes its routine's lock; different routines do not wait on each other). */
const DECIDE_CONCURRENCY = 4;

/**
 * One pass: records every tick due at `nowMs` first (so each tick's run exists as soon as possible,
 * however many triggers share the tick), then decides the recorded runs. Returns the run ids.
 */
export async function fireDueSchedules(db: Db, nowMs = Date.now()): Promise<string[]> {
  const recorded: string[] = [];
  for (;;) {
    const batch = await claimAndRecord(db, nowMs);
    recorded.push(...batch.runIds);
    if (batch.claimed < DUE_BATCH) break;
  }
  let next = 0;
  const lane = async () => {
    for (let runId = recorded[next++]; runId !== undefined; runId = recorded[next++])
      await decideRun(db, scheduler, runId);
  };
  await Promise.all(Array.from({ length: Math.min(DECIDE_CONCURRENCY, recorded.length) }, lane));
  return recorded;
}

async function claimAndRecord(db: Db, nowMs: number): Promise<{ claimed: number; runIds: string[] }> {
  const now = new Date(nowMs);
  return db.transaction(async (tx) => {
    // One statement claims the due triggers with their routines; the routine rows are only read.
    const due = await tx
      .select({ trigger: routineTriggers, routine: routines })
      .from(routineTriggers)
      .innerJoin(routines, eq(routines.id, routineTriggers.routineId))
      .where(sql`${routineTriggers.nextRunAt} is not null and ${routineTriggers.nextRunAt} <= ${now}`)
      .orderBy(routineTriggers.nextRunAt)
      .limit(DUE_BATCH)
      .for('update', { of: routineTriggers, skipLocked: true });
    const runIds: string[] = [];
    for (const { trigger, routine } of due) {
      // nextRunAt is set (the claim's filter) and comes with a cronExpression (schedule triggers only).
      const { cronExpression, nextRunAt } = trigger;
      const firing = routine.status === 'active' && trigger.enabled && cronExpression !== null && nextRunAt !== null;
      const { ticks, more, next } = firing
        ? ticksBetween(cronExpression, trigger.timezone ?? 'UTC', nextRunAt, now)
        : { ticks: [], more: false, next: null };
      // Not due any more once this commits, whatever happens below.
      await tx.update(routineTriggers).set({ nextRunAt: next }).where(eq(routineTriggers.id, trigger.id));
      if (!firing) continue;
      const plan = planTicks(routine, ticks, more, nowMs);
      if (plan.skipped) await recordSkippedTicks(tx, routine, trigger, plan.skipped);
      for (const tick of plan.fire) {
        const { run, created } = await recordRun(tx, scheduler, routine, trigger, {
          source: 'schedule',
          scheduledFor: tick,
          payload: { scheduledFor: tick.toISOString() },
        });
        if (created) runIds.push(run.id);
      }
    }
    return { claimed: due.length, runIds };
  });
}

async function recordSkippedTicks(
  tx: Parameters<typeof recordRun>[0],
  routine: Routine,
  trigger: RoutineTrigger,
  skipped: NonNullable<TickPlan['skipped']>,
): Promise<void> {
  const count = `${skipped.atLeast ? 'at least ' : ''}${skipped.count}`;
  const { run, created } = await recordRun(tx, scheduler, routine, trigger, {
    source: 'schedule',
    scheduledFor: skipped.last,
    payload: {
      missedTicks: skipped.count,
      missedTicksAtLeast: skipped.atLeast,
      firstMissedAt: skipped.first.toISOString(),
      lastMissedAt: skipped.last.toISOString(),
    },
  });
  if (!created) return;
  const reason = `${count} scheduled tick${skipped.count === 1 ? '' : 's'} from ${skipped.first.toISOString()} to ${skipped.last.toISOString()} passed while no scheduler ran (catch-up policy ${routine.catchUpPolicy})`;
  await tx
    .update(routineRuns)
    .set({ status: 'skipped', failureReason: reason, completedAt: sql`now()`, updatedAt: sql`now()` })
    .where(eq(routineRuns.id, run.id));
}
