import { z } from 'zod';

export const goalLevel = z.enum(['company', 'team', 'agent', 'task']);
export const goalStatus = z.enum(['planned', 'active', 'achieved', 'cancelled']);

export const createGoalBody = z.object({
  title: z.string().trim().min(1).max(500),
  description: z.string().max(20_000).nullish(),
  level: goalLevel.optional(),
  status: goalStatus.optional(),
  parentId: z.uuid().nullish(),
  ownerAgentId: z.uuid().nullish(),
});

// Omitted fields stay unchanged; null clears the nullable ones.
export const patchGoalBody = createGoalBody.partial();

export const listLimitQuery = z.object({ limit: z.coerce.number().int().min(1).max(1000).default(1000) });

export type CreateGoal = z.infer<typeof createGoalBody>;
export type PatchGoal = z.infer<typeof patchGoalBody>;
