// Live company event streams (Server-Sent Events), independent of HTTP: the route hands over a
// writable sink and gets a handle to close. One instance per replica. Limits are DEFAULT_LIMITS.
//
// Events:
// - `activity` (`id:` = the entry id): every activity entry of the company, as
//   GET /api/companies/{id}/activity presents it, in stream order (./read.ts); entries about hidden
//   issues are left out, as in the feed. Issue changes are the entries with entityType `issue`
//   (`issue.created`, `issue.updated`, ...), run starts and ends those with entityType
//   `heartbeat_run`. There is no separate issue event: every replayable event is an activity
//   entry, with one id space and one order.
// - `run` (no id, not replayed): a run changed status, {runId, agentId, issueId, status}, from the
//   run notification (src/db/channels.ts): the fast signal; the heartbeat_run.* entries are the record. It
//   may arrive before or after the matching entry.
// - `run_log` (no id, not replayed): {runId, offset, lastLine}, the run's log grew to `offset`
//   bytes and its last non-blank line is `lastLine` (null before any); the text is at
//   GET /api/heartbeat-runs/{runId}/log. At most one per run per second (throttled per company, so
//   per client), always with the latest offset and line heard. The line rides on the notification
//   the run's owner raises as it stores the text: a dashboard following N runs reads nothing per
//   run per second, however many boards are open.
// - `reset` {reason}: the stream cannot resume from the client's Last-Event-ID (an unknown id, or
//   more than `replayLimit` entries written since): reload; the stream goes on live from here.
// - `ready` {}: the stream is set up; the entries missed since Last-Event-ID (if any) come next,
//   in order, then new ones.
// A `: keepalive` comment every `keepaliveMs` (while nothing waits in Node's buffer) keeps proxies
// from closing an idle stream. Framing, keep-alive and the slow-client rule below are the SSE
// writer's (../../http/sse.ts); what is this stream's own is which entries to send, replay, and
// the access re-check.
//
// Delivery: one subscription per replica to the LISTEN connection (every replica hears every
// NOTIFY, so an entry written through any replica reaches the clients of all of them). A
// notification only wakes the company's hub; the hub reads the log after each client's cursor
// (./read.ts) and writes what it finds. Clients at the same cursor (every live client once caught
// up) share one read, so a busy company costs one query per wake-up, not one per client. A
// replay is the same read from an older cursor. A missed notification costs latency, never an
// entry: when the LISTEN connection comes back, and at every keepalive tick, each hub reads from
// its clients' cursors again.
//
// Bounds, and slow clients. Nothing is queued per client in memory: events go straight to the
// socket. A client's backlog is what was sent and it has not taken: Node's buffer plus what the
// kernel holds unacknowledged (../../http/client-progress.ts says why the kernel's share counts and how).
// - A read takes at most `readBatch` entries and about `maxBufferedBytes` of details; a replay is
//   at most `replayLimit` entries.
// - Activity entries are pulled from the database, so a client that does not keep up only lags:
//   once its backlog reaches `maxBufferedBytes` (1 MiB), writing stops at that entry (its cursor
//   stays there) until the backlog goes down. A burst larger than any socket buffer reaches a
//   reading client whole.
// - A client with a backlog that has taken nothing for `stallMs` (10 s: it does not read) is
//   dropped: connection destroyed, counted in the log. So is one whose backlog reaches twice
//   `maxBufferedBytes` (the small run and run_log events are still written while activity waits):
//   the hard bound, so a client costs at most that much memory, plus one entry.
// A dropped EventSource reconnects with Last-Event-ID and resumes from the database, so a client
// that was only slow for a while loses no entry (run and run_log events are not replayed).
//
// Access is checked when a stream opens (by the route) and again every `recheckMs`: a revoked key,
// an expired run token, a locked-out agent or a removed membership ends the stream.
import type { Db } from '../../db/client.ts';
import type { Notifications } from '../../db/notifications.ts';
import type { StreamLimits } from '../../http/deps.ts';
import { isUuid } from '../../lib/ids.ts';
import { presentActivity } from '../activity/present.ts';
import { sseFrame, SseWriter, type SseSink } from '../../http/sse.ts';
import {
  countAfter,
  cursorAt,
  cursorKey,
  liveStart,
  readAfter,
  resumeAfter,
  type Cursor,
  type StreamEntry,
} from './read.ts';

