// The hard stop of a budget, and its release. Applied in a transaction of its own for each hard
// incident written with stopPending (right after the transaction that raised it commits, and by the
// engine's sweep as a safety net), so the stop happens exactly once whichever replica gets there.
//
// Stop: the scope is paused with reason `budget` (an agent; every working agent of a company; a
// project, whose checkouts then answer 409), its waiting wakes are cancelled and its live runs are
// cancelled with error `budget`; the replica running each one kills its process group at once (a
// budget cancel gets no grace period, see engine/index.ts). The board is asked for an override with
// a budget_override_required approval.
// Release: only what the stop paused is resumed, and only while it is still paused for the budget:
// an agent the board paused by hand in between stays paused.
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { transactionWithRetry } from '../../db/retry.ts';
import { agents, budgetIncidents, heartbeatRuns, issues, projects } from '../../db/schema/index.ts';
import { systemActor, type Actor } from '../../core/actor.ts';
import { recordActivity } from '../activity/record.ts';
import { AGENT_CANNOT_WORK_STATUSES, LIVE_RUN_STATUSES } from '../../core/statuses.ts';
import { createApproval } from '../approvals/create.ts';
import { cancelRun, stopAgent } from '../runs/lifecycle.ts';
import { BUDGET_PAUSE_REASON, transitionAgent } from '../../core/agent-status.ts';
import { cancelWaitingWakes } from '../wakeups/queue.ts';
import type { BudgetIncident } from './evaluate.ts';

/** Why work stopped: the agent's pauseReason, the project's pauseReason and the cancelled runs' error. */
export const BUDGET_REASON = BUDGET_PAUSE_REASON;
const budgetActor = systemActor('budget');

async function pauseAgentsForBudget(tx: Tx, actor: Actor, incident: BudgetIncident): Promise<string[]> {
  const scope = incident.scopeType === 'agent' ? eq(agents.id, incident.scopeId) : eq(agents.companyId, incident.scopeId);
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
    await recordActivity(tx, actor, { companyId: agent.companyId, action: 'agent.paused', entityType: 'agent', entityId: id, details: { reason: BUDGET_REASON, incidentId: incident.id } });
  }
  return paused;
}

async function pauseProjectForBudget(tx: Tx, actor: Actor, incident: BudgetIncident): Promise<string | null> {
  const [project] = await tx
    .update(projects)
    .set({ pausedAt: sql`now()`, pauseReason: BUDGET_REASON, updatedAt: sql`now()` })
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
    await tx.execute(sql`select id from ${agents} where id in (select agent_id from ${heartbeatRuns} where id in ${live.map((r) => r.id)}) order by id for no key update`);
  }
  for (const run of live) await cancelRun(tx, actor, run.id, BUDGET_REASON);
  await cancelWaitingWakes(tx, { issueIds: inProject }, BUDGET_REASON);
  if (project) await recordActivity(tx, actor, { companyId: project.companyId, action: 'project.paused', entityType: 'project', entityId: project.id, details: { reason: BUDGET_REASON, incidentId: incident.id } });
  return project?.id ?? null;
}

/** Applies the stops still pending; returns how many. Safe to call from anywhere, any number of times. */
export async function applyPendingBudgetStops(db: Db): Promise<number> {
  let applied = 0;
  for (;;) {
    const done = await transactionWithRetry(db, async (tx) => {
      const [incident] = await tx.select().from(budgetIncidents).where(eq(budgetIncidents.stopPending, true)).orderBy(budgetIncidents.createdAt).limit(1).for('update', { skipLocked: true });
      if (!incident) return false;
      const pausedAgentIds = incident.scopeType === 'project' ? [] : await pauseAgentsForBudget(tx, budgetActor, incident);
      const pausedProjectId = incident.scopeType === 'project' ? await pauseProjectForBudget(tx, budgetActor, incident) : null;
      const approval = await createApproval({ db: tx, actor: budgetActor }, {
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
      });
      await tx.update(budgetIncidents).set({ stopPending: false, pausedAgentIds, pausedProjectId, approvalId: approval.id, updatedAt: sql`now()` }).where(eq(budgetIncidents.id, incident.id));
      return true;
    });
    if (!done) return applied;
    applied++;
  }
}

/** Resumes what this incident's stop paused and is still paused for the budget. */
export async function releaseBudgetStop(tx: Tx, actor: Actor, incident: BudgetIncident): Promise<void> {
  if (incident.pausedAgentIds.length > 0) {
    // Locked together first, in id order, like the stop (the lock order, runs/lock-order.ts); an agent deleted since is gone from the result.
    const still = await tx.execute<{ id: string }>(sql`select id from ${agents} where id in ${incident.pausedAgentIds} order by id for no key update`);
    for (const { id } of still.rows) {
      const { changed } = await transitionAgent(tx, id, { kind: 'budget_release' });
      if (changed) await recordActivity(tx, actor, { companyId: incident.companyId, action: 'agent.resumed', entityType: 'agent', entityId: id, details: { reason: BUDGET_REASON, incidentId: incident.id } });
    }
  }
  if (incident.pausedProjectId) {
    const [project] = await tx
      .update(projects)
      .set({ pausedAt: null, pauseReason: null, updatedAt: sql`now()` })
      .where(and(eq(projects.id, incident.pausedProjectId), isNotNull(projects.pausedAt), eq(projects.pauseReason, BUDGET_REASON)))
      .returning({ id: projects.id });
    if (project) await recordActivity(tx, actor, { companyId: incident.companyId, action: 'project.resumed', entityType: 'project', entityId: project.id, details: { reason: BUDGET_REASON, incidentId: incident.id } });
  }
}
