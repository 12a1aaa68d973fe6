// Routines and their triggers: create, update, delete, rotate. Each mutation is one transaction
// with its activity entry. A schedule trigger's nextRunAt is kept here, on every change that
// affects it (cron, timezone, enabled, the routine's status), so the scheduler only reads it.
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { routines, routineTriggers, type RoutineVariable } from '../../db/schema/index.ts';
import type { Actor } from '../../core/actor.ts';
import type { Ctx } from '../../core/context.ts';
import { requireAccessible } from '../../core/access.ts';
import { badRequest, conflict, notFound, unprocessable } from '../../core/errors.ts';
import { recordActivity } from '../activity/record.ts';
import { assertIssueRefsInCompany, requireSiblingIssue } from '../../core/issue-access.ts';
import { nextTick, assertValidSchedule } from './schedule.ts';
import {
  MAX_TRIGGERS_PER_ROUTINE,
  type CreateRoutine,
  type CreateTrigger,
  type PatchRoutine,
  type PatchTrigger,
  type RoutineStatus,
} from './schemas.ts';
import {
  DEFAULT_REPLAY_WINDOW_SEC,
  newPublicId,
  newWebhookSecret,
  sealWebhookSecret,
  type SigningMode,
} from './signing.ts';
import { assertReferencesDeclared, requiredWithoutDefault } from './variables.ts';
import { oneRow } from '../../db/rows.ts';
import { assertMayAssignRoutine, assertMayCreateRoutine, assertMayManageRoutine } from './policy.ts';

export type Routine = typeof routines.$inferSelect;
export type RoutineTrigger = typeof routineTriggers.$inferSelect;

/** A webhook trigger as created or rotated: the only moment its secret is shown. */
export interface IssuedWebhook {
  trigger: RoutineTrigger;
  publicId: string;
  secret: string | null;
}

export async function requireRoutine(db: DbOrTx, actor: Actor, routineId: string): Promise<Routine> {
  const [row] = await db.select().from(routines).where(eq(routines.id, routineId));
  return requireAccessible(db, actor, row, 'routine');
}

export async function requireTrigger(db: DbOrTx, actor: Actor, triggerId: string): Promise<RoutineTrigger> {
  const [row] = await db.select().from(routineTriggers).where(eq(routineTriggers.id, triggerId));
  return requireAccessible(db, actor, row, 'trigger');
}

export async function lockRoutine(tx: DbOrTx, routineId: string): Promise<Routine> {
  const [row] = await tx.select().from(routines).where(eq(routines.id, routineId)).for('update');
  if (!row) throw notFound('routine');
  return row;
}

const normaliseVariables = (list: CreateRoutine['variables']): RoutineVariable[] =>
  (list ?? []).map((v) => ({
    name: v.name,
    label: v.label ?? null,
    type: v.type,
    required: v.required,
    defaultValue: v.defaultValue ?? null,
  }));

async function assertRoutineRefs(
  tx: DbOrTx,
  companyId: string,
  refs: Pick<CreateRoutine, 'assigneeAgentId' | 'projectId' | 'goalId' | 'parentIssueId'>,
): Promise<void> {
  await assertIssueRefsInCompany(tx, companyId, {
    assigneeAgentId: refs.assigneeAgentId,
    projectId: refs.projectId,
    goalId: refs.goalId,
  });
  if (refs.parentIssueId) await requireSiblingIssue(tx, companyId, refs.parentIssueId, 'parentIssueId');
}

/** When the trigger fires next: null unless an enabled schedule of an active routine. */
export function nextRunAtFor(
  trigger: Pick<RoutineTrigger, 'kind' | 'enabled' | 'cronExpression' | 'timezone'>,
  routineStatus: string,
  now = new Date(),
): Date | null {
  if (trigger.kind !== 'schedule' || !trigger.enabled || routineStatus !== 'active' || !trigger.cronExpression)
    return null;
  return nextTick(trigger.cronExpression, trigger.timezone ?? 'UTC', now);
}

/** Rule 2: an enabled schedule fires with the defaults alone, so every required variable needs one. */
function assertSchedulable(variables: RoutineVariable[]): void {
  const missing = requiredWithoutDefault(variables);
  if (missing.length > 0)
    throw unprocessable(
      `a schedule trigger cannot be enabled while required variables lack a default: ${missing.join(', ')}`,
      { variables: missing },
    );
}

