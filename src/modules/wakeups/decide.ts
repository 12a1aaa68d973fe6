// From a queued wakeup to a run: the decision, in the database.
//
// The claim before it (queue.ts claimWakeups) takes a batch of claimable rows with FOR UPDATE SKIP
// LOCKED, so any number of dispatchers (one per replica) share the queue without ever taking the
// same row; the outcome is recorded on the wake by queue.ts too, the queue's one writer.
//
// decideWake turns one claimed wake into exactly one outcome, inside a transaction that holds the
// agent's row lock, taken first (every decision about one agent is serialised, whichever replica
// makes it; the lock order is runs/lock-order.ts):
// - cancelled: the agent is paused, terminated or pending_approval;
// - skipped: a timer wake while the heartbeat is off, while the agent has a live run (no pile-up)
//   or when nothing changed since its last run (skipWhenIdle); any wake past the wake budget;
// - coalesced: the agent already has a live run on the same issue (or, for a wake about no issue,
//   a live run about no issue): the wake is merged into it;
// - deferred: the issue is held by another agent's live run, or the agent has no free slot
//   (runtimeConfig.maxConcurrentRuns, default 1); promoted back to the queue when that run ends;
// (guards.ts has the policy and the budget.)
// - completed: a queued run was created for it (and recorded against its issue, if it has one).
// The unique index heartbeat_runs_issue_live_uq is the last word on "one live run per issue": a
// decision that loses a race to it is simply made again, and then coalesces or defers.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { transactionWithRetry, type RetryOptions } from '../../db/retry.ts';
import { heartbeatRuns, issues } from '../../db/schema/index.ts';
import { systemActor, type Actor } from '../../core/actor.ts';
import { recordActivity } from '../activity/record.ts';
import { canAgentWork, LIVE_RUN_STATUSES } from '../../core/statuses.ts';
import { lockAgent } from '../../core/agent-access.ts';
import { type HeartbeatRun, type WakeupRequest, oneRow } from '../../db/rows.ts';
import { recordWakeOutcome } from './queue.ts';
import {
  heartbeatPolicy,
  issueProjectPaused,
  markWakeRateLimited,
  somethingChangedSinceLastRun,
  wakeBudgetSpentUntil,
} from './guards.ts';

export interface RunOwner {
  replica: string;
  boot: string;
  /** Lease given to a queued run: if its owner dies before starting it, the reaper ends it then. */
  leaseSec: number;
}

/**
 * The two steps of the runs area a decision takes, handed over by the engine (engine/dispatcher.ts):
 * the runs area writes the wakeup queue (a run's end promotes and cancels wakes), so the queue's
 * side never imports it back.
 */
export interface RunSteps {
  /** Cancels a live run (an interrupt), in the decision's transaction. */
  cancelRun(tx: Tx, actor: Actor, runId: string, reason: string): Promise<unknown>;
  /** Lists a new run on its issue. */
  recordRunIssue(tx: Tx, entry: { companyId: string; runId: string; issueId: string }): Promise<void>;
}

export type WakeDecision =
  | { outcome: 'completed'; run: HeartbeatRun }
  | { outcome: 'coalesced'; runId: string; reason: string }
  | { outcome: 'deferred'; reason: string }
  | { outcome: 'skipped' | 'cancelled'; reason: string };

const live = inArray(heartbeatRuns.status, [...LIVE_RUN_STATUSES]);

/**
 * The outcome of one claimed wake, recorded on it. Retries itself when it loses the issue race, and
 * (transactionWithRetry) when the database aborts it for a deadlock or a serialization failure.
 */
export async function dispatchWake(
  db: Db,
  wake: WakeupRequest,
  owner: RunOwner,
  runs: RunSteps,
  retry: RetryOptions = {},
): Promise<WakeDecision> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await transactionWithRetry(db, (tx) => decideWake(tx, wake, owner, runs), retry);
    } catch (err) {
      if (attempt < 2 && isIssueLiveRunConflict(err)) continue;
      throw err;
    }
  }
}

function isIssueLiveRunConflict(err: unknown): boolean {
  const cause =
    (err as { cause?: { code?: string; constraint?: string } }).cause ??
    (err as { code?: string; constraint?: string });
  return cause?.code === '23505' && cause.constraint === 'heartbeat_runs_issue_live_uq';
}

async function decideWake(tx: Tx, wake: WakeupRequest, owner: RunOwner, runs: RunSteps): Promise<WakeDecision> {
  const agent = await lockAgent(tx, wake.agentId);
  const decision = await decide(tx, wake, agent, owner, runs);
  await recordWakeOutcome(tx, wake.id, {
    outcome: decision.outcome,
    reason: 'reason' in decision ? decision.reason : null,
    runId:
      decision.outcome === 'completed' ? decision.run.id : decision.outcome === 'coalesced' ? decision.runId : null,
  });
  return decision;
}

