// Plugin events (issue 27 section 4): each (plugin, company) that subscribes (`events.subscribe`, the
// manifest's `events[]`) reads the company's activity log from its own cursor (plugin_event_cursors,
// set when the company turned it on: src/modules/plugins/event-cursors.ts), in the stream's order
// (src/modules/events/read.ts: no entry ever skipped), and hands each entry whose action matches a
// pattern (`issue.created`, `approval.*`) to the worker, as GET /api/companies/{id}/activity presents
// it, with `activityId` in the context as the idempotency key. The cursor moves past an entry only
// once the worker has answered for it, so a crash or a restart (of the worker or of the replica)
// loses nothing: delivery is at least once.
//
// Off the request path: the activity writer's notification (`activity`, any replica) only wakes the
// company's pairs here; the writing request never waits on a worker. One replica delivers a given
// (plugin, company) at a time: it holds the cursor row's lease (owner and expiry) while it
// delivers, renewing it with each step, and another replica takes over a lapsed lease.
//
// A worker that is unavailable (starting, restarting after a crash, busy) or times out is tried
// again after `retryMs`, from the same entry. A handler that throws (WORKER_ERROR) is tried
// `maxAttempts` times, then the entry is passed over with a warning, so one entry a plugin cannot
// handle does not stop its stream.
import { randomUUID } from 'node:crypto';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { pluginCompanyEnablements, pluginEventCursors, plugins } from '../../db/schema/index.ts';
import { presentActivity } from '../../modules/activity/present.ts';
import { readAfter, type Cursor } from '../../modules/events/read.ts';
import { startEventCursor } from '../../modules/plugins/event-cursors.ts';
import type { PluginManifest } from '../../modules/plugins/manifest.ts';
import { BridgeError } from '../../modules/plugins/worker/errors.ts';
import type { Dispatch, PluginDispatchDeps } from './webhook-dispatch.ts';

export interface EventDispatchOptions {
  /** The net under the notifications: every subscribed pair is looked at this often. */
  pollMs: number;
  /** A lease on a pair's cursor; renewed at each entry, taken over by another replica once lapsed. */
  leaseMs: number;
  /** Entries read at a time. */
  batch: number;
  /** Wait before trying an unavailable or timed-out worker again. */
  retryMs: number;
  /** Tries of one entry whose handler throws before it is passed over. */
  maxAttempts: number;
  /** Wait before reading again when newer entries wait on an older transaction. */
  pendingMs: number;
}

export const EVENT_DISPATCH_DEFAULTS: EventDispatchOptions = {
  pollMs: 2_000,
  leaseMs: 60_000,
  batch: 100,
  retryMs: 1_000,
  maxAttempts: 3,
  pendingMs: 100,
};

interface Pair {
  pluginId: string;
  companyId: string;
  patterns: string[];
}

/** `issue.created` matches itself; `approval.*` every action under `approval.`. */
export function matchesEvent(patterns: readonly string[], action: string): boolean {
  return patterns.some((p) => (p.endsWith('.*') ? action.startsWith(p.slice(0, -1)) : p === action));
}

/** The (plugin, company) pairs that receive events now, for one company or all. */
async function subscribedPairs(db: Db, companyId: string | null): Promise<Pair[]> {
  const rows = await db
    .select({ pluginId: plugins.id, companyId: pluginCompanyEnablements.companyId, manifest: plugins.manifest })
    .from(pluginCompanyEnablements)
    .innerJoin(plugins, eq(plugins.id, pluginCompanyEnablements.pluginId))
    .where(
      and(
        eq(plugins.status, 'ready'),
        eq(pluginCompanyEnablements.status, 'enabled'),
        sql`${pluginCompanyEnablements.capabilities} ? 'events.subscribe'`,
        companyId ? eq(pluginCompanyEnablements.companyId, companyId) : undefined,
      ),
    );
  return rows
    .map((r) => ({
      pluginId: r.pluginId,
      companyId: r.companyId,
      patterns: (r.manifest as PluginManifest).events ?? [],
    }))
    .filter((p) => p.patterns.length > 0);
}

