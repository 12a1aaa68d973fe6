// A run the engine starts about an issue is listed on that issue from the moment it exists, by
// GET /issues/{id}/runs and GET /heartbeat-runs/{runId}/issues, whatever woke it and whether or not
// its process ever checks the issue out (a reviewer that only reads, a process that cannot start).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { newAgent, newIssue } from './helpers/factories.ts';
import { waitFor } from './helpers/wait.ts';
import { CHECKOUT_RUN_LAPSED } from '../src/modules/runs/reap.ts';

const WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'agents', 'worker.mjs');
// Works a moment and exits 0 without ever calling the API.
const reviewer = { command: process.execPath, args: [WORKER, '300'] };

let t: TestApp;
let board: string;
let companyId: string;

before(async () => {
  t = await startTestApp({ engine: { pollMs: 200, reaperIntervalMs: 500 } });
  const c = await t.newCompany();
  board = c.token;
  companyId = c.company.id;
});
after(() => t.close());

const get = async (url: string) => {
  const res = await t.request('GET', url, { token: board });
  assert.equal(res.status, 200, `${url}: ${JSON.stringify(res.body)}`);
  return res.body;
};

/** The agent's one engine run once it has finished. */
const finishedRunOf = (agentId: string) =>
  waitFor(
    'the run to finish',
    async () => {
      const runs = (
        await t.database.pool.query(
          `select id, status, issue_id, invocation_source from heartbeat_runs where agent_id = $1`,
          [agentId],
        )
      ).rows;
      return runs.length === 1 && !['queued', 'running'].includes(runs[0].status) ? runs[0] : null;
    },
    30_000,
  );

async function assertListedBothWays(runId: string, issueId: string) {
  const runs = await get(`/api/issues/${issueId}/runs`);
  assert.deepEqual(
    runs.map((r: { runId: string }) => r.runId),
    [runId],
    'GET /issues/{id}/runs lists the run',
  );
  const issues = await get(`/api/heartbeat-runs/${runId}/issues`);
  assert.deepEqual(
    issues.map((i: { id: string }) => i.id),
    [issueId],
    'GET /heartbeat-runs/{id}/issues lists the issue',
  );
}

describe('engine: a run is recorded against its issue when it is created', () => {
  it('assignment: the run of the assignee is on the issue, though it never checks it out', async () => {
    const { agent } = await newAgent(t, board, companyId, { adapterConfig: reviewer });
    const issue = await newIssue(t, board, companyId, { status: 'todo', assigneeAgentId: agent.id });
    const run = await finishedRunOf(agent.id);
    assert.deepEqual([run.status, run.invocation_source, run.issue_id], ['succeeded', 'assignment', issue.id]);
    assert.equal((await get(`/api/issues/${issue.id}`)).checkoutRunId, null, 'never checked out');
    await assertListedBothWays(run.id, issue.id);
  });

  it('mention: the run of the mentioned agent is on the issue of the comment', async () => {
    const name = `Reviewer ${Math.random().toString(36).slice(2, 8)}`;
    const { agent } = await newAgent(t, board, companyId, { name, adapterConfig: reviewer });
    const issue = await newIssue(t, board, companyId, { status: 'todo' });
    const comment = await t.request('POST', `/api/issues/${issue.id}/comments`, {
      token: board,
      body: { body: `@${name} please review` },
    });
    assert.equal(comment.status, 201);
    const run = await finishedRunOf(agent.id);
    assert.equal(run.issue_id, issue.id);
    await assertListedBothWays(run.id, issue.id);
  });

  it('manual wake with payload.issueId: on the issue while it is still live, and after', async () => {
    const { agent } = await newAgent(t, board, companyId, {
      adapterConfig: { command: process.execPath, args: [WORKER, '1500'] },
    });
    const issue = await newIssue(t, board, companyId, { status: 'todo' });
    const wake = await t.request('POST', `/api/agents/${agent.id}/wakeup`, {
      token: board,
      body: { payload: { issueId: issue.id } },
    });
    assert.equal(wake.status, 202);
    const live = await waitFor('the run to exist', async () => (await get(`/api/issues/${issue.id}/runs`))[0]);
    assert.ok(['queued', 'running'].includes(live.status), `listed while ${live.status}`);
    const run = await finishedRunOf(agent.id);
    assert.equal(run.id, live.runId);
    await assertListedBothWays(run.id, issue.id);
  });

  it('a run whose process never starts is on its issue too', async () => {
    const { agent } = await newAgent(t, board, companyId, { adapterConfig: { command: '/nonexistent/agent-binary' } });
    const issue = await newIssue(t, board, companyId, { status: 'todo' });
    await t.request('POST', `/api/agents/${agent.id}/wakeup`, {
      token: board,
      body: { payload: { issueId: issue.id } },
    });
    const run = await finishedRunOf(agent.id);
    assert.equal(run.status, 'failed');
    await assertListedBothWays(run.id, issue.id);
  });

  it('routine run: the run of the assignee is on the execution issue the routine created', async () => {
    const { agent } = await newAgent(t, board, companyId, { adapterConfig: reviewer });
    const routine = await t.request('POST', `/api/companies/${companyId}/routines`, {
      token: board,
      body: { title: 'Daily review', assigneeAgentId: agent.id },
    });
    assert.equal(routine.status, 201);
    assert.equal(
      (await t.request('POST', `/api/routines/${routine.body.id}/run`, { token: board, body: {} })).status,
      202,
    );
    const run = await finishedRunOf(agent.id);
    const [execution] = (await get(
      `/api/companies/${companyId}/issues?originKind=routine_execution&originId=${routine.body.id}`,
    )) as { id: string }[];
    assert.ok(execution, 'the routine created its execution issue');
    assert.equal(run.issue_id, execution.id);
    await assertListedBothWays(run.id, execution.id);
  });
});

