// Applying hard budget stops: the one place they are applied.
//
// Why an outbox consumed here rather than a call after each commit: the transaction that crosses a
// hard limit (a cost event's counter write, a finished run's count, a policy created or lowered)
// writes its incident with stop_pending = true, and that row is the outbox entry. A trigger on
// budget_incidents raises the budgetStop notification (src/db/channels.ts) when it commits
// (src/db/sql/engine-notify.sql), so no route or loop has to remember to apply anything: every
// replica's engine hears it, claims the row with FOR UPDATE SKIP LOCKED and applies the stop in a
// transaction of its own, exactly once whichever replica gets there. The crossing transaction itself
// only ever locks counters; pausing a company's agents there would lock them while other events hold
// their counters.
//
// Why an answer waits for the stop (settleBudgetStops): users read "the cost event that crossed the
// limit answered" as "the scope is stopped". Through the NOTIFY alone the stop landed ~50 ms after
// the answer (150 of 150 reads of the agent right after a crossing 201 still said `idle`), so a
// client could wake or check out into the gap. Of the two ways to close it (refuse wakes, checkouts
// and run starts while a stop is pending, or make the answer wait for the stop's transaction) we
// chose the wait: it also puts the pause and the runs' cancellation in effect, so a read after the
// answer sees them, on every replica (they share the database), and it needs no check in every
// path that could start work. The server (server/app.ts) settles before a write request's answer
// goes out: whatever hard stops are pending then are applied by that request, or waited for when
// another replica's consumer holds them (FOR UPDATE without SKIP LOCKED; the row's WHERE is checked
// again once the lock is granted). The cost: one indexed read of the pending stops
// (budget_incidents_stop_pending_idx, almost always empty) per write request.
//
// Stop: the scope is paused with reason `budget` (an agent; every working agent of a company; a
// project, whose checkouts then answer 409), its waiting wakes are cancelled and its live runs are
// cancelled with error `budget`; that status change raises the run notification, and the replica
// running each one kills its process group at once (a budget cancel gets no grace period, see
// index.ts). The board is asked for an override with a budget_override_required approval. Release
// is the incident's (modules/budgets/stop.ts).
//
// Notifications are a latency shortcut for crossings no request answers for (usage a run reports
// to its engine): a sweep every budgetStopMs (500 ms) and a pass after each LISTEN reconnect catch
// a stop whose NOTIFY nobody heard.
import { and, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db, Tx } from '../db/client.ts';
import type { Notifications } from '../db/notifications.ts';
import { transactionWithRetry } from '../db/retry.ts';
import { agents, budgetIncidents, heartbeatRuns, issues, projects } from '../db/schema/index.ts';
import { systemActor, type Actor } from '../core/actor.ts';
import { AGENT_CANNOT_WORK_STATUSES, LIVE_RUN_STATUSES } from '../core/statuses.ts';
import { recordActivity } from '../modules/activity/record.ts';
import { createApproval } from '../modules/approvals/create.ts';
import type { BudgetIncident } from '../modules/budgets/evaluate.ts';
import { BUDGET_PAUSE_REASON } from '../core/agent-status.ts';
import { cancelRun, stopAgent } from '../modules/runs/lifecycle.ts';
import { cancelWaitingWakes } from '../modules/wakeups/queue.ts';

const budgetActor = systemActor('budget');

async function pauseAgentsForBudget(tx: Tx, actor: Actor, incident: BudgetIncident): Promise<string[]> {
  const scope =
    incident.scopeType === 'agent' ? eq(agents.id, incident.scopeId) : eq(agents.companyId, incident.scopeId);
  // Every agent that can work (canAgentWork: `active` too, which a PATCH may set), not a list of its
  // own; all of them locked first, in one statement in id order (the lock order, runs/lock-order.ts).
  const working = await tx.execute<{ id: string }>(
    sql`select id from ${agents} where ${scope} and ${agents.status} not in ${[...AGENT_CANNOT_WORK_STATUSES]} order by id for no key update`,
  );
  const paused: string[] = [];
  for (const { id } of working.rows) {
    const { agent, changed } = await stopAgent(tx, actor, id, { kind: 'budget_stop' });
    if (!changed) continue;
    paused.push(id);
    await recordActivity(tx, actor, {
      companyId: agent.companyId,
      action: 'agent.paused',
      entityType: 'agent',
      entityId: id,
      details: { reason: BUDGET_PAUSE_REASON, incidentId: incident.id },
    });
  }
  return paused;
}

