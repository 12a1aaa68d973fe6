// Goal use cases. Each mutation is one transaction that also writes its activity entry.
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { goals } from '../../db/schema/index.ts';
import { notFound, unprocessable } from '../../core/errors.ts';
import { recordActivity } from '../activity/record.ts';
import type { Ctx } from '../../core/context.ts';
import { assertAgentInCompany } from '../../core/agent-access.ts';
import { projectIdsLinkedToGoal, resyncLegacyGoalIds } from './project-goals.ts';
import { type Goal, oneRow } from '../../db/rows.ts';
import type { CreateGoal, PatchGoal } from './schemas.ts';
import { assertMayChangeGoals } from './policy.ts';

// Goal trees are shallow in practice; the bound only guards the recursive walk.
const MAX_GOAL_DEPTH = 1000;

export async function listGoals(db: DbOrTx, companyId: string, limit: number): Promise<Goal[]> {
  return db
    .select()
    .from(goals)
    .where(eq(goals.companyId, companyId))
    .orderBy(asc(goals.createdAt), asc(goals.id))
    .limit(limit);
}

export async function findGoal(db: DbOrTx, goalId: string): Promise<Goal | null> {
  const [goal] = await db.select().from(goals).where(eq(goals.id, goalId));
  return goal ?? null;
}

/**
 * The company default goal: the oldest top-level goal with level `company`, or null.
 * Issues without a goal and without a project resolve to it.
 */
export async function defaultCompanyGoal(db: DbOrTx, companyId: string): Promise<Goal | null> {
  const [goal] = await db
    .select()
    .from(goals)
    .where(and(eq(goals.companyId, companyId), eq(goals.level, 'company'), isNull(goals.parentId)))
    .orderBy(asc(goals.createdAt), asc(goals.id))
    .limit(1);
  return goal ?? null;
}

async function assertParentInCompany(tx: DbOrTx, companyId: string, parentId: string): Promise<void> {
  const parent = await findGoal(tx, parentId);
  if (!parent || parent.companyId !== companyId)
    throw unprocessable('parentId must name a goal of the same company', { parentId });
}

/** 422 when making `parentId` the parent of `goalId` would close a loop, at any depth. */
async function assertNoCycle(tx: DbOrTx, goalId: string, parentId: string): Promise<void> {
  if (goalId === parentId) throw unprocessable('a goal cannot be its own parent');
  const result = await tx.execute<{ found: number }>(sql`
    with recursive chain(id, parent_id, depth) as (
      select id, parent_id, 0 from goals where id = ${parentId}
      union all
      select g.id, g.parent_id, c.depth + 1 from goals g join chain c on g.id = c.parent_id where c.depth < ${MAX_GOAL_DEPTH}
    )
    select 1 as found from chain where id = ${goalId} limit 1`);
  if (result.rows.length > 0) throw unprocessable('parentId would create a cycle in the goal hierarchy', { parentId });
}

// Two concurrent re-parentings (A under B, B under A) each pass the cycle check alone; a per-company
// lock around hierarchy changes makes the second one see the first.
async function lockGoalTree(tx: Tx, companyId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`goal-tree:${companyId}`}, 0))`);
}

export async function createGoal(ctx: Ctx, companyId: string, input: CreateGoal): Promise<Goal> {
  await assertMayChangeGoals(ctx, 'goal.create', companyId);
  return ctx.db.transaction(async (tx) => {
    if (input.parentId) await assertParentInCompany(tx, companyId, input.parentId);
    if (input.ownerAgentId) await assertAgentInCompany(tx, companyId, input.ownerAgentId, 'ownerAgentId');
    const goal = oneRow(
      await tx
        .insert(goals)
        .values({
          companyId,
          title: input.title,
          description: input.description ?? null,
          level: input.level ?? 'task',
          status: input.status ?? 'planned',
          parentId: input.parentId ?? null,
          ownerAgentId: input.ownerAgentId ?? null,
        })
        .returning(),
      'goal',
    );
    await recordActivity(tx, ctx.actor, {
      companyId,
      action: 'goal.created',
      entityType: 'goal',
      entityId: goal.id,
      details: { title: goal.title, level: goal.level, status: goal.status, parentId: goal.parentId },
    });
    return goal;
  });
}

export async function updateGoal(ctx: Ctx, goal: Goal, patch: PatchGoal): Promise<Goal> {
  await assertMayChangeGoals(ctx, 'goal.update', goal.companyId);
  return ctx.db.transaction(async (tx) => {
    if (patch.parentId) {
      await lockGoalTree(tx, goal.companyId);
      await assertParentInCompany(tx, goal.companyId, patch.parentId);
      await assertNoCycle(tx, goal.id, patch.parentId);
    }
    if (patch.ownerAgentId) await assertAgentInCompany(tx, goal.companyId, patch.ownerAgentId, 'ownerAgentId');
    const [updated] = await tx
      .update(goals)
      .set({
        ...(patch.title !== undefined && { title: patch.title }),
        ...(patch.description !== undefined && { description: patch.description }),
        ...(patch.level !== undefined && { level: patch.level }),
        ...(patch.status !== undefined && { status: patch.status }),
        ...(patch.parentId !== undefined && { parentId: patch.parentId }),
        ...(patch.ownerAgentId !== undefined && { ownerAgentId: patch.ownerAgentId }),
        updatedAt: sql`now()`,
      })
      .where(eq(goals.id, goal.id))
      .returning();
    if (!updated) throw notFound('goal'); // deleted since it was read
    await recordActivity(tx, ctx.actor, {
      companyId: goal.companyId,
      action: 'goal.updated',
      entityType: 'goal',
      entityId: goal.id,
      details: { changes: patch },
    });
    return updated;
  });
}

/** Deletes the goal; its children become top-level goals and linked projects re-derive goalId. */
export async function deleteGoal(ctx: Ctx, goal: Goal): Promise<Goal> {
  await assertMayChangeGoals(ctx, 'goal.delete', goal.companyId);
  return ctx.db.transaction(async (tx) => {
    const linkedProjects = await projectIdsLinkedToGoal(tx, goal.id);
    const [deleted] = await tx.delete(goals).where(eq(goals.id, goal.id)).returning();
    await resyncLegacyGoalIds(tx, linkedProjects);
    await recordActivity(tx, ctx.actor, {
      companyId: goal.companyId,
      action: 'goal.deleted',
      entityType: 'goal',
      entityId: goal.id,
      details: { title: goal.title },
    });
    return deleted ?? goal;
  });
}