describe('a run first seen on a checkout (README quick start, step 5)', () => {
  it('names the issue it checked out, is listed on it, and leaves the issue to the engine once released', async () => {
    const { agent, token } = await newAgent(t, board, companyId, { adapterConfig: reviewer });
    const issue = await newIssue(t, board, companyId, { status: 'todo' });
    const runId = randomUUID();
    const checkout = await t.request('POST', `/api/issues/${issue.id}/checkout`, {
      token,
      headers: { 'x-service-run-id': runId },
      body: { agentId: agent.id, expectedStatuses: ['todo'] },
    });
    assert.equal(checkout.status, 200);
    const run = await get(`/api/heartbeat-runs/${runId}`);
    assert.deepEqual([run.status, run.invocationSource, run.issueId], ['running', 'checkout', issue.id]);
    await assertListedBothWays(runId, issue.id);

    // A second issue checked out with the same run: linked too; the run keeps naming the first.
    const second = await newIssue(t, board, companyId, { status: 'todo' });
    assert.equal(
      (
        await t.request('POST', `/api/issues/${second.id}/checkout`, {
          token,
          headers: { 'x-service-run-id': runId },
          body: { agentId: agent.id, expectedStatuses: ['todo'] },
        })
      ).status,
      200,
    );
    assert.equal((await get(`/api/heartbeat-runs/${runId}`)).issueId, issue.id);
    assert.deepEqual(
      (await get(`/api/issues/${second.id}/runs`)).map((r: { runId: string }) => r.runId),
      [runId],
    );

    // Released, the issue is free for the engine at once: a wake about it runs, it does not wait for
    // (or merge into) the still-live checkout run.
    assert.equal(
      (await t.request('POST', `/api/issues/${issue.id}/release`, { token, headers: { 'x-service-run-id': runId } }))
        .status,
      200,
    );
    const wake = await t.request('POST', `/api/agents/${agent.id}/wakeup`, {
      token: board,
      body: { payload: { issueId: issue.id } },
    });
    const engineRun = await waitFor(
      'the wake to become a finished run',
      async () => {
        const [row] = (
          await t.database.pool.query(
            `select r.id, r.status from agent_wakeup_requests w join heartbeat_runs r on r.id = w.run_id where w.id = $1 and w.status = 'completed'`,
            [wake.body.id],
          )
        ).rows;
        return row && !['queued', 'running'].includes(row.status) ? row : null;
      },
      30_000,
    );
    assert.notEqual(engineRun.id, runId);
    assert.equal(engineRun.status, 'succeeded');
  });

  it('ends when its lease lapses (30 minutes without a checkout), with a reason, and leaves the agent as it was', async () => {
    const { agent, token } = await newAgent(t, board, companyId, { adapterConfig: reviewer });
    const issue = await newIssue(t, board, companyId, { status: 'todo' });
    const runId = randomUUID();
    await t.request('POST', `/api/issues/${issue.id}/checkout`, {
      token,
      headers: { 'x-service-run-id': runId },
      body: { agentId: agent.id, expectedStatuses: ['todo'] },
    });
    const lease = (
      await t.database.pool.query(
        `select extract(epoch from lease_expires_at - now()) as sec from heartbeat_runs where id = $1`,
        [runId],
      )
    ).rows[0];
    assert.ok(Number(lease.sec) > 29 * 60 && Number(lease.sec) <= 30 * 60, `lease ${lease.sec} s`);
    // The 30 minutes pass (the lease is moved back instead of waiting for them).
    await t.database.pool.query(
      `update heartbeat_runs set lease_expires_at = now() - interval '1 second' where id = $1`,
      [runId],
    );
    const ended = await waitFor('the reaper to end it', async () => {
      const run = await get(`/api/heartbeat-runs/${runId}`);
      return run.status !== 'running' ? run : null;
    });
    assert.deepEqual([ended.status, ended.error], ['failed', CHECKOUT_RUN_LAPSED]);
    assert.equal(
      (await get(`/api/agents/${agent.id}`)).status,
      'idle',
      'not error: the engine never learnt how that work went',
    );
  });
});