export async function createRoutine(ctx: Ctx, companyId: string, input: CreateRoutine): Promise<Routine> {
  await assertMayCreateRoutine(ctx, companyId, input.assigneeAgentId);
  const { actor } = ctx;
  // Agents create only for themselves: an agent's routine without an assignee is its own.
  const assigneeAgentId = input.assigneeAgentId ?? (actor.kind === 'agent' ? actor.agentId : null);
  if (input.status === 'active' && !assigneeAgentId) throw unprocessable('an active routine needs assigneeAgentId');
  const status: RoutineStatus = assigneeAgentId
    ? (input.status ?? 'active')
    : input.status === 'archived'
      ? 'archived'
      : 'paused';
  const variables = normaliseVariables(input.variables);
  assertReferencesDeclared(variables, input.title, input.description ?? null);
  return ctx.db.transaction(async (tx) => {
    await assertRoutineRefs(tx, companyId, { ...input, assigneeAgentId });
    const routine = oneRow(
      await tx
        .insert(routines)
        .values({
          companyId,
          title: input.title,
          description: input.description ?? null,
          assigneeAgentId,
          projectId: input.projectId ?? null,
          goalId: input.goalId ?? null,
          parentIssueId: input.parentIssueId ?? null,
          priority: input.priority ?? 'medium',
          status,
          concurrencyPolicy: input.concurrencyPolicy ?? 'coalesce_if_active',
          catchUpPolicy: input.catchUpPolicy ?? 'skip_missed',
          variables,
          createdByAgentId: actor.kind === 'agent' ? actor.agentId : null,
          createdByUserId: actor.kind === 'board' ? actor.userId : null,
        })
        .returning(),
      'routine',
    );
    await recordActivity(tx, actor, {
      companyId,
      action: 'routine.created',
      entityType: 'routine',
      entityId: routine.id,
      details: { title: routine.title, status, assigneeAgentId },
    });
    return routine;
  });
}

export async function updateRoutine(ctx: Ctx, routineId: string, patch: PatchRoutine): Promise<Routine> {
  return ctx.db.transaction(async (tx) => {
    const before = await lockRoutine(tx, routineId);
    const checked = { db: tx, actor: ctx.actor };
    await assertMayManageRoutine(checked, 'routine.update', before);
    await assertMayAssignRoutine(checked, before.companyId, patch.assigneeAgentId);
    const set: Partial<typeof routines.$inferInsert> = {};
    for (const key of [
      'title',
      'description',
      'assigneeAgentId',
      'projectId',
      'goalId',
      'parentIssueId',
      'priority',
      'concurrencyPolicy',
      'catchUpPolicy',
    ] as const) {
      if (patch[key] !== undefined && patch[key] !== before[key]) Object.assign(set, { [key]: patch[key] });
    }
    if (patch.variables !== undefined) set.variables = normaliseVariables(patch.variables);
    const assigneeAgentId = set.assigneeAgentId !== undefined ? set.assigneeAgentId : before.assigneeAgentId;
    let status = (patch.status ?? before.status) as RoutineStatus;
    if (patch.status !== undefined && patch.status !== before.status && before.status === 'archived')
      throw conflict('an archived routine cannot be reactivated');
    if (!assigneeAgentId && status === 'active') {
      // Status table: active is never left without an assignee. Asking for both is refused; clearing
      // the assignee of an active routine pauses it.
      if (patch.status === 'active') throw unprocessable('an active routine needs assigneeAgentId');
      status = 'paused';
    }
    if (status !== before.status) set.status = status;

    const variables = set.variables ?? before.variables;
    assertReferencesDeclared(
      variables,
      set.title ?? before.title,
      set.description !== undefined ? set.description : before.description,
    );
    // Activation checks the kept assignee too: it may have been terminated while the routine was paused.
    const checkedAssignee = set.assigneeAgentId ?? (set.status === 'active' ? assigneeAgentId : undefined);
    await assertRoutineRefs(tx, before.companyId, {
      assigneeAgentId: checkedAssignee,
      projectId: set.projectId,
      goalId: set.goalId,
      parentIssueId: set.parentIssueId,
    });
    const triggers = await tx.select().from(routineTriggers).where(eq(routineTriggers.routineId, before.id));
    if (set.variables && triggers.some((t) => t.kind === 'schedule' && t.enabled)) assertSchedulable(variables);

    const changes = Object.keys(set);
    if (changes.length === 0) return before;
    const after = oneRow(
      await tx
        .update(routines)
        .set({ ...set, updatedAt: sql`now()` })
        .where(eq(routines.id, before.id))
        .returning(),
      'locked routine',
    );
    if (set.status) await rescheduleTriggers(tx, triggers, status);
    await recordActivity(tx, ctx.actor, {
      companyId: before.companyId,
      action: 'routine.updated',
      entityType: 'routine',
      entityId: before.id,
      details: { changes, ...(set.status && { status: { from: before.status, to: status } }) },
    });
    return after;
  });
}

