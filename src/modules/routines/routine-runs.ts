// Routine runs (SPEC section 3, Routine run status). A fire is two steps:
//  1. record: the run row is inserted as `received` (idempotent by key, and by tick for schedules)
//     and the trigger's lastFiredAt set, in the caller's transaction;
//  2. decide: in a transaction of its own, under the routine's row lock (so concurrent fires of one
//     routine see each other's execution issues), the concurrency policy makes it `coalesced`,
//     `skipped` or `issue_created` (a new execution issue assigned to the agent, who is woken with
//     source `automation`); a rule that refuses (no assignee, a terminated agent, a missing
//     required variable) makes it `failed` with the reason.
// A run left `received` by a crash between the steps is decided by the scheduler's sweep.
// Afterwards the run follows its execution issue: done -> completed, cancelled -> failed.
import { and, asc, desc, eq, inArray, lt, notInArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { issues, routineRuns, routineTriggers } from '../../db/schema/index.ts';
import { actorStamp, systemActor, type Actor } from '../../core/actor.ts';
import { DomainError } from '../../core/errors.ts';
import { recordActivity } from '../activity/record.ts';
import { createIssue } from '../issues/service.ts';
import { type Issue, oneRow } from '../../db/rows.ts';
import type { CreateIssue } from '../issues/schemas.ts';
import type { RunSource } from './schemas.ts';
import { ROUTINE_EXECUTION } from '../../core/statuses.ts';
import { lockRoutine, type Routine, type RoutineTrigger } from './service.ts';
import { interpolate, resolveVariables, type VariableValue } from './variables.ts';

export type RoutineRun = typeof routineRuns.$inferSelect;

/** A run still `received` this long after it was recorded is picked up by the sweep. */
export const STRANDED_AFTER_MS = 5_000;
/** Decisions that keep failing for reasons other than the rules give up after this many attempts. */
export const MAX_DECIDE_ATTEMPTS = 5;

/** What a fire asks for, besides the routine and the trigger. */
export interface RunRequest {
  source: RunSource;
  payload?: Record<string, unknown> | null;
  variables?: Record<string, VariableValue>;
  projectId?: string;
  assigneeAgentId?: string;
  executionWorkspaceId?: string;
  executionWorkspacePreference?: string;
  executionWorkspaceSettings?: Record<string, unknown>;
  idempotencyKey?: string | null;
  /** The tick a schedule run stands for. */
  scheduledFor?: Date | null;
}

/** Step 1. Returns the existing run (created: false) for a repeated idempotency key or tick. */
export async function recordRun(
  tx: DbOrTx,
  actor: Actor,
  routine: Routine,
  trigger: RoutineTrigger | null,
  req: RunRequest,
): Promise<{ run: RoutineRun; created: boolean }> {
  const stamp = actorStamp(actor);
  const request = {
    ...(req.variables && { variables: req.variables }),
    ...(req.projectId && { projectId: req.projectId }),
    ...(req.assigneeAgentId && { assigneeAgentId: req.assigneeAgentId }),
    ...(req.executionWorkspaceId && { executionWorkspaceId: req.executionWorkspaceId }),
    ...(req.executionWorkspacePreference && { executionWorkspacePreference: req.executionWorkspacePreference }),
    ...(req.executionWorkspaceSettings && { executionWorkspaceSettings: req.executionWorkspaceSettings }),
  };
  const [inserted] = await tx
    .insert(routineRuns)
    .values({
      companyId: routine.companyId,
      routineId: routine.id,
      triggerId: trigger?.id ?? null,
      source: req.source,
      triggerPayload: req.payload ?? null,
      request,
      idempotencyKey: req.idempotencyKey ?? null,
      scheduledFor: req.scheduledFor ?? null,
      requestedByActorType: stamp.actorType,
      requestedByActorId: stamp.actorId,
    })
    .onConflictDoNothing()
    .returning();
  if (inserted) {
    if (trigger)
      await tx.update(routineTriggers).set({ lastFiredAt: sql`now()` }).where(eq(routineTriggers.id, trigger.id));
    return { run: inserted, created: true };
  }
  // Turned away by a unique index: a trigger's tick (trigger, scheduledFor; a null trigger never
  // conflicts there) or the idempotency key.
  const existing = await tx
    .select()
    .from(routineRuns)
    .where(
      req.scheduledFor && trigger
        ? and(eq(routineRuns.triggerId, trigger.id), eq(routineRuns.scheduledFor, req.scheduledFor))
        : sql`${routineRuns.routineId} = ${routine.id} and ${routineRuns.source} = ${req.source}
              and coalesce(${routineRuns.triggerId}::text, '') = ${trigger?.id ?? ''} and ${routineRuns.idempotencyKey} = ${req.idempotencyKey ?? null}`,
    );
  return { run: oneRow(existing, 'routine run that won the insert'), created: false };
}

/** The routine's open execution issue, if any (at most one matters: the oldest). */
export async function liveExecutionIssue(db: DbOrTx, routineId: string): Promise<Issue | null> {
  const [row] = await db
    .select()
    .from(issues)
    .where(
      sql`${issues.originId} = ${routineId} and ${issues.originKind} = ${ROUTINE_EXECUTION} and ${issues.status} not in ('done', 'cancelled')`,
    )
    .orderBy(asc(issues.createdAt))
    .limit(1);
  return row ?? null;
}

type Outcome = Pick<RoutineRun, 'status'> &
  Partial<Pick<RoutineRun, 'linkedIssueId' | 'coalescedIntoRunId' | 'failureReason'>>;

/**
 * Step 2. Returns the run as decided; a run that is no longer `received` (decided by another
 * replica, or being decided right now) is returned as it stands.
 */
export async function decideRun(db: DbOrTx, actor: Actor, runId: string): Promise<RoutineRun> {
  return db.transaction(async (tx) => {
    const [run] = await tx
      .select()
      .from(routineRuns)
      .where(and(eq(routineRuns.id, runId), eq(routineRuns.status, 'received')))
      .for('update', { skipLocked: true });
    if (!run) return oneRow(await tx.select().from(routineRuns).where(eq(routineRuns.id, runId)), 'routine run');
    const routine = await lockRoutine(tx, run.routineId);
    let outcome: Outcome;
    try {
      // A savepoint: a refused issue create rolls back alone, and the run records why.
      outcome = await tx.transaction((sp) => applyPolicy(sp, routine, run));
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      outcome = { status: 'failed', failureReason: err.message };
    }
    const decided = oneRow(
      await tx
        .update(routineRuns)
        .set({
          ...outcome,
          ...(outcome.status !== 'issue_created' && { completedAt: sql`now()` }),
          updatedAt: sql`now()`,
        })
        .where(eq(routineRuns.id, run.id))
        .returning(),
      'locked routine run',
    );
    await recordActivity(tx, actor, {
      companyId: routine.companyId,
      action: 'routine.run_recorded',
      entityType: 'routine',
      entityId: routine.id,
      details: {
        runId: run.id,
        source: run.source,
        status: decided.status,
        linkedIssueId: decided.linkedIssueId,
        ...(decided.failureReason && { failureReason: decided.failureReason }),
      },
    });
    return decided;
  });
}

async function applyPolicy(tx: DbOrTx, routine: Routine, run: RoutineRun): Promise<Outcome> {
  if (routine.status === 'archived') return { status: 'failed', failureReason: 'the routine is archived' };
  const request = run.request as Omit<RunRequest, 'source'>;
  const assigneeAgentId = request.assigneeAgentId ?? routine.assigneeAgentId;
  if (!assigneeAgentId) return { status: 'failed', failureReason: 'the routine has no assignee' };
  const values = resolveVariables(routine.variables, request.variables);
  const live = routine.concurrencyPolicy === 'always_enqueue' ? null : await liveExecutionIssue(tx, routine.id);
  if (live && routine.concurrencyPolicy === 'skip_if_active') return { status: 'skipped', linkedIssueId: live.id };
  if (live) {
    // The creator is the run that made the issue, not the oldest run linked to it: runs are decided
    // in lock order, not in the order they were recorded, so an older run may have coalesced into it.
    // Coalesced and skipped runs only link; the creator is issue_created (completed or failed if the
    // issue was closed and reopened).
    const [creator] = await tx
      .select({ id: routineRuns.id })
      .from(routineRuns)
      .where(
        and(
          eq(routineRuns.routineId, routine.id),
          eq(routineRuns.linkedIssueId, live.id),
          notInArray(routineRuns.status, ['coalesced', 'skipped']),
        ),
      )
      .orderBy(asc(routineRuns.createdAt))
      .limit(1);
    return { status: 'coalesced', linkedIssueId: live.id, coalescedIntoRunId: creator?.id ?? null };
  }
  const issue = await createIssue({ db: tx, actor: systemActor('routine') }, routine.companyId, {
    title: interpolate(routine.title, values).slice(0, 500) || routine.title,
    description: routine.description === null ? null : interpolate(routine.description, values),
    status: 'todo',
    priority: routine.priority as CreateIssue['priority'],
    projectId: request.projectId ?? routine.projectId,
    goalId: routine.goalId,
    parentId: routine.parentIssueId,
    assigneeAgentId,
    executionWorkspaceId: request.executionWorkspaceId ?? null,
    executionWorkspacePreference: request.executionWorkspacePreference ?? null,
    executionWorkspaceSettings: request.executionWorkspaceSettings ?? null,
    originKind: ROUTINE_EXECUTION,
    originId: routine.id,
    assignmentWake: {
      source: 'automation',
      reason: 'routine_run',
      payload: { routineId: routine.id, routineRunId: run.id, source: run.source },
    },
  });
  return { status: 'issue_created', linkedIssueId: issue.id };
}

export async function listRuns(db: DbOrTx, routineId: string, limit: number): Promise<RoutineRun[]> {
  return db
    .select()
    .from(routineRuns)
    .where(eq(routineRuns.routineId, routineId))
    .orderBy(desc(routineRuns.createdAt), desc(routineRuns.id))
    .limit(limit);
}

/** The latest run of each routine, one indexed probe per routine. */
export async function latestRuns(db: DbOrTx, routineIds: string[]): Promise<Map<string, RoutineRun>> {
  if (routineIds.length === 0) return new Map();
  const rows = await db.execute<{ id: string }>(sql`
    select latest.id from unnest(array[${sql.join(
      routineIds.map((id) => sql`${id}`),
      sql`, `,
    )}]::uuid[]) as r(id)
    cross join lateral (select id from ${routineRuns} where routine_id = r.id order by created_at desc, id desc limit 1) latest`);
  const ids = rows.rows.map((r) => r.id);
  if (ids.length === 0) return new Map();
  const runs = await db.select().from(routineRuns).where(inArray(routineRuns.id, ids));
  return new Map(runs.map((run) => [run.routineId, run]));
}

/**
 * The sweep: runs recorded but still undecided after STRANDED_AFTER_MS (the process died between
 * the two steps, or the decision hit a transient failure) are decided now. Each attempt is counted
 * first; after MAX_DECIDE_ATTEMPTS the run fails with the last error instead of looping forever.
 */
export async function decideStrandedRuns(db: DbOrTx, nowMs = Date.now(), batch = 50): Promise<number> {
  const stranded = await db
    .select({ id: routineRuns.id })
    .from(routineRuns)
    .where(and(eq(routineRuns.status, 'received'), lt(routineRuns.createdAt, new Date(nowMs - STRANDED_AFTER_MS))))
    .orderBy(asc(routineRuns.createdAt))
    .limit(batch);
  let decided = 0;
  for (const { id } of stranded) {
    const [counted] = await db
      .update(routineRuns)
      .set({ attempts: sql`${routineRuns.attempts} + 1` })
      .where(and(eq(routineRuns.id, id), eq(routineRuns.status, 'received')))
      .returning({ attempts: routineRuns.attempts });
    if (!counted) continue;
    try {
      await decideRun(db, systemActor('scheduler'), id);
      decided++;
    } catch (err) {
      if (counted.attempts >= MAX_DECIDE_ATTEMPTS) {
        await db
          .update(routineRuns)
          .set({
            status: 'failed',
            failureReason: `could not be decided after ${counted.attempts} attempts: ${(err as Error).message}`.slice(
              0,
              1000,
            ),
            completedAt: sql`now()`,
            updatedAt: sql`now()`,
          })
          .where(and(eq(routineRuns.id, id), eq(routineRuns.status, 'received')));
      }
    }
  }
  return decided;
}
