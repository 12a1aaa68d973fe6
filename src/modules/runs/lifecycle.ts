// The life of an engine run, as database transitions any replica may make: start, lease renewal,
// finish (with what a finish sets off), cancel and reap. Each transition locks the run's agent first
// (the lock order, lock-order.ts), then is one conditional UPDATE on a live status, so a run
// finishes exactly once whoever gets there first (its owner, a cancel on another replica, the
// reaper); the others find nothing to update and back off.
//
// What a finish sets off, in the same transaction:
// - the agent's status follows its runs (running while one is live; idle after; error after a
//   failed or timed-out run until the next success, with that run's errorReason), never touching
//   paused, terminated or pending_approval agents;
// - wakes deferred behind the run (same issue, or the agent's concurrency slot) go back to the queue;
// - wakes coalesced into the run after it started come back as one follow-up wake, so nothing an
//   agent was told while it worked is lost;
// - an activity entry.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { agentWakeupRequests, heartbeatRuns } from '../../db/schema/index.ts';
import type { Actor } from '../../core/actor.ts';
import { recordActivity } from '../activity/record.ts';
import { LIVE_RUN_STATUSES } from '../../core/statuses.ts';
import {
  BUDGET_PAUSE_REASON,
  transitionAgent,
  type AgentStatusEvent,
  type AgentTransition,
} from '../../core/agent-status.ts';
import { cancelWaitingWakes, enqueueWakeup, promoteDeferredWakes } from '../wakeups/queue.ts';
import type { HeartbeatRun } from '../../db/rows.ts';
import type { RunWorkspaceRecord } from '../../db/schema/index.ts';
import { countFinishedRun } from '../budgets/run-count.ts';
import type { RunErrorCode } from '../../core/run-failures.ts';
import { lockAgentOfRun } from './lock-order.ts';

export type RunEndStatus = 'succeeded' | 'failed' | 'cancelled' | 'timed_out';

/** How a run ended: a run that did not succeed always says why, as a code (the detail is `error`). */
export type RunEnd = RunEndFacts &
  (
    | { status: 'succeeded'; errorCode?: never }
    | { status: Exclude<RunEndStatus, 'succeeded'>; errorCode: RunErrorCode }
  );

interface RunEndFacts {
  error?: string | null;
  exitCode?: number | null;
  signal?: string | null;
  logBytes?: number;
  logTruncated?: boolean;
  usageJson?: unknown;
  resultJson?: unknown;
  /** Where the work ran, with what it changed there (src/engine/run-workspace.ts). */
  workspace?: RunWorkspaceRecord;
}

const live = inArray(heartbeatRuns.status, [...LIVE_RUN_STATUSES]);
// Bounded so one busy run cannot make its follow-up wake unbounded.
const MAX_FOLLOW_UP_WAKES = 20;

/**
 * queued -> running: the owner starts the work. Sets the lease, the deadline and the agent's
 * status. null when the run is no longer queued (cancelled in the meantime): do not start it.
 */
export async function startRun(
  tx: Tx,
  actor: Actor,
  runId: string,
  timing: { leaseSec: number; timeoutSec: number; graceSec: number },
): Promise<HeartbeatRun | null> {
  if (!(await lockAgentOfRun(tx, runId))) return null;
  const [run] = await tx
    .update(heartbeatRuns)
    .set({
      status: 'running',
      startedAt: sql`now()`,
      leaseExpiresAt: sql`now() + make_interval(secs => ${timing.leaseSec})`,
      deadlineAt: sql`now() + make_interval(secs => ${timing.timeoutSec})`,
      graceSec: timing.graceSec,
      updatedAt: sql`now()`,
    })
    .where(and(eq(heartbeatRuns.id, runId), eq(heartbeatRuns.status, 'queued')))
    .returning();
  if (!run) return null;
  await transitionAgent(tx, run.agentId, { kind: 'run_started' });
  await recordActivity(tx, actor, {
    companyId: run.companyId,
    action: 'heartbeat_run.started',
    entityType: 'heartbeat_run',
    entityId: run.id,
    agentId: run.agentId,
    details: {
      agentId: run.agentId,
      issueId: run.issueId,
      invocationSource: run.invocationSource,
      wakeReason: run.wakeReason,
    },
  });
  return run;
}

/** Moves the lease of a running run; false when the run is no longer running (finished elsewhere). */
export async function renewLease(db: DbOrTx, runId: string, leaseSec: number, pid?: number | null): Promise<boolean> {
  const rows = await db
    .update(heartbeatRuns)
    .set({
      leaseExpiresAt: sql`now() + make_interval(secs => ${leaseSec})`,
      updatedAt: sql`now()`,
      ...(pid ? { pid } : {}),
    })
    .where(and(eq(heartbeatRuns.id, runId), eq(heartbeatRuns.status, 'running')))
    .returning({ id: heartbeatRuns.id });
  return rows.length > 0;
}

