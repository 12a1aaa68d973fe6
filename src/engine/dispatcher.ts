// The dispatcher loop: turns queued wakeups into runs. Woken by a `wakeup` notification (the
// fast path), by a reconnect of the LISTEN connection, and by a slow poll (the fallback that also
// picks up wakes whose backoff ran out). One drain at a time per replica; replicas share the queue
// through SKIP LOCKED claims.
import type { Logger } from 'pino';
import type { Db } from '../db/client.ts';
import { dispatchWake, type RunOwner, type RunSteps } from '../modules/wakeups/decide.ts';
import { cancelRun } from '../modules/runs/lifecycle.ts';
import { recordRunIssue } from '../modules/runs/service.ts';
import { claimWakeups, releaseFailedClaim } from '../modules/wakeups/queue.ts';
import type { WakeupRequest } from '../db/rows.ts';
import { engineRetry, type Executor } from './executor.ts';
import type { Notifications } from '../db/notifications.ts';

const DECISION_LANES = 4;

export interface DispatcherOptions {
  pollMs: number;
  claimBatch: number;
}

export interface Dispatcher {
  /** Drain now (also what a notification does). */
  poke(): void;
  stop(): Promise<void>;
}

// What a wake decision needs of the runs area: the engine hands it over (wakeups never import runs).
const RUN_STEPS: RunSteps = { cancelRun, recordRunIssue };

export interface DispatcherDeps {
  db: Db;
  notifications: Notifications;
  executor: Executor;
  /** The replica and lease the runs it starts are held under. */
  owner: RunOwner;
  options: DispatcherOptions;
  logger: Logger;
}

export function startDispatcher({ db, notifications, executor, owner, options, logger }: DispatcherDeps): Dispatcher {
  let draining: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const retry = engineRetry(logger);

  const dispatchOne = async (wake: WakeupRequest) => {
    try {
      const decision = await dispatchWake(db, wake, owner, RUN_STEPS, retry);
      if (decision.outcome === 'completed') executor.execute(decision.run);
    } catch (err) {
      logger.warn({ err, wakeupId: wake.id }, 'engine: wakeup dispatch failed; retrying with backoff');
      await releaseFailedClaim(db, wake, (err as Error).message).catch(() => undefined);
    }
  };

  // Decisions about one agent take its row lock, so they go one after another; different agents'
  // decisions go side by side (a few at a time, leaving pool connections for the API).
  const drainOnce = async () => {
    for (;;) {
      const claimed = await claimWakeups(db, owner.replica, options.claimBatch);
      const byAgent = new Map<string, WakeupRequest[]>();
      for (const wake of claimed) byAgent.set(wake.agentId, [...(byAgent.get(wake.agentId) ?? []), wake]);
      const queues = [...byAgent.values()];
      const lane = async () => {
        for (let next = queues.shift(); next; next = queues.shift()) for (const wake of next) await dispatchOne(wake);
      };
      await Promise.all(Array.from({ length: Math.min(DECISION_LANES, queues.length) }, lane));
      if (claimed.length < options.claimBatch || stopped) return;
    }
  };

  const poke = () => {
    if (stopped) return;
    if (draining !== null) {
      again = true;
      return;
    }
    draining = drainOnce()
      .catch((err) => logger.warn({ err }, 'engine: claiming wakeups failed'))
      .finally(() => {
        draining = null;
        if (again) {
          again = false;
          poke();
        }
      });
  };

  const unsubscribe = [notifications.on('wakeup', poke), notifications.onReconnect(poke)];
  const poll = setInterval(poke, options.pollMs);
  poke();

  return {
    poke,
    async stop() {
      stopped = true;
      clearInterval(poll);
      for (const off of unsubscribe) off();
      await draining;
    },
  };
}
