// A run the engine starts about an issue is listed on that issue from the moment it exists, by
// GET /issues/{id}/runs and GET /heartbeat-runs/{runId}/issues, whatever woke it and whether or not
// its process ever checks the issue out (a reviewer that only reads, a process that cannot start).
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { newAgent, newIssue } from './helpers/factories.ts';
import { waitFor } from './helpers/wait.ts';

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
      const runs = (await t.database.pool.query(`select id, status, issue_id, invocation_source from heartbeat_runs where agent_id = $1`, [agentId])).rows;
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
    const comment = await t.request('POST', `/api/issues/${issue.id}/comments`, { token: board, body: { body: `@${name} please review` } });
    assert.equal(comment.status, 201);
    const run = await finishedRunOf(agent.id);
    assert.equal(run.issue_id, issue.id);
    await assertListedBothWays(run.id, issue.id);
  });

  it('manual wake with payload.issueId: on the issue while it is still live, and after', async () => {
    const { agent } = await newAgent(t, board, companyId, { adapterConfig: { command: process.execPath, args: [WORKER, '1500'] } });
    const issue = await newIssue(t, board, companyId, { status: 'todo' });
    const wake = await t.request('POST', `/api/agents/${agent.id}/wakeup`, { token: board, body: { payload: { issueId: issue.id } } });
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
    await t.request('POST', `/api/agents/${agent.id}/wakeup`, { token: board, body: { payload: { issueId: issue.id } } });
    const run = await finishedRunOf(agent.id);
    assert.equal(run.status, 'failed');
    await assertListedBothWays(run.id, issue.id);
  });

  it('routine run: the run of the assignee is on the execution issue the routine created', async () => {
    const { agent } = await newAgent(t, board, companyId, { adapterConfig: reviewer });
    const routine = await t.request('POST', `/api/companies/${companyId}/routines`, { token: board, body: { title: 'Daily review', assigneeAgentId: agent.id } });
    assert.equal(routine.status, 201);
    assert.equal((await t.request('POST', `/api/routines/${routine.body.id}/run`, { token: board, body: {} })).status, 202);
    const run = await finishedRunOf(agent.id);
    const [execution] = (await get(`/api/companies/${companyId}/issues?originKind=routine_execution&originId=${routine.body.id}`)) as { id: string }[];
    assert.ok(execution, 'the routine created its execution issue');
    assert.equal(run.issue_id, execution.id);
    await assertListedBothWays(run.id, execution.id);
  });
});