async function pauseProjectForBudget(tx: Tx, actor: Actor, incident: BudgetIncident): Promise<string | null> {
  const [project] = await tx
    .update(projects)
    .set({ pausedAt: sql`now()`, pauseReason: BUDGET_PAUSE_REASON, updatedAt: sql`now()` })
    .where(and(eq(projects.id, incident.scopeId), sql`${projects.pausedAt} is null`))
    .returning({ id: projects.id, companyId: projects.companyId });
  const inProject = tx.select({ id: issues.id }).from(issues).where(eq(issues.projectId, incident.scopeId));
  // Runs (each with its agent first), then wakeups: the lock order (runs/lock-order.ts).
  const live = await tx
    .select({ id: heartbeatRuns.id })
    .from(heartbeatRuns)
    .where(and(inArray(heartbeatRuns.issueId, inProject), inArray(heartbeatRuns.status, [...LIVE_RUN_STATUSES])));
  // Runs of several agents in one transaction: their agents are locked together first, in id order,
  // so this never holds one agent's usage counters while it waits for the next agent.
  if (live.length > 0) {
    await tx.execute(
      sql`select id from ${agents} where id in (select agent_id from ${heartbeatRuns} where id in ${live.map((r) => r.id)}) order by id for no key update`,
    );
  }
  for (const run of live) await cancelRun(tx, actor, run.id, BUDGET_PAUSE_REASON);
  await cancelWaitingWakes(tx, { issueIds: inProject }, BUDGET_PAUSE_REASON);
  if (project)
    await recordActivity(tx, actor, {
      companyId: project.companyId,
      action: 'project.paused',
      entityType: 'project',
      entityId: project.id,
      details: { reason: BUDGET_PAUSE_REASON, incidentId: incident.id },
    });
  return project?.id ?? null;
}

/** The stop of one claimed incident, in the caller's transaction, with its audit entry. */
async function applyStop(tx: Tx, incident: BudgetIncident): Promise<void> {
  const pausedAgentIds = incident.scopeType === 'project' ? [] : await pauseAgentsForBudget(tx, budgetActor, incident);
  const pausedProjectId =
    incident.scopeType === 'project' ? await pauseProjectForBudget(tx, budgetActor, incident) : null;
  const approval = await createApproval(
    { db: tx, actor: budgetActor },
    {
      companyId: incident.companyId,
      type: 'budget_override_required',
      payload: {
        incidentId: incident.id,
        policyId: incident.policyId,
        scopeType: incident.scopeType,
        scopeId: incident.scopeId,
        metric: incident.metric,
        windowKey: incident.windowKey,
        amount: incident.amount,
        observed: incident.observed,
        summary: `The ${incident.scopeType} budget (${incident.metric}, ${incident.windowKey}) reached 100 percent: ${incident.observed} of ${incident.amount}. Approve to resume over budget; reject to keep it paused.`,
      },
    },
  );
  await tx
    .update(budgetIncidents)
    .set({ stopPending: false, pausedAgentIds, pausedProjectId, approvalId: approval.id, updatedAt: sql`now()` })
    .where(eq(budgetIncidents.id, incident.id));
  // The incident's own entry: the audit trail says when the stop took effect (a company stop with
  // no working agent pauses nothing else), and live views of the incident hear that it changed.
  await recordActivity(tx, budgetActor, {
    companyId: incident.companyId,
    action: 'budget.stop_applied',
    entityType: 'budget_incident',
    entityId: incident.id,
    details: { pausedAgentIds, pausedProjectId, approvalId: approval.id },
  });
}

