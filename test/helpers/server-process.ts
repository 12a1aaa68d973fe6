// Real `boardroom` child processes for the platform and CLI tests: spawn, wait, signal, clean up.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after } from 'node:test';
import pg from 'pg';

const BIN = fileURLToPath(new URL('../../bin/boardroom.js', import.meta.url));
// Test processes must not inherit the runner's database or mode settings.
const CLEARED_ENV = [
  'DATABASE_URL',
  'BOARDROOM_HOME',
  'BOARDROOM_PORT',
  'BOARDROOM_HOST',
  'BOARDROOM_DEPLOYMENT_MODE',
  'BOARDROOM_LOG_LEVEL',
];

export interface ServerProcess {
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** The base URL from the "listening on" log line. */
  baseUrl(): Promise<string>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const live = new Set<ChildProcess>();
after(() => {
  for (const child of live) child.kill('SIGKILL');
});

function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of CLEARED_ENV) delete env[name];
  return { ...env, ...extra };
}

export function spawnServer(args: string[], env: Record<string, string> = {}): ServerProcess {
  const child = spawn(process.execPath, [BIN, 'run', ...args], {
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => {
      live.delete(child);
      resolve({ code, signal });
    }),
  );
  const baseUrl = async () => {
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      for (const line of out.split('\n')) {
        if (!line.startsWith('{')) continue;
        const entry = JSON.parse(line) as { msg?: string; url?: string };
        if (entry.msg?.startsWith('listening on') && entry.url) return entry.url;
      }
      if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${out}`);
      await sleep(25);
    }
    throw new Error(`server did not start:\n${out}`);
  };
  return { child, output: () => out, baseUrl, exited };
}

/** Polls GET /api/health until it answers 200; returns when it did. */
export async function waitForHealth(url: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(20);
  }
  throw new Error(`${url}/api/health did not answer 200 within ${timeoutMs} ms`);
}

export function runCli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    live.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    child.on('exit', (code) => {
      live.delete(child);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A temporary directory removed when the file's tests end. */
export async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A fresh, empty database on the test cluster, dropped when the file's tests end. */
export async function freshDatabase(): Promise<string> {
  const base = process.env.BOARDROOM_TEST_DATABASE_URL;
  if (!base) throw new Error('run tests with `npm test`');
  const name = `p_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  after(async () => {
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  });
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
