// Starts a real `boardroom run` on a fresh data directory, as a user would, and attaches to its database.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedCluster } from '../../src/db/embedded.ts';

/** The server's pool size: the ceiling's pool gets the same. */
export { POOL_SIZE as SERVER_POOL_SIZE } from '../../src/db/client.ts';

export interface BenchServer {
  base: URL;
  token: string;
  databaseUrl: string;
  pid: number;
  dataDir: string;
  stop(): Promise<void>;
}

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface BenchServerOptions {
  /** A checkout whose bin/boardroom.js to run (default: this one), e.g. a snapshot of the code before a change. */
  root?: string;
  /** The server's log level; default `info`, as shipped, so logging costs what it costs in production. */
  logLevel?: string;
  /** Extra node flags for the server process, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`. */
  nodeArgs?: string[];
}

/** A `boardroom run` child process. */
export interface BoardroomProcess {
  child: ChildProcess;
  base: URL;
  /** bin/boardroom.js of the checkout it runs, and its environment: for CLI commands beside it. */
  bin: string;
  env: NodeJS.ProcessEnv;
  /**
   * With `watchStart`: resolves once "listening on" is logged, when the start is over (the engine runs
   * too; /api/health answers 200 before that), rejects if the process exits first. Otherwise null.
   */
  listening: Promise<void> | null;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
}

/**
 * Spawns `boardroom run --data-dir <dataDir> --port <port> --strict-port`, as a user would. Its logs
 * go to /dev/null (serialized and written like anywhere, with no reader to compete for the cores),
 * unless `watchStart` reads them for the end of the start.
 */
export function spawnBoardroom(
  dataDir: string,
  port: number,
  opts: BenchServerOptions & { watchStart?: boolean } = {},
): BoardroomProcess {
  const bin = path.join(opts.root ?? ROOT, 'bin/boardroom.js');
  const env = { ...process.env, BOARDROOM_LOG_LEVEL: opts.logLevel ?? 'info', DATABASE_URL: '' };
  const child = spawn(
    process.execPath,
    [...(opts.nodeArgs ?? []), bin, '--data-dir', dataDir, '--port', String(port), '--strict-port', 'run'],
    { env, stdio: ['ignore', opts.watchStart ? 'pipe' : 'ignore', 'inherit'] },
  );
  const exited = new Promise<number | null>((r) => child.once('exit', r));
  return {
    child,
    base: new URL(`http://127.0.0.1:${port}`),
    bin,
    env,
    listening: opts.watchStart ? startOver(child, exited) : null,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

function startOver(child: ChildProcess, exited: Promise<number | null>): Promise<void> {
  const over = new Promise<void>((resolve, reject) => {
    let pending = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      const lines = (pending + chunk.toString()).split('\n');
      pending = lines.pop()!;
      for (const line of lines)
        if (line.startsWith('{') && (JSON.parse(line) as { msg?: string }).msg?.startsWith('listening on')) resolve();
    });
    void exited.then((code) => reject(new Error(`server exited (${code}) before its start was over`)));
  });
  // Whoever waits for it sees the rejection; one that nobody waits for (a failed start) is not a crash.
  over.catch(() => undefined);
  return over;
}

/** Resolves at the first 200 from GET /api/health (polled every 20 ms, so a start is timed to within that). */
export async function waitForHealth(server: BoardroomProcess, timeoutMs = 120_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (server.child.exitCode !== null) throw new Error(`server exited during start (${server.child.exitCode})`);
    try {
      const res = await fetch(new URL('/api/health', server.base));
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`server did not become healthy within ${timeoutMs} ms`);
}

/** A board key made by `boardroom board-key create`, attached to the running server's database. */
export function createBoardKey(server: BoardroomProcess, dataDir: string, name: string): string {
  return execFileSync(process.execPath, [server.bin, '--data-dir', dataDir, 'board-key', 'create', '--name', name], {
    env: { ...server.env, BOARDROOM_LOG_LEVEL: 'warn' },
  })
    .toString()
    .trim();
}

export async function startBenchServer(port: number, opts: BenchServerOptions = {}): Promise<BenchServer> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'boardroom-bench-'));
  const server = spawnBoardroom(dataDir, port, opts);
  await waitForHealth(server);
  const token = createBoardKey(server, dataDir, 'bench');
  const cluster = await startEmbeddedCluster({ dataDir, attach: true });
  return {
    base: server.base,
    token,
    databaseUrl: cluster.url,
    pid: server.child.pid!,
    dataDir,
    async stop() {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Resident memory in MiB: the server's RSS, and the PSS summed over every process of the cluster. */
export async function memoryMiB(server: BenchServer): Promise<{ serverRss: number; databasePss: number }> {
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(await readFile(`/proc/${server.pid}/status`, 'utf8'))?.[1] ?? 0);
  const postmaster = Number((await readFile(path.join(server.dataDir, 'db', 'postmaster.pid'), 'utf8')).split('\n')[0]);
  const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(postmaster)])
    .toString()
    .trim()
    .split(/\s+/)
    .map(Number);
  let pssKb = 0;
  for (const pid of [postmaster, ...children]) {
    try {
      pssKb += Number(/Pss:\s+(\d+)/.exec(await readFile(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
    } catch {
      // a backend that exited meanwhile
    }
  }
  return { serverRss: rssKb / 1024, databasePss: pssKb / 1024 };
}
