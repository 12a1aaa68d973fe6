import { z } from 'zod';
import type { Goal } from '../../db/rows.ts';
import { timestampOut, uuidOut } from '../../http/openapi.ts';
import { goalLevel, goalStatus } from './schemas.ts';

/** A goal (SPEC section 2, Goal). The presenter is typed by it. */
export const goalResponse = z
  .object({
    id: uuidOut(),
    companyId: uuidOut(),
    title: z.string(),
    description: z.string().nullable(),
    level: goalLevel.describe('company, team, agent or task'),
    status: goalStatus.describe('planned, active, achieved or cancelled'),
    parentId: uuidOut().nullable().describe('the parent goal; null for a top-level goal'),
    ownerAgentId: uuidOut().nullable().describe('the agent that owns the goal'),
    createdAt: timestampOut(),
    updatedAt: timestampOut(),
  })
  .describe('The goal');

export type GoalResponse = z.output<typeof goalResponse>;

export function presentGoal(goal: Goal): GoalResponse {
  return {
    id: goal.id,
    companyId: goal.companyId,
    title: goal.title,
    description: goal.description,
    level: goal.level as GoalResponse['level'],
    status: goal.status as GoalResponse['status'],
    parentId: goal.parentId,
    ownerAgentId: goal.ownerAgentId,
    createdAt: goal.createdAt,
    updatedAt: goal.updatedAt,
  };
}

/** The compact form other resources embed (project goals, issue detail). */
export const goalSummaryResponse = goalResponse
  .pick({ id: true, title: true, level: true, status: true })
  .describe('A goal in brief');

export type GoalSummaryResponse = z.output<typeof goalSummaryResponse>;

export function presentGoalSummary(goal: Pick<Goal, 'id' | 'title' | 'level' | 'status'>): GoalSummaryResponse {
  return {
    id: goal.id,
    title: goal.title,
    level: goal.level as GoalSummaryResponse['level'],
    status: goal.status as GoalSummaryResponse['status'],
  };
}