async function decide(
  tx: Tx,
  wake: WakeupRequest,
  agent: Awaited<ReturnType<typeof lockAgent>>,
  owner: RunOwner,
  runs: RunSteps,
): Promise<WakeDecision> {
  if (!canAgentWork(agent.status)) return { outcome: 'cancelled', reason: `agent_${agent.status}` };
  const policy = heartbeatPolicy(agent.runtimeConfig);
  const agentRuns = await tx
    .select({ id: heartbeatRuns.id, issueId: heartbeatRuns.issueId, invocationSource: heartbeatRuns.invocationSource })
    .from(heartbeatRuns)
    .where(and(eq(heartbeatRuns.agentId, agent.id), live));
  if (wake.source === 'timer') {
    // Checked again here, not only when queued: the heartbeat may have been switched off since.
    if (!policy.enabled) return { outcome: 'skipped', reason: 'heartbeat_disabled' };
    if (agentRuns.length > 0) return { outcome: 'skipped', reason: 'agent_busy' };
    if (policy.skipWhenIdle && !(await somethingChangedSinceLastRun(tx, agent)))
      return { outcome: 'skipped', reason: 'idle' };
  }

  // An interrupt (a board comment with interrupt: true) stops the run it names; the wake then starts
  // a fresh run that sees the interrupting comment.
  const interrupted = wake.reason === 'interrupt' ? agentRuns.find((r) => r.id === wake.payload?.runId) : undefined;
  if (interrupted)
    await runs.cancelRun(tx, systemActor('dispatcher'), interrupted.id, 'interrupted by a board comment');
  const liveRuns = agentRuns.filter((r) => r !== interrupted);

  // A run first seen on a checkout names an issue but is the agent's own work outside the engine:
  // it holds an issue only through the checkout lock, which issueHolder reads.
  const sameWork = liveRuns.find((r) => r.invocationSource !== 'checkout' && r.issueId === wake.issueId);
  if (sameWork)
    return { outcome: 'coalesced', runId: sameWork.id, reason: wake.issueId ? 'live_run_on_issue' : 'live_run' };

  if (wake.issueId) {
    // A project stopped by its budget (or paused otherwise) takes no new work until it is resumed.
    if (await issueProjectPaused(tx, wake.issueId)) return { outcome: 'cancelled', reason: 'project_paused' };
    const holder = await issueHolder(tx, wake.issueId);
    if (holder && holder.agentId !== agent.id) return { outcome: 'deferred', reason: 'issue_busy' };
    // The agent's own run from outside the engine holds the checkout: the wake belongs to it.
    if (holder) return { outcome: 'coalesced', runId: holder.runId, reason: 'live_run_on_issue' };
  }

  // Runs first seen on a checkout (an agent driven from outside the engine) hold issues but are not
  // the engine's work: they do not take one of the agent's slots.
  const busy = liveRuns.filter((r) => r.invocationSource !== 'checkout').length;
  if (busy >= policy.maxConcurrentRuns) return { outcome: 'deferred', reason: 'agent_busy' };

  const spentUntil = await wakeBudgetSpentUntil(tx, agent.id, policy.maxRunsPerHour);
  if (spentUntil) {
    if (await markWakeRateLimited(tx, agent.id, spentUntil)) {
      await recordActivity(tx, systemActor('dispatcher'), {
        companyId: agent.companyId,
        action: 'agent.wake_rate_limited',
        entityType: 'agent',
        entityId: agent.id,
        details: { maxRunsPerHour: policy.maxRunsPerHour, until: spentUntil.toISOString(), wakeupRequestId: wake.id },
      });
    }
    return { outcome: 'skipped', reason: 'wake_rate_limited' };
  }

  const run = oneRow(
    await tx
      .insert(heartbeatRuns)
      .values({
        companyId: agent.companyId,
        agentId: agent.id,
        status: 'queued',
        invocationSource: wake.source,
        adapterType: agent.adapterType,
        wakeupRequestId: wake.id,
        issueId: wake.issueId,
        wakeReason: wake.reason,
        ownerReplica: owner.replica,
        ownerBoot: owner.boot,
        leaseExpiresAt: sql`now() + make_interval(secs => ${owner.leaseSec})`,
      })
      .returning(),
    'run',
  );
  // Listed on its issue from the start (GET /issues/{id}/runs), whether or not its process ever checks the issue out.
  if (wake.issueId) await runs.recordRunIssue(tx, { companyId: agent.companyId, runId: run.id, issueId: wake.issueId });
  return { outcome: 'completed', run };
}

/** The live run holding an issue: an engine run about it, or the run behind its checkout lock. */
async function issueHolder(tx: Tx, issueId: string): Promise<{ runId: string; agentId: string } | null> {
  const [byRun] = await tx
    .select({ runId: heartbeatRuns.id, agentId: heartbeatRuns.agentId })
    .from(heartbeatRuns)
    .where(
      and(eq(heartbeatRuns.issueId, issueId), live, sql`${heartbeatRuns.invocationSource} is distinct from 'checkout'`),
    );
  if (byRun) return byRun;
  const [byCheckout] = await tx
    .select({ runId: heartbeatRuns.id, agentId: heartbeatRuns.agentId })
    .from(issues)
    .innerJoin(heartbeatRuns, eq(heartbeatRuns.id, issues.checkoutRunId))
    .where(and(eq(issues.id, issueId), live));
  return byCheckout ?? null;
}