/** Usage and result reported mid-run, kept on the run as they arrive (a budget reads them). */
export async function recordRunProgress(
  db: DbOrTx,
  runId: string,
  progress: { usageJson?: unknown; resultJson?: unknown },
): Promise<void> {
  await db
    .update(heartbeatRuns)
    .set({ ...progress, updatedAt: sql`now()` })
    .where(and(eq(heartbeatRuns.id, runId), live));
}

/** Where the work runs, kept on the run as it starts (the run page shows it while live). */
export async function recordRunWorkspace(db: DbOrTx, runId: string, workspace: RunWorkspaceRecord): Promise<void> {
  await db
    .update(heartbeatRuns)
    .set({ workspace, updatedAt: sql`now()` })
    .where(and(eq(heartbeatRuns.id, runId), live));
}

/**
 * Ends a live run (from queued or running) and sets off what follows. Returns the finished run, or
 * null when it had already ended: the first finisher wins and the others change nothing.
 */
export async function finishRun(tx: Tx, actor: Actor, runId: string, end: RunEnd): Promise<HeartbeatRun | null> {
  if (!(await lockAgentOfRun(tx, runId))) return null;
  const [run] = await tx
    .update(heartbeatRuns)
    .set({
      status: end.status,
      error: end.error ?? null,
      errorCode: end.errorCode ?? null,
      exitCode: end.exitCode ?? null,
      signal: end.signal ?? null,
      ...(end.logBytes !== undefined ? { logBytes: end.logBytes, logTruncated: end.logTruncated ?? false } : {}),
      ...(end.usageJson !== undefined ? { usageJson: end.usageJson } : {}),
      ...(end.resultJson !== undefined ? { resultJson: end.resultJson } : {}),
      ...(end.workspace !== undefined ? { workspace: end.workspace } : {}),
      finishedAt: sql`now()`,
      leaseExpiresAt: null,
      // The owner's finish carries the whole log's size: updatedAt past finishedAt says so (runLogMayGrow).
      updatedAt: end.logBytes !== undefined ? sql`now() + interval '1 millisecond'` : sql`now()`,
    })
    .where(and(eq(heartbeatRuns.id, runId), live))
    .returning();
  if (!run) return null;
  await settleAgentStatus(tx, run);
  await countFinishedRun(tx, actor, run);
  await promoteDeferredWakes(tx, run);
  await wakeForCoalesced(tx, actor, run);
  await recordActivity(tx, actor, {
    companyId: run.companyId,
    action: `heartbeat_run.${run.status}`,
    entityType: 'heartbeat_run',
    entityId: run.id,
    agentId: run.agentId,
    details: {
      agentId: run.agentId,
      issueId: run.issueId,
      error: run.error,
      errorCode: run.errorCode,
      exitCode: run.exitCode,
      signal: run.signal,
    },
  });
  return run;
}

async function settleAgentStatus(tx: Tx, run: HeartbeatRun): Promise<void> {
  // A cancel says nothing of the agent, and neither does the end of a run first seen on a checkout
  // (its lease lapsed: the agent's own work outside the engine, whose outcome the engine never learns).
  const outcome =
    run.invocationSource === 'checkout' || run.status === 'cancelled'
      ? null
      : run.status === 'succeeded'
        ? 'idle'
        : 'error';
  const [stillLive] = await tx
    .select({ id: heartbeatRuns.id })
    .from(heartbeatRuns)
    .where(and(eq(heartbeatRuns.agentId, run.agentId), live))
    .limit(1);
  await transitionAgent(tx, run.agentId, {
    kind: 'run_settled',
    outcome,
    errorReason: errorReasonOf(run),
    stillLive: stillLive !== undefined,
  });
}

/** What GET /agents/{id} says while a failed or timed-out run keeps the agent in error. */
function errorReasonOf(run: HeartbeatRun): string {
  const how =
    run.error ??
    (run.exitCode !== null
      ? `exit code ${run.exitCode}`
      : run.signal
        ? `killed by ${run.signal}`
        : 'no reason recorded');
  return `run ${run.id} ${run.status}: ${how}`.slice(0, 2000);
}

