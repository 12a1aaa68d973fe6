// Routine runs through the API: manual runs (202, triggers, idempotency, variables, overrides, who
// may), the concurrency policies against a live execution issue (also under ten concurrent runs),
// the run following its execution issue (done -> completed, cancelled -> failed), the execution
// issue itself (origin, hidden from the default issue list, the assignee's wakeup), the runs list
// and the run activity entries.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestApp } from './helpers/app.ts';
import { MISSING, routineCompanies } from './helpers/routines.ts';
import { decideStrandedRuns } from '../src/modules/routines/routine-runs.ts';
import { newAgent } from './helpers/factories.ts';

const t = await useTestApp();
const { A, board, a1, a2, bAgent, bProject } = await routineCompanies(t);

async function routine(body: Record<string, unknown> = {}, token = board): Promise<any> {
  const res = await t.request('POST', `/api/companies/${A}/routines`, {
    token,
    body: { title: `Routine ${Math.random().toString(36).slice(2, 8)}`, assigneeAgentId: a1.agent.id, ...body },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

async function trigger(routineId: string, body: Record<string, unknown>): Promise<any> {
  const res = await t.request('POST', `/api/routines/${routineId}/triggers`, { token: board, body });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

const run = (routineId: string, body: Record<string, unknown> = {}, token = board) =>
  t.request('POST', `/api/routines/${routineId}/run`, { token, body });

/** A manual run that must be accepted (202); returns the run. */
async function accepted(routineId: string, body: Record<string, unknown> = {}, token = board): Promise<any> {
  const res = await run(routineId, body, token);
  assert.equal(res.status, 202, JSON.stringify(res.body));
  return res.body;
}

async function runs(routineId: string, query = ''): Promise<any[]> {
  const res = await t.request('GET', `/api/routines/${routineId}/runs${query}`, { token: board });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

const issue = async (id: string) => (await t.request('GET', `/api/issues/${id}`, { token: board })).body;
const setIssueStatus = async (id: string, status: string) => {
  const res = await t.request('PATCH', `/api/issues/${id}`, { token: board, body: { status } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
};
const executionIssueIds = async (routineId: string) =>
  (
    await t.database.pool.query(`select id from issues where origin_kind = 'routine_execution' and origin_id = $1`, [
      routineId,
    ])
  ).rows.map((r) => r.id as string);

describe('manual runs', () => {
  it('accepts a run (202) that creates an execution issue; source api is accepted', async () => {
    const r = await routine();
    const first = await accepted(r.id);
    assert.equal(first.status, 'issue_created');
    assert.equal(first.source, 'manual');
    assert.equal(first.routineId, r.id);
    assert.equal(first.triggerId, null);
    assert.ok(first.linkedIssueId);
    assert.equal(first.completedAt, null);
    const api = await accepted((await routine()).id, { source: 'api', payload: { ref: 'main' } });
    assert.equal(api.source, 'api');
    assert.deepEqual(api.triggerPayload, { ref: 'main' });
    assert.equal((await run(r.id, { source: 'webhook' })).status, 400);
  });

  it('checks the trigger: another routine 403, disabled 409; records the run against it', async () => {
    const r = await routine({ concurrencyPolicy: 'always_enqueue' });
    const other = await routine();
    const foreign = await trigger(other.id, { kind: 'api' });
    assert.equal((await run(r.id, { triggerId: foreign.id })).status, 403);
    assert.equal((await run(r.id, { triggerId: MISSING })).status, 403);
    const api = await trigger(r.id, { kind: 'api' });
    const disabled = await trigger(r.id, { kind: 'api', enabled: false });
    assert.equal((await run(r.id, { triggerId: disabled.id })).status, 409);
    assert.equal(api.lastFiredAt, null);
    const before = Date.now();
    const fired = await accepted(r.id, { triggerId: api.id });
    assert.equal(fired.triggerId, api.id);
    const triggers = (await t.request('GET', `/api/routines/${r.id}`, { token: board })).body.triggers;
    const lastFiredAt = triggers.find((tr: any) => tr.id === api.id).lastFiredAt;
    assert.ok(lastFiredAt && Date.parse(lastFiredAt) >= before - 1000, lastFiredAt);
    assert.equal(triggers.find((tr: any) => tr.id === disabled.id).lastFiredAt, null);
    assert.equal((await runs(r.id)).length, 1, 'refused runs are not recorded');
    assert.equal((await runs(other.id)).length, 0);
  });

  it('deduplicates by idempotencyKey per source and trigger', async () => {
    const r = await routine({ concurrencyPolicy: 'always_enqueue' });
    const first = await accepted(r.id, { idempotencyKey: 'release-1' });
    const again = await accepted(r.id, { idempotencyKey: 'release-1' });
    assert.equal(again.id, first.id);
    assert.equal(again.linkedIssueId, first.linkedIssueId);
    assert.equal((await runs(r.id)).length, 1);
    assert.equal((await executionIssueIds(r.id)).length, 1);
    const viaApi = await accepted(r.id, { idempotencyKey: 'release-1', source: 'api' });
    assert.notEqual(viaApi.id, first.id);
    const api = await trigger(r.id, { kind: 'api' });
    const viaTrigger = await accepted(r.id, { idempotencyKey: 'release-1', triggerId: api.id });
    assert.ok(![first.id, viaApi.id].includes(viaTrigger.id));
    assert.equal((await accepted(r.id, { idempotencyKey: 'release-1', source: 'api' })).id, viaApi.id);
    assert.equal((await runs(r.id)).length, 3);
    assert.equal((await executionIssueIds(r.id)).length, 3);
    // Concurrent repeats of a new key still make one run.
    const burst = await Promise.all(Array.from({ length: 5 }, () => run(r.id, { idempotencyKey: 'burst' })));
    assert.deepEqual(
      burst.map((res) => res.status),
      Array(5).fill(202),
    );
    assert.equal(new Set(burst.map((res) => res.body.id)).size, 1);
    assert.equal((await runs(r.id)).length, 4);
    assert.equal((await executionIssueIds(r.id)).length, 4);
  });

  it('merges run variables over the defaults into the issue title and description, and checks them (422)', async () => {
    const r = await routine({
      title: 'Report for {{repo}} #{{count}}',
      description: 'Check {{ repo }} (dry run: {{dry}})',
      concurrencyPolicy: 'always_enqueue',
      variables: [
        { name: 'repo', type: 'text', required: true, defaultValue: 'web' },
        { name: 'count', type: 'number', defaultValue: 1 },
        { name: 'dry', type: 'boolean' },
      ],
    });
    const given = await issue(
      (await accepted(r.id, { variables: { repo: 'api', count: 7, dry: true } })).linkedIssueId,
    );
    assert.equal(given.title, 'Report for api #7');
    assert.equal(given.description, 'Check api (dry run: true)');
    const defaults = await issue((await accepted(r.id)).linkedIssueId);
    assert.equal(defaults.title, 'Report for web #1');
    assert.equal(defaults.description, 'Check web (dry run: )');
    // An empty value is not given: the default fills it.
    assert.equal(
      (await issue((await accepted(r.id, { variables: { repo: '' } })).linkedIssueId)).title,
      'Report for web #1',
    );
    for (const variables of [{ branch: 'main' }, { count: 'abc' }, { dry: 'maybe' }]) {
      assert.equal((await run(r.id, { variables })).status, 422, JSON.stringify(variables));
    }
    const strict = await routine({ title: 'Ship {{tag}}', variables: [{ name: 'tag', required: true }] });
    assert.equal((await run(strict.id)).status, 422);
    assert.equal((await run(strict.id, { variables: { tag: '' } })).status, 422);
    assert.equal(
      (await issue((await accepted(strict.id, { variables: { tag: 'v1.2' } })).linkedIssueId)).title,
      'Ship v1.2',
    );
    assert.equal((await runs(r.id)).length, 3, 'refused runs are not recorded');
  });

  it('checks per-run overrides and who may run', async () => {
    const r = await routine({ concurrencyPolicy: 'always_enqueue' });
    assert.equal((await run(r.id, { assigneeAgentId: bAgent.agent.id })).status, 422);
    assert.equal((await run(r.id, { assigneeAgentId: MISSING })).status, 422);
    assert.equal((await run(r.id, { projectId: bProject.id })).status, 422);
    // The assignee runs its own routine; naming another assignee is 403, itself is fine.
    assert.equal((await run(r.id, { assigneeAgentId: a2.agent.id }, a1.token)).status, 403);
    const self = await accepted(r.id, { assigneeAgentId: a1.agent.id }, a1.token);
    assert.equal((await issue(self.linkedIssueId)).assigneeAgentId, a1.agent.id);
    // The board may hand one run to another agent.
    const handed = await accepted(r.id, { assigneeAgentId: a2.agent.id });
    assert.equal((await issue(handed.linkedIssueId)).assigneeAgentId, a2.agent.id);
    assert.equal((await runs(r.id)).length, 2);
  });

  it('refuses (422) a run whose routine assignee was terminated since, before recording anything', async () => {
    const worker = await newAgent(t, board, A);
    const r = await routine({ assigneeAgentId: worker.agent.id });
    assert.equal((await t.request('POST', `/api/agents/${worker.agent.id}/terminate`, { token: board })).status, 200);
    const res = await run(r.id);
    assert.equal(res.status, 422);
    assert.match(res.body.error, /terminated/);
    assert.equal((await runs(r.id)).length, 0);
  });

  it('runs a paused routine by hand, but not one without an assignee (409) unless the run names one', async () => {
    const paused = await routine({ status: 'paused' });
    assert.equal((await accepted(paused.id)).status, 'issue_created');
    const unassigned = await routine({ assigneeAgentId: null });
    assert.equal(unassigned.status, 'paused');
    assert.equal((await run(unassigned.id)).status, 409);
    assert.equal((await runs(unassigned.id)).length, 0);
    const overridden = await accepted(unassigned.id, { assigneeAgentId: a2.agent.id });
    assert.equal(overridden.status, 'issue_created');
    assert.equal((await issue(overridden.linkedIssueId)).assigneeAgentId, a2.agent.id);
  });
});

describe('concurrency policies', () => {
  it('coalesce_if_active links the second run to the open issue and its creating run', async () => {
    const r = await routine({ concurrencyPolicy: 'coalesce_if_active' });
    const first = await accepted(r.id);
    const second = await accepted(r.id);
    assert.equal(second.status, 'coalesced');
    assert.equal(second.linkedIssueId, first.linkedIssueId);
    assert.equal(second.coalescedIntoRunId, first.id);
    assert.ok(second.completedAt);
    assert.deepEqual(await executionIssueIds(r.id), [first.linkedIssueId]);
  });

  it('skip_if_active skips while the issue is open', async () => {
    const r = await routine({ concurrencyPolicy: 'skip_if_active' });
    const first = await accepted(r.id);
    const second = await accepted(r.id);
    assert.equal(second.status, 'skipped');
    assert.equal(second.linkedIssueId, first.linkedIssueId);
    assert.equal(second.coalescedIntoRunId, null);
    assert.equal((await executionIssueIds(r.id)).length, 1);
  });

  it('always_enqueue creates an issue per run', async () => {
    const r = await routine({ concurrencyPolicy: 'always_enqueue' });
    const first = await accepted(r.id);
    const second = await accepted(r.id);
    assert.equal(second.status, 'issue_created');
    assert.notEqual(second.linkedIssueId, first.linkedIssueId);
    assert.deepEqual((await executionIssueIds(r.id)).sort(), [first.linkedIssueId, second.linkedIssueId].sort());
  });

  it('ten concurrent runs under coalesce_if_active make one issue and nine coalesced runs', async () => {
    const r = await routine({ concurrencyPolicy: 'coalesce_if_active' });
    const results = await Promise.all(Array.from({ length: 10 }, () => run(r.id)));
    assert.deepEqual(
      results.map((res) => res.status),
      Array(10).fill(202),
    );
    const created = results.filter((res) => res.body.status === 'issue_created');
    const coalesced = results.filter((res) => res.body.status === 'coalesced');
    assert.equal(created.length, 1);
    assert.equal(coalesced.length, 9);
    const creator = created[0]!.body;
    for (const res of coalesced) {
      assert.equal(res.body.linkedIssueId, creator.linkedIssueId);
      assert.equal(res.body.coalescedIntoRunId, creator.id);
    }
    assert.deepEqual(await executionIssueIds(r.id), [creator.linkedIssueId]);
    assert.equal((await runs(r.id)).length, 10);
  });

  it('names the creating run even when an older run was decided after it', async () => {
    // A run recorded a minute ago and left `received` (the process died between record and decide)
    // is decided by the sweep after a newer run created the issue: it coalesces, and is older than
    // the creator, yet later runs must still point at the creator.
    const r = await routine({ concurrencyPolicy: 'coalesce_if_active' });
    const stranded = await t.database.pool.query(
      `insert into routine_runs (company_id, routine_id, source, status, requested_by_actor_type, requested_by_actor_id, created_at)
       values ($1, $2, 'manual', 'received', 'system', 'test', now() - interval '1 minute') returning id`,
      [A, r.id],
    );
    const creator = await accepted(r.id);
    assert.equal(creator.status, 'issue_created');
    assert.equal(await decideStrandedRuns(t.database.db, Date.now()), 1);
    const late = (await runs(r.id)).find((x) => x.id === stranded.rows[0].id);
    assert.equal(late.status, 'coalesced');
    assert.equal(late.coalescedIntoRunId, creator.id);
    const next = await accepted(r.id);
    assert.equal(next.status, 'coalesced');
    assert.equal(next.coalescedIntoRunId, creator.id);
  });
});

describe('run lifecycle and the execution issue', () => {
  it('follows the execution issue: done -> completed, cancelled -> failed; then a new issue', async () => {
    const r = await routine({ concurrencyPolicy: 'coalesce_if_active' });
    const first = await accepted(r.id);
    await setIssueStatus(first.linkedIssueId, 'done');
    const [done] = await runs(r.id);
    assert.equal(done.id, first.id);
    assert.equal(done.status, 'completed');
    assert.ok(done.completedAt);
    assert.equal(done.failureReason, null);
    const second = await accepted(r.id);
    assert.equal(second.status, 'issue_created', 'the closed issue no longer coalesces');
    assert.notEqual(second.linkedIssueId, first.linkedIssueId);
    await setIssueStatus(second.linkedIssueId, 'cancelled');
    const cancelled = (await runs(r.id)).find((x) => x.id === second.id);
    assert.equal(cancelled.status, 'failed');
    assert.ok(cancelled.failureReason);
    assert.ok(cancelled.completedAt);
    const third = await accepted(r.id);
    assert.equal(third.status, 'issue_created');
    assert.equal((await executionIssueIds(r.id)).length, 3);
    // The first run's record did not move again.
    assert.equal((await runs(r.id)).find((x) => x.id === first.id).status, 'completed');
  });

  it('creates a routine_execution issue hidden from the default list, and wakes the assignee', async () => {
    const c = await t.newCompany();
    const agent = await newAgent(t, c.token, c.company.id);
    const project = (
      await t.request('POST', `/api/companies/${c.company.id}/projects`, { token: c.token, body: { name: 'Ops' } })
    ).body;
    const res = await t.request('POST', `/api/companies/${c.company.id}/routines`, {
      token: c.token,
      body: { title: 'Nightly check', assigneeAgentId: agent.agent.id, projectId: project.id, priority: 'high' },
    });
    assert.equal(res.status, 201);
    const r = res.body;
    const manual = await t.request('POST', `/api/companies/${c.company.id}/issues`, {
      token: c.token,
      body: { title: 'Hand-made' },
    });
    assert.equal(manual.status, 201);
    const started = await t.request('POST', `/api/routines/${r.id}/run`, { token: c.token, body: {} });
    assert.equal(started.status, 202);
    const issueId = started.body.linkedIssueId;
    const created = (await t.request('GET', `/api/issues/${issueId}`, { token: c.token })).body;
    assert.equal(created.originKind, 'routine_execution');
    assert.equal(created.originId, r.id);
    assert.equal(created.status, 'todo');
    assert.equal(created.priority, 'high');
    assert.equal(created.projectId, project.id);
    assert.equal(created.assigneeAgentId, agent.agent.id);
    const listed = async (query: string) => {
      const list = await t.request('GET', `/api/companies/${c.company.id}/issues${query}`, { token: c.token });
      assert.equal(list.status, 200, JSON.stringify(list.body));
      return list.body.map((i: any) => i.id).sort();
    };
    assert.deepEqual(await listed(''), [manual.body.id]);
    assert.deepEqual(await listed('?includeRoutineExecutions=true'), [manual.body.id, issueId].sort());
    assert.deepEqual(await listed(`?originId=${r.id}`), [issueId]);
    assert.deepEqual(await listed('?originKind=routine_execution'), [issueId]);
    // The detail shows it as the open execution issue.
    const detail = (await t.request('GET', `/api/routines/${r.id}`, { token: c.token })).body;
    assert.equal(detail.activeExecutionIssue.id, issueId);
    assert.equal(detail.recentRuns[0].id, started.body.id);

    const wakes = await t.database.pool.query(
      'select source, reason, payload, issue_id from agent_wakeup_requests where agent_id = $1',
      [agent.agent.id],
    );
    assert.equal(wakes.rows.length, 1, JSON.stringify(wakes.rows));
    assert.equal(wakes.rows[0].source, 'automation');
    assert.equal(wakes.rows[0].reason, 'routine_run');
    assert.equal(wakes.rows[0].issue_id, issueId);
    assert.equal(wakes.rows[0].payload.routineRunId, started.body.id);
  });
});

describe('runs list and activity', () => {
  it('lists runs newest first: default 50, limit 1 to 200', async () => {
    const r = await routine({ concurrencyPolicy: 'skip_if_active' });
    const made: string[] = [];
    for (let i = 0; i < 55; i++) made.push((await accepted(r.id)).id);
    const page = await runs(r.id);
    assert.equal(page.length, 50);
    assert.deepEqual(
      page.map((x) => x.id),
      made.slice(5).reverse(),
    );
    assert.equal(page.filter((x) => x.status === 'skipped').length, 50);
    const all = await runs(r.id, '?limit=200');
    assert.equal(all.length, 55);
    assert.equal(all.at(-1).status, 'issue_created');
    assert.equal(all.at(-1).id, made[0]);
    assert.equal((await runs(r.id, '?limit=3')).length, 3);
    for (const bad of ['?limit=201', '?limit=0', '?limit=-1', '?limit=x']) {
      assert.equal((await t.request('GET', `/api/routines/${r.id}/runs${bad}`, { token: board })).status, 400, bad);
    }
    // The detail shows the latest ten.
    const detail = (await t.request('GET', `/api/routines/${r.id}`, { token: board })).body;
    assert.deepEqual(
      detail.recentRuns.map((x: any) => x.id),
      made.slice(45).reverse(),
    );
  });

  it('records routine.run_recorded for each decided run', async () => {
    const r = await routine({ concurrencyPolicy: 'skip_if_active' });
    const first = await accepted(r.id);
    const second = await accepted(r.id);
    const res = await t.request('GET', `/api/companies/${A}/activity?entityId=${r.id}`, { token: board });
    assert.equal(res.status, 200);
    const recorded = res.body.filter((e: any) => e.action === 'routine.run_recorded');
    assert.deepEqual(
      recorded.map((e: any) => [e.details.runId, e.details.status]).sort(),
      [
        [first.id, 'issue_created'],
        [second.id, 'skipped'],
      ].sort(),
    );
    assert.equal(res.body.filter((e: any) => e.action === 'routine.created').length, 1);
  });
});
