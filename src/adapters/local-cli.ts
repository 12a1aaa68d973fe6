// What the local coding-CLI runtimes (claude_local, codex_local, gemini_local, opencode_local)
// share: the adapterConfig they accept beyond their own flags, the inactivity limit, the CLI's last
// error line on a run stopped for time, the "resume rejected: forget it and start fresh, once" rule,
// and testEnvironment (binary, version, credentials, working directory).
import { stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { BILLING_TYPES, MAX_TOKENS } from '../core/cost-bounds.ts';
import { MAX_SESSION_ID_CHARS } from './sessions.ts';
import { safeBaseEnv } from './run-env.ts';
import { askLogin, probeCli, type LoginProbe } from './cli-login.ts';
import { localProcessFields } from './config-fields.ts';
import { checkCwd, failed, findExecutable, formatZodError, superviseProcess } from './supervise.ts';
import type { AdapterOutcome, AdapterRunContext, EnvironmentCheck } from './types.ts';

/**
 * A stream-json line of a coding CLI can carry a whole file (a tool result, a long answer): far
 * more than the process adapter's 64 KiB structured lines, still bounded so a runaway line cannot
 * exhaust memory. A longer line is skipped by the parser (it stays in the log).
 */
export const CLI_MAX_LINE_CHARS = 8 * 1024 * 1024;

/** How long a CLI may stay silent (no new line on stdout or stderr) before its run is stopped, unless adapterConfig says otherwise. */
export const DEFAULT_INACTIVITY_TIMEOUT_SEC = 300;

/** The keys every local CLI adapter accepts; each adds its own flags. */
export function localCliConfigFields(defaultCommand: string) {
  return {
    command: z
      .string()
      .trim()
      .min(1)
      .max(4096)
      .default(defaultCommand)
      .describe('the CLI binary: a name looked up on PATH, or a path (relative to cwd)'),
    args: z
      .array(z.string().max(65536))
      .max(512)
      .default([])
      .describe("extra arguments, placed after the adapter's own flags"),
    ...localProcessFields,
    inactivityTimeoutSec: z
      .number()
      .int()
      .nonnegative()
      .max(7 * 24 * 3600)
      .default(DEFAULT_INACTIVITY_TIMEOUT_SEC)
      .describe(
        'stop the run (timed_out) when the CLI prints no new line for this many seconds; a line identical to the previous one on its stream (a retry loop) does not count; 0 disables',
      ),
    model: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .optional()
      .describe("the model, passed as --model; unset: the CLI's own default"),
    // The adapter cannot tell a subscription login from an API key.
    billingType: z
      .enum(BILLING_TYPES)
      .optional()
      .describe('how the usage is paid; unset: unknown for tokens (claude_local: metered_api for its reported cost)'),
  };
}

/** claude_local and codex_local hand the CLI the `boardroom` MCP server (src/mcp); false opts out (the API stays reachable through the skill). */
export const mcpField = z
  .boolean()
  .default(true)
  .describe('give the CLI the "boardroom" MCP server (the API as tools); false opts out');

export function parseConfig<T extends z.ZodTypeAny>(
  schema: T,
  ctx: AdapterRunContext,
  type: string,
): { config: z.output<T> } | { error: string } {
  const parsed = schema.safeParse(ctx.agent.adapterConfig);
  return parsed.success
    ? { config: parsed.data }
    : { error: `invalid ${type} adapter config: ${formatZodError(parsed.error)}` };
}

/** A session id from a child's output, fit to be stored and passed back as an argument; else null. */
export function usableSessionId(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_SESSION_ID_CHARS && !value.startsWith('-')
    ? value
    : null;
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
export async function runWithResumeFallback(
  ctx: AdapterRunContext,
  attempt: (sessionId: string | null, deadline: number) => Promise<Attempt>,
): Promise<AdapterOutcome> {
  const deadline = Date.now() + Math.max(0, ctx.timeoutSec) * 1000;
  const first = await attempt(ctx.sessionId, deadline);
  if (!ctx.sessionId || !first.resumeRejected || first.outcome.status !== 'failed') return first.outcome;
  ctx.onSession(null);
  ctx.onLog('stderr', `\n[boardroom] the CLI rejected session ${ctx.sessionId}: starting a fresh session\n`);
  return (await attempt(null, deadline)).outcome;
}

/** What executeLocalCli reads of every local CLI's parsed config. */
export interface LocalCliConfig {
  command: string;
  inactivityTimeoutSec: number;
}

export interface LocalCli<C extends LocalCliConfig> {
  type: string;
  schema: z.ZodType<C, unknown>;
  args(config: C, sessionId: string | null): string[];
  stream(
    ctx: AdapterRunContext,
    config: C,
  ): {
    onObject(obj: Record<string, unknown>): void;
    finish(outcome: AdapterOutcome, stderrTail: string): { outcome: AdapterOutcome; errorText: string };
  };
  /** Matched against the stream's and stderr's error text of a run that resumed a session. */
  resumeRejected: RegExp;
}

/** One heartbeat of a local CLI: config checked, the CLI supervised and its stream parsed, a rejected resume retried fresh once. */
export async function executeLocalCli<C extends LocalCliConfig>(
  ctx: AdapterRunContext,
  cli: LocalCli<C>,
): Promise<AdapterOutcome> {
  const parsed = parseConfig(cli.schema, ctx, cli.type);
  if ('error' in parsed) return failed('adapter_config_invalid', parsed.error);
  const config = parsed.config;
  return runWithResumeFallback(ctx, async (sessionId, deadline): Promise<Attempt> => {
    const stream = cli.stream(ctx, config);
    const run = await superviseProcess(ctx, {
      command: config.command,
      args: cli.args(config, sessionId),
      onObject: stream.onObject,
      maxLineChars: CLI_MAX_LINE_CHARS,
      deadline,
      inactivitySec: config.inactivityTimeoutSec,
    });
    const { outcome, errorText } = stream.finish(run.outcome, run.stderrTail);
    return {
      outcome: withLastWords(outcome, errorText),
      resumeRejected: sessionId !== null && cli.resumeRejected.test(errorText),
    };
  });
}

/**
 * A CLI stopped for time (deadline or silence) says nothing about why it got stuck, unless its own
 * last error line is kept: "deadline of 1800s passed" alone hides "Reconnecting... waiting for
 * network". errorText is the stream's error events, then the stderr tail: its last line is the
 * CLI's latest word.
 */
function withLastWords(outcome: AdapterOutcome, errorText: string): AdapterOutcome {
  if (outcome.status !== 'timed_out') return outcome;
  const said = lastLine(errorText);
  return said ? { ...outcome, error: `${outcome.error ?? 'stopped'}; the CLI's last error line: ${said}` } : outcome;
}

export interface CliEnvironmentSpec {
  schema: z.ZodType<LocalCliConfig & { cwd?: string | undefined; env?: Record<string, unknown> | undefined }, unknown>;
  /** Environment variable holding an API key: set in adapterConfig.env, it is the credential. */
  apiKeyEnv: string;
  /** How the CLI tells whether it is logged in; else the config folder under HOME a login leaves (a hint only). */
  login: LoginProbe | { configDir: string };
}

/**
 * testEnvironment of a local CLI: config valid, binary found and its --version, its credentials
 * (the API key in adapterConfig.env, else the CLI's own login status), cwd writable. The probes run
 * with the environment a run would get (the safe base plus adapterConfig.env's plain values), so
 * they see the HOME and PATH the CLI will see.
 */
export async function testCliEnvironment(
  raw: Record<string, unknown>,
  spec: CliEnvironmentSpec,
): Promise<EnvironmentCheck> {
  const parsed = spec.schema.safeParse(raw);
  if (!parsed.success)
    return { ok: false, checks: [{ name: 'config', ok: false, detail: formatZodError(parsed.error) }] };
  const config = parsed.data;
  const checks: EnvironmentCheck['checks'] = [{ name: 'config', ok: true, detail: 'valid' }];
  const env = safeBaseEnv();
  for (const [key, value] of Object.entries(config.env ?? {})) if (typeof value === 'string') env[key] = value;
  const { command } = config;
  const found = await findExecutable(command, config.cwd, env.PATH);
  checks.push({
    name: 'command',
    ok: found !== null,
    detail: found ? `found at ${found}` : `${command} not found or not executable`,
  });
  const hasKey = config.env?.[spec.apiKeyEnv] !== undefined;
  const [version, credentials] = await Promise.all([
    found ? checkVersion(found, command, env) : null,
    hasKey
      ? { ok: true, detail: `${spec.apiKeyEnv} is set in adapterConfig.env` }
      : checkLogin(found, command, env, spec),
  ]);
  if (version) checks.push({ name: 'version', ...version });
  checks.push({ name: 'credentials', ...credentials });
  checks.push(await checkCwd(config.cwd));
  return { ok: checks.every((c) => c.ok), checks };
}

async function checkVersion(
  found: string,
  command: string,
  env: Record<string, string>,
): Promise<{ ok: boolean; detail: string }> {
  const result = await probeCli(found, ['--version'], env);
  if (result.failure || result.code !== 0)
    return { ok: false, detail: `${command} --version failed: ${result.failure ?? `exit status ${result.code}`}` };
  const text = result.stdout.trim() || result.stderr.trim();
  return { ok: true, detail: text.split('\n')[0]?.slice(0, 200) || '(no output)' };
}

async function checkLogin(
  found: string | null,
  command: string,
  env: Record<string, string>,
  spec: CliEnvironmentSpec,
): Promise<{ ok: boolean; detail: string }> {
  const orKey = `or set ${spec.apiKeyEnv} in adapterConfig.env (a secret reference)`;
  if ('configDir' in spec.login) {
    // This CLI has no offline login status command: a hint, never a failure.
    const dir = path.join(env.HOME ?? os.homedir(), spec.login.configDir);
    const hasDir = await stat(dir).then(
      (s) => s.isDirectory(),
      () => false,
    );
    return {
      ok: true,
      detail: `login not asked (${path.basename(command)} has no login status command); ${hasDir ? `${dir} exists` : `no ${dir}: log the CLI in ${orKey}`}`,
    };
  }
  if (!found) return { ok: false, detail: `login not checked: ${command} not found` };
  const login = await askLogin(found, command, env, spec.login);
  if (login.state === 'logged_in') return { ok: true, detail: `logged in (${login.detail})` };
  if (login.state === 'logged_out')
    return {
      ok: false,
      detail: `not logged in (${login.detail}): log in with ${spec.login.loginHint} as the user the server runs as, ${orKey}`,
    };
  return { ok: false, detail: `login unknown: ${login.detail}` };
}

/** The summary a run keeps from a CLI's final answer: enough to read, bounded like any stored result. */
export const MAX_SUMMARY_CHARS = 64 * 1024;

export function bounded(text: string, max = MAX_SUMMARY_CHARS): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** The last non-empty line of a stderr tail: a CLI's own one-line reason for failing. */
export function lastLine(text: string): string | null {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.at(-1)?.slice(0, 1000) ?? null;
}

/** A token count from a CLI's JSON: a non-negative integer, else 0 (a format change must not fail a run). */
export function tokens(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? Math.min(value, MAX_TOKENS) : 0;
}

/** A JSON value as an object, or null (stream events are untrusted shapes). */
export const record = (value: unknown): Record<string, unknown> | null =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

/** total_cost_usd in whole cents, rounded up like priced usage (via micro-dollars, so 0.07 is 7, not 8). */
export function usdToCents(usd: number): number {
  return Math.ceil(Math.round(usd * 1_000_000) / 10_000);
}
