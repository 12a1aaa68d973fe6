import type { ActivityEntry } from './record.ts';

export function presentActivity(e: ActivityEntry) {
  return {
    id: e.id,
    companyId: e.companyId,
    actorType: e.actorType,
    actorId: e.actorId,
    action: e.action,
    entityType: e.entityType,
    entityId: e.entityId,
    agentId: e.agentId,
    runId: e.runId,
    details: e.details,
    createdAt: e.createdAt,
  };
}