/** Wakes merged into the run after it started were not in its prompt: one follow-up wake carries them. */
async function wakeForCoalesced(tx: Tx, actor: Actor, run: HeartbeatRun): Promise<void> {
  if (!run.startedAt || run.status === 'cancelled') return;
  const missed = await tx
    .select({
      id: agentWakeupRequests.id,
      source: agentWakeupRequests.source,
      reason: agentWakeupRequests.reason,
      payload: agentWakeupRequests.payload,
    })
    .from(agentWakeupRequests)
    .where(
      and(
        eq(agentWakeupRequests.runId, run.id),
        eq(agentWakeupRequests.status, 'coalesced'),
        sql`${agentWakeupRequests.finishedAt} >= ${run.startedAt}`,
      ),
    )
    .orderBy(agentWakeupRequests.createdAt)
    .limit(MAX_FOLLOW_UP_WAKES);
  if (missed.length === 0) return;
  await enqueueWakeup(tx, actor, {
    companyId: run.companyId,
    agentId: run.agentId,
    source: 'automation',
    triggerDetail: 'system',
    reason: 'follow_up',
    issueId: run.issueId,
    payload: { ...(run.issueId ? { issueId: run.issueId } : {}), followUpOfRunId: run.id, coalescedWakeups: missed },
  });
}

/**
 * What the work reported after its run had already ended elsewhere (cancelled, reaped): the log
 * size, usage and exit are still facts worth keeping; the status stays as the first finisher set it.
 */
export async function recordLateOutcome(db: DbOrTx, runId: string, end: RunEndFacts): Promise<void> {
  await db
    .update(heartbeatRuns)
    .set({
      exitCode: end.exitCode ?? null,
      signal: end.signal ?? null,
      ...(end.logBytes !== undefined ? { logBytes: end.logBytes, logTruncated: end.logTruncated ?? false } : {}),
      ...(end.usageJson !== undefined ? { usageJson: end.usageJson } : {}),
      ...(end.resultJson !== undefined ? { resultJson: end.resultJson } : {}),
      ...(end.workspace !== undefined ? { workspace: end.workspace } : {}),
      updatedAt: sql`now()`,
    })
    .where(eq(heartbeatRuns.id, runId));
}

/**
 * Every reason a live run is cancelled for, and its code (core/run-failures.ts). The reason stays
 * the run's `error` (and its cancelled wakes' outcomeReason): `budget` is what the engine's abort
 * and the budgets area read.
 */
const CANCEL_CODES = {
  'cancelled by the board': 'cancelled_by_board',
  'cancelled by its agent': 'cancelled_by_agent',
  'interrupted by a board comment': 'interrupted_by_comment',
  agent_paused: 'agent_paused',
  agent_terminated: 'agent_terminated',
  agent_deleted: 'agent_deleted',
  [BUDGET_PAUSE_REASON]: 'budget_hard_stop',
} as const satisfies Record<string, RunErrorCode>;

export type CancelReason = keyof typeof CANCEL_CODES;

/**
 * Cancel (POST .../cancel, pause, terminate, budget): the run is `cancelled` at once in the
 * database; its owner hears of it (NOTIFY from the status change) and stops the work.
 */
export async function cancelRun(
  tx: Tx,
  actor: Actor,
  runId: string,
  reason: CancelReason,
): Promise<HeartbeatRun | null> {
  return finishRun(tx, actor, runId, { status: 'cancelled', errorCode: CANCEL_CODES[reason], error: reason });
}

/** Pause or terminate: the agent's waiting wakes are cancelled and its live runs stopped. */
export async function cancelAgentWork(
  tx: Tx,
  actor: Actor,
  agentId: string,
  reason: CancelReason,
): Promise<HeartbeatRun[]> {
  // Runs before wakeups: the lock order (lock-order.ts).
  const runs = await tx
    .select({ id: heartbeatRuns.id })
    .from(heartbeatRuns)
    .where(and(eq(heartbeatRuns.agentId, agentId), live));
  const cancelled: HeartbeatRun[] = [];
  for (const { id } of runs) {
    const run = await cancelRun(tx, actor, id, reason);
    if (run) cancelled.push(run);
  }
  await cancelWaitingWakes(tx, { agentId }, reason);
  return cancelled;
}

/**
 * Pause or terminate with the agent's work cancelled: the one place a status change that stops an
 * agent also stops what it was doing (the pause and terminate routes, a PATCH to paused, a budget
 * stop). The work is cancelled only when the status changed: an agent already paused has none left.
 */
export async function stopAgent(
  tx: Tx,
  actor: Actor,
  agentId: string,
  event: Extract<AgentStatusEvent, { kind: 'pause' | 'set' | 'terminate' | 'budget_stop' }>,
): Promise<AgentTransition> {
  const transition = await transitionAgent(tx, agentId, event);
  const { before, agent } = transition;
  if (before.status !== agent.status && (agent.status === 'paused' || agent.status === 'terminated'))
    await cancelAgentWork(tx, actor, agentId, CANCEL_REASONS[event.kind]);
  return transition;
}

/** The cancel reason of each stop. */
const CANCEL_REASONS = {
  pause: 'agent_paused',
  set: 'agent_paused',
  terminate: 'agent_terminated',
  budget_stop: BUDGET_PAUSE_REASON,
} as const satisfies Record<string, CancelReason>;
