// GET /api/issues/{issueId}/runs, GET /api/heartbeat-runs/{runId}/issues, and the lease sweep.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { reapExpiredRuns } from '../src/modules/runs/reap.ts';
import { useTestApp } from './helpers/app.ts';
import { activityRows, newAgent, newIssue, type AgentFixture } from './helpers/factories.ts';

const t = await useTestApp();
const sql = (text: string, params: unknown[] = []) => t.database.pool.query(text, params);

const a = await t.newCompany();
const a1 = await newAgent(t, a.token, a.company.id, { name: 'Runner' });
const b = await t.newCompany();
const b1 = await newAgent(t, b.token, b.company.id, { name: 'Outsider' });

const checkout = (issue: any, agent: AgentFixture, runId: string, expectedStatuses: string[]) =>
  t.request('POST', `/api/issues/${issue.id}/checkout`, {
    token: agent.token,
    headers: { 'x-service-run-id': runId },
    body: { agentId: agent.agent.id, expectedStatuses },
  });

const RUN_SUMMARY_FIELDS = [
  'runId',
  'status',
  'agentId',
  'adapterType',
  'startedAt',
  'finishedAt',
  'createdAt',
  'invocationSource',
  'usageJson',
  'resultJson',
  'logBytes',
];

describe('GET /api/issues/{issueId}/runs', () => {
  it('lists the runs that touched the issue, newest first, with the run summary fields; limit bounds it', async () => {
    const issue = await newIssue(t, a.token, a.company.id, { status: 'todo' });
    const first = randomUUID();
    assert.equal((await checkout(issue, a1, first, ['todo'])).status, 200);
    await sql(
      `update heartbeat_runs set status = 'succeeded', finished_at = now(), usage_json = '{"inputTokens":5}', result_json = '{"ok":true}', log_bytes = 42, created_at = now() - interval '1 minute' where id = $1`,
      [first],
    );
    const second = randomUUID();
    assert.equal((await checkout(issue, a1, second, ['in_progress'])).status, 200);

    const res = await t.request('GET', `/api/issues/${issue.identifier}/runs`, { token: a.token });
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.map((r: any) => r.runId),
      [second, first],
    );
    assert.deepEqual(Object.keys(res.body[1]).sort(), [...RUN_SUMMARY_FIELDS].sort());
    assert.equal(res.body[1].status, 'succeeded');
    assert.equal(res.body[1].agentId, a1.agent.id);
    assert.equal(res.body[1].adapterType, 'process');
    assert.equal(res.body[1].invocationSource, 'checkout');
    assert.deepEqual(res.body[1].usageJson, { inputTokens: 5 });
    assert.deepEqual(res.body[1].resultJson, { ok: true });
    assert.equal(res.body[1].logBytes, 42);
    assert.ok(res.body[1].finishedAt);
    assert.equal(res.body[0].status, 'running');

    const limited = await t.request('GET', `/api/issues/${issue.id}/runs?limit=1`, { token: a1.token });
    assert.deepEqual(
      limited.body.map((r: any) => r.runId),
      [second],
    );
    assert.equal((await t.request('GET', `/api/issues/${issue.id}/runs?limit=0`, { token: a.token })).status, 400);
    assert.equal((await t.request('GET', `/api/issues/${issue.id}/runs?limit=201`, { token: a.token })).status, 400);
  });

  it('an untouched issue has no runs; 404 for a missing issue; 403 for another company', async () => {
    const issue = await newIssue(t, a.token, a.company.id);
    assert.deepEqual((await t.request('GET', `/api/issues/${issue.id}/runs`, { token: a.token })).body, []);
    assert.equal((await t.request('GET', `/api/issues/${randomUUID()}/runs`, { token: a.token })).status, 404);
    assert.equal((await t.request('GET', `/api/issues/${issue.id}/runs`, { token: b.token })).status, 403);
    assert.equal((await t.request('GET', `/api/issues/${issue.id}/runs`, { token: b1.token })).status, 403);
  });
});

