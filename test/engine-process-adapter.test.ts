// The process adapter, the run env contract and the adapter registry, with real child processes
// (test/fixtures/agents/*.mjs) and no database.
import assert from 'node:assert/strict';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createLineParser, createServerAdapter, MAX_LINE_CHARS } from '../src/adapters/process.ts';
import { createAdapterRegistry } from '../src/adapters/registry.ts';
import type { AdapterRunContext, AdapterUsage } from '../src/adapters/types.ts';
import { buildRunEnv } from '../src/adapters/run-env.ts';

const AGENTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'agents');
const adapter = createServerAdapter();
let tmp = '';
before(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'boardroom-process-'));
});
after(async () => {
  await rm(tmp, { recursive: true, force: true });
});

interface Captured {
  stdout: string;
  stderr: string;
  usage: AdapterUsage[];
  results: Record<string, unknown>[];
  spawned: number[];
}

function runCtx(adapterConfig: Record<string, unknown>, over: Partial<AdapterRunContext> = {}) {
  const captured: Captured = { stdout: '', stderr: '', usage: [], results: [], spawned: [] };
  const ctx: AdapterRunContext = {
    runId: 'run-1',
    agent: { id: 'a1', companyId: 'c1', name: 'Agent', adapterType: 'process', adapterConfig },
    issueId: null,
    wakeReason: null,
    env: { PATH: process.env.PATH ?? '' },
    prompt: 'hello agent',
    cwd: tmp,
    timeoutSec: 30,
    graceSec: 2,
    signal: new AbortController().signal,
    onLog: (stream, chunk) => {
      captured[stream] += chunk;
    },
    onUsage: (u) => captured.usage.push(u),
    onResult: (r) => captured.results.push(r),
    onSpawn: (pid) => captured.spawned.push(pid),
    sessionId: null,
    onSession: () => undefined,
    ...over,
  };
  return { ctx, captured };
}

const node = (script: string, ...args: string[]) => ({
  command: process.execPath,
  args: [path.join(AGENTS, script), ...args],
});

// A zombie is dead: where PID 1 does not reap orphans (this container), kill(pid, 0) still succeeds on one.
async function isAlive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  return stat === null ? true : stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
}

async function grandchildPid(captured: Captured): Promise<number> {
  for (let i = 0; i < 200; i++) {
    const m = /"type":"grandchild","pid":(\d+)/.exec(captured.stdout);
    if (m) return Number(m[1]);
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('agent never printed its grandchild pid');
}

describe('process adapter: execute', () => {
  it('feeds the prompt on stdin, streams both outputs, parses split usage and result lines, succeeds on exit 0', async () => {
    const { ctx, captured } = runCtx(node('talker.mjs', '0'));
    const outcome = await adapter.execute(ctx);
    assert.deepEqual(outcome, { status: 'succeeded', exitCode: 0, signal: null, error: null });
    assert.match(captured.stdout, /prompt was: hello agent\n/);
    assert.equal(captured.stderr, 'a warning on stderr\n');
    // The usage line arrived in two writes; the 200 KiB line in between did not break the parser.
    assert.deepEqual(captured.usage, [
      {
        provider: 'acme',
        model: 'm1',
        inputTokens: 10,
        cachedInputTokens: 2,
        outputTokens: 5,
        costCents: 3,
        billingType: 'metered_api',
      },
      { outputTokens: 7 },
    ]);
    // The last line had no newline: parsed at end of output.
    assert.deepEqual(captured.results, [{ summary: 'done well', extra: 1 }]);
    assert.equal(captured.spawned.length, 1);
    // The log is the raw transcript, structured lines included.
    assert.ok(captured.stdout.includes('"type":"usage"'));
  });

  it('fails with the exit code on a non-zero exit, and with the signal when killed by one', async () => {
    const a = runCtx(node('talker.mjs', '3'));
    assert.deepEqual(await adapter.execute(a.ctx), {
      status: 'failed',
      exitCode: 3,
      signal: null,
      error: 'process exited with code 3',
      errorCode: 'process_exit_nonzero',
    });
    const b = runCtx(node('die.mjs', 'SIGKILL'));
    assert.deepEqual(await adapter.execute(b.ctx), {
      status: 'failed',
      exitCode: null,
      signal: 'SIGKILL',
      error: 'process killed by SIGKILL',
      errorCode: 'process_killed',
    });
  });

  it('turns a bad config, a missing command or a missing cwd into a failed outcome with its code, never a throw', async () => {
    const bad = await adapter.execute(runCtx({ args: 'not-an-array' }).ctx);
    assert.equal(bad.status, 'failed');
    assert.equal(bad.errorCode, 'adapter_config_invalid');
    assert.match(bad.error ?? '', /invalid process adapter config: command: .*; args: /);
    const missing = await adapter.execute(runCtx({ command: 'no-such-command-boardroom' }).ctx);
    assert.equal(missing.status, 'failed');
    assert.equal(missing.errorCode, 'command_not_found');
    assert.match(missing.error ?? '', /could not start no-such-command-boardroom: .*ENOENT/);
    // Node says ENOENT for a missing working directory too: that is the workspace, not the command.
    const nowhere = await adapter.execute(runCtx(node('talker.mjs'), { cwd: '/nonexistent-boardroom-cwd' }).ctx);
    assert.equal(nowhere.status, 'failed');
    assert.equal(nowhere.errorCode, 'workspace_unavailable');
    assert.match(nowhere.error ?? '', /working directory \/nonexistent-boardroom-cwd does not exist/);
  });

  it('on cancel stops the whole group (leader and grandchild) and resolves within grace', async () => {
    const controller = new AbortController();
    const { ctx, captured } = runCtx(node('sleeper.mjs'), { signal: controller.signal, graceSec: 2 });
    const running = adapter.execute(ctx);
    const grandchild = await grandchildPid(captured);
    assert.equal(await isAlive(grandchild), true);
    const t0 = Date.now();
    controller.abort();
    const outcome = await running;
    // Resolved at all (a group left alive would hold it forever); the bound leaves room for a loaded machine.
    assert.ok(Date.now() - t0 < 20_000, `resolved in ${Date.now() - t0} ms`);
    assert.equal(outcome.status, 'cancelled');
    assert.equal(outcome.signal, 'SIGTERM');
    assert.equal(await isAlive(grandchild), false);
    assert.equal(await isAlive(captured.spawned[0]!), false);
  });

  it('on timeout SIGTERMs the group, SIGKILLs what ignores it after grace, and reports timed_out', async () => {
    const { ctx, captured } = runCtx(node('sleeper.mjs', 'stubborn'), { timeoutSec: 1, graceSec: 1 });
    const t0 = Date.now();
    const running = adapter.execute(ctx);
    const grandchild = await grandchildPid(captured);
    const outcome = await running;
    const took = Date.now() - t0;
    assert.equal(outcome.status, 'timed_out');
    assert.equal(outcome.errorCode, 'timeout');
    assert.equal(outcome.signal, 'SIGKILL');
    // Not before timeout + grace (the SIGKILL waited for the grace), and not stuck past it (room for a loaded machine).
    assert.ok(took >= 1900 && took < 20_000, `resolved in ${took} ms`);
    assert.equal(await isAlive(grandchild), false);
  });

  it('sweeps a process the agent left behind when it exits on its own', async () => {
    const { ctx, captured } = runCtx(node('sleeper.mjs', 'leave'), { graceSec: 1 });
    const outcome = await adapter.execute(ctx);
    assert.equal(outcome.status, 'succeeded');
    assert.equal(await isAlive(await grandchildPid(captured)), false);
  });

  it('does not start anything when the run is already cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const { ctx, captured } = runCtx(node('talker.mjs'), { signal: controller.signal });
    assert.equal((await adapter.execute(ctx)).status, 'cancelled');
    assert.deepEqual(captured.spawned, []);
  });
});

