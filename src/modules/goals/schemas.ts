import { z } from 'zod';

export const goalLevel = z.enum(['company', 'team', 'agent', 'task']);
export const goalStatus = z.enum(['planned', 'active', 'achieved', 'cancelled']);

export const createGoalBody = z.object({
  title: z.string().trim().min(1).max(500).describe('what the goal is'),
  description: z.string().max(20_000).nullish().describe('longer text (null clears it)'),
  level: goalLevel.optional().describe('company, team, agent or task (default task)'),
  status: goalStatus.optional().describe('planned, active, achieved or cancelled (default planned)'),
  parentId: z
    .uuid()
    .nullish()
    .describe('parent goal of the same company (null makes it top-level); a goal can not be its own ancestor'),
  ownerAgentId: z.uuid().nullish().describe('owning agent of the same company (null clears it)'),
});

// Omitted fields stay unchanged; null clears the nullable ones.
export const patchGoalBody = createGoalBody.partial();

export const listLimitQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(1000)
    .describe('items returned, oldest first (default and maximum 1000)'),
});

export type CreateGoal = z.infer<typeof createGoalBody>;
export type PatchGoal = z.infer<typeof patchGoalBody>;