/** A routine's status changed: its schedules start (from now: ticks while paused are not owed) or stop. */
async function rescheduleTriggers(tx: Tx, triggers: RoutineTrigger[], routineStatus: string): Promise<void> {
  const now = new Date();
  for (const trigger of triggers) {
    if (trigger.kind !== 'schedule') continue;
    await tx
      .update(routineTriggers)
      .set({ nextRunAt: nextRunAtFor(trigger, routineStatus, now) })
      .where(eq(routineTriggers.id, trigger.id));
  }
}

export async function listTriggers(db: DbOrTx, routineId: string): Promise<RoutineTrigger[]> {
  return db
    .select()
    .from(routineTriggers)
    .where(eq(routineTriggers.routineId, routineId))
    .orderBy(routineTriggers.createdAt, routineTriggers.id);
}

export async function createTrigger(
  ctx: Ctx,
  masterKey: Buffer,
  routineId: string,
  input: CreateTrigger,
): Promise<IssuedWebhook> {
  return ctx.db.transaction(async (tx) => {
    const routine = await lockRoutine(tx, routineId);
    await assertMayManageRoutine({ db: tx, actor: ctx.actor }, 'routine.addTrigger', routine);
    if (routine.status === 'archived') throw conflict('an archived routine takes no new triggers');
    const [{ count } = { count: 0 }] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(routineTriggers)
      .where(eq(routineTriggers.routineId, routine.id));
    if (count >= MAX_TRIGGERS_PER_ROUTINE)
      throw unprocessable(`a routine has at most ${MAX_TRIGGERS_PER_ROUTINE} triggers`);
    const enabled = input.enabled ?? true;
    const timezone = input.kind === 'schedule' ? (input.timezone ?? 'UTC') : null;
    const cronExpression = input.kind === 'schedule' ? input.cronExpression : undefined;
    if (timezone !== null) {
      // The route's schema says so too; callers with no route in front meet it here.
      if (!cronExpression) throw badRequest('a schedule trigger needs cronExpression');
      assertValidSchedule(cronExpression, timezone);
      if (enabled) assertSchedulable(routine.variables);
    }
    const webhook = input.kind === 'webhook';
    const signingMode: SigningMode | null = webhook ? (input.signingMode ?? 'bearer') : null;
    // The id is chosen here so the secret can be sealed (bound to it) in the same insert.
    const id = randomUUID();
    const secret = webhook && signingMode !== 'none' ? newWebhookSecret() : null;
    const values = {
      id,
      companyId: routine.companyId,
      routineId: routine.id,
      kind: input.kind,
      label: input.label ?? null,
      enabled,
      cronExpression: cronExpression ?? null,
      timezone,
      publicId: webhook ? newPublicId() : null,
      signingMode,
      replayWindowSec: webhook ? (input.replayWindowSec ?? DEFAULT_REPLAY_WINDOW_SEC) : null,
    };
    const trigger = oneRow(
      await tx
        .insert(routineTriggers)
        .values({
          ...values,
          nextRunAt: nextRunAtFor(values, routine.status),
          ...(secret && sealWebhookSecret(masterKey, { companyId: routine.companyId, id, secretVersion: 0 }, secret)),
        })
        .returning(),
      'trigger',
    );
    await touchRoutine(tx, routine.id);
    await recordActivity(tx, ctx.actor, {
      companyId: routine.companyId,
      action: 'routine.trigger_created',
      entityType: 'routine',
      entityId: routine.id,
      details: { triggerId: trigger.id, kind: input.kind, ...(signingMode && { signingMode }) },
    });
    return { trigger, publicId: trigger.publicId ?? '', secret };
  });
}

/** Trigger changes count as an update of the routine (the list is ordered by updatedAt). */
const touchRoutine = (tx: DbOrTx, routineId: string) =>
  tx.update(routines).set({ updatedAt: sql`now()` }).where(eq(routines.id, routineId));

