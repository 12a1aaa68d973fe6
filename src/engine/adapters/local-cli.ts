// What the local coding-CLI runtimes (claude_local, codex_local) share: the adapterConfig they
// accept beyond their own flags, the "resume rejected: forget it and start fresh, once" rule, and
// testEnvironment (binary, version, credentials hint, working directory).
import { execFile } from 'node:child_process';
import { stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { BILLING_TYPES, MAX_TOKENS } from '../../modules/costs/schemas.ts';
import { MAX_SESSION_ID_CHARS } from '../sessions.ts';
import { checkCwd, failed, findExecutable, formatZodError, superviseProcess } from './supervise.ts';
import type { AdapterOutcome, AdapterRunContext, EnvironmentCheck } from './types.ts';

/**
 * A stream-json line of a coding CLI can carry a whole file (a tool result, a long answer): far
 * more than the process adapter's 64 KiB structured lines, still bounded so a runaway line cannot
 * exhaust memory. A longer line is skipped by the parser (it stays in the log).
 */
export const CLI_MAX_LINE_CHARS = 8 * 1024 * 1024;
const VERSION_TIMEOUT_MS = 5_000;

/** The keys every local CLI adapter accepts; each adds its own flags. */
export const localCliConfigFields = {
  /** The binary: a name looked up on PATH or a path (default: the CLI's own name). */
  command: z.string().trim().min(1).max(4096).optional(),
  /** Extra arguments, placed after the adapter's own flags. */
  args: z.array(z.string().max(65536)).max(512).default([]),
  cwd: z.string().min(1).max(4096).optional(),
  env: z.record(z.string().max(256), z.unknown()).optional(),
  timeoutSec: z.number().positive().max(7 * 24 * 3600).optional(),
  graceSec: z.number().nonnegative().max(3600).optional(),
  model: z.string().trim().min(1).max(200).optional(),
  /** How the CLI's usage is paid; the adapter cannot tell a subscription login from an API key. */
  billingType: z.enum(BILLING_TYPES).optional(),
  /** Unset or true: the CLI gets the `boardroom` MCP server (src/mcp); false opts out (the API stays reachable through the skill). */
  mcp: z.boolean().optional(),
};

export function parseConfig<T extends z.ZodTypeAny>(schema: T, ctx: AdapterRunContext, type: string): { config: z.output<T> } | { error: string } {
  const parsed = schema.safeParse(ctx.agent.adapterConfig);
  return parsed.success ? { config: parsed.data } : { error: `invalid ${type} adapter config: ${formatZodError(parsed.error)}` };
}

/** A session id from a child's output, fit to be stored and passed back as an argument; else null. */
export function usableSessionId(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_SESSION_ID_CHARS && !value.startsWith('-') ? value : null;
}

/** One run of the CLI: its outcome, and whether it failed because the CLI refused the session it was asked to resume. */
export interface Attempt {
  outcome: AdapterOutcome;
  resumeRejected: boolean;
}

/**
 * Runs the CLI resuming ctx.sessionId; when the CLI rejects that session (expired, deleted, from
 * another machine), forgets it and runs once more without it, within the same deadline: the run
 * then still does its work, in a fresh session.
 */
export async function runWithResumeFallback(ctx: AdapterRunContext, attempt: (sessionId: string | null, deadline: number) => Promise<Attempt>): Promise<AdapterOutcome> {
  const deadline = Date.now() + Math.max(0, ctx.timeoutSec) * 1000;
  const first = await attempt(ctx.sessionId, deadline);
  if (!ctx.sessionId || !first.resumeRejected || first.outcome.status !== 'failed') return first.outcome;
  ctx.onSession(null);
  ctx.onLog('stderr', `\n[boardroom] the CLI rejected session ${ctx.sessionId}: starting a fresh session\n`);
  return (await attempt(null, deadline)).outcome;
}

/** A local coding CLI as an adapter sees it: its config, its invocation, its stream and how it refuses a resume. */
export interface LocalCli<C extends { command?: string | undefined }> {
  type: string;
  schema: z.ZodType<C>;
  defaultCommand: string;
  args(config: C, sessionId: string | null): string[];
  stream(
    ctx: AdapterRunContext,
    config: C,
  ): { onObject(obj: Record<string, unknown>): void; finish(outcome: AdapterOutcome, stderrTail: string): { outcome: AdapterOutcome; errorText: string } };
  /** Matched against the stream's and stderr's error text of a run that resumed a session. */
  resumeRejected: RegExp;
}

/** One heartbeat of a local CLI: config checked, the CLI supervised and its stream parsed, a rejected resume retried fresh once. */
export async function executeLocalCli<C extends { command?: string | undefined }>(ctx: AdapterRunContext, cli: LocalCli<C>): Promise<AdapterOutcome> {
  const parsed = parseConfig(cli.schema, ctx, cli.type);
  if ('error' in parsed) return failed(parsed.error);
  const config = parsed.config;
  return runWithResumeFallback(ctx, async (sessionId, deadline): Promise<Attempt> => {
    const stream = cli.stream(ctx, config);
    const run = await superviseProcess(ctx, { command: config.command ?? cli.defaultCommand, args: cli.args(config, sessionId), onObject: stream.onObject, maxLineChars: CLI_MAX_LINE_CHARS, deadline });
    const { outcome, errorText } = stream.finish(run.outcome, run.stderrTail);
    return { outcome, resumeRejected: sessionId !== null && cli.resumeRejected.test(errorText) };
  });
}

export interface CliEnvironmentSpec {
  schema: z.ZodTypeAny;
  defaultCommand: string;
  /** Environment variable holding an API key, and the config folder under HOME a login leaves. */
  apiKeyEnv: string;
  configDir: string;
}

/** testEnvironment of a local CLI: config valid, binary found and its --version, a credentials hint, cwd writable. */
export async function testCliEnvironment(raw: Record<string, unknown>, spec: CliEnvironmentSpec): Promise<EnvironmentCheck> {
  const parsed = spec.schema.safeParse(raw);
  if (!parsed.success) return { ok: false, checks: [{ name: 'config', ok: false, detail: formatZodError(parsed.error) }] };
  const config = parsed.data as { command?: string; cwd?: string; env?: Record<string, unknown> };
  const checks: EnvironmentCheck['checks'] = [{ name: 'config', ok: true, detail: 'valid' }];
  const command = config.command ?? spec.defaultCommand;
  const configuredPath = config.env?.PATH;
  const found = await findExecutable(command, config.cwd, typeof configuredPath === 'string' ? configuredPath : process.env.PATH);
  checks.push({ name: 'command', ok: found !== null, detail: found ? `found at ${found}` : `${command} not found or not executable` });
  if (found) {
    const version = await new Promise<{ ok: boolean; detail: string }>((resolve) => {
      execFile(found, ['--version'], { timeout: VERSION_TIMEOUT_MS, maxBuffer: 64 * 1024 }, (err, stdout, stderr) => {
        const text = `${stdout}`.trim() || `${stderr}`.trim();
        resolve(err ? { ok: false, detail: `${command} --version failed: ${err.message.split('\n')[0]}` } : { ok: true, detail: text.split('\n')[0]?.slice(0, 200) || '(no output)' });
      });
    });
    checks.push({ name: 'version', ...version });
  }
  // A hint, never a failure: a CLI can also be logged in through a keychain this check cannot see.
  const home = typeof config.env?.HOME === 'string' ? config.env.HOME : os.homedir();
  const dir = path.join(home, spec.configDir);
  const hasDir = await stat(dir).then((s) => s.isDirectory(), () => false);
  const hasKey = config.env?.[spec.apiKeyEnv] !== undefined;
  checks.push({
    name: 'credentials',
    ok: true,
    detail: hasKey
      ? `${spec.apiKeyEnv} is set in adapterConfig.env`
      : hasDir
        ? `no ${spec.apiKeyEnv} in adapterConfig.env; ${dir} exists (a CLI login, probably)`
        : `hint: no ${spec.apiKeyEnv} in adapterConfig.env and no ${dir}: log the CLI in or set the key (a secret reference)`,
  });
  checks.push(await checkCwd(config.cwd));
  return { ok: checks.every((c) => c.ok), checks };
}

/** The summary a run keeps from a CLI's final answer: enough to read, bounded like any stored result. */
export const MAX_SUMMARY_CHARS = 64 * 1024;

export function bounded(text: string, max = MAX_SUMMARY_CHARS): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** The last non-empty line of a stderr tail: a CLI's own one-line reason for failing. */
export function lastLine(text: string): string | null {
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  return lines.length > 0 ? lines[lines.length - 1]!.slice(0, 1000) : null;
}

/** A token count from a CLI's JSON: a non-negative integer, else 0 (a format change must not fail a run). */
export function tokens(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? Math.min(value, MAX_TOKENS) : 0;
}

/** A JSON value as an object, or null (stream events are untrusted shapes). */
export const record = (value: unknown): Record<string, unknown> | null => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null);

/** total_cost_usd in whole cents, rounded up like priced usage (via micro-dollars, so 0.07 is 7, not 8). */
export function usdToCents(usd: number): number {
  return Math.ceil(Math.round(usd * 1_000_000) / 10_000);
}