export const DEFAULT_LIMITS: StreamLimits = {
  maxBufferedBytes: 1024 * 1024,
  stallMs: 10_000,
  replayLimit: 500,
  readBatch: 200,
  keepaliveMs: 15_000,
  recheckMs: 30_000,
  runLogIntervalMs: 1_000,
};

export interface OpenOptions {
  /** The client's Last-Event-ID: replay the company's entries after it. */
  lastEventId?: string | undefined;
  /** Whether the caller may still read the company; throwing means "cannot tell now" (kept). */
  stillAllowed?: () => Promise<boolean>;
}

interface StreamStats {
  companies: number;
  clients: number;
  /** Clients whose backlog reached the bound: activity waits for them to take it. */
  stalled: number;
  dropped: number;
}

interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

interface Client {
  /** Its writer pauses it when its backlog reaches the bound: activity writing waits until onResume. */
  writer: SseWriter;
  readonly stillAllowed: (() => Promise<boolean>) | undefined;
  /** null until the stream is set up: live reads leave it alone until then. */
  cursor: Cursor | null;
  /** Entries after the cursor that committed before a live start: passed over, not sent. */
  skip: Set<string> | null;
  checkedAt: number;
  closed: boolean;
}

// Back-off of the re-reads while entries wait for an older transaction (or after a failed read).
const RETRY_MIN_MS = 50;
const RETRY_MAX_MS = 1_000;
// Entries a live start knows to pass over (liveStart, ./read.ts).
const LIVE_START_KNOWN = 1_000;

/** An event whose data is JSON (JSON.stringify escapes CR and LF: one data line). */
const jsonFrame = (event: string, data: unknown, id?: string) => sseFrame(event, JSON.stringify(data), id);

/** An entry's frame; null for one the stream passes over (about a hidden issue). */
const frameOf = (e: StreamEntry): string | null =>
  e.hidden ? null : jsonFrame('activity', presentActivity(e.entry), e.entry.id);

export class EventStreams {
  private readonly hubs = new Map<string, CompanyHub>();
  private readonly unsubscribe: (() => void)[];
  private readonly limits: StreamLimits;
  private dropped = 0;
  private closed = false;

  constructor(
    private readonly db: Db,
    notifications: Notifications,
    private readonly log: Log,
    limits: Partial<StreamLimits> = {},
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
    this.unsubscribe = [
      notifications.on('activity', ({ companyId }) => this.hubs.get(companyId)?.wake()),
      notifications.on('run', (run) => {
        this.hubs
          .get(run.companyId)
          ?.broadcast(
            jsonFrame('run', { runId: run.runId, agentId: run.agentId, issueId: run.issueId, status: run.status }),
          );
      }),
      notifications.on('runLog', (log) => this.hubs.get(log.companyId)?.runLog(log.runId, log.offset, log.lastLine)),
      // Anything written while nobody listened is read now, from each client's cursor.
      notifications.onReconnect(() => {
        for (const hub of this.hubs.values()) hub.wake();
      }),
    ];
  }

  /** Starts a stream: missed entries (when asked), then live, until the client leaves. The sink must already carry the SSE headers. */
  open(companyId: string, sink: SseSink, options: OpenOptions = {}): void {
    if (this.closed) {
      sink.end();
      return;
    }
    let hub = this.hubs.get(companyId);
    if (!hub) {
      hub = new CompanyHub(companyId, this.db, this.limits, this);
      this.hubs.set(companyId, hub);
    }
    const owner = hub;
    const { keepaliveMs, stallMs, maxBufferedBytes } = this.limits;
    const client: Client = {
      writer: new SseWriter(
        sink,
        { keepaliveMs, stallMs, pauseAt: maxBufferedBytes, dropAt: 2 * maxBufferedBytes },
        {
          onEnd: (how) => this.remove(owner, client, how === 'slow' ? { end: 'destroy', reason: 'slow' } : null),
          onResume: () => owner.wake(),
        },
      ),
      stillAllowed: options.stillAllowed,
      cursor: null,
      skip: null,
      checkedAt: Date.now(),
      closed: false,
    };
    hub.add(client);
    void hub.start(client, options.lastEventId);
  }

  stats(): StreamStats {
    let clients = 0;
    let stalled = 0;
    for (const hub of this.hubs.values()) {
      clients += hub.size;
      stalled += hub.stalledCount;
    }
    return { companies: this.hubs.size, clients, stalled, dropped: this.dropped };
  }

  /** Ends every stream (server shutdown) and stops listening. */
  close(): void {
    this.closed = true;
    for (const stop of this.unsubscribe) stop();
    for (const hub of [...this.hubs.values()]) hub.endAll();
    this.hubs.clear();
  }

