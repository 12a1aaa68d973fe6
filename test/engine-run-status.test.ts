// What a live run and its agent say about themselves: a live run's logBytes follows its log as it
// is stored, and an agent in error says which run put it there and why.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { newAgent } from './helpers/factories.ts';
import { waitFor } from './helpers/wait.ts';

const WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'agents', 'worker.mjs');
const worker = (...args: string[]) => ({ command: process.execPath, args: [WORKER, ...args] });

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
const wake = (agentId: string) => t.request('POST', `/api/agents/${agentId}/wakeup`, { token: board, body: {} });
const runsOf = async (agentId: string) =>
  (await get(`/api/companies/${companyId}/heartbeat-runs?agentId=${agentId}`)) as any[];
const lastFinishedRun = (agentId: string, count: number) =>
  waitFor(
    'the run to finish',
    async () => {
      const runs = await runsOf(agentId);
      return runs.length === count && !['queued', 'running'].includes(runs[0].status) ? runs[0] : null;
    },
    30_000,
  );

describe('a live run shows the size of its log', () => {
  it('logBytes grows with the stored log while the run is running, and ends as the whole log', async () => {
    // The worker prints its prompt at once, then works 4 s before its last lines.
    const { agent } = await newAgent(t, board, companyId, { adapterConfig: worker('4000') });
    await wake(agent.id);
    const live = await waitFor('a running run with a stored log', async () => {
      const [run] = await runsOf(agent.id);
      return run?.status === 'running' && run.logBytes > 0 ? run : null;
    });
    const page = await get(`/api/heartbeat-runs/${live.runId}/log`);
    assert.equal(page.finished, false);
    assert.ok(page.logBytes >= live.logBytes, 'what the run says is stored is stored');
    assert.equal((await get(`/api/heartbeat-runs/${live.runId}`)).status, 'running');

    const done = await lastFinishedRun(agent.id, 1);
    assert.equal(done.status, 'succeeded');
    assert.ok(done.logBytes > live.logBytes, 'the last lines came after');
    const whole = await get(`/api/heartbeat-runs/${done.runId}/log`);
    assert.deepEqual([whole.logBytes, whole.nextOffset, whole.complete], [done.logBytes, done.logBytes, true]);
  });
});

describe('an agent in error says why', () => {
  it('errorReason names the failed run and its exit; cleared by the next success and by a pause', async () => {
    const { agent } = await newAgent(t, board, companyId, { adapterConfig: worker('0', '3') });
    assert.equal((await get(`/api/agents/${agent.id}`)).errorReason, null);
    await wake(agent.id);
    const failed = await lastFinishedRun(agent.id, 1);
    assert.equal(failed.status, 'failed');
    const inError = await waitFor('the agent in error', async () => {
      const a = await get(`/api/agents/${agent.id}`);
      return a.status === 'error' ? a : null;
    });
    assert.equal(inError.errorReason, `run ${failed.runId} failed: process exited with code 3`);
    // Also in the company list (the same presenter).
    const listed = (await get(`/api/companies/${companyId}/agents`)).find((a: { id: string }) => a.id === agent.id);
    assert.equal(listed.errorReason, inError.errorReason);

    // Paused and resumed: no longer in error, so no reason.
    assert.equal((await t.request('POST', `/api/agents/${agent.id}/pause`, { token: board })).body.errorReason, null);
    assert.equal((await t.request('POST', `/api/agents/${agent.id}/resume`, { token: board })).body.errorReason, null);

    // In error again, then a success clears it.
    await wake(agent.id);
    const again = await lastFinishedRun(agent.id, 2);
    assert.equal(
      (await get(`/api/agents/${agent.id}`)).errorReason,
      `run ${again.runId} failed: process exited with code 3`,
    );
    await t.request('PATCH', `/api/agents/${agent.id}`, { token: board, body: { adapterConfig: worker('0', '0') } });
    await wake(agent.id);
    await lastFinishedRun(agent.id, 3);
    const recovered = await get(`/api/agents/${agent.id}`);
    assert.deepEqual([recovered.status, recovered.errorReason], ['idle', null]);
    const [row] = (await t.database.pool.query('select error_reason from agents where id = $1', [agent.id])).rows;
    assert.equal(row.error_reason, null, 'the stored reason goes with the error');
  });
});

describe("a run's activity entries name its agent", () => {
  it("the engine writes started and succeeded as the system, involving the run's agent, so the agent filter finds them", async () => {
    const { agent } = await newAgent(t, board, companyId, { adapterConfig: worker() });
    await wake(agent.id);
    const run = await lastFinishedRun(agent.id, 1);
    const entries = (await get(
      `/api/companies/${companyId}/activity?agentId=${agent.id}&entityType=heartbeat_run`,
    )) as any[];
    assert.deepEqual(entries.map((entry) => [entry.action, entry.entityId, entry.actorType, entry.agentId]).sort(), [
      ['heartbeat_run.started', run.runId, 'system', agent.id],
      ['heartbeat_run.succeeded', run.runId, 'system', agent.id],
    ]);
  });
});
