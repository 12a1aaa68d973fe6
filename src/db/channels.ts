// The NOTIFY contract, declared once: every channel the replicas hear, its name in PostgreSQL, the
// type of its payload, and the one function that parses it (and formats it, for the channels code
// raises; the others are raised by triggers in src/db/sql/). Nothing outside src/db/ names a channel
// or parses a payload: loops and streams subscribe by key through Notifications.on
// (./notifications.ts) and get the parsed payload; a writer builds its call with notifyCall.
//
// A notification is a latency shortcut, never the record: a subscriber reads the rows it is about,
// so a payload only needs enough to tell who should look. A payload that does not parse is dropped
// (and logged) by the listener, never handed on.
//
// Adding a channel: one entry in CHANNELS (and the trigger or notifyCall that raises it).
import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { isUuid } from '../lib/ids.ts';

const id = z.string().refine(isUuid, 'a UUID');

/** A run changed status (trigger boardroom_notify_run, src/db/sql/engine-notify.sql). */
const runChange = z.object({
  runId: id,
  companyId: id,
  agentId: id,
  issueId: id.nullable().default(null),
  status: z.string(),
  error: z.string().nullable().default(null),
});

/** A run's owner stored new log text: the log's size after it (src/modules/runs/run-log.ts raises it). */
const runLogGrew = z.object({
  runId: id,
  companyId: id,
  offset: z.number().int().nonnegative(),
  /** The last non-blank line of the text stored (null: none in it); absent from a replica of an older release. */
  lastLine: z.string().nullable().optional(),
});

/** An activity entry was written (trigger boardroom_notify_activity, src/db/sql/events-notify.sql). */
const activityWritten = z.object({ companyId: id, id });

/**
 * A plugin's workers must stop for a company (`companyId`) or everywhere (null: instance disable,
 * upgrade, uninstall), raised by src/modules/plugins/change.ts: every replica stops those it runs that
 * started before the plugin's `revision` (null: all of them, the plugin is gone).
 */
const pluginChange = z.object({
  pluginId: id,
  companyId: id.nullable().default(null),
  revision: z.number().int().nullable().default(null),
});

/** A plugin worker emitted on one of its declared streams (`stream.emit`): for that plugin, company and channel only. */
const pluginStreamMessage = z.object({ pluginId: id, companyId: id, channel: z.string().max(200), data: z.unknown() });

/** A plugin webhook delivery was recorded (src/modules/plugins/webhooks.ts raises it): the engine hands it over. */
const pluginWebhookReceived = z.object({ deliveryId: id });

interface ChannelSpec<P> {
  /** The PostgreSQL channel. */
  readonly name: string;
  /** The payload, or null when it is not one (the listener drops it). */
  parse(payload: string): P | null;
  format(payload: P): string;
}

function jsonChannel<P>(name: string, schema: z.ZodType<P, unknown>): ChannelSpec<P> {
  return {
    name,
    parse(payload) {
      let value: unknown;
      try {
        value = JSON.parse(payload);
      } catch {
        return null;
      }
      const parsed = schema.safeParse(value);
      return parsed.success ? parsed.data : null;
    },
    format: (payload) => JSON.stringify(payload),
  };
}

export const CHANNELS = {
  /** A wake became claimable (trigger boardroom_notify_wakeup): the agent's id, as plain text. */
  wakeup: {
    name: 'boardroom_wakeup',
    parse: (payload: string) => (isUuid(payload) ? { agentId: payload } : null),
    format: (payload: { agentId: string }) => payload.agentId,
  },
  run: jsonChannel('boardroom_run', runChange),
  runLog: jsonChannel('boardroom_run_log', runLogGrew),
  activity: jsonChannel('boardroom_activity', activityWritten),
  pluginChange: jsonChannel('boardroom_plugin_change', pluginChange),
  pluginStream: jsonChannel('plugin_stream', pluginStreamMessage),
  pluginWebhook: jsonChannel('boardroom_plugin_webhook', pluginWebhookReceived),
  /**
   * A hard budget incident awaits its stop (trigger boardroom_notify_budget_stop,
   * src/db/sql/engine-notify.sql): the company's id, as plain text; consumed by engine/budget-stops.ts.
   */
  budgetStop: {
    name: 'boardroom_budget_stop',
    parse: (payload: string) => (isUuid(payload) ? { companyId: payload } : null),
    format: (payload: { companyId: string }) => payload.companyId,
  },
} satisfies Record<string, { name: string; parse(payload: string): unknown; format(payload: never): string }>;

export type ChannelKey = keyof typeof CHANNELS;
export type Payload<K extends ChannelKey> = NonNullable<ReturnType<(typeof CHANNELS)[K]['parse']>>;
export type RunChange = Payload<'run'>;

/** The channel a PostgreSQL channel name belongs to (undefined: not one of ours). */
export function channelNamed(name: string): ChannelKey | undefined {
  return (Object.keys(CHANNELS) as ChannelKey[]).find((key) => CHANNELS[key].name === name);
}

/** `pg_notify(channel, payload)` for a statement of the writer's; delivered when it commits. */
export function notifyCall<K extends ChannelKey>(key: K, payload: Payload<K>): SQL {
  const spec = CHANNELS[key] as unknown as ChannelSpec<Payload<K>>;
  return sql`pg_notify(${spec.name}, ${spec.format(payload)})`;
}
