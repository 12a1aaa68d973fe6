// Firing a routine from outside the scheduler: a manual or API run (POST /api/routines/{id}/run)
// and a public webhook fire. Both record the run, then decide it at once, so the answer already
// says what became of it (issue_created, coalesced, skipped or failed).
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { routineTriggers } from '../../db/schema/index.ts';
import { systemActor } from '../../core/actor.ts';
import type { Ctx } from '../../core/context.ts';
import { badRequest, conflict, forbidden, notFound, unauthorized } from '../../core/errors.ts';
import { findJsonProblem, FREEFORM_PAYLOAD_BYTES, MAX_FREEFORM_DEPTH } from '../../core/json.ts';
import { assertIssueRefsInCompany } from '../../core/issue-access.ts';
import { decideRun, recordRun, type RoutineRun } from './routine-runs.ts';
import type { RunRoutineBody } from './schemas.ts';
import { findWebhookTrigger, lockRoutine, type Routine } from './service.ts';
import { openWebhookSecret, verifyWebhookRequest, type SignedRequest, type SigningMode } from './signing.ts';
import { resolveVariables } from './variables.ts';
import { assertMayAssignRoutine, assertMayManageRoutine } from './policy.ts';

/** Largest public fire body (the route's body limit, 413 beyond): the same bound as any free-form payload. */
export const MAX_FIRE_BODY_BYTES = FREEFORM_PAYLOAD_BYTES;

export async function runRoutine(ctx: Ctx, routine: Routine, body: RunRoutineBody): Promise<RoutineRun> {
  await assertMayManageRoutine(ctx, 'routine.fire', routine);
  await assertMayAssignRoutine(ctx, routine.companyId, body.assigneeAgentId);
  if (routine.status === 'archived') throw conflict('an archived routine does not run');
  const [trigger] = body.triggerId
    ? await ctx.db.select().from(routineTriggers).where(eq(routineTriggers.id, body.triggerId))
    : [];
  if (body.triggerId) {
    if (!trigger || trigger.routineId !== routine.id) throw forbidden('triggerId must name a trigger of this routine');
    if (!trigger.enabled) throw conflict('the trigger is disabled');
  }
  // Refusals the caller can fix are answered now, not recorded as failed runs.
  if (!(body.assigneeAgentId ?? routine.assigneeAgentId))
    throw conflict('the routine has no assignee: set assigneeAgentId on the routine or the run');
  // The effective assignee is checked too: one terminated since the routine was saved is 422 now,
  // not a failed run the caller has to go and read.
  await assertIssueRefsInCompany(ctx.db, routine.companyId, {
    projectId: body.projectId,
    assigneeAgentId: body.assigneeAgentId ?? routine.assigneeAgentId,
    executionWorkspaceId: body.executionWorkspaceId,
  });
  resolveVariables(routine.variables, body.variables);
  const { run, created } = await ctx.db.transaction(async (tx) => {
    await lockRoutine(tx, routine.id);
    return recordRun(tx, ctx.actor, routine, trigger ?? null, { ...body, source: body.source ?? 'manual' });
  });
  return created ? decideRun(ctx.db, ctx.actor, run.id) : run;
}

export interface PublicFire extends SignedRequest {
  publicId: string;
}

/**
 * A public webhook fire. Checked in this order, so a caller without a valid signature learns
 * nothing about the trigger's state: 404 unknown id, 401 signature, 409 disabled trigger or routine not active, 400 body not JSON.
 */
export async function fireWebhook(db: Db, masterKey: Buffer, fire: PublicFire): Promise<RoutineRun> {
  const trigger = await findWebhookTrigger(db, fire.publicId);
  if (!trigger) throw notFound('trigger');
  const verdict = verifyWebhookRequest(
    trigger.signingMode as SigningMode,
    openWebhookSecret(masterKey, trigger),
    trigger.replayWindowSec ?? 300,
    fire,
  );
  if (!verdict.ok) throw unauthorized(verdict.reason);
  const payload = parseFireBody(fire.rawBody);
  const { run, created } = await db.transaction(async (tx) => {
    const routine = await lockRoutine(tx, trigger.routineId);
    const [current] = await tx
      .select({ enabled: routineTriggers.enabled })
      .from(routineTriggers)
      .where(eq(routineTriggers.id, trigger.id));
    if (!current?.enabled) throw conflict('the trigger is disabled');
    if (routine.status !== 'active') throw conflict(`the routine is ${routine.status}`);
    // A signed, timestamped delivery is unique: repeating it inside the replay window returns the
    // first run instead of firing again. Senders may also name a delivery with Idempotency-Key.
    const key =
      headerValue(fire.headers['idempotency-key']) ??
      (trigger.signingMode === 'codehost_hmac' && verdict.signature ? `sig:${verdict.signature}` : null);
    return recordRun(tx, systemActor('webhook'), routine, trigger, {
      source: 'webhook',
      payload,
      idempotencyKey: key?.slice(0, 200) ?? null,
    });
  });
  return created ? decideRun(db, systemActor('webhook'), run.id) : run;
}

const headerValue = (value: string | string[] | undefined) =>
  (Array.isArray(value) ? value[0] : value)?.trim() || undefined;

/**
 * The body's `payload` object when it has one (`{"payload": {...}}`), else the whole JSON object as
 * sent (code hosts post their own event shapes); an empty body records no payload.
 */
function parseFireBody(raw: Buffer): Record<string, unknown> | null {
  if (raw.length === 0) return null;
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    throw badRequest('the body must be JSON');
  }
  const problem = findJsonProblem(body, MAX_FREEFORM_DEPTH);
  if (problem)
    throw badRequest(
      problem.kind === 'nul'
        ? 'NUL characters (U+0000) are not accepted in the body'
        : `the body is nested deeper than ${MAX_FREEFORM_DEPTH} levels`,
    );
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw badRequest('the body must be a JSON object');
  const inner = (body as Record<string, unknown>).payload;
  if (inner !== undefined && (inner === null || typeof inner !== 'object' || Array.isArray(inner)))
    throw badRequest('`payload` must be a JSON object');
  return (inner as Record<string, unknown> | undefined) ?? (body as Record<string, unknown>);
}
