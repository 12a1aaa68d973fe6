// Whether a local CLI is logged in, asked of the CLI itself rather than guessed from a folder in
// HOME: `claude auth status` and `codex login status` answer offline, from their stored login.
// The answer is logged in, not logged in, or unknown with the reason (the CLI timed out, failed,
// or said something this adapter cannot read: an older release without the subcommand, say).
import { execFile } from 'node:child_process';
import path from 'node:path';

/**
 * Bound of one probe (--version, login status). 4 s rather than 5: GET /api/adapters gives a whole
 * testEnvironment() 5 s, and a probe that hangs must come back with its reason inside that bound.
 */
export const CLI_PROBE_TIMEOUT_MS = 4_000;

export interface ProbeResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Why the CLI gave no usable answer: it timed out or could not run; null when it ran to an exit. */
  failure: string | null;
}

/** Runs `file args` with `env`, bounded; never throws. */
export function probeCli(
  file: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs = CLI_PROBE_TIMEOUT_MS,
): Promise<ProbeResult> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { env, timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 64 * 1024 },
      (err, stdout, stderr) => {
        const e = err as (NodeJS.ErrnoException & { killed?: boolean; code?: number | string }) | null;
        const code = typeof e?.code === 'number' ? e.code : e ? null : 0;
        let failure: string | null = null;
        if (e?.killed) failure = `no answer within ${timeoutMs / 1000} s`;
        else if (e && typeof e.code !== 'number') failure = e.message.split('\n')[0] ?? 'could not run';
        resolve({ code, stdout: `${stdout}`, stderr: `${stderr}`, failure });
      },
    );
  });
}

export type LoginState = { state: 'logged_in' | 'logged_out'; detail: string } | { state: 'unknown'; detail: string };

/** How one CLI tells its login state: the subcommand and how to read its answer (null: unreadable). */
export interface LoginProbe {
  args: string[];
  read(result: ProbeResult): { loggedIn: boolean; detail: string } | null;
  /** What to run to log in, for a "not logged in" answer. */
  loginHint: string;
}

const firstLine = (text: string) => text.trim().split('\n')[0]?.trim().slice(0, 200) ?? '';

/** `claude auth status`: JSON with `loggedIn` (and `authMethod`); exit status non-zero when logged out. */
export const claudeLoginProbe: LoginProbe = {
  args: ['auth', 'status'],
  read({ stdout }) {
    let answer: unknown;
    try {
      answer = JSON.parse(stdout.trim());
    } catch {
      return null;
    }
    const loggedIn = (answer as { loggedIn?: unknown } | null)?.loggedIn;
    if (typeof loggedIn !== 'boolean') return null;
    const method = (answer as { authMethod?: unknown }).authMethod;
    return {
      loggedIn,
      detail: typeof method === 'string' && method !== 'none' ? `auth method ${method.slice(0, 100)}` : '',
    };
  },
  loginHint: '`claude auth login` (or `claude`, then /login)',
};

/** `codex login status`: "Logged in using ..." (exit 0) or "Not logged in" (non-zero), on stdout or stderr by release. */
export const codexLoginProbe: LoginProbe = {
  args: ['login', 'status'],
  read({ stdout, stderr }) {
    const text = `${stdout}\n${stderr}`;
    const loggedIn = /^\s*Logged in\b.*$/im.exec(text);
    if (loggedIn) return { loggedIn: true, detail: loggedIn[0].trim().slice(0, 200) };
    if (/\bNot logged in\b/i.test(text)) return { loggedIn: false, detail: '' };
    return null;
  },
  loginHint: '`codex login`',
};

export async function askLogin(
  file: string,
  command: string,
  env: Record<string, string>,
  probe: LoginProbe,
): Promise<LoginState> {
  const asked = `${path.basename(command)} ${probe.args.join(' ')}`;
  const result = await probeCli(file, probe.args, env);
  if (result.failure) return { state: 'unknown', detail: `${asked}: ${result.failure}` };
  const read = probe.read(result);
  if (read)
    return {
      state: read.loggedIn ? 'logged_in' : 'logged_out',
      detail: read.detail ? `${asked}: ${read.detail}` : asked,
    };
  const said = firstLine(result.stderr) || firstLine(result.stdout) || '(no output)';
  return {
    state: 'unknown',
    detail: `${asked} exited with ${result.code} and an answer this adapter cannot read: ${said}`,
  };
}
