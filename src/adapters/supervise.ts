// Supervision of one local child process for a run, shared by every adapter that spawns one (the
// `process` adapter, the local CLI runtimes: claude_local, codex_local, gemini_local, opencode_local): there is one way to start,
// feed, watch and stop a run's process.
//
// The command runs in its own process group (detached) so a stop reaches everything it started:
// SIGTERM to the group, SIGKILL after grace (HARD_STOP: at most HARD_STOP_GRACE_MS). Whatever is
// left in the group when the leader exits is swept the same way, so a run never leaves an orphan.
import { spawn } from 'node:child_process';
import { constants as fsConstants } from 'node:fs';
import { access, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import type { RunErrorCode } from '../core/run-failures.ts';
import { HARD_STOP, HARD_STOP_GRACE_MS, type AdapterOutcome, type AdapterRunContext } from './types.ts';

/** A line longer than this is not a structured line: dropped from parsing (it stays in the log). */
export const MAX_LINE_CHARS = 64 * 1024;
/** How much of the end of stderr a supervised run keeps for its error message. */
const STDERR_TAIL_CHARS = 8 * 1024;

export function formatZodError(err: z.ZodError): string {
  return err.issues.map((i) => `${i.path.join('.') || 'config'}: ${i.message}`).join('; ');
}

/**
 * Splits output into lines across chunks, bounded (a line past `maxLineChars` is skipped up to its
 * newline, so memory stays bounded whatever the process prints), and hands each JSON object with a
 * string `type` to `onObject`.
 */
export function createLineParser(onObject: (obj: Record<string, unknown>) => void, maxLineChars = MAX_LINE_CHARS) {
  let buffer = '';
  let skipping = false; // inside an over-long line: drop until its newline
  const handle = (line: string) => {
    const text = line.trim();
    if (!text.startsWith('{')) return;
    try {
      const obj: unknown = JSON.parse(text);
      if (
        obj &&
        typeof obj === 'object' &&
        !Array.isArray(obj) &&
        typeof (obj as { type?: unknown }).type === 'string'
      ) {
        onObject(obj as Record<string, unknown>);
      }
    } catch {
      // Not JSON: a plain log line that happens to start with a brace.
    }
  };
  return {
    push(chunk: string) {
      let start = 0;
      for (let nl = chunk.indexOf('\n'); nl !== -1; nl = chunk.indexOf('\n', start)) {
        if (!skipping) handle(buffer + chunk.slice(start, nl));
        buffer = '';
        skipping = false;
        start = nl + 1;
      }
      if (skipping) return;
      buffer += chunk.slice(start);
      if (buffer.length > maxLineChars) {
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

export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
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
export async function groupAlive(pgid: number): Promise<boolean> {
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

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface SuperviseSpec {
  command: string;
  args: string[];
  /** Each structured stdout line (a JSON object with a string `type`), in order, as it arrives. */
  onObject(obj: Record<string, unknown>): void;
  /** Bound of one structured line (default MAX_LINE_CHARS). */
  maxLineChars?: number;
  /** Stop at this time (epoch ms) rather than ctx.timeoutSec from now: a retry inside one run keeps the run's deadline. */
  deadline?: number;
  /** Stop (timed_out) after this many seconds without new output (see createActivityTracker); 0 or unset: never. */
  inactivitySec?: number;
}

/** Longest part of an unfinished line kept to compare it with the previous line. */
const COMPARED_LINE_CHARS = 4096;

/**
 * Tells new output from a process repeating itself: `push` answers whether a chunk brought
 * activity, i.e. a complete line (ended by LF or CR) that differs from the previous line of the
 * same stream, or an unfinished line past COMPARED_LINE_CHARS (a long event being written). A CLI
 * stuck in a retry loop prints the same line again and again (Codex offline: `Reconnecting...
 * waiting for network` forever): that is not activity, so the inactivity limit still ends it.
 * A line that changes (a counter, a timestamp) counts.
 */
export function createActivityTracker() {
  const streams = {
    stdout: { partial: '', last: null as string | null },
    stderr: { partial: '', last: null as string | null },
  };
  return {
    push(stream: 'stdout' | 'stderr', chunk: string): boolean {
      const state = streams[stream];
      let active = false;
      let start = 0;
      for (let i = 0; i < chunk.length; i++) {
        const c = chunk.charCodeAt(i);
        if (c !== 10 && c !== 13) continue;
        const line = (state.partial + chunk.slice(start, i)).slice(0, COMPARED_LINE_CHARS).trim();
        state.partial = '';
        start = i + 1;
        if (line === '') continue;
        if (line !== state.last) active = true;
        state.last = line;
      }
      const rest = chunk.slice(start);
      if (state.partial.length > COMPARED_LINE_CHARS) {
        if (rest) active = true;
      } else {
        state.partial = (state.partial + rest).slice(0, COMPARED_LINE_CHARS + 1);
        if (state.partial.length > COMPARED_LINE_CHARS) active = true;
      }
      return active;
    },
  };
}

export interface Supervised {
  outcome: AdapterOutcome;
  /** The last STDERR_TAIL_CHARS of stderr: where a CLI says why it failed. */
  stderrTail: string;
}

/**
 * Runs one process for the run: prompt on stdin, stdout and stderr to ctx.onLog, structured stdout
 * lines to spec.onObject, pid to ctx.onSpawn; stopped at the deadline (timed_out) or on ctx.signal
 * (cancelled). Never throws: a process that cannot start is a failed outcome.
 */
export async function superviseProcess(ctx: AdapterRunContext, spec: SuperviseSpec): Promise<Supervised> {
  let stderrTail = '';
  const done = (outcome: AdapterOutcome): Supervised => ({ outcome, stderrTail });
  if (ctx.signal.aborted) return done({ status: 'cancelled', exitCode: null, signal: null, error: null });

  const graceMs = Math.max(0, ctx.graceSec) * 1000;
  const child = spawn(spec.command, spec.args, {
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
  if (spawnError || pgid === undefined) return done(await notStarted(spec.command, ctx.cwd, spawnError));
  ctx.onSpawn?.(pgid);

  // A command that never reads stdin closes it early: EPIPE is not a failure of the run.
  child.stdin.on('error', () => undefined);
  child.stdin.end(ctx.prompt);

  const parser = createLineParser(spec.onObject, spec.maxLineChars);
  const activity = createActivityTracker();
  let lastActive = Date.now();
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    ctx.onLog('stdout', chunk);
    parser.push(chunk);
    if (activity.push('stdout', chunk)) lastActive = Date.now();
  });
  child.stderr.on('data', (chunk: string) => {
    ctx.onLog('stderr', chunk);
    stderrTail = (stderrTail + chunk).slice(-STDERR_TAIL_CHARS);
    if (activity.push('stderr', chunk)) lastActive = Date.now();
  });

  let stopReason: 'deadline' | 'inactive' | 'cancelled' | null = null;
  let killTimer: NodeJS.Timeout | undefined;
  let terminating = false;
  const terminate = () => {
    if (terminating) return;
    terminating = true;
    signalGroup(pgid, 'SIGTERM');
    killTimer = setTimeout(
      () => signalGroup(pgid, 'SIGKILL'),
      ctx.signal.reason === HARD_STOP ? Math.min(graceMs, HARD_STOP_GRACE_MS) : graceMs,
    );
  };
  let leaderDone = false;
  const stop = (reason: 'deadline' | 'inactive' | 'cancelled') => {
    if (leaderDone || stopReason) return;
    stopReason = reason;
    terminate();
  };
  const deadline = spec.deadline ?? Date.now() + Math.max(0, ctx.timeoutSec) * 1000;
  const timeoutTimer = setTimeout(() => stop('deadline'), Math.max(0, deadline - Date.now()));
  const inactivityMs = Math.max(0, spec.inactivitySec ?? 0) * 1000;
  let inactivityTimer: NodeJS.Timeout | undefined;
  const watchActivity = () => {
    const quietFor = Date.now() - lastActive;
    if (quietFor >= inactivityMs) stop('inactive');
    else inactivityTimer = setTimeout(watchActivity, inactivityMs - quietFor);
  };
  if (inactivityMs > 0) inactivityTimer = setTimeout(watchActivity, inactivityMs);
  const onAbort = () => stop('cancelled');
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  if (ctx.signal.aborted) onAbort(); // aborted while we waited for the spawn

  const exit = await exited;
  leaderDone = true;
  clearTimeout(timeoutTimer);
  clearTimeout(inactivityTimer);
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
  if (stopReason === 'cancelled') return done({ status: 'cancelled', exitCode: exit.code, signal, error: null });
  if (stopReason === 'deadline')
    return done({
      status: 'timed_out',
      exitCode: exit.code,
      signal,
      error: `deadline of ${ctx.timeoutSec}s passed`,
      errorCode: 'timeout',
    });
  if (stopReason === 'inactive')
    return done({
      status: 'timed_out',
      exitCode: exit.code,
      signal,
      error: `no new output for ${spec.inactivitySec}s (inactivityTimeoutSec)`,
      errorCode: 'inactivity_timeout',
    });
  if (exit.code === 0) return done({ status: 'succeeded', exitCode: 0, signal: null, error: null });
  return done(
    signal
      ? {
          status: 'failed',
          exitCode: exit.code,
          signal,
          error: `process killed by ${signal}`,
          errorCode: 'process_killed',
        }
      : {
          status: 'failed',
          exitCode: exit.code,
          signal,
          error: `process exited with code ${exit.code}`,
          errorCode: 'process_exit_nonzero',
        },
  );
}

/**
 * Why a spawn failed. Node says ENOENT both for a command that does not exist and for a working
 * directory that does not: the directory is looked at to tell which.
 */
async function notStarted(command: string, cwd: string, err: Error | null): Promise<AdapterOutcome> {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (code === 'ENOENT') {
    const cwdExists = await stat(cwd).then(
      (s) => s.isDirectory(),
      () => false,
    );
    return cwdExists
      ? failed('command_not_found', `could not start ${command}: ${err?.message} (not on PATH, or no such file)`)
      : failed('workspace_unavailable', `could not start ${command}: the working directory ${cwd} does not exist`);
  }
  return failed('process_start_failed', `could not start ${command}: ${err?.message ?? 'no pid'}`);
}

export function failed(errorCode: RunErrorCode, error: string): AdapterOutcome {
  return { status: 'failed', exitCode: null, signal: null, error, errorCode };
}

/** The executable `command` names: a path (relative to cwd), or the first match on `envPath`. */
export async function findExecutable(
  command: string,
  cwd: string | undefined,
  envPath: string | undefined,
): Promise<string | null> {
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

/** The `cwd` check of testEnvironment: unset (the engine picks one), or an existing writable directory. */
export async function checkCwd(cwd: string | undefined): Promise<{ name: string; ok: boolean; detail: string }> {
  if (cwd === undefined)
    return { name: 'cwd', ok: true, detail: 'not set: the engine uses the project or agent workspace' };
  let detail = 'exists and is writable';
  try {
    if (!(await stat(cwd)).isDirectory()) detail = `${cwd} is not a directory`;
    else await access(cwd, fsConstants.W_OK);
  } catch (err) {
    detail = (err as NodeJS.ErrnoException).code === 'ENOENT' ? `${cwd} does not exist` : `${cwd} is not writable`;
  }
  return { name: 'cwd', ok: detail === 'exists and is writable', detail };
}
