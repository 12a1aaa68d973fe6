// One LISTEN connection per replica, shared by every loop and stream that wants to hear the
// database's NOTIFYs (src/db/sql/engine-notify.sql). Notifications are a latency shortcut, never
// the only path: a dropped connection is reopened with backoff, and subscribers are told
// (`onReconnect`) so they catch up on anything sent while nobody listened.
import pg from 'pg';
import type { Logger } from 'pino';

// boardroom_wakeup: a wake became claimable; boardroom_run: a run changed status (both raised by
// triggers, src/db/sql/engine-notify.sql); boardroom_run_log: a run's owner stored new log text
// ({ runId, companyId, offset }); boardroom_activity: an activity entry was written;
// boardroom_budget_stop: a hard budget incident awaits its stop (payload: the company id; trigger in
// engine-notify.sql, consumed by engine/budget-stops.ts).
export const CHANNELS = ['boardroom_wakeup', 'boardroom_run', 'boardroom_run_log', 'boardroom_activity', 'boardroom_budget_stop'] as const;
export type Channel = (typeof CHANNELS)[number];

type Handler = (payload: string) => void;

export interface Notifications {
  on(channel: Channel, handler: Handler): () => void;
  onReconnect(handler: () => void): () => void;
  /** Resolves once the first LISTEN is in place (or failed: the loops poll regardless). */
  ready: Promise<void>;
  close(): Promise<void>;
}

const MAX_BACKOFF_MS = 5_000;

export function listenForNotifications(url: string, logger: Logger): Notifications {
  const handlers = new Map<Channel, Set<Handler>>(CHANNELS.map((c) => [c, new Set()]));
  const reconnectHandlers = new Set<() => void>();
  let client: pg.Client | null = null;
  let closed = false;
  let backoffMs = 100;
  let retryTimer: NodeJS.Timeout | undefined;
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const connect = async (isReconnect: boolean) => {
    const next = new pg.Client({ connectionString: url });
    next.on('notification', (msg) => {
      for (const handler of handlers.get(msg.channel as Channel) ?? []) handler(msg.payload ?? '');
    });
    next.on('error', () => scheduleReconnect(next));
    next.on('end', () => scheduleReconnect(next));
    try {
      await next.connect();
      for (const channel of CHANNELS) await next.query(`LISTEN ${channel}`);
      if (closed) {
        await next.end().catch(() => undefined);
        return;
      }
      client = next;
      backoffMs = 100;
      if (isReconnect) for (const handler of reconnectHandlers) handler();
    } catch (err) {
      logger.warn({ err }, 'engine: LISTEN connection failed; retrying');
      scheduleReconnect(next);
    } finally {
      markReady();
    }
  };

  const scheduleReconnect = (failed: pg.Client) => {
    if (closed || retryTimer || (client !== null && client !== failed)) return;
    client = null;
    failed.end().catch(() => undefined);
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void connect(true);
    }, backoffMs);
    backoffMs = Math.min(backoffMs * 2, MAX_BACKOFF_MS);
  };

  void connect(false);

  return {
    on(channel, handler) {
      handlers.get(channel)!.add(handler);
      return () => handlers.get(channel)!.delete(handler);
    },
    onReconnect(handler) {
      reconnectHandlers.add(handler);
      return () => reconnectHandlers.delete(handler);
    },
    ready,
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      const current = client;
      client = null;
      await current?.end().catch(() => undefined);
    },
  };
}