/**
 * Applies the stops still pending, one incident per transaction; returns how many. Idempotent. An
 * incident whose stop fails is reported to `failed` and passed over for the rest of this pass (the
 * next pass tries it again), so one bad row never holds up the stops behind it.
 */
export async function applyPendingBudgetStops(
  db: Db,
  failed: (incidentId: string, err: unknown) => void,
): Promise<number> {
  let applied = 0;
  const passedOver: string[] = [];
  for (;;) {
    let current: string | null = null;
    const done = await transactionWithRetry(db, async (tx) => {
      const pending =
        passedOver.length === 0
          ? eq(budgetIncidents.stopPending, true)
          : and(eq(budgetIncidents.stopPending, true), notInArray(budgetIncidents.id, passedOver));
      const [incident] = await tx
        .select()
        .from(budgetIncidents)
        .where(pending)
        .orderBy(budgetIncidents.createdAt)
        .limit(1)
        .for('update', { skipLocked: true });
      if (!incident) return false;
      current = incident.id;
      await applyStop(tx, incident);
      return true;
    }).catch((err: unknown) => {
      if (current === null) throw err;
      failed(current, err);
      passedOver.push(current);
      return true;
    });
    if (!done) return applied;
    if (current !== null && !passedOver.includes(current)) applied++;
  }
}

/** More pending at once than this is a backlog for the consumer, not one request's crossing. */
const SETTLE_LIMIT = 100;

/**
 * Before a write's answer (see the header): every hard stop pending now is in effect when this
 * returns, applied here or by whichever replica's consumer held it. A stop that fails is reported to
 * `failed` and left to the consumer's next pass; the answer goes out (its own write has committed).
 */
export async function settleBudgetStops(db: Db, failed: (incidentId: string, err: unknown) => void): Promise<void> {
  const pending = await db
    .select({ id: budgetIncidents.id })
    .from(budgetIncidents)
    .where(eq(budgetIncidents.stopPending, true))
    .orderBy(budgetIncidents.createdAt)
    .limit(SETTLE_LIMIT);
  for (const { id } of pending) {
    await transactionWithRetry(db, async (tx) => {
      // Waits while a consumer applies it; the WHERE is checked again once the lock is granted.
      const [incident] = await tx
        .select()
        .from(budgetIncidents)
        .where(and(eq(budgetIncidents.id, id), eq(budgetIncidents.stopPending, true)))
        .for('update');
      if (incident) await applyStop(tx, incident);
    }).catch((err: unknown) => failed(id, err));
  }
}

export interface BudgetStops {
  stop(): Promise<void>;
}

/** The consumer: a pass on every budgetStop notification (src/db/channels.ts) and LISTEN reconnect, and every `sweepMs`. */
export function startBudgetStops(db: Db, notifications: Notifications, sweepMs: number, logger: Logger): BudgetStops {
  let applying: Promise<void> | null = null;
  // A NOTIFY heard while a pass runs may name a row that pass already looked past: one more pass follows.
  let again = false;
  let stopped = false;
  const pass = (): void => {
    if (stopped) return;
    if (applying !== null) {
      again = true;
      return;
    }
    applying = applyPendingBudgetStops(db, (incidentId, err) =>
      logger.warn({ err, incidentId }, 'engine: a budget stop failed; it is tried again at the next pass'),
    )
      .then(() => undefined)
      .catch((err) => logger.warn({ err }, 'engine: applying budget stops failed'))
      .finally(() => {
        applying = null;
        if (again) {
          again = false;
          pass();
        }
      });
  };
  const unlisten = notifications.on('budgetStop', pass);
  const unreconnect = notifications.onReconnect(pass);
  const sweep = setInterval(pass, sweepMs);
  pass();
  return {
    async stop() {
      stopped = true;
      clearInterval(sweep);
      unlisten();
      unreconnect();
      while (applying !== null) await applying;
    },
  };
}
