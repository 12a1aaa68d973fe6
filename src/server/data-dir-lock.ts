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
// Whoever connects is told the holder's pid, which the refusal names.
import { createHash } from 'node:crypto';
import { realpath, rm } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';

export interface DataDirLock {
  release(): Promise<void>;
}

type LockAttempt = { lock: DataDirLock } | { heldBy: number | null };

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
      server.on('connection', (socket) => socket.end(`${process.pid}\n`));
      // The lock must not keep a finished CLI command alive.
      server.unref();
      return { lock: { release: () => new Promise<void>((resolve) => server.close(() => resolve())) } };
    }
    const holder = await askHolder(address);
    if (holder !== 'refused') return { heldBy: holder };
    // Nobody listens: a socket file left by a dead process (abstract addresses leave none).
    if (!ABSTRACT_SOCKETS) await rm(address, { force: true });
    if (attempt >= ATTEMPTS) return { heldBy: null };
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The lock for `run`: refused, with the holder's pid, while another live process holds it. */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  const attempt = await tryLockDataDir(dataDir);
  if ('lock' in attempt) return attempt.lock;
  const who = attempt.heldBy === null ? 'another process' : `pid ${attempt.heldBy}`;
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

/** The holder's pid; 'refused' when nobody listens there. */
function askHolder(address: string): Promise<number | null | 'refused'> {
  return new Promise((resolve) => {
    let answer = '';
    const socket = net.connect(address);
    socket.setTimeout(ASK_TIMEOUT_MS, () => socket.destroy());
    socket.on('data', (d) => (answer += d));
    socket.on('error', (err: NodeJS.ErrnoException) =>
      resolve(err.code === 'ECONNREFUSED' || err.code === 'ENOENT' ? 'refused' : null),
    );
    socket.on('close', () => {
      const pid = Number(answer.trim());
      resolve(Number.isInteger(pid) && pid > 0 ? pid : null);
    });
  });
}
