// The one Server-Sent Events writer, under both live streams (the company event stream,
// modules/events/streams.ts, and the run log stream, modules/runs/log-stream.ts). It owns what any
// SSE response needs; each stream keeps only what is its own (which rows to send, replay, access
// re-checks).
//
// - The response: openSseResponse takes the reply over and sends the headers. A HEAD (fastify
//   answers it with the GET handler) gets the headers and ends at once: Node drops a HEAD's body,
//   so a stream opened for it would send nothing and hold its subscriptions until it timed out.
// - Framing: sseFrame builds `event:`, `id:` and one `data:` line per line of the data.
// - Keep-alive: a `: keepalive` comment every keepaliveMs while Node's buffer is empty, so proxies
//   keep an idle stream open.
// - Slow clients, judged by what they took (./client-progress.ts: Node's buffer plus what the
//   kernel holds unacknowledged is the backlog):
//   - a write that leaves the backlog above `dropAt` drops the client at once: the hard bound on
//     what a client costs;
//   - a client with a backlog that took nothing for `stallMs` is dropped;
//   - a backlog at `pauseAt` pauses the stream (`paused`) until it goes down (Node's drain, or a
//     look of ClientProgress), then `onResume`: a stream that pulls from the database waits there;
//   - drained() waits for Node's own buffer, for a stream that writes a page at a time.
//   A dropped client's connection is destroyed; a reconnecting EventSource resumes with
//   Last-Event-ID.
// - Close: the client leaving ('close', 'error') ends the writer; `onEnd` says why. The stream
//   ends it itself with close().
import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ClientProgress, type ProgressSink } from './client-progress.ts';

/** What a stream writes to: an http.ServerResponse (reply.raw), or a stand-in in tests. */
export interface SseSink extends ProgressSink {
  write(chunk: string): boolean;
  readonly writableLength: number;
  readonly destroyed: boolean;
  end(): void;
  destroy(): void;
  on(event: 'close' | 'drain' | 'error', listener: () => void): unknown;
  off(event: 'close' | 'drain' | 'error', listener: () => void): unknown;
}

export interface SseLimits {
  keepaliveMs: number;
  /** A client with a backlog that took nothing for this long is dropped. */
  stallMs: number;
  /** A backlog (bytes) at which the stream pauses until it goes down; Infinity: never. */
  pauseAt: number;
  /** A write that leaves more than this backlog (bytes) drops the client. */
  dropAt: number;
}

/** Why the writer ended by itself: the client went away, or it was too slow (dropped). */
type SseEnd = 'gone' | 'slow';

export interface SseEvents {
  onEnd(how: SseEnd): void;
  /** A paused stream's backlog went below `pauseAt`. */
  onResume?(): void;
}

const KEEPALIVE_FRAME = ': keepalive\n\n';

/** One event; `data` may span lines (each becomes a `data:` line; the client joins them with LF). */
export function sseFrame(event: string, data: string, id?: string | number): string {
  const lines = data.split(/\r\n|\r|\n/).map((line) => `data: ${line}\n`);
  return `event: ${event}\n${id === undefined ? '' : `id: ${id}\n`}${lines.join('')}\n`;
}

/**
 * Takes the reply over and sends the stream's headers (and, with `retryMs`, how long EventSource
 * waits before reconnecting). Null for a HEAD, which is answered by then: headers only.
 */
export function openSseResponse(
  request: FastifyRequest,
  reply: FastifyReply,
  options: { retryMs?: number } = {},
): ServerResponse | null {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    'x-accel-buffering': 'no',
    // The connection ends with the stream (never reused), so a shutdown does not wait on it.
    connection: 'close',
    'x-request-id': request.id,
  });
  if (request.method === 'HEAD') {
    res.end();
    return null;
  }
  if (options.retryMs === undefined) res.flushHeaders();
  else res.write(`retry: ${options.retryMs}\n\n`);
  return res;
}

export class SseWriter {
  private readonly progress: ClientProgress;
  private readonly keepalive: NodeJS.Timeout;
  private closed = false;
  private paused_ = false;
  /** Node's buffer passed its high-water mark (write said false) and has not drained yet. */
  private full = false;
  private readonly drainWaiters = new Set<() => void>();

  constructor(
    private readonly sink: SseSink,
    private readonly limits: SseLimits,
    private readonly events: SseEvents,
  ) {
    this.progress = new ClientProgress(
      sink,
      limits.stallMs,
      () => this.drop(),
      () => this.maybeResume(),
    );
    this.keepalive = setInterval(() => {
      if (sink.writableLength === 0) this.write(KEEPALIVE_FRAME);
    }, limits.keepaliveMs);
    sink.on('close', this.onGone);
    sink.on('error', this.onGone);
    sink.on('drain', this.onDrain);
  }

  /** Bytes sent that the client has not taken. */
  get backlog(): number {
    return this.progress.backlog;
  }

  /** The backlog reached `pauseAt`: write nothing that can wait until onResume. */
  get paused(): boolean {
    return this.paused_;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Writes a frame; false when the stream is over (the client left, or this write dropped it). */
  write(frame: string): boolean {
    if (this.closed) return false;
    if (this.sink.destroyed) {
      this.onGone();
      return false;
    }
    this.full = !this.sink.write(frame);
    // A socket counts its own bytes; only a stand-in sink (tests) needs them counted here.
    if (!this.sink.socket) this.progress.wrote(Buffer.byteLength(frame));
    const backlog = this.progress.backlog;
    if (backlog > this.limits.dropAt) {
      this.drop();
      return false;
    }
    if (backlog >= this.limits.pauseAt) this.paused_ = true;
    return true;
  }

  /** Resolves once Node's buffer drained after a write it could not take whole (at once if it did), or the stream ended. */
  drained(): Promise<void> {
    if (!this.full || this.closed) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.add(resolve));
  }

  /** Ends the stream: `end` for a finished one, `destroy` after an error. Idempotent; no onEnd. */
  close(how: 'end' | 'destroy'): void {
    if (!this.stop()) return;
    if (how === 'destroy') this.sink.destroy();
    else this.sink.end();
  }

  private stop(): boolean {
    if (this.closed) return false;
    this.closed = true;
    this.progress.stop();
    clearInterval(this.keepalive);
    this.sink.off('close', this.onGone);
    this.sink.off('error', this.onGone);
    this.sink.off('drain', this.onDrain);
    for (const wake of this.drainWaiters) wake();
    this.drainWaiters.clear();
    return true;
  }

  private drop(): void {
    if (!this.stop()) return;
    this.sink.destroy();
    this.events.onEnd('slow');
  }

  private readonly onGone = (): void => {
    if (this.stop()) this.events.onEnd('gone');
  };

  private readonly onDrain = (): void => {
    this.full = false;
    for (const wake of this.drainWaiters) wake();
    this.drainWaiters.clear();
    this.maybeResume();
  };

  private maybeResume(): void {
    if (!this.paused_ || this.closed || this.progress.backlog >= this.limits.pauseAt) return;
    this.paused_ = false;
    this.events.onResume?.();
  }
}
