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

async function waitForHealth(base: URL, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error('server exited during start');
    try {
      const res = await fetch(new URL('/api/health', base));
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not become healthy');
}

export async function startBenchServer(port: number, opts: BenchServerOptions = {}): Promise<BenchServer> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'boardroom-bench-'));
  const bin = path.join(opts.root ?? ROOT, 'bin/boardroom.js');
  const env = { ...process.env, BOARDROOM_LOG_LEVEL: opts.logLevel ?? 'info', DATABASE_URL: '' };
  // Logs go to /dev/null: serialized and written like anywhere, with no reader to compete for the cores.
  const child = spawn(
    process.execPath,
    [...(opts.nodeArgs ?? []), bin, '--data-dir', dataDir, '--port', String(port), '--strict-port', 'run'],
    {
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const base = new URL(`http://127.0.0.1:${port}`);
  await waitForHealth(base, child);
  const token = execFileSync(process.execPath, [bin, '--data-dir', dataDir, 'board-key', 'create', '--name', 'bench'], {
    env: { ...env, BOARDROOM_LOG_LEVEL: 'warn' },
  })
    .toString()
    .trim();
  const cluster = await startEmbeddedCluster({ dataDir, attach: true });
  return {
    base,
    token,
    databaseUrl: cluster.url,
    pid: child.pid!,
    dataDir,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
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
