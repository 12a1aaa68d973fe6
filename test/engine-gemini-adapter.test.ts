// gemini_local through the engine, with a fake Gemini CLI (test/fixtures/clis/fake-gemini.mjs)
// replaying `gemini --output-format stream-json` streams: the session kept per (agent, issue) and
// resumed, a rejected resume retried fresh once, usage from the result (recorded while the process
// still runs), the answer after the last tool call as summary, errors, timeout, and testEnvironment.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createServerAdapter } from '../src/adapters/gemini.ts';
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

const FAKE = path.join(CLIS, 'fake-gemini.mjs');
let t: TestApp;
let board: string;
let companyId: string;
let dir: string;

before(async () => {
  // A price for the model the CLI names in its init event: Gemini reports no cost.
  t = await startTestApp({
    engine: { pollMs: 200, reaperIntervalMs: 500, leaseSec: 5 },
    modelPrices: {
      'google/gemini-2.5-pro': {
        inputCentsPerMTok: 10_000,
        cachedInputCentsPerMTok: 1_000,
        outputCentsPerMTok: 100_000,
      },
    },
  });
  const c = await t.newCompany();
  board = c.token;
  companyId = c.company.id;
  dir = await mkdtemp(path.join(os.tmpdir(), 'boardroom-gemini-'));
});
after(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

const sql = async (text: string, params: unknown[] = []) => (await t.database.pool.query(text, params)).rows;

const geminiAgent = (name: string, extra: Record<string, unknown> = {}, env: Record<string, string> = {}) =>
  fakeCliAgent(t, board, companyId, { adapterType: 'gemini_local', fake: FAKE, dir, name, extra, env });

const resumed = (argv: string[]) => (argv.includes('--resume') ? argv[argv.indexOf('--resume') + 1] : null);

describe('gemini_local', () => {
  it('runs gemini --output-format stream-json with the prompt on stdin, keeps the session, records the usage and the answer as summary', async () => {
    const { agent, argsFile } = await geminiAgent('first', {
      model: 'gemini-2.5-pro',
      args: ['--approval-mode', 'yolo'],
    });
    const issue = await newIssue(t, board, companyId, { status: 'todo' });
    const run = await wakeAndFinish(t, board, agent.id, { payload: { issueId: issue.id } });
    assert.equal(run.status, 'succeeded', run.error);
    const [call] = await invocations(argsFile);
    assert.deepEqual(call!.argv, [
      '--output-format',
      'stream-json',
      '--model',
      'gemini-2.5-pro',
      '--approval-mode',
      'yolo',
    ]);
    assert.ok(call!.stdin.length > 0);

    const [session] = await sessionsOf(t, agent.id);
    assert.equal(session.task_key, issue.id);
    assert.equal(session.adapter_type, 'gemini_local');
    // The narration before the tool call is not the answer.
    assert.deepEqual(run.result_json, { summary: 'Listed the files.', sessionId: session.session_id });
    // 400 uncached at 100 USD/M, 2000 cached at 10 USD/M, 80 out at 1000 USD/M: 4 + 2 + 8 cents.
    const costs = await sql(
      'select provider, model, billing_type, input_tokens::int, cached_input_tokens::int, output_tokens::int, cost_cents from cost_events where heartbeat_run_id = $1',
      [run.id],
    );
    assert.deepEqual(costs, [
      {
        provider: 'google',
        model: 'gemini-2.5-pro',
        billing_type: 'unknown',
        input_tokens: 2400,
        cached_input_tokens: 2000,
        output_tokens: 80,
        cost_cents: 14,
      },
    ]);
  });

  it('resumes the session of the same issue only, and starts fresh on forceFreshSession', async () => {
    const { agent, argsFile } = await geminiAgent('resume');
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
    assert.deepEqual(calls[1]!.argv, ['--output-format', 'stream-json', '--resume', sessionA]);
    const sessions = await sessionsOf(t, agent.id);
    assert.equal(sessions.length, 2);
    assert.notEqual(sessions.find((s) => s.task_key === a.id).session_id, sessionA);
  });

  it('when gemini rejects the stored session (Invalid session identifier), forgets it and runs once more fresh in the same run', async () => {
    await assertRejectedResumeRunsFresh(t, board, companyId, await geminiAgent('rejected'), resumed);
  });

  it('a result with status error fails the run with its message', async () => {
    const { agent } = await geminiAgent('error', {}, { FAKE_SCENARIO: 'error' });
    const run = await wakeAndFinish(t, board, agent.id, { payload: {} });
    assert.equal(run.status, 'failed');
    assert.equal(run.exit_code, 1);
    assert.equal(run.error, '[API Error: Permission denied on resource project demo-project.]');
    assert.equal((await sessionsOf(t, agent.id)).length, 1, 'the session had started: kept for the next wake');
  });

  it('records usage while gemini still runs, and times it out at the deadline', async () => {
    const { agent } = await geminiAgent('hang', { timeoutSec: 2, graceSec: 1 }, { FAKE_SCENARIO: 'hang' });
    const { live, run } = await usageWhileRunningThenEnd(t, board, agent.id);
    assert.deepEqual(
      { status: live.status, output_tokens: live.output_tokens },
      { status: 'running', output_tokens: 3 },
    );
    assert.equal(run.status, 'timed_out');
  });
});

describe('gemini_local: testEnvironment', () => {
  const adapter = createServerAdapter();
  it('finds the binary, reads its version, hints at credentials and checks the working directory', async () => {
    const check = await adapter.testEnvironment({
      command: FAKE,
      cwd: dir,
      env: { HOME: dir, GEMINI_API_KEY: 'test-key' },
    });
    assert.equal(check.ok, true, JSON.stringify(check));
    assert.equal(check.checks.find((c) => c.name === 'version')!.detail, '0.18.4');
    assert.match(check.checks.find((c) => c.name === 'credentials')!.detail, /GEMINI_API_KEY is set/);
    const missing = await adapter.testEnvironment({ command: 'no-such-gemini-boardroom' });
    assert.equal(missing.ok, false);
  });
});