export function startEventDispatch(deps: PluginDispatchDeps, options: Partial<EventDispatchOptions> = {}): Dispatch {
  const { db, workers, logger, notifications } = deps;
  const opts = { ...EVENT_DISPATCH_DEFAULTS, ...options };
  const owner = randomUUID();
  const c = pluginEventCursors;
  /** The pairs draining now on this replica, by key, and whether a wake came meanwhile. */
  const draining = new Map<string, { promise: Promise<void>; again: boolean }>();
  const timers = new Set<NodeJS.Timeout>();
  const attempts = new Map<string, number>();
  let stopped = false;
  let looking: Promise<void> | null = null;

  const pairWhere = (pair: Pair) => and(eq(c.pluginId, pair.pluginId), eq(c.companyId, pair.companyId));
  const leaseUntil = () => new Date(Date.now() + opts.leaseMs);

  /** The cursor, if this replica holds (or now takes) the pair's lease. */
  const takeLease = async (pair: Pair, create = true): Promise<Cursor | null> => {
    const [row] = await db
      .update(c)
      .set({ leaseOwner: owner, leaseUntil: leaseUntil() })
      .where(and(pairWhere(pair), or(isNull(c.leaseOwner), eq(c.leaseOwner, owner), lt(c.leaseUntil, new Date()))))
      .returning({ txId: c.txId, id: c.entryId });
    if (row || !create) return row ?? null;
    // Subscribed without a cursor (the plugin began declaring events in an upgrade): from now on.
    await startEventCursor(db, pair.pluginId, pair.companyId);
    return takeLease(pair, false);
  };

  /** Moves the cursor (and renews the lease) while the lease is still this replica's; false once lost. */
  const advance = async (pair: Pair, cursor: Cursor): Promise<boolean> => {
    const rows = await db
      .update(c)
      .set({ txId: cursor.txId, entryId: cursor.id, leaseUntil: leaseUntil(), updatedAt: new Date() })
      .where(and(pairWhere(pair), eq(c.leaseOwner, owner)))
      .returning({ txId: c.txId });
    return rows.length > 0;
  };

  const release = (pair: Pair) =>
    db
      .update(c)
      .set({ leaseOwner: null, leaseUntil: null })
      .where(and(pairWhere(pair), eq(c.leaseOwner, owner)));

  const later = (pair: Pair, ms: number) => {
    if (stopped) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      wakePair(pair);
    }, ms);
    timers.add(timer);
  };

  /** Delivers what lies after the pair's cursor; returns when caught up, waiting, or the lease is lost. */
  const drain = async (pair: Pair) => {
    const start = await takeLease(pair);
    if (!start) return; // another replica delivers it (or the plugin was turned off)
    let cursor = start;
    try {
      for (;;) {
        if (stopped) return;
        const batch = await readAfter(db, pair.companyId, cursor, opts.batch);
        let moved = cursor;
        for (const { entry, hidden } of batch.entries) {
          if (stopped) return;
          const next = { txId: entry.txId, id: entry.id };
          if (hidden || !matchesEvent(pair.patterns, entry.action)) {
            moved = next;
            continue;
          }
          // The entries passed over so far are recorded before the worker is waited on.
          if (moved !== cursor) {
            if (!(await advance(pair, moved))) return;
            cursor = moved;
          }
          const delivered = await deliver(pair, entry.id, entry.action, presentActivity(entry));
          if (delivered === 'retry') return later(pair, opts.retryMs);
          if (!(await advance(pair, next))) return;
          cursor = moved = next;
        }
        if (moved !== cursor) {
          if (!(await advance(pair, moved))) return;
          cursor = moved;
        }
        if (batch.pending) return later(pair, opts.pendingMs);
        if (!batch.full) return;
      }
    } finally {
      await release(pair);
    }
  };

  /** One entry to the worker: `done` when it answered (or the entry is given up), `retry` to try again later. */
  const deliver = async (pair: Pair, activityId: string, action: string, input: unknown): Promise<'done' | 'retry'> => {
    const key = `${pair.pluginId}:${pair.companyId}:${activityId}`;
    try {
      await workers.invoke(pair.pluginId, pair.companyId, {
        kind: 'event',
        key: action,
        input,
        cause: null,
        context: { activityId },
      });
      attempts.delete(key);
      return 'done';
    } catch (err) {
      if (!(err instanceof BridgeError) || err.code !== 'WORKER_ERROR') return 'retry';
      const tries = (attempts.get(key) ?? 0) + 1;
      if (tries < opts.maxAttempts) {
        attempts.set(key, tries);
        return 'retry';
      }
      attempts.delete(key);
      logger.warn(
        { err, pluginId: pair.pluginId, companyId: pair.companyId, activityId },
        'plugin events: the handler failed on this entry repeatedly; passed over',
      );
      return 'done';
    }
  };

  const wakePair = (pair: Pair) => {
    if (stopped) return;
    const key = `${pair.pluginId}:${pair.companyId}`;
    const running = draining.get(key);
    if (running) {
      running.again = true;
      return;
    }
    const state = { promise: Promise.resolve(), again: false };
    state.promise = (async () => {
      do {
        state.again = false;
        await drain(pair).catch((err: unknown) =>
          logger.warn({ err, pluginId: pair.pluginId, companyId: pair.companyId }, 'plugin events: delivery failed'),
        );
      } while (state.again && !stopped);
      draining.delete(key);
    })();
    draining.set(key, state);
  };

  const wakeCompany = (companyId: string | null) => {
    if (stopped) return;
    const look = subscribedPairs(db, companyId)
      .then((pairs) => {
        for (const pair of pairs) wakePair(pair);
      })
      .catch((err: unknown) => logger.warn({ err }, 'plugin events: listing subscriptions failed'));
    if (companyId === null) looking = look.finally(() => (looking = null));
  };

  const offActivity = notifications.on('activity', ({ companyId }) => wakeCompany(companyId));
  const offReconnect = notifications.onReconnect(() => wakeCompany(null));
  const poll = setInterval(() => {
    if (!looking) wakeCompany(null);
  }, opts.pollMs);
  wakeCompany(null);

  return {
    async stop() {
      stopped = true;
      clearInterval(poll);
      for (const timer of timers) clearTimeout(timer);
      offActivity();
      offReconnect();
      await looking;
      await Promise.all([...draining.values()].map((d) => d.promise));
    },
  };
}
