// Driving agents whose runtime is a fake coding CLI (test/fixtures/clis): wake, wait for the run,
// read what the CLI was invoked with.
import assert from 'node:assert/strict';
import { readFile, unlink } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestApp } from './app.ts';
import { newAgent, newIssue } from './factories.ts';
import { waitFor } from './wait.ts';

export const CLIS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'clis');

/** Wakes the agent with `body` (payload, forceFreshSession) and returns its finished run row. */
export async function wakeAndFinish(
  t: TestApp,
  boardToken: string,
  agentId: string,
  body: Record<string, unknown> = {},
  timeoutMs = 15_000,
): Promise<any> {
  const res = await t.request('POST', `/api/agents/${agentId}/wakeup`, { token: boardToken, body });
  assert.equal(res.status, 202, JSON.stringify(res.body));
  return waitFor(
    'the run to finish',
    async () =>
      (
        await t.database.pool.query(
          "select * from heartbeat_runs where wakeup_request_id = $1 and status not in ('queued', 'running')",
          [res.body.id],
        )
      ).rows[0],
    timeoutMs,
  );
}

/** Every invocation the fake CLI recorded in its FAKE_ARGS_FILE, in order. */
export async function invocations(
  file: string,
): Promise<{ argv: string[]; stdin: string; codexHome?: string | null; skills?: string[] }[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

/**
 * An agent of `adapterType` whose CLI is the fake at `fake`, with its own state folder (the
 * sessions the fake "knows") and invocation record under `dir`.
 */
export async function fakeCliAgent(
  t: TestApp,
  boardToken: string,
  companyId: string,
  opts: {
    adapterType: string;
    fake: string;
    dir: string;
    name: string;
    extra?: Record<string, unknown>;
    env?: Record<string, string>;
  },
) {
  const argsFile = path.join(opts.dir, `${opts.name}.args`);
  const stateDir = path.join(opts.dir, `${opts.name}.state`);
  const { agent } = await newAgent(t, boardToken, companyId, {
    adapterType: opts.adapterType,
    adapterConfig: {
      command: opts.fake,
      env: { FAKE_ARGS_FILE: argsFile, FAKE_STATE_DIR: stateDir, ...opts.env },
      timeoutSec: 60,
      graceSec: 1,
      ...opts.extra,
    },
  });
  return { agent, argsFile, stateDir };
}

/** The runtime sessions stored for an agent, by task key. */
export async function sessionsOf(t: TestApp, agentId: string) {
  return (
    await t.database.pool.query(
      'select task_key, adapter_type, session_id from agent_task_sessions where agent_id = $1 order by task_key',
      [agentId],
    )
  ).rows;
}

/**
 * The fake CLI forgets the session it gave for an issue (its state file goes, as when a session
 * expires): the next wake of the issue resumes it, is rejected, and runs once more, fresh, in the
 * same run. `resumedOf` reads the resumed id from an invocation's argv.
 */
export async function assertRejectedResumeRunsFresh(
  t: TestApp,
  boardToken: string,
  companyId: string,
  fake: { agent: { id: string }; argsFile: string; stateDir: string },
  resumedOf: (argv: string[]) => string | null | undefined,
): Promise<void> {
  const issue = await newIssue(t, boardToken, companyId, { status: 'todo' });
  await wakeAndFinish(t, boardToken, fake.agent.id, { payload: { issueId: issue.id } });
  const stale = (await sessionsOf(t, fake.agent.id))[0].session_id;
  await unlink(path.join(fake.stateDir, stale));
  const run = await wakeAndFinish(t, boardToken, fake.agent.id, { payload: { issueId: issue.id } });
  assert.equal(run.status, 'succeeded', run.error);
  const calls = await invocations(fake.argsFile);
  assert.deepEqual(
    calls.map((c) => resumedOf(c.argv)),
    [null, stale, null],
  );
  assert.notEqual((await sessionsOf(t, fake.agent.id))[0].session_id, stale);
}

/**
 * Wakes an agent whose fake CLI reports usage and then hangs: returns the usage row as it stood
 * while the run was still running (status, output_tokens, cost_cents), and the run once it ended.
 */
export async function usageWhileRunningThenEnd(
  t: TestApp,
  boardToken: string,
  agentId: string,
): Promise<{ live: Record<string, unknown>; run: any }> {
  const res = await t.request('POST', `/api/agents/${agentId}/wakeup`, { token: boardToken, body: {} });
  assert.equal(res.status, 202);
  const sql = async (text: string) => (await t.database.pool.query(text, [res.body.id])).rows[0];
  const live = await waitFor('usage recorded while running', () =>
    sql(
      'select r.status, c.output_tokens::int, c.cost_cents from heartbeat_runs r join cost_events c on c.heartbeat_run_id = r.id where r.wakeup_request_id = $1',
    ),
  );
  const run = await waitFor('the run to end', () =>
    sql("select * from heartbeat_runs where wakeup_request_id = $1 and status <> 'running'"),
  );
  return { live, run };
}
