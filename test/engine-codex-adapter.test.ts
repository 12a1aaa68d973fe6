// codex_local through the engine, with a fake Codex (test/fixtures/clis/fake-codex.mjs) replaying
// `codex exec --json` streams: the thread kept per (agent, issue) and resumed, a rejected resume
// retried fresh once, usage per turn as it arrives, the last agent message as summary, errors,
// timeout, and testEnvironment.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createServerAdapter } from '../src/adapters/codex.ts';
import { createActivityTracker } from '../src/adapters/supervise.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { newIssue } from './helpers/factories.ts';
import {
  assertRejectedResumeRunsFresh,
  CLIS,
  fakeCliAgent,
  invocations,
  sessionsOf,
  usageWhileRunningThenEnd,
  wakeAndFinish,
} from './helpers/fake-cli.ts';

const FAKE = path.join(CLIS, 'fake-codex.mjs');
let t: TestApp;
let board: string;
let companyId: string;
let dir: string;

before(async () => {
  // A price for the model: Codex reports no cost, so its tokens are priced by the table.
  t = await startTestApp({
    engine: { pollMs: 200, reaperIntervalMs: 500, leaseSec: 5 },
    modelPrices: {
      'openai/gpt-5-codex': { inputCentsPerMTok: 10_000, cachedInputCentsPerMTok: 1_000, outputCentsPerMTok: 100_000 },
    },
  });
  const c = await t.newCompany();
  board = c.token;
  companyId = c.company.id;
  dir = await mkdtemp(path.join(os.tmpdir(), 'boardroom-codex-'));
});
after(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

const sql = async (text: string, params: unknown[] = []) => (await t.database.pool.query(text, params)).rows;

const codexAgent = (name: string, extra: Record<string, unknown> = {}, env: Record<string, string> = {}) =>
  fakeCliAgent(t, board, companyId, { adapterType: 'codex_local', fake: FAKE, dir, name, extra, env });

const resumedThread = (argv: string[]) => (argv.includes('resume') ? argv[argv.indexOf('resume') + 1] : null);

describe('codex_local', () => {
  it('mcp: false leaves the boardroom MCP server out of the invocation', async () => {
    const { agent, argsFile } = await codexAgent('no-mcp', { mcp: false });
    const run = await wakeAndFinish(t, board, agent.id);
    assert.equal(run.status, 'succeeded', run.error);
    const [call] = await invocations(argsFile);
    assert.deepEqual(call!.argv, ['exec', '--json', '--skip-git-repo-check', '-']);
  });

  it('runs codex exec --json with the prompt on stdin, keeps the thread, records the turn usage and the last message as summary', async () => {
    const { agent, argsFile } = await codexAgent('first', {
      model: 'gpt-5-codex',
      args: ['--sandbox', 'workspace-write'],
    });
    const issue = await newIssue(t, board, companyId, { status: 'todo' });
    const run = await wakeAndFinish(t, board, agent.id, { payload: { issueId: issue.id } });
    assert.equal(run.status, 'succeeded', run.error);
    const [call] = await invocations(argsFile);
    const bin = path.resolve(CLIS, '..', '..', '..', 'bin', 'boardroom.js');
    assert.deepEqual(call!.argv, [
      'exec',
      '--json',
      '--skip-git-repo-check',
      '-c',
      `mcp_servers.boardroom.command=${JSON.stringify(process.execPath)}`,
      '-c',
      `mcp_servers.boardroom.args=${JSON.stringify([bin, 'mcp'])}`,
      '-c',
      'mcp_servers.boardroom.env_vars=["SERVICE_API_URL","SERVICE_API_KEY","SERVICE_RUN_ID","SERVICE_AGENT_ID","SERVICE_COMPANY_ID","SERVICE_TASK_ID"]',
      '--model',
      'gpt-5-codex',
      '--sandbox',
      'workspace-write',
      '-',
    ]);
    assert.ok(call!.stdin.length > 0);

    const [session] = await sessionsOf(t, agent.id);
    assert.equal(session.task_key, issue.id);
    assert.equal(session.adapter_type, 'codex_local');
    assert.deepEqual(run.result_json, { summary: 'Listed the files.', threadId: session.session_id });
    // 400 uncached at 100 USD/M, 2000 cached at 10 USD/M, 80 out at 1000 USD/M: 4 + 2 + 8 cents.
    const costs = await sql(
      'select provider, model, billing_type, input_tokens::int, cached_input_tokens::int, output_tokens::int, cost_cents from cost_events where heartbeat_run_id = $1',
      [run.id],
    );
    assert.deepEqual(costs, [
      {
        provider: 'openai',
        model: 'gpt-5-codex',
        billing_type: 'unknown',
        input_tokens: 2400,
        cached_input_tokens: 2000,
        output_tokens: 80,
        cost_cents: 14,
      },
    ]);
  });

  it("hands Codex the agent's attached skills as $CODEX_HOME/skills/<name>/SKILL.md, rebuilt every run", async () => {
    // A Codex login in the agent's HOME: its auth.json is linked into the CODEX_HOME the run gets.
    const home = path.join(dir, 'skills-home');
    await mkdir(path.join(home, '.codex'), { recursive: true });
    await writeFile(path.join(home, '.codex', 'auth.json'), '{"token":"x"}');
    const { agent, argsFile } = await codexAgent('skills', {}, { HOME: home });
    const made = await t.request('POST', `/api/companies/${companyId}/skills`, {
      token: board,
      body: { name: 'Codex Runbook' },
    });
    assert.equal(made.status, 201);
    const synced = await t.request('POST', `/api/agents/${agent.id}/skills/sync`, {
      token: board,
      body: { desiredSkills: ['codex-runbook'] },
    });
    assert.equal(synced.status, 200, JSON.stringify(synced.body));
    assert.deepEqual([synced.body.mode, synced.body.supported], ['ephemeral', true]);

    const first = await wakeAndFinish(t, board, agent.id);
    assert.equal(first.status, 'succeeded', first.error);
    const codexHome = path.join(t.config.dataDir, 'agents', agent.id, 'codex-home');
    const [call] = await invocations(argsFile);
    assert.equal(call!.codexHome, codexHome);
    assert.deepEqual(call!.skills, ['boardroom-api', 'codex-runbook']);
    assert.equal(await readFile(path.join(codexHome, 'auth.json'), 'utf8'), '{"token":"x"}');

    await t.request('POST', `/api/agents/${agent.id}/skills/sync`, { token: board, body: { desiredSkills: [] } });
    assert.equal((await wakeAndFinish(t, board, agent.id)).status, 'succeeded');
    assert.deepEqual((await invocations(argsFile))[1]!.skills, ['boardroom-api']);

    // The agent's own CODEX_HOME wins: nothing is written into it or swapped for it.
    const own = await codexAgent('own-home', {}, { CODEX_HOME: path.join(dir, 'own-codex-home') });
    await t.request('POST', `/api/agents/${own.agent.id}/skills/sync`, {
      token: board,
      body: { desiredSkills: ['codex-runbook'] },
    });
    assert.equal((await wakeAndFinish(t, board, own.agent.id)).status, 'succeeded');
    assert.deepEqual(
      (await invocations(own.argsFile)).map((c) => [c.codexHome, c.skills]),
      [[path.join(dir, 'own-codex-home'), []]],
    );
  });

  it('resumes the thread of the same issue only, and starts fresh on forceFreshSession', async () => {
    const { agent, argsFile } = await codexAgent('resume');
    const [a, b] = [
      await newIssue(t, board, companyId, { status: 'todo' }),
      await newIssue(t, board, companyId, { status: 'todo' }),
    ];
    await wakeAndFinish(t, board, agent.id, { payload: { issueId: a.id } });
    const threadA = (await sessionsOf(t, agent.id))[0].session_id;
    const again = await wakeAndFinish(t, board, agent.id, { payload: { issueId: a.id } });
    assert.equal(again.status, 'succeeded', again.error);
    assert.equal(again.result_json.summary, `resumed ${threadA}`);
    await wakeAndFinish(t, board, agent.id, { payload: { issueId: b.id } });
    await wakeAndFinish(t, board, agent.id, { payload: { issueId: a.id }, forceFreshSession: true });

    const calls = await invocations(argsFile);
    assert.deepEqual(
      calls.map((c) => resumedThread(c.argv)),
      [null, threadA, null, null],
    );
    assert.deepEqual(calls[1]!.argv.slice(-3), ['resume', threadA, '-']);
    const sessions = await sessionsOf(t, agent.id);
    assert.equal(sessions.length, 2);
    assert.notEqual(sessions.find((s) => s.task_key === a.id).session_id, threadA);
  });

  it('when codex cannot find the stored thread, forgets it and runs once more fresh in the same run', async () => {
    await assertRejectedResumeRunsFresh(t, board, companyId, await codexAgent('rejected'), resumedThread);
  });

  it('a failed turn fails the run with its error message', async () => {
    const { agent } = await codexAgent('error', {}, { FAKE_SCENARIO: 'error' });
    const run = await wakeAndFinish(t, board, agent.id, { payload: {} });
    assert.equal(run.status, 'failed');
    assert.equal(run.exit_code, 1);
    assert.equal(run.error, 'unexpected status 401 Unauthorized: Missing bearer authentication in header');
    assert.equal((await sessionsOf(t, agent.id)).length, 1, 'the thread had started: kept for the next wake');
  });

  it('records usage while codex still runs, and times it out at the deadline', async () => {
    const { agent } = await codexAgent('hang', { timeoutSec: 2, graceSec: 1 }, { FAKE_SCENARIO: 'hang' });
    const { live, run } = await usageWhileRunningThenEnd(t, board, agent.id);
    assert.deepEqual(
      { status: live.status, output_tokens: live.output_tokens },
      { status: 'running', output_tokens: 3 },
    );
    assert.equal(run.status, 'timed_out');
  });
});

describe('codex_local: a CLI that hangs', () => {
  // Seconds the run took, from the run row.
  const took = (run: any) => (new Date(run.finished_at).getTime() - new Date(run.started_at).getTime()) / 1000;

  it('offline: a reconnect line repeated on stderr is no activity, so the run ends at the inactivity limit with that line in its error', async () => {
    const { agent } = await codexAgent(
      'offline',
      { timeoutSec: 120, inactivityTimeoutSec: 2 },
      { FAKE_SCENARIO: 'offline' },
    );
    const run = await wakeAndFinish(t, board, agent.id, {}, 60_000);
    assert.equal(run.status, 'timed_out');
    assert.equal(run.error_code, 'inactivity_timeout');
    assert.equal(
      run.error,
      "no new output for 2s (inactivityTimeoutSec); the CLI's last error line: Reconnecting... waiting for network",
    );
    assert.ok(took(run) < 30, `ended long before the 120 s deadline (${took(run)} s)`);
  });

  it('activity: a changed line counts, a repeated one (LF or CR ended) does not, per stream; a long unfinished line counts', () => {
    const activity = createActivityTracker();
    assert.equal(activity.push('stderr', 'Reconnecting... 1/5\n'), true);
    assert.equal(activity.push('stderr', 'Reconnecting... 1/5\r\n'), false);
    assert.equal(activity.push('stderr', '\n\n'), false);
    assert.equal(activity.push('stderr', 'Reconnecting... 2/5\n'), true);
    assert.equal(activity.push('stdout', 'Reconnecting... 2/5\n'), true);
    assert.equal(activity.push('stderr', 'half a'), false);
    assert.equal(activity.push('stderr', ' line\n'), true);
    assert.equal(activity.push('stdout', 'x'.repeat(5000)), true);
    assert.equal(activity.push('stdout', 'x'), true);
  });

  it('silent: no output at all ends the run at the inactivity limit', async () => {
    const { agent } = await codexAgent(
      'silent',
      { timeoutSec: 120, inactivityTimeoutSec: 2 },
      { FAKE_SCENARIO: 'silent' },
    );
    const run = await wakeAndFinish(t, board, agent.id, {}, 60_000);
    assert.equal(run.status, 'timed_out');
    assert.equal(run.error, 'no new output for 2s (inactivityTimeoutSec)');
    assert.ok(took(run) < 30, `${took(run)} s`);
  });

  it("inactivityTimeoutSec 0 disables the limit: the deadline ends the run, and its error keeps the CLI's last line", async () => {
    const { agent } = await codexAgent(
      'offline-deadline',
      { timeoutSec: 3, inactivityTimeoutSec: 0 },
      { FAKE_SCENARIO: 'offline' },
    );
    const run = await wakeAndFinish(t, board, agent.id, {}, 60_000);
    assert.equal(run.status, 'timed_out');
    assert.equal(run.error_code, 'timeout');
    assert.equal(run.error, "deadline of 3s passed; the CLI's last error line: Reconnecting... waiting for network");
  });
});

describe('codex_local: testEnvironment', () => {
  const adapter = createServerAdapter();
  const credentials = (check: { checks: { name: string; ok: boolean; detail: string }[] }) =>
    check.checks.find((c) => c.name === 'credentials')!;

  it('finds the binary, reads its version, asks codex login status and checks the working directory', async () => {
    const check = await adapter.testEnvironment({
      command: FAKE,
      cwd: dir,
      env: { HOME: dir, OPENAI_API_KEY: 'sk-test' },
    });
    assert.equal(check.ok, true, JSON.stringify(check));
    assert.equal(check.checks.find((c) => c.name === 'version')!.detail, 'codex-cli 0.50.0');
    assert.match(credentials(check).detail, /OPENAI_API_KEY is set/);

    const home = await mkdtemp(path.join(dir, 'home-'));
    await mkdir(path.join(home, '.codex'));
    const out = await adapter.testEnvironment({ command: FAKE, env: { HOME: home } });
    assert.equal(out.ok, false);
    assert.match(credentials(out).detail, /^not logged in \(fake-codex.mjs login status\): log in with `codex login`/);
    await writeFile(path.join(home, '.codex', 'auth.json'), '{}');
    const logged = await adapter.testEnvironment({ command: FAKE, env: { HOME: home } });
    assert.deepEqual(credentials(logged), {
      name: 'credentials',
      ok: true,
      detail: 'logged in (fake-codex.mjs login status: Logged in using ChatGPT)',
    });

    const missing = await adapter.testEnvironment({ command: 'no-such-codex-boardroom' });
    assert.equal(missing.ok, false);
    assert.equal(credentials(missing).detail, 'login not checked: no-such-codex-boardroom not found');
  });
});
