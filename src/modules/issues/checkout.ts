// Checkout and release of issues (SPEC: issue status table, checkout rules, release rules).
//
// The lock: an issue is held by its assigneeAgentId while it is in_progress, and checkoutRunId names
// the heartbeat run holding it (null when the board checked it out on the agent's behalf).
// A lock is stale when its run has finished (succeeded, failed, cancelled, timed_out) or no longer
// exists; only the same assignee may adopt a stale lock, and only by listing in_progress in
// expectedStatuses. Decisions where SPEC is silent:
// - An issue assigned to another agent cannot be checked out (owned_by_another_agent), even in todo:
//   the board reassigns first.
// - The same agent holding the issue with another live run answers 409 owned_by_another_run.
// - Board checkout acts for the named agent without a run (checkoutRunId null); a later checkout by
//   that agent with its run header takes the lock over. An agent's run id comes only from its
//   X-Service-Run-Id header (400 when missing or not a UUID); a runId in the body is rejected (400).
// - checkout leaves assigneeUserId as it is (release keeps it too).
// - An agent's run id that has no run record yet becomes one (status running, invocationSource
//   checkout, issueId this issue) in the checkout transaction, linked to the issue like every run
//   that checks one out; a run of another agent is 403, a finished run 409.
// Every refusal because of the lock is 409 `{ error, details: { reason, currentStatus, holder:
// { agentId, runId, runStatus, runLive }, retryable: false } }`; reasons: status_mismatch,
// owned_by_another_agent, owned_by_another_run, project_paused, workspace_closed, and for release
// and PATCH not_checked_out, run_mismatch.
import { isUuid } from '../../lib/ids.ts';
import { and, eq, getTableColumns, inArray, isNull, or, sql, TransactionRollbackError, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import {
  agents,
  executionWorkspaces,
  heartbeatRuns,
  issues,
  projects,
  projectWorkspaces,
} from '../../db/schema/index.ts';
import type { Actor } from '../../core/actor.ts';
import type { Ctx } from '../../core/context.ts';
import { badRequest, conflict, forbidden, notFound, unprocessable } from '../../core/errors.ts';
import { recordActivity } from '../activity/record.ts';
import {
  canAgentWork,
  CLOSED_STATUSES,
  isLiveRunStatus,
  type IssueStatus,
  LIVE_RUN_STATUSES,
} from '../../core/statuses.ts';
import { ensureAgentRun, findRun, recordRunIssue } from '../runs/service.ts';
import { type Issue, oneRow } from '../../db/rows.ts';
import { assertMayCheckout, assertMayRelease } from './policy.ts';

export type CheckoutConflictReason =
  | 'status_mismatch'
  | 'owned_by_another_agent'
  | 'owned_by_another_run'
  | 'project_paused'
  | 'workspace_closed';

export interface LockHolder {
  agentId: string | null;
  runId: string | null;
  runStatus: string | null;
  /** Whether the holding run is still queued or running (false for a stale or run-less lock). */
  runLive: boolean;
}

const NO_RETRY = 'do not retry this request; re-read the issue and decide';

/** The run id an agent acts under: its X-Service-Run-Id header (or JWT run claim), required and a UUID. */
function requireAgentRunId(actor: Actor): string {
  if (actor.kind !== 'agent') throw forbidden('agent authentication required');
  if (!actor.runId) throw badRequest('X-Service-Run-Id header is required for agent checkout and release');
  if (!isUuid(actor.runId)) throw badRequest('X-Service-Run-Id must be a UUID');
  return actor.runId;
}

/** Issue, project, workspace and holding run as they are now: the diagnosis of a refused checkout. */
async function readLockState(db: DbOrTx, issueId: string) {
  const [row] = await db
    .select({
      status: issues.status,
      assigneeAgentId: issues.assigneeAgentId,
      checkoutRunId: issues.checkoutRunId,
      projectPausedAt: projects.pausedAt,
      workspaceClosedAt: projectWorkspaces.closedAt,
      isolatedClosedAt: executionWorkspaces.closedAt,
      runStatus: heartbeatRuns.status,
    })
    .from(issues)
    .leftJoin(projects, eq(projects.id, issues.projectId))
    .leftJoin(projectWorkspaces, eq(projectWorkspaces.id, issues.executionWorkspaceId))
    .leftJoin(
      executionWorkspaces,
      and(eq(executionWorkspaces.issueId, issues.id), eq(executionWorkspaces.status, 'closed')),
    )
    .leftJoin(heartbeatRuns, eq(heartbeatRuns.id, issues.checkoutRunId))
    .where(eq(issues.id, issueId));
  if (!row) throw notFound('issue');
  return row;
}

async function runStatusOf(db: DbOrTx, runId: string | null): Promise<string | null> {
  if (!runId) return null;
  return (await findRun(db, runId))?.status ?? null;
}

type LockState = Awaited<ReturnType<typeof readLockState>>;

function holderOf(state: Pick<LockState, 'assigneeAgentId' | 'checkoutRunId' | 'runStatus'>): LockHolder {
  return {
    agentId: state.assigneeAgentId,
    runId: state.checkoutRunId,
    runStatus: state.runStatus ?? null,
    runLive: state.checkoutRunId !== null && isLiveRunStatus(state.runStatus),
  };
}

function lockConflict(
  reason: CheckoutConflictReason | 'not_checked_out' | 'run_mismatch',
  message: string,
  state: Pick<LockState, 'status' | 'assigneeAgentId' | 'checkoutRunId' | 'runStatus'>,
) {
  return conflict(`${message}; ${NO_RETRY}`, {
    reason,
    currentStatus: state.status,
    holder: holderOf(state),
    retryable: false,
  });
}

function diagnoseCheckout(state: LockState, agentId: string, runId: string | null, expected: IssueStatus[]) {
  if (state.projectPausedAt) return lockConflict('project_paused', 'the issue belongs to a paused project', state);
  if (state.workspaceClosedAt)
    return lockConflict('workspace_closed', 'the issue execution workspace is closed', state);
  if (state.isolatedClosedAt)
    return lockConflict(
      'workspace_closed',
      'the isolated execution workspace of the issue is closed (its branch is kept)',
      state,
    );
  if (state.assigneeAgentId && state.assigneeAgentId !== agentId)
    return lockConflict('owned_by_another_agent', 'the issue is held by another agent', state);
  const sameAgentOtherRun =
    state.assigneeAgentId === agentId && state.checkoutRunId !== null && state.checkoutRunId !== runId;
  if (sameAgentOtherRun && isLiveRunStatus(state.runStatus))
    return lockConflict('owned_by_another_run', 'the issue is held by another live run of this agent', state);
  const hint =
    sameAgentOtherRun && !expected.includes('in_progress')
      ? ' (the previous run is over: include in_progress in expectedStatuses to adopt its lock)'
      : '';
  return lockConflict('status_mismatch', `the issue status ${state.status} is not in expectedStatuses${hint}`, state);
}

async function loadAvailableAgent(tx: DbOrTx, agentId: string, companyId: string) {
  const [agent] = await tx.select().from(agents).where(eq(agents.id, agentId));
  if (!agent || agent.companyId !== companyId) throw unprocessable('agentId must name an agent of the issue company');
  if (!canAgentWork(agent.status))
    throw conflict(`agent is ${agent.status} and cannot check out issues`, { agentStatus: agent.status });
  return agent;
}

// The lock in a shape the UPDATE can test: no live run behind checkout_run_id. Correct only when
// the statement's snapshot is newer than the last change of the issue row: checkoutIssue locks it first.
const lockIsStale = sql`not exists (select 1 from ${heartbeatRuns} where ${heartbeatRuns.id} = ${issues.checkoutRunId} and ${inArray(heartbeatRuns.status, [...LIVE_RUN_STATUSES])})`;

/**
 * POST /issues/{id}/checkout. The issue row is locked first, then the claim is one conditional
 * UPDATE ... RETURNING whose WHERE decides; a refused claim's transaction (run record included)
 * rolls back, then it is diagnosed with a read and answered 409 with the holder.
 *
 * Why the lock comes first: the UPDATE alone is not enough. Under READ COMMITTED a caller that
 * queued on the row lock re-checks the WHERE against the winner's new row version (EvalPlanQual),
 * but the lockIsStale subquery still reads heartbeat_runs in the statement's old snapshot, where
 * the winner's run (created in the winner's transaction) does not exist yet. So for runs of the
 * same agent the winner's fresh lock looked stale and every queued run "adopted" it: 20 racing
 * runs gave up to 20 answers of 200. With `SELECT ... FOR NO KEY UPDATE` the wait happens in an earlier
 * statement; the UPDATE then takes a new snapshot after the winner committed, and sees its run.
 */
export async function checkoutIssue(
  ctx: Ctx,
  issue: Issue,
  input: { agentId: string; expectedStatuses: IssueStatus[] },
): Promise<Issue> {
  const { actor } = ctx;
  await assertMayCheckout(ctx, issue, input.agentId);
  const runId = actor.kind === 'agent' ? requireAgentRunId(actor) : null;
  const expected = [...new Set(input.expectedStatuses)];
  // Before the lock: racers of one issue queue on its row, so what needs no lock is read first.
  const agent = await loadAvailableAgent(ctx.db, input.agentId, issue.companyId);
  try {
    return await ctx.db.transaction(async (tx) => {
      // Serialises checkouts of this issue; see above. Issue row, then run row: the one lock order.
      const [current] = await tx
        .select({ status: issues.status, assigneeAgentId: issues.assigneeAgentId })
        .from(issues)
        .where(eq(issues.id, issue.id))
        .for('no key update');
      // What the claim below would refuse anyway (status not expected, another agent's issue) is
      // refused before any write: a racer that lost lets the row go at once, not after writing and
      // rolling back its run record. The UPDATE's WHERE stays the one that decides a claim.
      if (
        !current ||
        !(expected as string[]).includes(current.status) ||
        (current.assigneeAgentId !== null && current.assigneeAgentId !== agent.id)
      )
        return tx.rollback();
      if (runId) await ensureAgentRun(tx, agent, runId, issue.id);

      const sameRun = runId ? sql`${issues.checkoutRunId} = ${runId}` : isNull(issues.checkoutRunId);
      // Who may take the row: nobody holds it; the same agent with no run or the same run behind the
      // lock; or the same agent adopting a stale lock, which SPEC allows only when in_progress is expected.
      const lockPaths: SQL[] = [isNull(issues.checkoutRunId), sameRun];
      if (expected.includes('in_progress')) lockPaths.push(lockIsStale);
      const claimable = or(isNull(issues.assigneeAgentId), and(eq(issues.assigneeAgentId, agent.id), or(...lockPaths)));
      const unchanged = and(eq(issues.status, 'in_progress'), eq(issues.assigneeAgentId, agent.id), sameRun);

      const [row] = await tx
        .update(issues)
        .set({
          status: 'in_progress',
          assigneeAgentId: agent.id,
          checkoutRunId: runId,
          startedAt: sql`coalesce(${issues.startedAt}, now())`,
          // An idempotent repeat leaves the row as it was, updatedAt included.
          updatedAt: sql`case when ${unchanged} then ${issues.updatedAt} else now() end`,
        })
        .where(
          and(
            eq(issues.id, issue.id),
            inArray(issues.status, expected),
            claimable,
            sql`not exists (select 1 from ${projects} where ${projects.id} = ${issues.projectId} and ${projects.pausedAt} is not null)`,
            sql`not exists (select 1 from ${projectWorkspaces} where ${projectWorkspaces.id} = ${issues.executionWorkspaceId} and ${projectWorkspaces.closedAt} is not null)`,
            sql`not exists (select 1 from ${executionWorkspaces} where ${executionWorkspaces.issueId} = ${issues.id} and ${executionWorkspaces.status} = 'closed')`,
          ),
        )
        // updatedAt equals now() only when this statement changed the row (now() is fixed per transaction).
        .returning({ ...getTableColumns(issues), changed: sql<boolean>`${issues.updatedAt} = now()` });
      // Refused: roll back (the run record with it), which frees the row for the next racer at once.
      if (!row) return tx.rollback();
      const { changed, ...claimedRow } = row;
      if (runId) await recordRunIssue(tx, { companyId: issue.companyId, runId, issueId: issue.id });
      if (changed) {
        await recordActivity(tx, actor, {
          companyId: issue.companyId,
          action: 'issue.checked_out',
          entityType: 'issue',
          entityId: issue.id,
          details: { identifier: claimedRow.identifier, agentId: agent.id, runId, expectedStatuses: expected },
        });
      }
      return claimedRow;
    });
  } catch (err) {
    if (!(err instanceof TransactionRollbackError)) throw err;
  }
  // The 409 says why from the state as it is now, read after the lock was let go.
  throw diagnoseCheckout(await readLockState(ctx.db, issue.id), agent.id, runId, expected);
}

/**
 * POST /issues/{id}/release: board any time the issue is checked out; an agent only as the assignee
 * (else 403) from the run holding the lock (else 409). The row is locked first so the rules and
 * the activity entry see exactly the state being released.
 */
export async function releaseIssue(ctx: Ctx, issue: Issue): Promise<Issue> {
  const { actor } = ctx;
  const runId = actor.kind === 'agent' ? requireAgentRunId(actor) : null;
  return ctx.db.transaction(async (tx) => {
    const [current] = await tx.select().from(issues).where(eq(issues.id, issue.id)).for('no key update');
    if (!current) throw notFound('issue'); // deleted since it was read
    const state = { ...current, runStatus: await runStatusOf(tx, current.checkoutRunId) };
    // The assignee as locked, so a reassignment racing the release is seen.
    await assertMayRelease({ db: tx, actor }, { companyId: issue.companyId, assigneeAgentId: state.assigneeAgentId });
    const checkedOut =
      !CLOSED_STATUSES.includes(state.status as IssueStatus) &&
      (state.status === 'in_progress' || state.checkoutRunId !== null);
    if (!checkedOut)
      throw lockConflict('not_checked_out', `the issue is not checked out (status ${state.status})`, state);
    if (runId && state.checkoutRunId !== runId)
      throw lockConflict('run_mismatch', 'only the run holding the checkout may release it', state);

    const released = oneRow(
      await tx
        .update(issues)
        .set({ status: 'todo', assigneeAgentId: null, checkoutRunId: null, updatedAt: sql`now()` })
        .where(eq(issues.id, issue.id))
        .returning(),
      'locked issue',
    );
    await recordActivity(tx, actor, {
      companyId: issue.companyId,
      action: 'issue.released',
      entityType: 'issue',
      entityId: issue.id,
      details: {
        identifier: state.identifier,
        previousStatus: state.status,
        agentId: state.assigneeAgentId,
        runId: state.checkoutRunId,
      },
    });
    return released;
  });
}

/**
 * PATCH rule 3, for the issues area: an agent updating an in_progress issue that is checked out must
 * be its assignee and send the holding run's id in X-Service-Run-Id. When the holding run is over
 * (stale lock) the assignee passes with any run header: its work is not blocked by a dead run, and
 * its next checkout adopts the lock. A run-less lock (board checkout on the agent's behalf) passes
 * for the assignee. The board always passes. Otherwise 409 with the holder.
 */
export async function assertMayUpdateCheckedOutIssue(db: DbOrTx, caller: Actor, issue: Issue): Promise<void> {
  // A plugin's tool call meets the lock as the agent that called it (a plugin on its own, as the board).
  const actor = caller.kind === 'plugin' ? caller.cause : caller;
  if (actor?.kind !== 'agent' || issue.status !== 'in_progress' || (!issue.assigneeAgentId && !issue.checkoutRunId))
    return;
  const runStatus = await runStatusOf(db, issue.checkoutRunId);
  const state = {
    status: issue.status,
    assigneeAgentId: issue.assigneeAgentId,
    checkoutRunId: issue.checkoutRunId,
    runStatus,
  };
  if (issue.assigneeAgentId !== actor.agentId)
    throw lockConflict('owned_by_another_agent', 'the issue is checked out by another agent', state);
  if (!issue.checkoutRunId || actor.runId === issue.checkoutRunId) return;
  if (actor.runId && !isLiveRunStatus(runStatus)) return;
  throw lockConflict(
    'run_mismatch',
    'the issue is checked out by another run: send the holding run id in X-Service-Run-Id',
    state,
  );
}
