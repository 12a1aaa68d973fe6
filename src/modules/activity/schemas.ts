import { z } from 'zod';
import { FREEFORM_CONFIG_BYTES, freeformObject } from '../../core/json.ts';

// SPEC: "no pagination". The feed is still bounded: the newest DEFAULT entries unless `limit` asks for up to MAX.
export const ACTIVITY_DEFAULT_LIMIT = 500;
export const ACTIVITY_MAX_LIMIT = 1000;

export const listActivityQuery = z.object({
  agentId: z.uuid().optional(),
  entityType: z.string().min(1).max(100).optional(),
  entityId: z.string().min(1).max(200).optional(),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(ACTIVITY_MAX_LIMIT)
    .default(ACTIVITY_DEFAULT_LIMIT)
    .describe(`newest entries returned (default ${ACTIVITY_DEFAULT_LIMIT}, at most ${ACTIVITY_MAX_LIMIT}); the feed has no pagination`),
});

export const createActivityBody = z.object({
  actorType: z.enum(['agent', 'user', 'system']).default('system'),
  actorId: z.string().trim().min(1).max(200),
  action: z.string().trim().min(1).max(200),
  entityType: z.string().trim().min(1).max(100),
  entityId: z.string().trim().min(1).max(200),
  agentId: z.uuid().nullish(),
  details: freeformObject({ maxBytes: FREEFORM_CONFIG_BYTES }).nullish(),
});

export type ListActivityQuery = z.infer<typeof listActivityQuery>;
export type CreateActivity = z.infer<typeof createActivityBody>;
