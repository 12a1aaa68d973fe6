// Writes one activity entry. Called by services inside the transaction of the mutation it records.
import type { DbOrTx } from '../../db/client.ts';
import { activityLog } from '../../db/schema/index.ts';
import { redact } from '../../lib/redact.ts';
import { actorStamp, type Actor } from '../../server/actor.ts';

export interface ActivityInput {
  companyId: string;
  action: string;
  entityType: string;
  entityId: string;
  details?: Record<string, unknown> | null;
}

export async function recordActivity(tx: DbOrTx, actor: Actor | null, entry: ActivityInput): Promise<void> {
  const stamp = actorStamp(actor);
  await tx.insert(activityLog).values({
    companyId: entry.companyId,
    actorType: stamp.actorType,
    actorId: stamp.actorId,
    agentId: stamp.agentId,
    runId: stamp.runId,
    action: entry.action,
    entityType: entry.entityType,
    entityId: entry.entityId,
    details: entry.details ? (redact(entry.details) as Record<string, unknown>) : null,
  });
}
