// One LISTEN connection per replica, shared by every loop and stream that wants to hear the
// database's NOTIFYs (the channels of ./channels.ts). Notifications are a latency shortcut, never
// the only path: a dropped connection is reopened with backoff, and subscribers are told
// (`onReconnect`) so they catch up on anything sent while nobody listened.
//
// A payload is parsed once, here, for every subscriber of its channel. One that does not parse is
// logged at warn and dropped; a subscriber that throws is logged and the others still hear it:
// nothing throws into the connection's event handler.
import pg from 'pg';
import type { Logger } from 'pino';
import { channelNamed, CHANNELS, type ChannelKey, type Payload } from './channels.ts';

type Handler = (payload: never) => void;

export interface Notifications {
  /** Calls `handler` with each parsed payload of the channel until the returned function is called. */
  on<K extends ChannelKey>(channel: K, handler: (payload: Payload<K>) => void): () => void;
  onReconnect(handler: () => void): () => void;
  /** Resolves once the first LISTEN is in place (or failed: the loops poll regardless). */
  ready: Promise<void>;
  close(): Promise<void>;
}

const MAX_BACKOFF_MS = 5_000;

export function listenForNotifications(url: string, logger: Logger): Notifications {
  const keys = Object.keys(CHANNELS) as ChannelKey[];
  // A channel's set is made by its first subscriber.
  const handlers = new Map<ChannelKey, Set<Handler>>();
  const reconnectHandlers = new Set<() => void>();
  let client: pg.Client | null = null;
  let closed = false;
  let backoffMs = 100;
  let retryTimer: NodeJS.Timeout | undefined;
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const connect = async (isReconnect: boolean) => {
    const next = new pg.Client({ connectionString: url });
    next.on('notification', (msg) => deliver(msg.channel, msg.payload ?? ''));
    next.on('error', () => scheduleReconnect(next));
    next.on('end', () => scheduleReconnect(next));
    try {
      await next.connect();
      for (const key of keys) await next.query(`LISTEN ${CHANNELS[key].name}`);
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

  const deliver = (channel: string, raw: string) => {
    const key = channelNamed(channel);
    if (!key) return;
    const payload = CHANNELS[key].parse(raw);
    if (payload === null) {
      logger.warn({ channel, payload: raw.slice(0, 200) }, 'notifications: malformed payload dropped');
      return;
    }
    for (const handler of handlers.get(key) ?? []) {
      try {
        (handler as (payload: unknown) => void)(payload);
      } catch (err) {
        logger.warn({ err, channel }, 'notifications: a subscriber failed');
      }
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
      const subscribed = handlers.get(channel) ?? new Set<Handler>();
      handlers.set(channel, subscribed.add(handler));
      return () => void subscribed.delete(handler);
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
