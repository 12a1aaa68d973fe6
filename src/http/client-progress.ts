// Whether a streaming client (Server-Sent Events: the company event stream and the run log stream)
// is taking what it is sent. Node's own buffer says too little: a socket's writableLength counts only
// what the kernel has not accepted yet, and the kernel accepts into the send buffer of this end and
// the receive buffer of the other, which grow to megabytes. A client that never read a byte stayed
// connected for 17 s and 498 KB while Node's buffer was still empty, and for ever on a quiet stream.
//
// So the bytes a client has taken are the bytes its TCP stack acknowledged: what the kernel accepted
// from Node (socket.bytesWritten - socket.writableLength) less what it still holds unacknowledged
// (tx_queue of the socket in /proc/net/tcp and tcp6, found by the socket's inode). The backlog a
// stream bounds is Node's buffer plus that unacknowledged part. A client that has a backlog and took
// nothing for `stallMs` is stalled: the stream drops it. A client's receive buffer fills within a
// few dozen KB when it does not read (the kernel grows it only for an application that reads), so
// "acknowledged" is "read" but for that much. Without /proc (not Linux), or for a stand-in sink with
// no socket, the kernel's share is unknown and counts as taken: Node's buffer alone decides, as before.
//
// One poller for every watched client: /proc/net/tcp is read once per tick for all of them.
import { readFile, readlink } from 'node:fs/promises';
import type net from 'node:net';

/** What a stream writes to: an http.ServerResponse (its socket), or a stand-in without one in tests. */
export interface ProgressSink {
  readonly writableLength: number;
  readonly socket?: net.Socket | null;
}

const POLL_MS = 500;

const watches = new Set<ClientProgress>();
let poller: NodeJS.Timeout | null = null;

export class ClientProgress {
  /** Bytes handed to a stand-in sink (one without a socket), counted by `wrote`. */
  private written = 0;
  private taken = 0;
  private unacked = 0;
  private lastProgressAt = Date.now();
  private inode: Promise<string | null> | null = null;
  private stopped = false;

  /**
   * Watches `sink` until stop(): `onStalled` once it had a backlog and took nothing for `stallMs`;
   * `onTick` after every look (a paused stream may resume when the backlog went down).
   */
  constructor(
    private readonly sink: ProgressSink,
    private readonly stallMs: number,
    private readonly onStalled: () => void,
    private readonly onTick: () => void = () => undefined,
  ) {
    watches.add(this);
    schedulePoll();
  }

  /** Counts a write (only a sink without a socket needs it: a socket counts its own bytes). */
  wrote(bytes: number): void {
    this.written += bytes;
  }

  /** Bytes sent that the client has not taken: Node's buffer plus what the kernel holds unacknowledged (as of the last look). */
  get backlog(): number {
    return this.sink.writableLength + this.unacked;
  }

  stop(): void {
    this.stopped = true;
    watches.delete(this);
    if (watches.size === 0 && poller) {
      clearTimeout(poller);
      poller = null;
    }
  }

  /** @internal The socket's inode, to find it in /proc/net/tcp; null without one (or without /proc). */
  socketInode(): Promise<string | null> {
    this.inode ??= (async () => {
      const fd = (this.sink.socket as unknown as { _handle?: { fd?: unknown } } | null | undefined)?._handle?.fd;
      if (typeof fd !== 'number' || fd < 0) return null;
      const link = await readlink(`/proc/self/fd/${fd}`).catch(() => '');
      return /^socket:\[(\d+)\]$/.exec(link)?.[1] ?? null;
    })();
    return this.inode;
  }

  /** @internal What the kernel accepted so far (for a stand-in: what Node handed on). */
  accepted(): number {
    const socket = this.sink.socket;
    if (socket) return socket.bytesWritten - socket.writableLength;
    return this.written - this.sink.writableLength;
  }

  /**
   * @internal One look: `accepted` taken before the kernel's `unacked` (null: unknown) was read. In
   * that order a write in between can only make the client look behind, never make it look as if it
   * took something: the other order counted every write during the read of /proc as progress.
   */
  check(accepted: number, unacked: number | null, now: number): void {
    if (this.stopped) return;
    this.unacked = unacked ?? 0;
    const taken = accepted - this.unacked;
    if (taken > this.taken || this.backlog === 0) this.lastProgressAt = now;
    this.taken = Math.max(this.taken, taken);
    if (now - this.lastProgressAt >= this.stallMs) {
      this.stop();
      this.onStalled();
      return;
    }
    this.onTick();
  }
}

/**
 * One look every POLL_MS while anything is watched, the next armed only once this one settled (a
 * slow read of /proc never overlaps the next). A callback that throws is that stream's failure, not
 * the process's: the rejection is caught here instead of ending the server as an unhandled one.
 */
function schedulePoll(): void {
  if (poller) return;
  const timer: NodeJS.Timeout = setTimeout(() => {
    void pollAll()
      .catch(() => undefined)
      .finally(() => {
        // Only this chain's own timer is let go: a stop() and a new watch meanwhile started another.
        if (poller !== timer) return;
        poller = null;
        if (watches.size > 0) schedulePoll();
      });
  }, POLL_MS).unref();
  poller = timer;
}

async function pollAll(): Promise<void> {
  const current = [...watches];
  const inodes = await Promise.all(current.map((w) => w.socketInode()));
  const sampled = current.map((watch, i) => ({ watch, inode: inodes[i], accepted: watch.accepted() }));
  const wanted = new Set(inodes.filter((i): i is string => i !== null));
  const queues = wanted.size > 0 ? await kernelSendQueues(wanted) : new Map<string, number>();
  const now = Date.now();
  for (const { watch, inode, accepted } of sampled) {
    try {
      watch.check(accepted, inode ? (queues.get(inode) ?? null) : null, now);
    } catch {
      watch.stop();
    }
  }
}

/** tx_queue (bytes sent and not acknowledged) of the TCP sockets `wanted`, by inode. */
async function kernelSendQueues(wanted: Set<string>): Promise<Map<string, number>> {
  const queues = new Map<string, number>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const text = await readFile(file, 'utf8').catch(() => '');
    for (const line of text.split('\n').slice(1)) {
      // sl local rem st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode ...
      const fields = line.trim().split(/\s+/);
      const txQueue = fields[4]?.split(':')[0];
      const inode = fields[9];
      if (txQueue === undefined || inode === undefined || !wanted.has(inode)) continue;
      queues.set(inode, parseInt(txQueue, 16));
    }
  }
  return queues;
}