describe('process adapter: line parser', () => {
  it('bounds the line buffer: a line with no newline is dropped past the bound, parsing resumes after it', () => {
    const seen: unknown[] = [];
    const parser = createLineParser((o) => seen.push(o));
    for (let i = 0; i < 100; i++) parser.push('{'.padEnd(MAX_LINE_CHARS / 10, 'y'));
    parser.push('still the same line\n{"type":"result","summary":"ok"}\n');
    assert.deepEqual(seen, [{ type: 'result', summary: 'ok' }]);
  });
});

describe('process adapter: testEnvironment', () => {
  it('passes for a command on PATH and a writable cwd', async () => {
    const check = await adapter.testEnvironment({ command: 'node', cwd: tmp });
    assert.equal(check.ok, true, JSON.stringify(check));
    assert.deepEqual(
      check.checks.map((c) => c.name),
      ['config', 'command', 'cwd'],
    );
  });

  it('finds a command given as a path only when it is executable, and reports a missing cwd', async () => {
    const script = path.join(tmp, 'agent.sh');
    await writeFile(script, '#!/bin/sh\necho hi\n');
    const notExec = await adapter.testEnvironment({ command: script });
    assert.equal(notExec.checks.find((c) => c.name === 'command')?.ok, false);
    await chmod(script, 0o755);
    const relative = await adapter.testEnvironment({ command: './agent.sh', cwd: tmp });
    assert.equal(relative.ok, true, JSON.stringify(relative));
    const noCwd = await adapter.testEnvironment({ command: 'node', cwd: path.join(tmp, 'nope') });
    assert.equal(noCwd.ok, false);
    assert.match(noCwd.checks.find((c) => c.name === 'cwd')?.detail ?? '', /does not exist/);
    const missing = await adapter.testEnvironment({ command: 'no-such-command-boardroom' });
    assert.equal(missing.ok, false);
  });

  it('reports an invalid config as a failed check', async () => {
    const check = await adapter.testEnvironment({ command: '' });
    assert.equal(check.ok, false);
    assert.equal(check.checks[0]?.name, 'config');
  });
});

