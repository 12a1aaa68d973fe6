// The wakeup queue: producers insert inside their own transaction; the engine's dispatcher claims
// rows with FOR UPDATE SKIP LOCKED (./dispatch.ts).
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { agentWakeupRequests } from '../../db/schema/index.ts';
import type { WakeupRequest } from '../../db/rows.ts';
import { actorStamp, type Actor } from '../../core/actor.ts';

export type WakeupSource = 'timer' | 'assignment' | 'on_demand' | 'automation';
export type WakeupTriggerDetail = 'manual' | 'ping' | 'callback' | 'system';

export interface WakeupInput {
  companyId: string;
  agentId: string;
  source: WakeupSource;
  triggerDetail?: WakeupTriggerDetail | null;
  reason?: string | null;
  payload?: Record<string, unknown> | null;
  issueId?: string | null;
  idempotencyKey?: string | null;
  forceFreshSession?: boolean;
}


/**
 * Queues a wakeup. A repeated idempotencyKey for the same agent returns the first request instead
 * of queueing a second one (`created: false`): the one place idempotency is decided, by the unique
 * (agent, idempotencyKey) index, so concurrent repeats cannot both queue.
 */
export async function enqueueWakeup(tx: DbOrTx, actor: Actor, input: WakeupInput): Promise<{ request: WakeupRequest; created: boolean }> {
  const stamp = actorStamp(actor);
  const values = {
    companyId: input.companyId,
    agentId: input.agentId,
    source: input.source,
    triggerDetail: input.triggerDetail ?? null,
    reason: input.reason ?? null,
    payload: input.payload ?? null,
    issueId: input.issueId ?? null,
    idempotencyKey: input.idempotencyKey ?? null,
    forceFreshSession: input.forceFreshSession ?? false,
    requestedByActorType: stamp.actorType,
    requestedByActorId: stamp.actorId,
  };
  const [inserted] = await tx.insert(agentWakeupRequests).values(values).onConflictDoNothing().returning();
  if (inserted) return { request: inserted, created: true };
  const [existing] = await tx
    .select()
    .from(agentWakeupRequests)
    .where(sql`${agentWakeupRequests.agentId} = ${input.agentId} and ${agentWakeupRequests.idempotencyKey} = ${input.idempotencyKey ?? null}`);
  return { request: existing!, created: false };
}
