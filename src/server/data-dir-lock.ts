// One live Boardroom per data directory. The data directory holds a replica's identity (its
// replica id: a restarted replica fails the runs of its previous start), its embedded database and
// its pid and login-link files; a second server on it would take the first one's live runs for its
// own leftovers and end them. `run` holds this lock for its whole life and refuses to start without
// it; the CLI commands that may start a temporary embedded database take it for as long as that
// database runs, and otherwise attach to the holder's database.
//
// The lock is a listening unix socket, since Node has no flock(): bind() fails while a live process
// listens on the address, and the kernel closes the socket when its process dies however it dies
// (SIGKILL, OOM), so the lock can never outlive its holder the way a pid file does. On Linux it is an
// abstract-namespace socket (no file, no 107-byte path limit, no stale file to remove, so taking it
// is one atomic bind) named from a hash of the data directory's real path, so two spellings of one
// directory share a lock. The abstract namespace belongs to a network namespace: containers with
// their own network that share one data directory volume do not see each other's lock (give each
// replica its own data directory, as docs/operations.md says). Elsewhere it is a socket file in the data
// directory; a file whose connect is refused was left by a dead process and is replaced.
//
// Whoever connects is told the holder's pid, which the refusal names, and, once the holder is a
// server listening for HTTP, its address: `boardroom login-link` builds its link on it, so the link
// names the port the server really took (--port, or the next free one), never a guess from flags.
// It is a JSON line, `{"pid":123,"url":"http://127.0.0.1:3300"}` (url null until then, and for a
// CLI command's temporary hold).
import { createHash } from 'node:crypto';
import { realpath, rm } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';

export interface DataDirLock {
  /** From now on, tell whoever asks that the holder serves HTTP at `url`. */
  announceServer(url: string): void;
  release(): Promise<void>;
}

/** The process holding a data directory's lock: its pid, and its HTTP address when it is a server. */
export interface LockHolder {
  pid: number | null;
  url: string | null;
}

type LockAttempt = { lock: DataDirLock } | { heldBy: LockHolder };

const ABSTRACT_SOCKETS = process.platform === 'linux';
// A holder that is just dying (socket closing) can refuse a connect once; this many tries, 50 ms apart.
const ATTEMPTS = 5;
const ASK_TIMEOUT_MS = 2_000;

async function lockAddress(dataDir: string): Promise<string> {
  const real = await realpath(dataDir);
  if (!ABSTRACT_SOCKETS) return path.join(real, 'boardroom.lock');
  return `\0boardroom-data-dir-${createHash('sha256').update(real).digest('hex').slice(0, 32)}`;
}

/** Takes the data directory's lock, or says who holds it (null: a holder that would not say). */
export async function tryLockDataDir(dataDir: string): Promise<LockAttempt> {
  const address = await lockAddress(dataDir);
  for (let attempt = 1; ; attempt++) {
    const server = await listenOn(address);
    if (server) {
      const answer: LockHolder = { pid: process.pid, url: null };
      server.on('connection', (socket) => socket.end(`${JSON.stringify(answer)}\n`));
      // The lock must not keep a finished CLI command alive.
      server.unref();
      return {
        lock: {
          announceServer: (url) => (answer.url = url),
          release: () => new Promise<void>((resolve) => server.close(() => resolve())),
        },
      };
    }
    const holder = await askHolder(address);
    if (holder !== 'refused') return { heldBy: holder };
    // Nobody listens: a socket file left by a dead process (abstract addresses leave none).
    if (!ABSTRACT_SOCKETS) await rm(address, { force: true });
    if (attempt >= ATTEMPTS) return { heldBy: { pid: null, url: null } };
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Who holds the data directory's lock, without taking it; null when nobody does (or the directory does not exist). */
export async function lockHolder(dataDir: string): Promise<LockHolder | null> {
  let address: string;
  try {
    address = await lockAddress(dataDir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  const holder = await askHolder(address);
  return holder === 'refused' ? null : holder;
}

/** The lock for `run`: refused, with the holder's pid, while another live process holds it. */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  const attempt = await tryLockDataDir(dataDir);
  if ('lock' in attempt) return attempt.lock;
  const who = attempt.heldBy.pid === null ? 'another process' : `pid ${attempt.heldBy.pid}`;
  throw new Error(
    `Boardroom is already running for ${dataDir} (${who}). A data directory belongs to one running server: give each replica its own (--data-dir or BOARDROOM_HOME).`,
  );
}

function listenOn(address: string): Promise<net.Server | null> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', (err: NodeJS.ErrnoException) => (err.code === 'EADDRINUSE' ? resolve(null) : reject(err)));
    server.listen(address, () => resolve(server));
  });
}

/** What the holder says of itself; 'refused' when nobody listens there. */
function askHolder(address: string): Promise<LockHolder | 'refused'> {
  return new Promise((resolve) => {
    let answer = '';
    const socket = net.connect(address);
    socket.setTimeout(ASK_TIMEOUT_MS, () => socket.destroy());
    socket.on('data', (d) => (answer += d));
    socket.on('error', (err: NodeJS.ErrnoException) =>
      resolve(err.code === 'ECONNREFUSED' || err.code === 'ENOENT' ? 'refused' : { pid: null, url: null }),
    );
    socket.on('close', () => resolve(parseHolder(answer)));
  });
}

/** A holder that would not say (a timeout, an unexpected answer) is known by nothing. */
function parseHolder(answer: string): LockHolder {
  try {
    const { pid, url } = JSON.parse(answer) as { pid?: unknown; url?: unknown };
    return {
      pid: Number.isInteger(pid) && (pid as number) > 0 ? (pid as number) : null,
      url: typeof url === 'string' ? url : null,
    };
  } catch {
    return { pid: null, url: null };
  }
}
