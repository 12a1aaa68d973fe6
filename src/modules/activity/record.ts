// Writes one activity entry. Called by services inside the transaction of the mutation it records.
import type { DbOrTx } from '../../db/client.ts';
import { activityLog } from '../../db/schema/index.ts';
import { type ActivityEntry, oneRow } from '../../db/rows.ts';
import { redact } from '../../lib/redact.ts';
import { actorStamp, type Actor } from '../../core/actor.ts';

export interface ActivityInput {
  companyId: string;
  action: string;
  entityType: string;
  entityId: string;
  details?: Record<string, unknown> | null;
  /** The agent the entry involves when the actor is someone else (the engine ending an agent's run); default the acting agent. */
  agentId?: string;
}

export async function recordActivity(tx: DbOrTx, actor: Actor, entry: ActivityInput): Promise<void> {
  const { agentId, ...rest } = entry;
  const stamp = actorStamp(actor);
  await appendActivity(tx, { ...stamp, ...rest, agentId: agentId ?? stamp.agentId });
}

/** The one insert into activity_log: details are always redacted before they are stored. */
export async function appendActivity(
  tx: DbOrTx,
  entry: Omit<ActivityInput, 'agentId'> & {
    actorType: string;
    actorId: string;
    agentId: string | null;
    runId: string | null;
  },
): Promise<ActivityEntry> {
  const rows = await tx
    .insert(activityLog)
    .values({
      companyId: entry.companyId,
      actorType: entry.actorType,
      actorId: entry.actorId,
      agentId: entry.agentId,
      runId: entry.runId,
      action: entry.action,
      entityType: entry.entityType,
      entityId: entry.entityId,
      details: entry.details ? (redact(entry.details) as Record<string, unknown>) : null,
    })
    .returning();
  return oneRow(rows, 'activity entry');
}
