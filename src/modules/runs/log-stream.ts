// The live run log (GET /api/heartbeat-runs/{runId}/log/stream), as Server-Sent Events:
//
//   event: log            id: <byte offset after this event>    data: {"offset":n,"content":"...","stderr":[{"from":n,"to":n}]}
//   event: end            data: <the run's final status>
//   : keepalive           (a comment every 15 s, so proxies keep an idle stream open)
//
// The stream reads the log from the database, wherever the run executes: it sends what is stored
// from the start offset, then follows. Notifications (`runLog` when the owner stored a chunk, `run`
// when the run changed status (src/db/channels.ts), from any replica through this replica's one
// LISTEN connection) only say "look again"; the text always comes from the table, so a missed or
// merged notification loses nothing, and a reconnect of the LISTEN connection triggers a look too.
// It ends with `end` once the run is finished, its log can no longer grow and all of it was sent.
//
// Framing, keep-alive and the slow-client rule are the SSE writer's (../../http/sse.ts). Backpressure:
// a page is read only once Node handed the previous one to the kernel (SseWriter.drained). A client
// whose backlog (Node's buffer plus what the kernel holds unacknowledged) passes MAX_BUFFERED_BYTES,
// or that has a backlog and takes nothing for STALL_MS, is dropped: a stream is never buffered
// without bound. An `id` per event lets a client resume (Last-Event-ID).
import type { DbOrTx } from '../../db/client.ts';
import type { Notifications } from '../../db/notifications.ts';
import { sseFrame, SseWriter, type SseSink } from '../../http/sse.ts';
import { readRunLog } from './run-log.ts';
import { isLiveRunStatus } from '../../core/statuses.ts';
import { findRun, runLogMayGrow } from './service.ts';

export const KEEPALIVE_MS = 15_000;
export const MAX_BUFFERED_BYTES = 1024 * 1024;
const STALL_MS = 10_000;
/** How often a finished run whose log may still grow (see runLogMayGrow) is looked at again. */
const LINGER_POLL_MS = 500;

export interface LogStreamOptions {
  db: DbOrTx;
  notifications: Pick<Notifications, 'on' | 'onReconnect'>;
  runId: string;
  /** Byte offset to start from. */
  from: number;
  sink: SseSink;
  logger?: { warn(obj: object, msg: string): void };
  keepaliveMs?: number;
  maxBufferedBytes?: number;
  stallMs?: number;
}

export type LogStreamEnd = 'end' | 'closed' | 'dropped' | 'stopped' | 'gone' | 'error';

export interface LogStream {
  /** How the stream ended: `end` sent, client gone, client too slow, server stop, run deleted, error. */
  done: Promise<LogStreamEnd>;
  /** Ends the stream now (server shutdown). */
  stop(): void;
}

export function followRunLog(options: LogStreamOptions): LogStream {
  const { db, runId, sink } = options;
  let sent = Math.max(0, Math.floor(options.from));
  let finished = false;
  let busy = false;
  let again = false;
  let linger: NodeJS.Timeout | null = null;
  let resolveDone: (how: LogStreamEnd) => void = () => undefined;
  const done = new Promise<LogStreamEnd>((resolve) => (resolveDone = resolve));

  const unsubscribe = [
    options.notifications.on('runLog', (notice) => {
      if (notice.runId === runId && notice.offset > sent) void pump();
    }),
    options.notifications.on('run', (run) => {
      if (run.runId === runId) void pump();
    }),
    options.notifications.onReconnect(() => void pump()),
  ];
  // Pages wait for Node's buffer (drained), not for a backlog bound: no pause, only the drop.
  const writer = new SseWriter(
    sink,
    {
      keepaliveMs: options.keepaliveMs ?? KEEPALIVE_MS,
      stallMs: options.stallMs ?? STALL_MS,
      pauseAt: Infinity,
      dropAt: options.maxBufferedBytes ?? MAX_BUFFERED_BYTES,
    },
    { onEnd: (how) => finish(how === 'slow' ? 'dropped' : 'closed') },
  );

  function finish(how: LogStreamEnd): void {
    if (finished) return;
    finished = true;
    for (const off of unsubscribe) off();
    if (linger) clearTimeout(linger);
    writer.close(how === 'dropped' || how === 'error' ? 'destroy' : 'end');
    resolveDone(how);
  }

  /** Sends everything stored from `sent` on. */
  async function catchUp(): Promise<void> {
    while (!finished) {
      const page = await readRunLog(db, runId, sent);
      if (finished || page.content.length === 0) return;
      if (
        !writer.write(
          sseFrame(
            'log',
            JSON.stringify({ offset: page.offset, content: page.content, stderr: page.stderr }),
            page.nextOffset,
          ),
        )
      )
        return;
      sent = page.nextOffset;
      await writer.drained();
      if (page.eof) return;
    }
  }

  async function pump(): Promise<void> {
    if (finished) return;
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    try {
      do {
        again = false;
        await catchUp();
        if (finished) return;
        const run = await findRun(db, runId);
        if (finished) return;
        if (!run) return finish('gone');
        if (isLiveRunStatus(run.status)) continue;
        // What the owner stored before it recorded the end.
        await catchUp();
        if (finished) return;
        if (runLogMayGrow(run)) {
          linger ??= setTimeout(() => {
            linger = null;
            void pump();
          }, LINGER_POLL_MS);
          continue;
        }
        writer.write(sseFrame('end', run.status));
        return finish('end');
      } while (again && !finished);
    } catch (err) {
      options.logger?.warn({ err, runId }, 'run log stream failed');
      finish('error');
    } finally {
      busy = false;
    }
  }

  void pump();
  return { done, stop: () => finish('stopped') };
}