describe('run env contract', () => {
  const base = {
    apiUrl: 'http://127.0.0.1:3100',
    runToken: 'jwt-secret-token',
    runId: 'run-42',
    agentId: 'agent-1',
    companyId: 'company-1',
  };

  it('reaches a real agent: SERVICE_* win over config env, unset optionals are absent, server env stays out', async () => {
    process.env.BOARDROOM_SECRETS_MASTER_KEY = 'master-key-must-not-leak';
    try {
      const { env, secrets } = buildRunEnv({
        ...base,
        issueId: 'issue-7',
        wakeReason: 'assignment',
        workspaceCwd: tmp,
        configEnv: { SERVICE_RUN_ID: 'evil', SERVICE_APPROVAL_ID: 'spoofed', MY_TOKEN: 'resolved-secret', PLAIN: 'x' },
        secretValues: ['resolved-secret'],
      });
      const { ctx, captured } = runCtx(node('print-env.mjs'), { env });
      assert.equal((await adapter.execute(ctx)).status, 'succeeded');
      const printed = JSON.parse(captured.stdout.trim()).env as Record<string, string>;
      assert.equal(printed.SERVICE_RUN_ID, 'run-42');
      assert.equal(printed.SERVICE_API_URL, 'http://127.0.0.1:3100');
      assert.equal(printed.SERVICE_API_KEY, 'jwt-secret-token');
      assert.equal(printed.SERVICE_AGENT_ID, 'agent-1');
      assert.equal(printed.SERVICE_COMPANY_ID, 'company-1');
      assert.equal(printed.SERVICE_TASK_ID, 'issue-7');
      assert.equal(printed.SERVICE_WAKE_REASON, 'assignment');
      assert.equal(printed.SERVICE_WORKSPACE_CWD, tmp);
      assert.equal(printed.MY_TOKEN, 'resolved-secret');
      assert.equal(printed.PLAIN, 'x');
      // The server's PATH, less what npm put in front of it when `npm test` started this process (run-env.ts).
      assert.ok(printed.PATH && process.env.PATH!.endsWith(printed.PATH), printed.PATH);
      for (const absent of [
        'SERVICE_APPROVAL_ID',
        'SERVICE_APPROVAL_STATUS',
        'SERVICE_WAKE_COMMENT_ID',
        'BOARDROOM_SECRETS_MASTER_KEY',
      ]) {
        assert.equal(absent in printed, false, `${absent} reached the agent`);
      }
      assert.equal(
        Object.keys(printed).some((k) => k.startsWith('BOARDROOM_')),
        false,
      );
      assert.deepEqual(secrets, ['jwt-secret-token', 'resolved-secret']);
    } finally {
      delete process.env.BOARDROOM_SECRETS_MASTER_KEY;
    }
  });

  it('takes only PATH, HOME and LANG from the base env and sets every optional when given', () => {
    const { env } = buildRunEnv({
      ...base,
      wakeCommentId: 'cm-1',
      approvalId: 'ap-1',
      approvalStatus: 'approved',
      issueId: '',
      baseEnv: { PATH: '/bin', HOME: '/h', LANG: 'C.UTF-8', SHELL: '/bin/sh', BOARDROOM_DATABASE_URL: 'pg://' },
    });
    assert.deepEqual(env, {
      PATH: '/bin',
      HOME: '/h',
      LANG: 'C.UTF-8',
      SERVICE_API_URL: base.apiUrl,
      SERVICE_API_KEY: base.runToken,
      SERVICE_RUN_ID: base.runId,
      SERVICE_AGENT_ID: base.agentId,
      SERVICE_COMPANY_ID: base.companyId,
      SERVICE_WAKE_COMMENT_ID: 'cm-1',
      SERVICE_APPROVAL_ID: 'ap-1',
      SERVICE_APPROVAL_STATUS: 'approved',
    });
  });
});

describe('adapter registry', () => {
  it('registers the built-in adapters (process, http, claude_local, codex_local, gemini_local, opencode_local) through the package door and protects them', () => {
    const registry = createAdapterRegistry();
    assert.equal(registry.get('process')?.type, 'process');
    assert.deepEqual(
      registry.list().map((e) => [e.adapter.type, e.builtin]),
      [
        ['process', true],
        ['http', true],
        ['claude_local', true],
        ['codex_local', true],
        ['gemini_local', true],
        ['opencode_local', true],
      ],
    );
    assert.throws(() => registry.register({ createServerAdapter }), /built in and cannot be replaced/);
    assert.throws(() => registry.unregister('process'), /cannot be removed/);
  });

  it('accepts a well-formed external package, rejects a malformed one', () => {
    const registry = createAdapterRegistry();
    const external = { ...createServerAdapter(), type: 'ext-echo', label: 'Echo' };
    registry.register({ createServerAdapter: () => external });
    assert.equal(registry.get('ext-echo')?.label, 'Echo');
    registry.unregister('ext-echo');
    assert.equal(registry.get('ext-echo'), undefined);
    assert.throws(
      () => registry.register({ createServerAdapter: () => ({ type: 'Bad Type' }) as never }),
      /type, execute\(\), testEnvironment\(\), models, agentConfigurationDoc/,
    );
  });
});