export async function updateTrigger(
  ctx: Ctx,
  masterKey: Buffer,
  triggerId: string,
  patch: PatchTrigger,
): Promise<{ trigger: RoutineTrigger; issuedSecret: string | null }> {
  return ctx.db.transaction(async (tx) => {
    const [current] = await tx.select().from(routineTriggers).where(eq(routineTriggers.id, triggerId));
    if (!current) throw notFound('trigger');
    const routine = await lockRoutine(tx, current.routineId);
    await assertMayManageRoutine({ db: tx, actor: ctx.actor }, 'routine.updateTrigger', routine);
    const [before] = await tx.select().from(routineTriggers).where(eq(routineTriggers.id, triggerId)).for('update');
    if (!before) throw notFound('trigger');
    const scheduleFields = patch.cronExpression !== undefined || patch.timezone !== undefined;
    const webhookFields = patch.signingMode !== undefined || patch.replayWindowSec !== undefined;
    if (scheduleFields && before.kind !== 'schedule')
      throw unprocessable('cronExpression and timezone are for schedule triggers only');
    if (webhookFields && before.kind !== 'webhook')
      throw unprocessable('signingMode and replayWindowSec are for webhook triggers only');

    const next = {
      kind: before.kind,
      label: patch.label !== undefined ? patch.label : before.label,
      enabled: patch.enabled ?? before.enabled,
      cronExpression: patch.cronExpression ?? before.cronExpression,
      timezone: patch.timezone ?? before.timezone,
      signingMode: patch.signingMode ?? before.signingMode,
      replayWindowSec: patch.replayWindowSec ?? before.replayWindowSec,
    };
    if (before.kind === 'schedule') {
      if (scheduleFields) {
        if (!next.cronExpression) throw unprocessable('a schedule trigger needs cronExpression');
        assertValidSchedule(next.cronExpression, next.timezone ?? 'UTC');
      }
      if (next.enabled && !before.enabled) assertSchedulable(routine.variables);
    }
    // Leaving signing mode `none` needs a secret to check against: one is issued (and shown once).
    const issuedSecret =
      before.kind === 'webhook' && next.signingMode !== 'none' && !before.secretCiphertext ? newWebhookSecret() : null;
    const schedulingChanged = scheduleFields || next.enabled !== before.enabled;
    const after = oneRow(
      await tx
        .update(routineTriggers)
        .set({
          ...next,
          ...(schedulingChanged && { nextRunAt: nextRunAtFor(next, routine.status) }),
          ...(issuedSecret && sealWebhookSecret(masterKey, before, issuedSecret)),
          updatedAt: sql`now()`,
        })
        .where(eq(routineTriggers.id, before.id))
        .returning(),
      'locked trigger',
    );
    await touchRoutine(tx, routine.id);
    await recordActivity(tx, ctx.actor, {
      companyId: routine.companyId,
      action: 'routine.trigger_updated',
      entityType: 'routine',
      entityId: routine.id,
      details: {
        triggerId: before.id,
        changes: Object.keys(patch).filter((k) => patch[k as keyof PatchTrigger] !== undefined),
      },
    });
    return { trigger: after, issuedSecret };
  });
}

export async function deleteTrigger(ctx: Ctx, trigger: RoutineTrigger): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const routine = await lockRoutine(tx, trigger.routineId);
    await assertMayManageRoutine({ db: tx, actor: ctx.actor }, 'routine.deleteTrigger', routine);
    const deleted = await tx
      .delete(routineTriggers)
      .where(eq(routineTriggers.id, trigger.id))
      .returning({ id: routineTriggers.id });
    if (deleted.length === 0) throw notFound('trigger');
    await touchRoutine(tx, trigger.routineId);
    await recordActivity(tx, ctx.actor, {
      companyId: trigger.companyId,
      action: 'routine.trigger_deleted',
      entityType: 'routine',
      entityId: trigger.routineId,
      details: { triggerId: trigger.id, kind: trigger.kind },
    });
  });
}

/**
 * A new secret for a webhook trigger. The old one stops working with this commit (the seal is
 * replaced and its version bumped); the public id, and so the URL, stays.
 */
export async function rotateWebhookSecret(
  ctx: Ctx,
  masterKey: Buffer,
  trigger: RoutineTrigger,
): Promise<IssuedWebhook> {
  return ctx.db.transaction(async (tx) => {
    const routine = await lockRoutine(tx, trigger.routineId);
    await assertMayManageRoutine({ db: tx, actor: ctx.actor }, 'routine.rotateSecret', routine);
    if (trigger.kind !== 'webhook') throw unprocessable('only webhook triggers have a secret');
    const [current] = await tx.select().from(routineTriggers).where(eq(routineTriggers.id, trigger.id)).for('update');
    if (!current) throw notFound('trigger');
    const secret = newWebhookSecret();
    const version = current.secretVersion + 1;
    const after = oneRow(
      await tx
        .update(routineTriggers)
        .set({
          secretVersion: version,
          ...sealWebhookSecret(masterKey, { ...current, secretVersion: version }, secret),
          updatedAt: sql`now()`,
        })
        .where(eq(routineTriggers.id, current.id))
        .returning(),
      'locked trigger',
    );
    await recordActivity(tx, ctx.actor, {
      companyId: current.companyId,
      action: 'routine.trigger_secret_rotated',
      entityType: 'routine',
      entityId: current.routineId,
      details: { triggerId: current.id },
    });
    return { trigger: after, publicId: current.publicId ?? '', secret };
  });
}

export async function findWebhookTrigger(db: DbOrTx, publicId: string): Promise<RoutineTrigger | null> {
  const [row] = await db
    .select()
    .from(routineTriggers)
    .where(and(eq(routineTriggers.publicId, publicId), eq(routineTriggers.kind, 'webhook')));
  return row ?? null;
}
