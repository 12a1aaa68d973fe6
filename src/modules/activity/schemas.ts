import { z } from 'zod';
import { FREEFORM_CONFIG_BYTES, freeformObject } from '../../core/json.ts';

// SPEC: "no pagination". The feed is still bounded: the newest DEFAULT entries unless `limit` asks for up to MAX.
export const ACTIVITY_DEFAULT_LIMIT = 500;
export const ACTIVITY_MAX_LIMIT = 1000;

export const listActivityQuery = z.object({
  agentId: z.uuid().optional().describe('only entries involving this agent'),
  entityType: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe('only entries about this kind of record (exact match), e.g. `issue`'),
  entityId: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('only entries about this record (exact match); combine with entityType'),
  action: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('only entries of this action (exact match), e.g. `issue.updated`'),
  actorType: z.enum(['agent', 'user', 'system', 'plugin']).optional().describe('only entries by this kind of actor'),
  actorId: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('only entries by this actor (exact match): an agent id, a board user id, or a system component name'),
  runId: z
    .uuid()
    .optional()
    .describe(
      "a run's own timeline: the entries recorded during this heartbeat run (by its agent or by the engine for it) and the entries about the run itself (its start and end, whoever ended it)",
    ),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(ACTIVITY_MAX_LIMIT)
    .default(ACTIVITY_DEFAULT_LIMIT)
    .describe(
      `newest entries returned (default ${ACTIVITY_DEFAULT_LIMIT}, at most ${ACTIVITY_MAX_LIMIT}); the feed has no pagination`,
    ),
});

export const createActivityBody = z.object({
  actorType: z
    .enum(['agent', 'user', 'system'])
    .default('system')
    .describe('who acted: agent, user or system (default system)'),
  actorId: z.string().trim().min(1).max(200).describe('agent id, board user id, or a name for a system component'),
  action: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .describe('event name, `<entity>.<verb>` by convention, e.g. `company.report_generated`'),
  entityType: z.string().trim().min(1).max(100).describe('kind of record the entry is about, e.g. `company`, `issue`'),
  entityId: z.string().trim().min(1).max(200).describe('id of that record'),
  agentId: z.uuid().nullish().describe('an agent of this company the entry involves (422 otherwise)'),
  details: freeformObject({ maxBytes: FREEFORM_CONFIG_BYTES })
    .nullish()
    .describe('free-form JSON object (at most 64 KiB, 32 levels); redacted before storage'),
});

export type ListActivityQuery = z.infer<typeof listActivityQuery>;
export type CreateActivity = z.infer<typeof createActivityBody>;
