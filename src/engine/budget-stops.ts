// Applying hard budget stops: the one place they are applied.
//
// Why an outbox consumed here rather than a call after each commit: the transaction that crosses a
// hard limit (a cost event's counter write, a finished run's count, a policy created or lowered)
// writes its incident with stop_pending = true, and that row is the outbox entry. A trigger on
// budget_incidents raises the budgetStop notification (src/db/channels.ts) when it commits (src/db/sql/engine-notify.sql), so
// no route or loop has to remember to apply anything: every replica's engine hears it, claims the
// row with FOR UPDATE SKIP LOCKED and applies the stop in a transaction of its own, exactly once
// whichever replica gets there. The crossing transaction itself only ever locks counters; pausing a
// company's agents there would lock them while other events hold their counters.
//
// Stop: the scope is paused with reason `budget` (an agent; every working agent of a company; a
// project, whose checkouts then answer 409), its waiting wakes are cancelled and its live runs are
// cancelled with error `budget`; that status change raises the run notification, and the replica running
// each one kills its process group at once (a budget cancel gets no grace period, see index.ts). The
// board is asked for an override with a budget_override_required approval. Release is the
// incident's (modules/budgets/stop.ts).
//
// Notifications are a latency shortcut: a sweep every budgetStopMs (500 ms) and a pass after each
// LISTEN reconnect catch a stop whose NOTIFY nobody heard (measured: a stop lands ~50 ms after
// the crossing commits through the NOTIFY, see test/budgets-stop.test.ts).
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
      const pausedAgentIds =
        incident.scopeType === 'project' ? [] : await pauseAgentsForBudget(tx, budgetActor, incident);
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
    if (applying) {
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
      while (applying) await applying;
    },
  };
}
