import { z } from 'zod';
import { timestampOut, uuidOut } from '../../http/openapi.ts';
import type { ActivityEntry } from '../../db/rows.ts';

/** An activity entry (SPEC section 2, Activity entry). The presenter is typed by it. */
export const activityResponse = z
  .object({
    id: uuidOut(),
    companyId: uuidOut(),
    actorType: z
      .enum(['agent', 'user', 'system', 'plugin'])
      .describe('who acted: an agent, a board user, the server itself, or a plugin (actorId its plugin id)'),
    actorId: z.string().describe('agent id, board user id, or the name of a system component'),
    action: z.string().describe('event name, e.g. `issue.updated`, `company.created`, `secret.rotated`'),
    entityType: z.string().describe('kind of record acted on, e.g. `issue`, `company`, `secret`'),
    entityId: z.string(),
    agentId: uuidOut().nullable().describe('the agent involved, when there is one'),
    runId: z.string().nullable().describe('the heartbeat run the actor acted in, when known'),
    details: z
      .record(z.string(), z.unknown())
      .nullable()
      .describe('event details, redacted before storage (never secret values)'),
    createdAt: timestampOut(),
  })
  .describe('An activity entry');

export type ActivityResponse = z.output<typeof activityResponse>;

export function presentActivity(e: ActivityEntry): ActivityResponse {
  return {
    id: e.id,
    companyId: e.companyId,
    actorType: e.actorType as ActivityResponse['actorType'],
    actorId: e.actorId,
    action: e.action,
    entityType: e.entityType,
    entityId: e.entityId,
    agentId: e.agentId,
    runId: e.runId,
    details: e.details as ActivityResponse['details'],
    createdAt: e.createdAt,
  };
}
