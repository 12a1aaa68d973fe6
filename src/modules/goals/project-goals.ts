// A project's goals: project_goals rows ordered by position. The legacy projects.goal_id column
// always equals the first linked goal (SPEC: goalId kept in sync with the first linked goal).
import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { goals, projectGoals, projects } from '../../db/schema/index.ts';

export type GoalSummaryRow = { projectId: string; id: string; title: string; level: string; status: string };

/** Replaces the project's linked goals (order kept) and its legacy goalId. */
export async function replaceProjectGoals(
  tx: DbOrTx,
  companyId: string,
  projectId: string,
  goalIds: string[],
): Promise<void> {
  await tx.delete(projectGoals).where(eq(projectGoals.projectId, projectId));
  if (goalIds.length > 0) {
    await tx
      .insert(projectGoals)
      .values(goalIds.map((goalId, position) => ({ companyId, projectId, goalId, position })));
  }
  await tx
    .update(projects)
    .set({ goalId: goalIds[0] ?? null })
    .where(eq(projects.id, projectId));
}

/** Re-derives goalId for projects whose first goal may have gone (a goal was deleted). */
export async function resyncLegacyGoalIds(tx: DbOrTx, projectIds: string[]): Promise<void> {
  if (projectIds.length === 0) return;
  await tx
    .update(projects)
    .set({
      goalId: sql`(select ${projectGoals.goalId} from ${projectGoals} where ${projectGoals.projectId} = ${projects.id} order by ${projectGoals.position} limit 1)`,
      updatedAt: sql`now()`,
    })
    .where(inArray(projects.id, projectIds));
}

export async function projectIdsLinkedToGoal(tx: DbOrTx, goalId: string): Promise<string[]> {
  const rows = await tx
    .select({ projectId: projectGoals.projectId })
    .from(projectGoals)
    .where(eq(projectGoals.goalId, goalId));
  return rows.map((r) => r.projectId);
}

/** Goal summaries of many projects in one query, in link order. */
export async function goalSummariesOf(db: DbOrTx, projectIds: string[]): Promise<GoalSummaryRow[]> {
  if (projectIds.length === 0) return [];
  return db
    .select({
      projectId: projectGoals.projectId,
      id: goals.id,
      title: goals.title,
      level: goals.level,
      status: goals.status,
    })
    .from(projectGoals)
    .innerJoin(goals, eq(goals.id, projectGoals.goalId))
    .where(inArray(projectGoals.projectId, projectIds))
    .orderBy(asc(projectGoals.projectId), asc(projectGoals.position));
}