describe('GET /api/heartbeat-runs/{runId}/issues', () => {
  it('lists compact summaries of the issues a run touched, without hidden ones', async () => {
    const runId = randomUUID();
    const one = await newIssue(t, a.token, a.company.id, { status: 'todo', priority: 'high' });
    const two = await newIssue(t, a.token, a.company.id, { status: 'todo' });
    const hidden = await newIssue(t, a.token, a.company.id, { status: 'todo' });
    for (const issue of [one, two, hidden]) assert.equal((await checkout(issue, a1, runId, ['todo'])).status, 200);
    await sql('update issues set hidden_at = now() where id = $1', [hidden.id]);

    const res = await t.request('GET', `/api/heartbeat-runs/${runId}/issues`, { token: a1.token });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.map((i: any) => i.id).sort(), [one.id, two.id].sort());
    const summary = res.body.find((i: any) => i.id === one.id);
    assert.deepEqual(summary, {
      id: one.id,
      identifier: one.identifier,
      title: one.title,
      status: 'in_progress',
      priority: 'high',
      assigneeAgentId: a1.agent.id,
      projectId: null,
      goalId: null,
      parentId: null,
    });
    assert.equal(
      (await t.request('GET', `/api/heartbeat-runs/${runId}/issues?limit=1`, { token: a.token })).body.length,
      1,
    );
  });

  it('an unknown run (or a run id that is not a UUID) is an empty array', async () => {
    for (const runId of [randomUUID(), 'run-42']) {
      const res = await t.request('GET', `/api/heartbeat-runs/${runId}/issues`, { token: a.token });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, []);
    }
  });

  it('403 for a board user and an agent of another company', async () => {
    const runId = randomUUID();
    const issue = await newIssue(t, a.token, a.company.id, { status: 'todo' });
    assert.equal((await checkout(issue, a1, runId, ['todo'])).status, 200);
    assert.equal((await t.request('GET', `/api/heartbeat-runs/${runId}/issues`, { token: b.token })).status, 403);
    assert.equal((await t.request('GET', `/api/heartbeat-runs/${runId}/issues`, { token: b1.token })).status, 403);
    assert.equal(
      (await t.request('GET', `/api/heartbeat-runs/${runId}/issues`, { token: (await t.newBoardUser()).token })).status,
      403,
    );
  });
});

describe('reapExpiredRuns (lease sweep)', () => {
  it('fails live runs whose lease lapsed (lease_lost, checkout_run_lapsed), times out those past deadline plus grace (timeout), leaves the rest, and makes their locks adoptable', async () => {
    const stale = randomUUID();
    const fresh = randomUUID();
    const issue = await newIssue(t, a.token, a.company.id, { status: 'todo' });
    assert.equal((await checkout(issue, a1, stale, ['todo'])).status, 200);
    await sql(`update heartbeat_runs set lease_expires_at = now() - interval '1 second' where id = $1`, [stale]);
    assert.equal(
      (await checkout(await newIssue(t, a.token, a.company.id, { status: 'todo' }), a1, fresh, ['todo'])).status,
      200,
    );
    const queued = randomUUID();
    const finished = randomUUID();
    const overdue = randomUUID();
    const orphaned = randomUUID(); // an engine run whose replica stopped renewing its lease
    await sql(
      `insert into heartbeat_runs (id, company_id, agent_id, status, lease_expires_at, deadline_at, grace_sec, invocation_source) values
        ($1, $4, $5, 'queued', now() + interval '1 minute', null, null, 'on_demand'),
        ($2, $4, $5, 'succeeded', now() - interval '1 hour', null, null, 'on_demand'),
        ($3, $4, $5, 'running', now() + interval '1 minute', now() - interval '20 seconds', 15, 'on_demand'),
        ($6, $4, $5, 'running', now() - interval '1 second', now() + interval '1 hour', 15, 'on_demand')`,
      [queued, finished, overdue, a.company.id, a1.agent.id, orphaned],
    );

    const reaped = (await reapExpiredRuns(t.database.db)) ?? [];
    const ids = reaped.map((r) => r.id);
    assert.deepEqual(ids.sort(), [stale, overdue, orphaned].sort());
    // Why each ended, as the API shows it.
    const shown = async (id: string) => (await t.request('GET', `/api/heartbeat-runs/${id}`, { token: a.token })).body;
    assert.deepEqual(
      [(await shown(stale)).errorCode, (await shown(overdue)).errorCode, (await shown(orphaned)).errorCode],
      ['checkout_run_lapsed', 'timeout', 'lease_lost'],
    );
    assert.match((await shown(orphaned)).error, /lease expired/);

    const rows = new Map(
      (
        await sql('select id, status, finished_at, error from heartbeat_runs where id = any($1)', [
          [stale, fresh, queued, finished, overdue, orphaned],
        ])
      ).rows.map((r) => [r.id, r]),
    );
    assert.equal(rows.get(stale).status, 'failed');
    assert.ok(rows.get(stale).finished_at);
    assert.match(rows.get(stale).error, /no checkout with this run for 30 minutes/);
    assert.equal(rows.get(overdue).status, 'timed_out');
    assert.equal(rows.get(orphaned).status, 'failed');
    assert.equal(rows.get(fresh).status, 'running');
    assert.equal(rows.get(queued).status, 'queued');
    assert.equal(rows.get(finished).status, 'succeeded');
    assert.ok((await activityRows(t, a.company.id, 'heartbeat_run.failed')).some((r) => r.entity_id === stale));

    // The dead run's lock is now stale: the holder shows it, and the assignee adopts it.
    const busy = await checkout(issue, a1, randomUUID(), ['todo']);
    assert.equal(busy.body.details.holder.runStatus, 'failed');
    assert.equal(busy.body.details.holder.runLive, false);
    assert.equal((await checkout(issue, a1, randomUUID(), ['in_progress'])).status, 200);
    assert.deepEqual(
      ((await reapExpiredRuns(t.database.db)) ?? []).map((r) => r.id).filter((id) => id === stale),
      [],
      'a reaped run is not reaped twice',
    );
  });
});
