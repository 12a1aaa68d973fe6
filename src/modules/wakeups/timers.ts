// Timer wakes (runtimeConfig.heartbeat): each heartbeat-enabled agent is woken once per interval.
//
// Exactly once across replicas: the interval is cut into epoch-aligned slots and the wake for a
// slot carries the idempotency key `timer:<slot>`; the unique (agent, idempotencyKey) index lets
// only the first replica's insert through. A replica only tries when it has not yet seen the
// slot, so the steady cost is one indexed scan of enabled agents per tick. An agent with a live
// run gets no timer wake at all (and the dispatcher skips one that slips through): no pile-up.
import { and, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { agents, heartbeatRuns } from '../../db/schema/index.ts';
import { systemActor } from '../../core/actor.ts';
import { LIVE_RUN_STATUSES } from '../../core/statuses.ts';
import { heartbeatPolicy } from './guards.ts';
import { enqueueWakeup } from './queue.ts';

export interface TimerState {
  /** agentId -> the last slot this replica handled. */
  seen: Map<string, number>;
}

export const newTimerState = (): TimerState => ({ seen: new Map() });

/** One tick: queues the timer wakes that are due. Returns how many it queued (0 when another replica was first). */
export async function queueDueTimerWakes(db: Db, state: TimerState, nowMs = Date.now()): Promise<number> {
  const enabled = await db
    .select({ id: agents.id, companyId: agents.companyId, runtimeConfig: agents.runtimeConfig })
    .from(agents)
    .where(
      sql`(${agents.runtimeConfig} -> 'heartbeat' ->> 'enabled') = 'true' and ${agents.status} not in ('paused', 'terminated', 'pending_approval')`,
    );
  const due = enabled
    .map((agent) => ({ agent, slot: Math.floor(nowMs / 1000 / heartbeatPolicy(agent.runtimeConfig).intervalSec) }))
    .filter(({ agent, slot }) => state.seen.get(agent.id) !== slot);
  const liveIds = new Set(
    due.length === 0
      ? []
      : (
          await db
            .selectDistinct({ agentId: heartbeatRuns.agentId })
            .from(heartbeatRuns)
            .where(
              and(
                inArray(
                  heartbeatRuns.agentId,
                  due.map((d) => d.agent.id),
                ),
                inArray(heartbeatRuns.status, [...LIVE_RUN_STATUSES]),
              ),
            )
        ).map((r) => r.agentId),
  );
  let queued = 0;
  for (const { agent, slot } of due) {
    state.seen.set(agent.id, slot);
    if (liveIds.has(agent.id)) continue;
    const { created } = await enqueueWakeup(db, systemActor('timer'), {
      companyId: agent.companyId,
      agentId: agent.id,
      source: 'timer',
      triggerDetail: 'system',
      reason: 'heartbeat',
      idempotencyKey: `timer:${slot}`,
    });
    if (created) queued++;
  }
  // Agents no longer enabled drop out of the map, so it stays as large as the enabled set.
  const enabledIds = new Set(enabled.map((a) => a.id));
  for (const id of state.seen.keys()) if (!enabledIds.has(id)) state.seen.delete(id);
  return queued;
}
