// opencode_local through the engine, with a fake opencode (test/fixtures/clis/fake-opencode.mjs)
// replaying `opencode run --format json` streams: the session kept per (agent, issue) and resumed, a
// rejected resume (exit 0, NotFoundError on stderr) retried fresh once, usage and USD cost per step
// as it arrives (not re-priced), the last step's text as summary, errors, timeout, and testEnvironment.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createServerAdapter } from '../src/adapters/opencode.ts';
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

const FAKE = path.join(CLIS, 'fake-opencode.mjs');
let t: TestApp;
let board: string;
let companyId: string;
let dir: string;

before(async () => {
  // A price for the model that would give other cents: opencode's own cost must win, not the table.
  t = await startTestApp({
    engine: { pollMs: 200, reaperIntervalMs: 500, leaseSec: 5 },
    modelPrices: {
      'anthropic/claude-sonnet-4-5': {
        inputCentsPerMTok: 10_000,
        cachedInputCentsPerMTok: 1_000,
        outputCentsPerMTok: 100_000,
      },
    },
  });
  const c = await t.newCompany();
  board = c.token;
  companyId = c.company.id;
  dir = await mkdtemp(path.join(os.tmpdir(), 'boardroom-opencode-'));
});
after(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

const sql = async (text: string, params: unknown[] = []) => (await t.database.pool.query(text, params)).rows;

const opencodeAgent = (name: string, extra: Record<string, unknown> = {}, env: Record<string, string> = {}) =>
  fakeCliAgent(t, board, companyId, { adapterType: 'opencode_local', fake: FAKE, dir, name, extra, env });

const resumed = (argv: string[]) => (argv.includes('--session') ? argv[argv.indexOf('--session') + 1] : null);

describe('opencode_local', () => {
  it('runs opencode run --format json with the prompt on stdin, keeps the session, records each step with its cost and the last text as summary', async () => {
    const { agent, argsFile } = await opencodeAgent('first', {
      model: 'anthropic/claude-sonnet-4-5',
      args: ['--agent', 'build'],
    });
    const issue = await newIssue(t, board, companyId, { status: 'todo' });
    const run = await wakeAndFinish(t, board, agent.id, { payload: { issueId: issue.id } });
    assert.equal(run.status, 'succeeded', run.error);
    const [call] = await invocations(argsFile);
    assert.deepEqual(call!.argv, [
      'run',
      '--format',
      'json',
      '--model',
      'anthropic/claude-sonnet-4-5',
      '--agent',
      'build',
    ]);
    assert.ok(call!.stdin.length > 0);

    const [session] = await sessionsOf(t, agent.id);
    assert.equal(session.task_key, issue.id);
    assert.equal(session.adapter_type, 'opencode_local');
    assert.match(session.session_id, /^ses_/);
    assert.deepEqual(run.result_json, { summary: 'Listed the files.', sessionId: session.session_id });
    // Steps of 0.0123 and 0.015 USD: 3 cents in all (2 then 1), not 2 + 2 from rounding each step up,
    // nor the table's price of the tokens. input = input + cache read + cache write; output = output + reasoning.
    const costs = await sql(
      'select provider, model, billing_type, input_tokens::int, cached_input_tokens::int, output_tokens::int, cost_cents from cost_events where heartbeat_run_id = $1 order by input_tokens',
      [run.id],
    );
    assert.deepEqual(costs, [
      {
        provider: 'anthropic',
        model: 'claude-sonnet-4-5',
        billing_type: 'unknown',
        input_tokens: 1600,
        cached_input_tokens: 500,
        output_tokens: 40,
        cost_cents: 2,
      },
      {
        provider: 'anthropic',
        model: 'claude-sonnet-4-5',
        billing_type: 'unknown',
        input_tokens: 1700,
        cached_input_tokens: 1500,
        output_tokens: 40,
        cost_cents: 1,
      },
    ]);
  });

  it('resumes the session of the same issue only, and starts fresh on forceFreshSession', async () => {
    const { agent, argsFile } = await opencodeAgent('resume');
    const [a, b] = [
      await newIssue(t, board, companyId, { status: 'todo' }),
      await newIssue(t, board, companyId, { status: 'todo' }),
    ];
    await wakeAndFinish(t, board, agent.id, { payload: { issueId: a.id } });
    const sessionA = (await sessionsOf(t, agent.id))[0].session_id;
    const again = await wakeAndFinish(t, board, agent.id, { payload: { issueId: a.id } });
    assert.equal(again.status, 'succeeded', again.error);
    assert.equal(again.result_json.summary, `resumed ${sessionA}`);
    await wakeAndFinish(t, board, agent.id, { payload: { issueId: b.id } });
    await wakeAndFinish(t, board, agent.id, { payload: { issueId: a.id }, forceFreshSession: true });

    const calls = await invocations(argsFile);
    assert.deepEqual(
      calls.map((c) => resumed(c.argv)),
      [null, sessionA, null, null],
    );
    assert.deepEqual(calls[1]!.argv, ['run', '--format', 'json', '--session', sessionA]);
    const sessions = await sessionsOf(t, agent.id);
    assert.equal(sessions.length, 2);
    assert.notEqual(sessions.find((s) => s.task_key === a.id).session_id, sessionA);
  });

  it('when opencode cannot find the stored session (exit 0, Session not found on stderr), forgets it and runs once more fresh in the same run', async () => {
    await assertRejectedResumeRunsFresh(t, board, companyId, await opencodeAgent('rejected'), resumed);
  });

  it('an error event fails the run with its message, even when opencode exits 0', async () => {
    const { agent } = await opencodeAgent('error', {}, { FAKE_SCENARIO: 'error' });
    const run = await wakeAndFinish(t, board, agent.id, { payload: {} });
    assert.equal(run.status, 'failed');
    assert.equal(run.exit_code, 0);
    assert.equal(run.error, 'Incorrect API key provided: sk-test');
    assert.equal((await sessionsOf(t, agent.id)).length, 1, 'the session had started: kept for the next wake');
  });

  it('records usage while opencode still runs, and times it out at the deadline', async () => {
    const { agent } = await opencodeAgent('hang', { timeoutSec: 2, graceSec: 1 }, { FAKE_SCENARIO: 'hang' });
    const { live, run } = await usageWhileRunningThenEnd(t, board, agent.id);
    assert.deepEqual(live, { status: 'running', output_tokens: 3, cost_cents: 1 });
    assert.equal(run.status, 'timed_out');
  });
});

describe('opencode_local: testEnvironment', () => {
  const adapter = createServerAdapter();
  it('finds the binary, reads its version, hints at credentials and checks the working directory', async () => {
    const check = await adapter.testEnvironment({ command: FAKE, cwd: dir, env: { HOME: dir } });
    assert.equal(check.ok, true, JSON.stringify(check));
    assert.equal(check.checks.find((c) => c.name === 'version')!.detail, '1.14.19');
    assert.match(
      check.checks.find((c) => c.name === 'credentials')!.detail,
      /^login not asked \(fake-opencode.mjs has no login status command\); no .*opencode: log the CLI in or set OPENCODE_API_KEY/,
    );
    const missing = await adapter.testEnvironment({ command: 'no-such-opencode-boardroom' });
    assert.equal(missing.ok, false);
  });
});
