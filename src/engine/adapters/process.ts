// The `process` adapter: a run is one local command. It gets the wake prompt on stdin and the run
// env (SERVICE_* contract), prints what it does, and may report usage and a result as JSON lines.
//
// The command runs in its own process group (detached) so a stop reaches everything it started:
// SIGTERM to the group, SIGKILL after grace. Whatever is left in the group when the leader exits
// is swept the same way, so a run never leaves an orphan behind.
import { spawn } from 'node:child_process';
import { constants as fsConstants } from 'node:fs';
import { access, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { HARD_STOP, HARD_STOP_GRACE_MS, type AdapterOutcome, type AdapterRunContext, type AdapterUsage, type EnvironmentCheck, type ServerAdapter } from './types.ts';
import { usageReport } from './usage.ts';

export const processConfigSchema = z.object({
  command: z.string().trim().min(1).max(4096),
  args: z.array(z.string().max(65536)).max(512).default([]),
  cwd: z.string().min(1).max(4096).optional(),
  // Stored form: values may still be secret references; the engine resolves them into ctx.env.
  env: z.record(z.string().max(256), z.unknown()).optional(),
  timeoutSec: z.number().positive().max(7 * 24 * 3600).optional(),
  graceSec: z.number().nonnegative().max(3600).optional(),
});
export type ProcessConfig = z.infer<typeof processConfigSchema>;

/** A line longer than this is not a structured line: dropped from parsing (it stays in the log). */
export const MAX_LINE_CHARS = 64 * 1024;

const usageLine = usageReport.extend({ type: z.literal('usage') });

function formatZodError(err: z.ZodError): string {
  return err.issues.map((i) => `${i.path.join('.') || 'config'}: ${i.message}`).join('; ');
}

/** Splits stdout into lines across chunks, bounded, and hands each JSON object with a `type` to `onObject`. */
export function createLineParser(onObject: (obj: Record<string, unknown>) => void) {
  let buffer = '';
  let skipping = false; // inside an over-long line: drop until its newline
  const handle = (line: string) => {
    const text = line.trim();
    if (!text.startsWith('{')) return;
    try {
      const obj: unknown = JSON.parse(text);
      if (obj && typeof obj === 'object' && !Array.isArray(obj) && typeof (obj as { type?: unknown }).type === 'string') {
        onObject(obj as Record<string, unknown>);
      }
    } catch {
      // Not JSON: a plain log line that happens to start with a brace.
    }
  };
  return {
    push(chunk: string) {
      let rest = chunk;
      for (let nl = rest.indexOf('\n'); nl !== -1; nl = rest.indexOf('\n')) {
        if (!skipping) handle(buffer + rest.slice(0, nl));
        buffer = '';
        skipping = false;
        rest = rest.slice(nl + 1);
      }
      if (skipping) return;
      buffer += rest;
      if (buffer.length > MAX_LINE_CHARS) {
        buffer = '';
        skipping = true;
      }
    },
    end() {
      if (!skipping && buffer) handle(buffer);
      buffer = '';
    },
  };
}

function dispatchStructured(ctx: AdapterRunContext, obj: Record<string, unknown>): void {
  if (obj.type === 'usage') {
    const parsed = usageLine.safeParse(obj);
    if (parsed.success) {
      const { type: _type, ...usage } = parsed.data;
      ctx.onUsage(usage satisfies AdapterUsage);
    }
  } else if (obj.type === 'result') {
    const { type: _type, ...result } = obj;
    if (result.summary !== undefined && typeof result.summary !== 'string') return;
    ctx.onResult(result as { summary?: string });
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

/**
 * Whether any live process is left in the group. kill(-pgid, 0) alone also counts zombies, and
 * where PID 1 does not reap (some containers) orphans stay zombies forever; on Linux we look in
 * /proc for a member that is not one.
 */
async function groupAlive(pgid: number): Promise<boolean> {
  try {
    process.kill(-pgid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return true;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // Fields after the parenthesised name: state ppid pgrp ...
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[2] === String(pgid) && fields[0] !== 'Z') return true;
  }
  return false;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function execute(ctx: AdapterRunContext): Promise<AdapterOutcome> {
  const config = processConfigSchema.safeParse(ctx.agent.adapterConfig);
  if (!config.success) return failed(`invalid process adapter config: ${formatZodError(config.error)}`);
  if (ctx.signal.aborted) return { status: 'cancelled', exitCode: null, signal: null, error: null };

  const graceMs = Math.max(0, ctx.graceSec) * 1000;
  const child = spawn(config.data.command, config.data.args, {
    cwd: ctx.cwd,
    env: ctx.env,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  // Listen before the first await so neither an early exit nor a late 'error' goes unheard.
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const spawnError = await new Promise<Error | null>((resolve) => {
    child.once('spawn', () => resolve(null));
    child.on('error', (err) => resolve(err));
  });
  const pgid = child.pid;
  if (spawnError || pgid === undefined) return failed(`could not start ${config.data.command}: ${spawnError?.message ?? 'no pid'}`);
  ctx.onSpawn?.(pgid);

  // A command that never reads stdin closes it early: EPIPE is not a failure of the run.
  child.stdin.on('error', () => undefined);
  child.stdin.end(ctx.prompt);

  const parser = createLineParser((obj) => dispatchStructured(ctx, obj));
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    ctx.onLog('stdout', chunk);
    parser.push(chunk);
  });
  child.stderr.on('data', (chunk: string) => ctx.onLog('stderr', chunk));

  let stopReason: 'timed_out' | 'cancelled' | null = null;
  let killTimer: NodeJS.Timeout | undefined;
  let terminating = false;
  const terminate = () => {
    if (terminating) return;
    terminating = true;
    signalGroup(pgid, 'SIGTERM');
    killTimer = setTimeout(() => signalGroup(pgid, 'SIGKILL'), ctx.signal.reason === HARD_STOP ? Math.min(graceMs, HARD_STOP_GRACE_MS) : graceMs);
  };
  let leaderDone = false;
  const stop = (reason: 'timed_out' | 'cancelled') => {
    if (leaderDone || stopReason) return;
    stopReason = reason;
    terminate();
  };
  const timeoutTimer = setTimeout(() => stop('timed_out'), Math.max(0, ctx.timeoutSec) * 1000);
  const onAbort = () => stop('cancelled');
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  if (ctx.signal.aborted) onAbort(); // aborted while we waited for the spawn

  const exit = await exited;
  leaderDone = true;
  clearTimeout(timeoutTimer);
  ctx.signal.removeEventListener('abort', onAbort);

  // Sweep: whatever the leader left in its group gets the same SIGTERM-then-SIGKILL treatment.
  if (await groupAlive(pgid)) {
    terminate();
    const giveUp = Date.now() + graceMs + 2000;
    while ((await groupAlive(pgid)) && Date.now() < giveUp) await sleep(50);
  }
  clearTimeout(killTimer);
  // Output already written is still in the pipes; a process that left the group (setsid) may
  // hold them open, so draining is bounded.
  await Promise.race([closed, sleep(1000)]);
  child.stdout.destroy();
  child.stderr.destroy();
  parser.end();

  const signal = exit.signal ?? null;
  if (stopReason) return { status: stopReason, exitCode: exit.code, signal, error: null };
  if (exit.code === 0) return { status: 'succeeded', exitCode: 0, signal: null, error: null };
  const error = signal ? `process killed by ${signal}` : `process exited with code ${exit.code}`;
  return { status: 'failed', exitCode: exit.code, signal, error };
}

function failed(error: string): AdapterOutcome {
  return { status: 'failed', exitCode: null, signal: null, error };
}

async function findExecutable(command: string, cwd: string | undefined, envPath: string | undefined): Promise<string | null> {
  const isExecFile = async (file: string) => {
    try {
      await access(file, fsConstants.X_OK);
      return (await stat(file)).isFile();
    } catch {
      return false;
    }
  };
  if (command.includes('/')) {
    const file = path.resolve(cwd ?? process.cwd(), command);
    return (await isExecFile(file)) ? file : null;
  }
  for (const dir of (envPath ?? '').split(path.delimiter).filter(Boolean)) {
    const file = path.join(dir, command);
    if (await isExecFile(file)) return file;
  }
  return null;
}

async function testEnvironment(raw: Record<string, unknown>): Promise<EnvironmentCheck> {
  const parsed = processConfigSchema.safeParse(raw);
  if (!parsed.success) {
    return { ok: false, checks: [{ name: 'config', ok: false, detail: formatZodError(parsed.error) }] };
  }
  const config = parsed.data;
  const checks: EnvironmentCheck['checks'] = [{ name: 'config', ok: true, detail: 'valid' }];
  const configuredPath = config.env?.PATH;
  const envPath = typeof configuredPath === 'string' ? configuredPath : process.env.PATH;
  const found = await findExecutable(config.command, config.cwd, envPath);
  checks.push({
    name: 'command',
    ok: found !== null,
    detail: found ? `found at ${found}` : `${config.command} not found or not executable`,
  });
  if (config.cwd === undefined) {
    checks.push({ name: 'cwd', ok: true, detail: 'not set: the engine uses the project or agent workspace' });
  } else {
    let detail = 'exists and is writable';
    try {
      if (!(await stat(config.cwd)).isDirectory()) detail = `${config.cwd} is not a directory`;
      else await access(config.cwd, fsConstants.W_OK);
    } catch (err) {
      detail = (err as NodeJS.ErrnoException).code === 'ENOENT' ? `${config.cwd} does not exist` : `${config.cwd} is not writable`;
    }
    checks.push({ name: 'cwd', ok: detail === 'exists and is writable', detail });
  }
  return { ok: checks.every((c) => c.ok), checks };
}

const AGENT_CONFIGURATION_DOC = `process: runs a local command per heartbeat.
adapterConfig: command (required), args (string[]), cwd, env (values may be secret references),
timeoutSec, graceSec. The wake prompt arrives on stdin; the SERVICE_* env describes the run.
Print {"type":"usage",provider,model,inputTokens,cachedInputTokens,outputTokens,costCents,billingType}
and {"type":"result","summary":"..."} as single JSON lines on stdout; everything else is log.`;

/** Package-style factory: the registry loads built-ins exactly as it loads external adapters. */
export function createServerAdapter(): ServerAdapter {
  return {
    type: 'process',
    label: 'Local process',
    models: [],
    agentConfigurationDoc: AGENT_CONFIGURATION_DOC,
    execute,
    testEnvironment,
  };
}