  /** @internal The one way a client leaves: `how` null when it went away by itself. */
  remove(hub: CompanyHub, client: Client, how: { end: 'end' | 'destroy'; reason: string } | null): void {
    if (client.closed) return;
    client.closed = true;
    if (how) {
      if (how.reason === 'slow') {
        this.dropped++;
        this.log.warn(
          { companyId: hub.companyId, backlog: client.writer.backlog, dropped: this.dropped },
          'events: slow client dropped',
        );
      } else {
        this.log.info({ companyId: hub.companyId, reason: how.reason }, 'events: stream ended');
      }
    }
    // The writer ended by itself when the client left or was dropped; else it ends here.
    client.writer.close(how?.end ?? 'end');
    hub.delete(client);
    if (hub.size === 0 && this.hubs.get(hub.companyId) === hub) {
      hub.dispose();
      this.hubs.delete(hub.companyId);
    }
  }

  /** @internal */
  warn(obj: object, msg: string): void {
    this.log.warn(obj, msg);
  }
}

/** The connected clients of one company on this replica. */
class CompanyHub {
  private readonly clients = new Set<Client>();
  private running = false;
  private dirty = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryMs = RETRY_MIN_MS;
  private readonly tick: NodeJS.Timeout;
  private rechecking = false;
  private readonly runLogs = new Map<
    string,
    { sentAt: number; offset: number; lastLine: string | null; timer: NodeJS.Timeout | undefined }
  >();

  constructor(
    readonly companyId: string,
    private readonly db: Db,
    private readonly limits: StreamLimits,
    private readonly owner: EventStreams,
  ) {
    this.tick = setInterval(() => this.onTick(), limits.keepaliveMs);
    this.tick.unref();
  }

  get size(): number {
    return this.clients.size;
  }

  get stalledCount(): number {
    let n = 0;
    for (const c of this.clients) if (c.writer.paused) n++;
    return n;
  }

  add(client: Client): void {
    this.clients.add(client);
  }

  delete(client: Client): void {
    this.clients.delete(client);
  }

  /**
   * Places the client's cursor: after `lastEventId` when at most REPLAY_LIMIT entries follow it
   * (the live reads then deliver them, in order, before anything newer), else live with a `reset`.
   */
  async start(client: Client, lastEventId: string | undefined): Promise<void> {
    try {
      let reset: Record<string, unknown> | null = null;
      let cursor: Cursor | null = null;
      if (lastEventId !== undefined) {
        const after = isUuid(lastEventId)
          ? await resumeAfter(this.db, this.companyId, lastEventId.toLowerCase())
          : null;
        if (!after) reset = { reason: 'unknown_last_event_id' };
        else if (
          (await countAfter(this.db, this.companyId, after, this.limits.replayLimit + 1)) > this.limits.replayLimit
        ) {
          reset = { reason: 'too_many_missed', replayLimit: this.limits.replayLimit };
        } else cursor = after;
      }
      if (!cursor) {
        const live = await liveStart(this.db, this.companyId, LIVE_START_KNOWN);
        cursor = live.cursor;
        client.skip = live.committed.size > 0 ? live.committed : null;
      }
      if (client.closed) return;
      if (reset && !client.writer.write(jsonFrame('reset', reset))) return;
      if (!client.writer.write(jsonFrame('ready', {}))) return;
      client.cursor = cursor;
      this.wake(); // the replay, and whatever was written meanwhile
    } catch (err) {
      this.owner.warn({ err, companyId: this.companyId }, 'events: stream could not start');
      this.owner.remove(this, client, { end: 'end', reason: 'start_failed' });
    }
  }

  /** New entries may exist: read them (coalesced: one pass at a time, another if woken meanwhile). */
  wake(): void {
    if (this.running) {
      this.dirty = true;
      return;
    }
    void this.pass();
  }

