// Plugin streams (issue 27 section 4): a worker's `stream.emit { channel, data }` is a NOTIFY on the
// `pluginStream` channel (src/db/channels.ts) naming the worker's plugin and company (the host's,
// never the worker's word); every replica hears it on its one LISTEN connection, and each open
// `bridge/stream/{channel}` here gets the messages of its own plugin, company and channel only.
// Nothing is stored or replayed: a stream is live, and a client that reconnects gets what comes next.
import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../../core/context.ts';
import { DomainError, notFound } from '../../core/errors.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { Notifications } from '../../db/notifications.ts';
import { pluginCompanyEnablements, plugins } from '../../db/schema/index.ts';
import { sseFrame, type SseSink, SseWriter } from '../../http/sse.ts';
import type { PluginManifest } from './manifest.ts';
import { pluginCompanyFor } from './policy.ts';

interface Log {
  warn(obj: object, msg: string): void;
}

export interface StreamLimits {
  keepaliveMs: number;
  /** Access is checked again this often; a lost membership or revoked key ends the stream. */
  recheckMs: number;
  /** A client whose unsent backlog passes this is dropped (messages are live, never queued for it). */
  maxBufferedBytes: number;
  stallMs: number;
}

export const DEFAULT_STREAM_LIMITS: StreamLimits = {
  keepaliveMs: 15_000,
  recheckMs: 30_000,
  maxBufferedBytes: 1024 * 1024,
  stallMs: 10_000,
};

export interface StreamTarget {
  pluginId: string;
  companyId: string;
  channel: string;
}

/**
 * The stream a board caller may open: a board user of the company (403 otherwise), a plugin
 * enabled for it that declares the channel (404 otherwise: the plugin's channels are not shown to a
 * company that did not turn it on).
 */
export async function streamTarget(ctx: Ctx, target: StreamTarget): Promise<StreamTarget> {
  const company = await pluginCompanyFor(ctx, 'plugin.readCompany', target.companyId);
  const [found] = await ctx.db
    .select({ manifest: plugins.manifest, status: plugins.status, enablement: pluginCompanyEnablements.status })
    .from(plugins)
    .innerJoin(
      pluginCompanyEnablements,
      and(eq(pluginCompanyEnablements.pluginId, plugins.id), eq(pluginCompanyEnablements.companyId, company.id)),
    )
    .where(eq(plugins.id, target.pluginId));
  if (!found || found.status !== 'ready' || found.enablement !== 'enabled') throw notFound('plugin');
  const declared = (found.manifest as PluginManifest).streams ?? [];
  if (!declared.some((s) => s.channel === target.channel)) throw notFound('stream channel');
  return { ...target, companyId: company.id };
}

/** This replica's open plugin streams: one subscription to the LISTEN connection, fanned out by target. */
export class PluginStreams {
  /** By target: each open stream's writer and what ends it. */
  private readonly open = new Map<string, Map<SseWriter, (how?: 'end' | 'destroy') => void>>();
  private readonly unsubscribe: () => void;

  constructor(
    notifications: Notifications,
    private readonly limits: StreamLimits,
    private readonly logger: Log,
  ) {
    this.unsubscribe = notifications.on('pluginStream', (message) => {
      const writers = this.open.get(keyOf(message));
      if (!writers) return;
      const frame = sseFrame('message', JSON.stringify(message.data ?? null));
      for (const writer of writers.keys()) writer.write(frame);
    });
  }

  /** Streams the target's messages to `sink` until the client leaves, is too slow, or `stillAllowed` says no. */
  attach(target: StreamTarget, sink: SseSink, stillAllowed: () => Promise<boolean>): void {
    const key = keyOf(target);
    const writers = this.open.get(key) ?? new Map<SseWriter, (how?: 'end' | 'destroy') => void>();
    this.open.set(key, writers);
    const recheck = setInterval(() => {
      stillAllowed().then(
        (allowed) => {
          if (!allowed) end('destroy');
        },
        (err: unknown) => this.logger.warn({ err }, 'plugin stream: access re-check failed'),
      );
    }, this.limits.recheckMs);
    const end = (how?: 'end' | 'destroy') => {
      clearInterval(recheck);
      writers.delete(writer);
      if (writers.size === 0 && this.open.get(key) === writers) this.open.delete(key);
      if (how) writer.close(how);
    };
    const writer: SseWriter = new SseWriter(
      sink,
      {
        keepaliveMs: this.limits.keepaliveMs,
        stallMs: this.limits.stallMs,
        pauseAt: Number.POSITIVE_INFINITY,
        dropAt: this.limits.maxBufferedBytes,
      },
      { onEnd: () => end() },
    );
    writers.set(writer, end);
    writer.write(sseFrame('ready', '{}'));
  }

  /** How many streams are open on this replica (tests, diagnostics). */
  count(): number {
    let n = 0;
    for (const writers of this.open.values()) n += writers.size;
    return n;
  }

  close(): void {
    this.unsubscribe();
    for (const writers of [...this.open.values()]) for (const end of [...writers.values()]) end('end');
  }
}

const keyOf = (t: StreamTarget) => `${t.pluginId}:${t.companyId}:${t.channel}`;

/** Used by the route's re-check, so the rule is the one the stream opened under. */
export async function mayStillStream(db: DbOrTx, ctx: Ctx | null, target: StreamTarget): Promise<boolean> {
  if (!ctx) return false;
  try {
    await streamTarget({ ...ctx, db }, target);
    return true;
  } catch (err) {
    if (err instanceof DomainError) return false; // 403, or the plugin, company or channel is gone
    throw err;
  }
}
