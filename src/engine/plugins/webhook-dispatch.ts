// Hands recorded plugin webhook deliveries (src/modules/plugins/webhooks.ts) to their company's
// worker, once across replicas: a delivery is claimed by flipping its status from `received` to
// `delivering` in the statement that locks it (`FOR UPDATE SKIP LOCKED`), so exactly one replica
// gets it; that replica invokes the worker and records `delivered` or `failed` (with the error).
// Never retried: a delivery is handed over once. One whose replica stopped before the worker
// answered stays `delivering` until the stranded sweep marks it failed, saying so.
//
// Woken by the `pluginWebhook` notification the receiving request raises on commit; a poll is the
// net for a missed one. At most `maxClaimed` deliveries are held by this replica at a time, and at
// most `perWorker` of them wait on one (plugin, company) worker (below the worker's own limit of
// calls in flight, which would refuse more as busy): the others of that worker wait their turn here,
// so a slow worker holds its own deliveries, not the others'.
import { and, asc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../db/client.ts';
import type { Notifications } from '../../db/notifications.ts';
import { pluginWebhookDeliveries } from '../../db/schema/index.ts';
import type { PluginWorkers } from '../../modules/plugins/worker/host.ts';

export interface WebhookDispatchOptions {
  /** The net under the notification: claimable deliveries are looked for this often. */
  pollMs: number;
  /** Deliveries claimed and not yet recorded, on this replica. */
  maxClaimed: number;
  /** Deliveries waiting on one worker at once. */
  perWorker: number;
  /** A `delivering` delivery older than this is taken for stranded (its replica stopped) and failed. */
  strandedMs: number;
  /** How often stranded deliveries are looked for. */
  strandedSweepMs: number;
}

export const WEBHOOK_DISPATCH_DEFAULTS: WebhookDispatchOptions = {
  pollMs: 1_000,
  maxClaimed: 32,
  perWorker: 4,
  strandedMs: 10 * 60_000,
  strandedSweepMs: 60_000,
};

export interface PluginDispatchDeps {
  db: Db;
  notifications: Notifications;
  workers: PluginWorkers;
  logger: Logger;
}

type Delivery = typeof pluginWebhookDeliveries.$inferSelect;

export interface Dispatch {
  stop(): Promise<void>;
}

/** Claims up to `limit` received deliveries, oldest first: the status flip and the lock are one statement. */
export async function claimDeliveries(db: Db, limit: number): Promise<Delivery[]> {
  const d = pluginWebhookDeliveries;
  const claimable = db
    .select({ id: d.id })
    .from(d)
    .where(eq(d.status, 'received'))
    .orderBy(asc(d.receivedAt))
    .limit(limit)
    .for('update', { skipLocked: true });
  return db
    .update(d)
    .set({ status: 'delivering', claimedAt: new Date(), attempts: sql`${d.attempts} + 1` })
    .where(and(inArray(d.id, claimable), eq(d.status, 'received')))
    .returning();
}

function parsedJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return null;
  }
}

export function startWebhookDispatch(
  deps: PluginDispatchDeps,
  options: Partial<WebhookDispatchOptions> = {},
): Dispatch {
  const { db, workers, logger, notifications } = deps;
  const opts = { ...WEBHOOK_DISPATCH_DEFAULTS, ...options };
  const inFlight = new Set<Promise<void>>();
  /** Claimed deliveries by worker: how many wait on it, and those waiting their turn. */
  const byWorker = new Map<string, { running: number; queue: Delivery[] }>();
  let claimed = 0;
  let stopped = false;
  let claiming: Promise<void> | null = null;
  let again = false;

  const handOver = async (delivery: Delivery) => {
    try {
      await workers.invoke(delivery.pluginId, delivery.companyId, {
        kind: 'webhook',
        key: delivery.webhookKey,
        input: {
          deliveryId: delivery.id,
          method: delivery.method,
          headers: delivery.headers,
          body: delivery.body,
          json: parsedJson(delivery.body),
        },
        cause: null,
        context: { deliveryId: delivery.id },
      });
      await db
        .update(pluginWebhookDeliveries)
        .set({ status: 'delivered', deliveredAt: new Date(), error: null })
        .where(eq(pluginWebhookDeliveries.id, delivery.id));
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      await db
        .update(pluginWebhookDeliveries)
        .set({ status: 'failed', error: message.slice(0, 2000) })
        .where(eq(pluginWebhookDeliveries.id, delivery.id));
    }
  };

  const pump = (key: string) => {
    const lane = byWorker.get(key);
    if (!lane) return;
    while (lane.running < opts.perWorker && lane.queue.length > 0) {
      const delivery = lane.queue.shift() as Delivery;
      lane.running++;
      const work: Promise<void> = handOver(delivery)
        .catch((err: unknown) => logger.warn({ err, deliveryId: delivery.id }, 'plugin webhooks: recording failed'))
        .finally(() => {
          inFlight.delete(work);
          lane.running--;
          claimed--;
          if (lane.running === 0 && lane.queue.length === 0) byWorker.delete(key);
          else pump(key);
          kick(); // room for the next claim
        });
      inFlight.add(work);
    }
  };

  const claimRound = async () => {
    do {
      again = false;
      const room = opts.maxClaimed - claimed;
      if (room <= 0 || stopped) return;
      const rows = await claimDeliveries(db, room);
      claimed += rows.length;
      for (const delivery of rows) {
        const key = `${delivery.pluginId}:${delivery.companyId}`;
        const lane = byWorker.get(key) ?? { running: 0, queue: [] };
        byWorker.set(key, lane);
        lane.queue.push(delivery);
        pump(key);
      }
      if (rows.length === room) again = true;
    } while (again && !stopped);
  };

  const kick = () => {
    if (stopped) return;
    if (claiming !== null) {
      again = true;
      return;
    }
    claiming = claimRound()
      .catch((err: unknown) => logger.warn({ err }, 'plugin webhooks: claiming deliveries failed'))
      .finally(() => {
        claiming = null;
      });
  };

  const sweepStranded = () =>
    db
      .update(pluginWebhookDeliveries)
      .set({ status: 'failed', error: 'the replica handing it over stopped before the worker answered' })
      .where(
        and(
          eq(pluginWebhookDeliveries.status, 'delivering'),
          lt(pluginWebhookDeliveries.claimedAt, new Date(Date.now() - opts.strandedMs)),
        ),
      );

  const offNotify = notifications.on('pluginWebhook', kick);
  const offReconnect = notifications.onReconnect(kick);
  let sweeping: Promise<unknown> | null = null;
  const poll = setInterval(kick, opts.pollMs);
  const sweep = setInterval(() => {
    sweeping ??= sweepStranded()
      .catch((err: unknown) => logger.warn({ err }, 'plugin webhooks: stranded sweep failed'))
      .finally(() => (sweeping = null));
  }, opts.strandedSweepMs);
  kick();

  return {
    async stop() {
      stopped = true;
      clearInterval(poll);
      clearInterval(sweep);
      offNotify();
      offReconnect();
      await claiming;
      await sweeping;
      // Claimed deliveries still waiting their turn are handed over too: they are this replica's.
      while (inFlight.size > 0) await Promise.all(inFlight);
    },
  };
}
