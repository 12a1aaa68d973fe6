// claude_local through the engine, with a fake Claude Code (test/fixtures/clis/fake-claude.mjs)
// replaying stream-json: sessions kept per (agent, issue) and resumed, a rejected resume retried
// fresh once, usage recorded as it arrives without counting cost twice, errors, timeout, a huge
// stream, and testEnvironment.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createServerAdapter } from '../src/adapters/claude.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { newIssue } from './helpers/factories.ts';
import { CLIS, fakeCliAgent, invocations, sessionsOf, wakeAndFinish } from './helpers/fake-cli.ts';
import { waitFor } from './helpers/wait.ts';

const FAKE = path.join(CLIS, 'fake-claude.mjs');
let t: TestApp;
let board: string;
let companyId: string;
let dir: string;

before(async () => {
  // A price for the model the first test uses: the CLI's own cost must not be priced a second time from the tokens.
  t = await startTestApp({
    engine: { pollMs: 200, reaperIntervalMs: 500, leaseSec: 5 },
    modelPrices: { 'anthropic/claude-opus-4-1': { inputCentsPerMTok: 10_000, outputCentsPerMTok: 100_000 } },
  });
  const c = await t.newCompany();
  board = c.token;
  companyId = c.company.id;
  dir = await mkdtemp(path.join(os.tmpdir(), 'boardroom-claude-'));
});
after(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

const sql = async (text: string, params: unknown[] = []) => (await t.database.pool.query(text, params)).rows;

const claudeAgent = (name: string, extra: Record<string, unknown> = {}, env: Record<string, string> = {}) =>
  fakeCliAgent(t, board, companyId, { adapterType: 'claude_local', fake: FAKE, dir, name, extra, env });

const costsOf = (runId: string) =>
  sql(
    'select provider, model, billing_type, input_tokens::int, cached_input_tokens::int, output_tokens::int, cost_cents from cost_events where heartbeat_run_id = $1 order by occurred_at, id',
    [runId],
  );

describe('claude_local', () => {
  it('passes the boardroom MCP server with --mcp-config unless mcp is false, credentials forwarded from its environment, not in the argument', async () => {
    const { agent, argsFile } = await claudeAgent('mcp', { args: ['--debug-to-stderr'] });
    const run = await wakeAndFinish(t, board, agent.id);
    assert.equal(run.status, 'succeeded', run.error);
    const [call] = await invocations(argsFile);
    const at = call!.argv.indexOf('--mcp-config');
    assert.ok(at > 0, JSON.stringify(call!.argv));
    assert.equal(call!.argv.at(-1), '--debug-to-stderr', 'adapterConfig.args come after it');
    const server = JSON.parse(call!.argv[at + 1]!).mcpServers.boardroom;
    assert.equal(server.command, process.execPath);
    assert.deepEqual(server.args, [path.resolve(CLIS, '..', '..', '..', 'bin', 'boardroom.js'), 'mcp']);
    assert.deepEqual(server.env, {
      SERVICE_API_URL: '${SERVICE_API_URL}',
      SERVICE_API_KEY: '${SERVICE_API_KEY}',
      SERVICE_RUN_ID: '${SERVICE_RUN_ID}',
      SERVICE_AGENT_ID: '${SERVICE_AGENT_ID}',
      SERVICE_COMPANY_ID: '${SERVICE_COMPANY_ID}',
      SERVICE_TASK_ID: '${SERVICE_TASK_ID:-}',
    });
    assert.ok(
      !call!.argv.some((arg) => arg.includes('svc_') || arg.includes(run.id)),
      'no credential or run id on the command line',
    );

    const invalid = await claudeAgent('mcp-invalid', { mcp: 'no' });
    const failedRun = await wakeAndFinish(t, board, invalid.agent.id);
    assert.equal(failedRun.status, 'failed');
    assert.match(failedRun.error, /invalid claude_local adapter config: .*mcp/);
  });

  it('runs claude with stream-json flags and the prompt on stdin, keeps the session, records usage once and the cost once, and the summary', async () => {
    const { agent, argsFile } = await claudeAgent('first', {
      model: 'claude-opus-4-1',
      maxTurns: 12,
      permissionMode: 'acceptEdits',
      skillsDir: '/srv/skills',
      args: ['--debug-to-stderr'],
      mcp: false,
    });
    const issue = await newIssue(t, board, companyId, { status: 'todo' });
    const run = await wakeAndFinish(t, board, agent.id, { payload: { issueId: issue.id } });
    assert.equal(run.status, 'succeeded', run.error);

    const [call] = await invocations(argsFile);
    assert.deepEqual(call!.argv, [
      '--print',
      '--output-format',
      'stream-json',
      '--verbose',
      '--model',
      'claude-opus-4-1',
      '--max-turns',
      '12',
      '--permission-mode',
      'acceptEdits',
      '--add-dir',
      '/srv/skills',
      '--debug-to-stderr',
    ]);
    assert.ok(call!.stdin.length > 0, 'the wake prompt arrives on stdin');

    const sessions = await sessionsOf(t, agent.id);
    assert.equal(sessions.length, 1);
    assert.equal(sessions[0].task_key, issue.id);
    assert.equal(sessions[0].adapter_type, 'claude_local');
    assert.deepEqual(run.result_json, {
      summary: 'Listed the files.',
      sessionId: sessions[0].session_id,
      numTurns: 2,
      costUsd: 0.0421,
    });

    // msg_01 once; msg_02's usage repeated on two blocks counted once, then its growth (15 output
    // tokens); then the CLI's total cost with no tokens: 4.21 cents, rounded up.
    assert.deepEqual(await costsOf(run.id), [
      {
        provider: 'anthropic',
        model: 'claude-opus-4-1',
        billing_type: 'unknown',
        input_tokens: 2150,
        cached_input_tokens: 2000,
        output_tokens: 20,
        cost_cents: 0,
      },
      {
        provider: 'anthropic',
        model: 'claude-opus-4-1',
        billing_type: 'unknown',
        input_tokens: 2110,
        cached_input_tokens: 2100,
        output_tokens: 30,
        cost_cents: 0,
      },
      {
        provider: 'anthropic',
        model: 'claude-opus-4-1',
        billing_type: 'unknown',
        input_tokens: 0,
        cached_input_tokens: 0,
        output_tokens: 15,
        cost_cents: 0,
      },
      {
        provider: 'anthropic',
        model: 'claude-opus-4-1',
        billing_type: 'metered_api',
        input_tokens: 0,
        cached_input_tokens: 0,
        output_tokens: 0,
        cost_cents: 5,
      },
    ]);
    assert.deepEqual(run.usage_json, {
      provider: 'anthropic',
      model: 'claude-opus-4-1',
      billingType: 'metered_api',
      inputTokens: 4260,
      cachedInputTokens: 4100,
      outputTokens: 65,
      costCents: 5,
      reports: 4,
    });
  });

  it("writes the agent's attached skills into its skills directory before each run and passes it with --add-dir", async () => {
    const { agent, argsFile } = await claudeAgent('skills');
    const made = await t.request('POST', `/api/companies/${companyId}/skills`, {
      token: board,
      body: { name: 'Runbook' },
    });
    assert.equal(made.status, 201);
    await t.request('PATCH', `/api/companies/${companyId}/skills/${made.body.id}/files`, {
      token: board,
      body: { path: 'scripts/check.sh', content: 'echo ok' },
    });
    const synced = await t.request('POST', `/api/agents/${agent.id}/skills/sync`, {
      token: board,
      body: { desiredSkills: ['runbook'] },
    });
    assert.equal(synced.status, 200, JSON.stringify(synced.body));

    const first = await wakeAndFinish(t, board, agent.id);
    assert.equal(first.status, 'succeeded', first.error);
    const skillsDir = path.join(t.config.dataDir, 'agents', agent.id, 'skills');
    const [call] = await invocations(argsFile);
    assert.deepEqual(call!.argv.slice(call!.argv.indexOf('--add-dir'), call!.argv.indexOf('--add-dir') + 2), [
      '--add-dir',
      skillsDir,
    ]);
    assert.equal(await readFile(path.join(skillsDir, 'runbook', 'scripts', 'check.sh'), 'utf8'), 'echo ok');
    assert.match(await readFile(path.join(skillsDir, 'boardroom-api', 'SKILL.md'), 'utf8'), /inbox-lite/);

    // Detached before the next run: gone from the directory (rebuilt from the database every run).
    await t.request('POST', `/api/agents/${agent.id}/skills/sync`, { token: board, body: { desiredSkills: [] } });
    const second = await wakeAndFinish(t, board, agent.id);
    assert.equal(second.status, 'succeeded', second.error);
    assert.deepEqual((await readdir(skillsDir)).sort(), ['boardroom-api']);
  });

  it('resumes the session of the same issue, not of another issue, and starts fresh on forceFreshSession', async () => {
    const { agent, argsFile } = await claudeAgent('resume');
    const [a, b] = [
      await newIssue(t, board, companyId, { status: 'todo' }),
      await newIssue(t, board, companyId, { status: 'todo' }),
    ];
    const first = await wakeAndFinish(t, board, agent.id, { payload: { issueId: a.id } });
    assert.equal(first.status, 'succeeded', first.error);
    const sessionA = (await sessionsOf(t, agent.id))[0].session_id;

    const again = await wakeAndFinish(t, board, agent.id, { payload: { issueId: a.id } });
    assert.equal(again.status, 'succeeded', again.error);
    assert.equal(again.result_json.summary, `resumed ${sessionA}`);
    const other = await wakeAndFinish(t, board, agent.id, { payload: { issueId: b.id } });
    assert.equal(other.status, 'succeeded', other.error);
    const noIssue = await wakeAndFinish(t, board, agent.id, {});
    assert.equal(noIssue.status, 'succeeded', noIssue.error);
    const fresh = await wakeAndFinish(t, board, agent.id, { payload: { issueId: a.id }, forceFreshSession: true });
    assert.equal(fresh.status, 'succeeded', fresh.error);

    const calls = await invocations(argsFile);
    const resumed = (i: number) =>
      calls[i]!.argv.includes('--resume') ? calls[i]!.argv[calls[i]!.argv.indexOf('--resume') + 1] : null;
    assert.deepEqual([0, 1, 2, 3, 4].map(resumed), [null, sessionA, null, null, null]);

    const sessions = await sessionsOf(t, agent.id);
    assert.deepEqual(
      sessions.map((s) => s.task_key).sort(),
      ['', a.id, b.id].sort(),
      'one session per issue, and one for runs about no issue',
    );
    const newA = sessions.find((s) => s.task_key === a.id).session_id;
    assert.notEqual(newA, sessionA, 'the fresh session replaced the old one');
    assert.equal(fresh.result_json.sessionId, newA);
  });

  it('when the CLI rejects the stored session, forgets it and runs once more fresh in the same run', async () => {
    const { agent, argsFile, stateDir } = await claudeAgent('rejected');
    const issue = await newIssue(t, board, companyId, { status: 'todo' });
    await wakeAndFinish(t, board, agent.id, { payload: { issueId: issue.id } });
    const stale = (await sessionsOf(t, agent.id))[0].session_id;
    await unlink(path.join(stateDir, stale)); // the CLI no longer knows it (expired, another machine)

    const run = await wakeAndFinish(t, board, agent.id, { payload: { issueId: issue.id } });
    assert.equal(run.status, 'succeeded', run.error);
    const calls = await invocations(argsFile);
    assert.equal(calls.length, 3, 'one retry, not more');
    assert.deepEqual(calls[1]!.argv.slice(4, 6), ['--resume', stale]);
    assert.equal(calls[2]!.argv.includes('--resume'), false);
    const [session] = await sessionsOf(t, agent.id);
    assert.notEqual(session.session_id, stale);
    assert.equal(run.result_json.summary, 'Listed the files.');
    const log = await t.request('GET', `/api/heartbeat-runs/${run.id}/log`, { token: board });
    assert.match(JSON.stringify(log.body), /No conversation found with session ID/);
  });

  it('a rejected resume is retried only once: a CLI that rejects again fails the run', async () => {
    // The fake rejects any --resume, and this command always resumes: the retry (no --resume from
    // the adapter) still gets one through args, so it fails the same way and is not retried again.
    const { agent, argsFile } = await claudeAgent('twice', { args: ['--resume', 'always-unknown'] });
    const issue = await newIssue(t, board, companyId, { status: 'todo' });
    await t.database.pool.query(
      "insert into agent_task_sessions (company_id, agent_id, task_key, adapter_type, session_id) values ($1, $2, $3, 'claude_local', 'stored-unknown')",
      [companyId, agent.id, issue.id],
    );
    const run = await wakeAndFinish(t, board, agent.id, { payload: { issueId: issue.id } });
    assert.equal(run.status, 'failed');
    assert.match(run.error, /No conversation found with session ID: (stored-unknown|always-unknown)/);
    assert.equal((await invocations(argsFile)).length, 2);
    assert.deepEqual(await sessionsOf(t, agent.id), [], 'the rejected session is forgotten');
  });

  it('an error result with a non-zero exit fails the run with the CLI error text', async () => {
    const { agent } = await claudeAgent('error', {}, { FAKE_SCENARIO: 'error' });
    const run = await wakeAndFinish(t, board, agent.id, { payload: {} });
    assert.equal(run.status, 'failed');
    assert.equal(run.exit_code, 1);
    assert.equal(run.error, 'Invalid API key · Please run /login');
  });

  it('records usage while the CLI still runs, and times it out at the deadline', async () => {
    const { agent } = await claudeAgent('hang', { timeoutSec: 2, graceSec: 1 }, { FAKE_SCENARIO: 'hang' });
    const res = await t.request('POST', `/api/agents/${agent.id}/wakeup`, { token: board, body: {} });
    assert.equal(res.status, 202);
    const live = await waitFor('usage recorded while running', async () => {
      const [row] = await sql(
        'select r.status, c.output_tokens::int from heartbeat_runs r join cost_events c on c.heartbeat_run_id = r.id where r.wakeup_request_id = $1',
        [res.body.id],
      );
      return row;
    });
    assert.deepEqual(live, { status: 'running', output_tokens: 3 });
    const run = await waitFor(
      'the timeout',
      async () =>
        (
          await sql("select * from heartbeat_runs where wakeup_request_id = $1 and status <> 'running'", [res.body.id])
        )[0],
    );
    assert.equal(run.status, 'timed_out');
    assert.match(run.error, /deadline of 2s passed/);
  });

  it('parses a ~30 MB stream (a line past the bound skipped) without losing events', async () => {
    const { agent } = await claudeAgent('huge', {}, { FAKE_SCENARIO: 'huge' });
    const t0 = Date.now();
    const run = await wakeAndFinish(t, board, agent.id, { payload: {} }, 60_000);
    assert.equal(run.status, 'succeeded', run.error);
    assert.equal(run.result_json.summary, 'huge done');
    // 20 messages of 100 blocks each: 20 reports of (10 in, 5 out), not 2000; the 10 MB line's
    // usage is not parsed (past the line bound); then 1 cent of cost.
    const [sum] = await sql(
      'select count(*)::int as n, sum(input_tokens)::int as input, sum(output_tokens)::int as output, sum(cost_cents)::int as cents from cost_events where heartbeat_run_id = $1',
      [run.id],
    );
    assert.deepEqual(sum, { n: 21, input: 200, output: 100, cents: 1 });
    assert.ok(Date.now() - t0 < 60_000);
  });

  it('fails a config it cannot use before starting anything', async () => {
    const { agent } = await claudeAgent('badconfig', { maxTurns: -1 });
    const run = await wakeAndFinish(t, board, agent.id, { payload: {} });
    assert.equal(run.status, 'failed');
    assert.match(run.error, /invalid claude_local adapter config: maxTurns/);
  });
});

describe('claude_local: testEnvironment', () => {
  const adapter = createServerAdapter();
  const credentials = (check: { checks: { name: string; ok: boolean; detail: string }[] }) =>
    check.checks.find((c) => c.name === 'credentials')!;

  it('finds the binary, reads its version, asks the CLI whether it is logged in and checks the working directory', async () => {
    const home = await mkdtemp(path.join(dir, 'home-'));
    // A folder ~/.claude alone is no login: the CLI says it is logged out, and the check says so.
    await mkdir(path.join(home, '.claude'));
    const out = await adapter.testEnvironment({ command: FAKE, cwd: dir, env: { HOME: home } });
    assert.equal(out.ok, false, JSON.stringify(out));
    assert.deepEqual(
      out.checks.map((c) => c.name),
      ['config', 'command', 'version', 'credentials', 'cwd'],
    );
    assert.equal(out.checks[2]!.detail, '2.0.0 (Claude Code, fake)');
    assert.deepEqual(credentials(out), {
      name: 'credentials',
      ok: false,
      detail:
        'not logged in (fake-claude.mjs auth status): log in with `claude auth login` (or `claude`, then /login) as the user the server runs as, or set ANTHROPIC_API_KEY in adapterConfig.env (a secret reference)',
    });

    await writeFile(path.join(home, '.claude', '.credentials.json'), '{}');
    const logged = await adapter.testEnvironment({ command: FAKE, cwd: dir, env: { HOME: home } });
    assert.equal(logged.ok, true, JSON.stringify(logged));
    assert.equal(credentials(logged).detail, 'logged in (fake-claude.mjs auth status: auth method claude.ai)');

    const keyed = await adapter.testEnvironment({
      command: FAKE,
      env: { ANTHROPIC_API_KEY: { type: 'secret_ref', secretId: '00000000-0000-4000-8000-000000000000' } },
    });
    assert.deepEqual(credentials(keyed), {
      name: 'credentials',
      ok: true,
      detail: 'ANTHROPIC_API_KEY is set in adapterConfig.env',
    });
  });

  it('says the login is unknown, and why, when the CLI hangs or answers something unreadable', async () => {
    const t0 = Date.now();
    const hung = await adapter.testEnvironment({ command: FAKE, env: { HOME: dir, FAKE_LOGIN: 'hang' } });
    assert.deepEqual(credentials(hung), {
      name: 'credentials',
      ok: false,
      detail: 'login unknown: fake-claude.mjs auth status: no answer within 4 s',
    });
    assert.ok(Date.now() - t0 < 4_000 + 3_000, 'bounded by the probe timeout');
    assert.equal(hung.ok, false);
    const garbled = await adapter.testEnvironment({ command: FAKE, env: { HOME: dir, FAKE_LOGIN: 'garbled' } });
    assert.deepEqual(credentials(garbled), {
      name: 'credentials',
      ok: false,
      detail:
        "login unknown: fake-claude.mjs auth status exited with 2 and an answer this adapter cannot read: error: unknown command 'auth status'",
    });
  });

  it('reports a missing binary, a missing cwd and a bad config', async () => {
    const missing = await adapter.testEnvironment({
      command: path.join(dir, 'no-claude'),
      cwd: path.join(dir, 'nope'),
    });
    assert.equal(missing.ok, false);
    assert.equal(missing.checks.find((c) => c.name === 'command')!.ok, false);
    assert.match(missing.checks.find((c) => c.name === 'cwd')!.detail, /does not exist/);
    const onPath = await adapter.testEnvironment({ env: { PATH: dir } });
    assert.match(onPath.checks.find((c) => c.name === 'command')!.detail, /claude not found/);
    const bad = await adapter.testEnvironment({ permissionMode: 'rm -rf' });
    assert.equal(bad.ok, false);
    assert.equal(bad.checks[0]!.name, 'config');
  });
});
