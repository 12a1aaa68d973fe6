// The ceiling: a bare Fastify route doing one `SELECT 1` on a pg pool, against the bench server's
// own database, in a process of its own. It is what any route of ours would cost with no hooks,
// auth, logging or serialization of our own; each scenario is measured beside it, with the same
// load generator at the same concurrency, and reported as a ratio to it, which stays stable on a
// noisy 2-core machine where absolute rates do not.
//
// Run as a script (`node --import tsx bench/lib/ceiling.ts <databaseUrl> <port> <poolSize>`) it is
// the server; imported, startCeiling() spawns that script.
import { spawn } from 'node:child_process';
import path from 'node:path';
import Fastify from 'fastify';
import pg from 'pg';
import { Client } from './load.ts';

export interface Ceiling {
  base: URL;
  /** The path of its one route. */
  path: string;
  pid: number;
  stop(): Promise<void>;
}

const ROUTE = '/ceiling';
const WARMUP_MS = 3_000;
const ROOT = path.resolve(import.meta.dirname, '../..');

export async function startCeiling(databaseUrl: string, port: number, poolSize: number): Promise<Ceiling> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', import.meta.filename, databaseUrl, String(port), String(poolSize)],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('ready\n')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`ceiling process exited (${code}) before it was ready`)));
  });
  const base = new URL(`http://127.0.0.1:${port}`);
  // A cold process answers at a fraction of its rate until its pool is full and its code compiled.
  const warm = new Client(base, '');
  await warm.load(() => ({ method: 'GET', path: ROUTE }), { concurrency: 10, durationMs: WARMUP_MS });
  warm.close();
  return {
    base,
    path: ROUTE,
    pid: child.pid!,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

async function serve(databaseUrl: string, port: number, poolSize: number): Promise<void> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });
  const app = Fastify({ logger: false });
  app.get(ROUTE, async () => {
    await pool.query('select 1');
    return { status: 'ok' };
  });
  await app.listen({ host: '127.0.0.1', port });
  process.on('SIGTERM', () => {
    void app
      .close()
      .then(() => pool.end())
      .finally(() => process.exit(0));
  });
  process.stdout.write('ready\n');
}

if (process.argv[1] === import.meta.filename) {
  const [databaseUrl, port, poolSize] = process.argv.slice(2);
  await serve(databaseUrl!, Number(port), Number(poolSize));
}