  private async pass(): Promise<void> {
    this.running = true;
    let pending = false;
    try {
      do {
        this.dirty = false;
        // Clients at the same cursor share one read; paused ones wait for their backlog to go down.
        const groups = new Map<string, { cursor: Cursor; group: Client[] }>();
        for (const c of this.clients) {
          if (c.cursor === null || c.closed || c.writer.paused) continue;
          const key = cursorKey(c.cursor);
          const found = groups.get(key);
          if (found) found.group.push(c);
          else groups.set(key, { cursor: c.cursor, group: [c] });
        }
        for (const [key, { cursor, group }] of groups) {
          const batch = await readAfter(
            this.db,
            this.companyId,
            cursor,
            this.limits.readBatch,
            this.limits.maxBufferedBytes,
          );
          pending ||= batch.pending;
          if (batch.full) this.dirty = true;
          if (batch.entries.length === 0) continue;
          const frames = batch.entries.map(frameOf);
          for (const c of group) {
            // Only clients still where the read started (one pass at a time: only a departure changes that).
            if (c.closed || c.cursor === null || cursorKey(c.cursor) !== key) continue;
            this.writeEntries(c, batch.entries, frames);
          }
        }
      } while (this.dirty && this.clients.size > 0);
      this.retryMs = RETRY_MIN_MS;
    } catch (err) {
      this.owner.warn({ err, companyId: this.companyId }, 'events: read failed; retrying');
      pending = true;
    } finally {
      this.running = false;
    }
    // Entries of a transaction younger than a still running one: read again shortly (backing off).
    if (pending && this.clients.size > 0) this.retry();
  }

  /** Writes entries in order, moving the client's cursor past each; stops when it pauses. */
  private writeEntries(client: Client, entries: StreamEntry[], frames: (string | null)[]): void {
    for (const [i, { entry }] of entries.entries()) {
      if (client.closed || client.writer.paused) return;
      const frame = frames[i];
      if (client.skip?.delete(entry.id)) {
        if (client.skip.size === 0) client.skip = null;
      } else if (frame && !client.writer.write(frame)) return;
      client.cursor = cursorAt(entry);
    }
  }

  private retry(): void {
    if (this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.wake();
    }, this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
  }

  /** A frame for every live client (run events). */
  broadcast(frame: string): void {
    for (const c of [...this.clients]) if (c.cursor !== null) c.writer.write(frame);
  }

  /** Throttled: the first change of a run goes out at once, later ones at most once per interval. */
  runLog(runId: string, offset: number, lastLine: string | null | undefined): void {
    let state = this.runLogs.get(runId);
    if (!state) {
      state = { sentAt: 0, offset, lastLine: null, timer: undefined };
      this.runLogs.set(runId, state);
    }
    // Notices may arrive out of order across replicas: the line goes with the largest offset.
    if (offset >= state.offset && lastLine) state.lastLine = lastLine;
    state.offset = Math.max(state.offset, offset);
    if (state.timer) return;
    const wait = state.sentAt + this.limits.runLogIntervalMs - Date.now();
    if (wait <= 0) {
      this.flushRunLog(runId);
      return;
    }
    state.timer = setTimeout(() => this.flushRunLog(runId), wait);
    state.timer.unref();
  }

  private flushRunLog(runId: string): void {
    const state = this.runLogs.get(runId);
    if (!state) return;
    state.timer = undefined;
    state.sentAt = Date.now();
    this.broadcast(jsonFrame('run_log', { runId, offset: state.offset, lastLine: state.lastLine }));
  }

  private onTick(): void {
    // Throttle state of runs quiet for a whole interval is dropped (their next change goes out at once).
    const now = Date.now();
    for (const [runId, state] of this.runLogs)
      if (!state.timer && now - state.sentAt >= this.limits.runLogIntervalMs) this.runLogs.delete(runId);
    this.wake(); // the safety net under notifications
    void this.recheck();
  }

  private async recheck(): Promise<void> {
    if (this.rechecking) return;
    this.rechecking = true;
    try {
      for (const c of [...this.clients]) {
        if (c.closed || !c.stillAllowed || Date.now() - c.checkedAt < this.limits.recheckMs) continue;
        let allowed = true;
        try {
          allowed = await c.stillAllowed();
          c.checkedAt = Date.now();
        } catch (err) {
          this.owner.warn({ err, companyId: this.companyId }, 'events: access re-check failed; stream kept');
        }
        if (!allowed) this.owner.remove(this, c, { end: 'end', reason: 'access_revoked' });
      }
    } finally {
      this.rechecking = false;
    }
  }

  /** Server shutdown: every stream ends (the client reconnects elsewhere). */
  endAll(): void {
    for (const c of [...this.clients]) {
      c.closed = true;
      c.writer.close('end');
    }
    this.clients.clear();
    this.dispose();
  }

  dispose(): void {
    clearInterval(this.tick);
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    for (const state of this.runLogs.values()) clearTimeout(state.timer);
    this.runLogs.clear();
  }
}
