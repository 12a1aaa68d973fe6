import type { goals } from '../../db/schema/index.ts';

export type Goal = typeof goals.$inferSelect;

export function presentGoal(goal: Goal) {
  return {
    id: goal.id,
    companyId: goal.companyId,
    title: goal.title,
    description: goal.description,
    level: goal.level,
    status: goal.status,
    parentId: goal.parentId,
    ownerAgentId: goal.ownerAgentId,
    createdAt: goal.createdAt,
    updatedAt: goal.updatedAt,
  };
}

/** The compact form other resources embed (project goals, issue detail). */
export function presentGoalSummary(goal: Pick<Goal, 'id' | 'title' | 'level' | 'status'>) {
  return { id: goal.id, title: goal.title, level: goal.level, status: goal.status };
}
