import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { useTestApp } from './helpers/app.ts';
import { activityRows, companyWithAgent, newAgent, newIssue } from './helpers/factories.ts';

const t = await useTestApp();

const main = await companyWithAgent(t);
const { company, boardToken } = main;
const other = await companyWithAgent(t);
const patch = (token: string, id: string, body: unknown, headers?: Record<string, string>) =>
  t.request('PATCH', `/api/issues/${id}`, { token, body, headers });
const get = async (id: string) => (await t.request('GET', `/api/issues/${id}`, { token: boardToken })).body;
const listIds = async (query = '') =>
  (await t.request('GET', `/api/companies/${company.id}/issues?limit=500${query}`, { token: boardToken })).body.map(
    (i: any) => i.id,
  );

async function wakeupsOf(agentId: string): Promise<{ source: string; reason: string; issue_id: string }[]> {
  return (
    await t.database.pool.query(
      'select source, reason, issue_id from agent_wakeup_requests where agent_id = $1 order by created_at',
      [agentId],
    )
  ).rows;
}

/** Puts an issue into the state checkout leaves it in (in_progress, assignee, holding run). */
async function checkedOut(agentId: string, runStatus = 'running') {
  const issue = await newIssue(t, boardToken, company.id, { status: 'todo', assigneeAgentId: agentId });
  const runId = randomUUID();
  await t.database.pool.query(`insert into heartbeat_runs (id, company_id, agent_id, status) values ($1, $2, $3, $4)`, [
    runId,
    company.id,
    agentId,
    runStatus,
  ]);
  await t.database.pool.query(
    `update issues set status = 'in_progress', checkout_run_id = $2, started_at = now() where id = $1`,
    [issue.id, runId],
  );
  return { issue, runId };
}

describe('PATCH fields (rule 6) and status side effects', () => {
  it('updates the short-form fields and records the changed fields in activity', async () => {
    const goal = (
      await t.request('POST', `/api/companies/${company.id}/goals`, { token: boardToken, body: { title: 'g' } })
    ).body;
    const project = (
      await t.request('POST', `/api/companies/${company.id}/projects`, {
        token: boardToken,
        body: { name: 'Patch project' },
      })
    ).body;
    const parent = await newIssue(t, boardToken, company.id);
    const issue = await newIssue(t, boardToken, company.id);
    const body = {
      title: 'Renamed',
      description: 'new text',
      status: 'todo',
      priority: 'low',
      projectId: project.id,
      goalId: goal.id,
      parentId: parent.id,
      billingCode: 'B-1',
      labelIds: [
        (
          await t.request('POST', `/api/companies/${company.id}/labels`, {
            token: boardToken,
            body: { name: 'Patched' },
          })
        ).body.id,
      ],
    };
    const res = await patch(boardToken, issue.id, body);
    assert.equal(res.status, 200);
    for (const [k, v] of Object.entries(body)) assert.deepEqual(res.body[k], v, k);
    const entry = (await activityRows(t, company.id, 'issue.updated')).find((a) => a.entity_id === issue.id);
    assert.deepEqual(Object.keys(entry.details.changes).sort(), Object.keys(body).sort());
    assert.deepEqual(entry.details.changes.priority, { from: 'medium', to: 'low' });
    // Cross-company references are 422, bad shapes 400.
    for (const bad of [
      {
        projectId: (
          await t.request('POST', `/api/companies/${other.company.id}/projects`, {
            token: other.boardToken,
            body: { name: 'X' },
          })
        ).body.id,
      },
      { assigneeAgentId: other.agent.agent.id },
      { parentId: (await newIssue(t, other.boardToken, other.company.id)).id },
    ]) {
      assert.equal((await patch(boardToken, issue.id, bad)).status, 422, JSON.stringify(bad));
    }
    assert.equal((await patch(boardToken, issue.id, { status: 'nope' })).status, 400);
    assert.equal((await patch(boardToken, issue.id, { title: '' })).status, 400);
  });

  it('sets completedAt on done and cancelledAt on cancelled; in_progress only through checkout', async () => {
    const issue = await newIssue(t, boardToken, company.id, { status: 'todo' });
    const done = await patch(boardToken, issue.id, { status: 'done' });
    assert.equal(done.status, 200);
    assert.ok(done.body.completedAt && done.body.completed_at);
    const cancelled = await patch(boardToken, issue.id, { status: 'cancelled' });
    assert.ok(cancelled.body.cancelledAt);
    assert.equal(cancelled.body.completedAt, null);
    assert.equal((await patch(boardToken, issue.id, { status: 'in_progress' })).status, 422);
    assert.equal((await get(issue.id)).status, 'cancelled');
  });

  it('prevents parent cycles at any depth', async () => {
    const a = await newIssue(t, boardToken, company.id);
    const b = await newIssue(t, boardToken, company.id, { parentId: a.id });
    const c = await newIssue(t, boardToken, company.id, { parentId: b.id });
    assert.equal((await patch(boardToken, a.id, { parentId: a.id })).status, 422);
    assert.equal((await patch(boardToken, a.id, { parentId: c.id })).status, 422);
    assert.equal((await patch(boardToken, c.id, { parentId: a.id })).status, 200);
    assert.equal((await patch(boardToken, c.id, { parentId: null })).body.parentId, null);
  });
});

describe('PATCH with comment, reopen, interrupt (rules 1 and 2)', () => {
  it('adds the comment in the same call, and wakes a mentioned agent', async () => {
    const mentioned = await newAgent(t, boardToken, company.id, { name: 'Reviewer Rita' });
    const issue = await newIssue(t, boardToken, company.id);
    const res = await patch(boardToken, issue.id, {
      priority: 'high',
      comment: 'Escalating, @reviewer rita please look',
    });
    assert.equal(res.status, 200);
    const comments = (await t.request('GET', `/api/issues/${issue.id}/comments`, { token: boardToken })).body;
    assert.deepEqual(
      comments.map((c: any) => c.body),
      ['Escalating, @reviewer rita please look'],
    );
    assert.ok((await wakeupsOf(mentioned.agent.id)).some((w) => w.issue_id === issue.id));
  });

  it('rolls the whole PATCH back when a part fails', async () => {
    const issue = await newIssue(t, boardToken, company.id);
    const res = await patch(boardToken, issue.id, {
      title: 'should not stick',
      comment: 'nor this',
      blockedByIssueIds: [issue.id],
    });
    assert.equal(res.status, 422);
    assert.equal((await get(issue.id)).title, issue.title);
    assert.deepEqual((await t.request('GET', `/api/issues/${issue.id}/comments`, { token: boardToken })).body, []);
  });

  it('reopens a closed issue to todo with a comment unless a status is given', async () => {
    const issue = await newIssue(t, boardToken, company.id, { status: 'done' });
    assert.equal(
      (await patch(boardToken, issue.id, { reopen: true })).body.status,
      'done',
      'reopen without a comment has no effect',
    );
    assert.equal((await patch(boardToken, issue.id, { reopen: true, comment: 'again' })).body.status, 'todo');
    const cancelled = await newIssue(t, boardToken, company.id, { status: 'cancelled' });
    assert.equal((await patch(main.agent.token, cancelled.id, { reopen: true, comment: 'back' })).body.status, 'todo');
    const explicit = await newIssue(t, boardToken, company.id, { status: 'done' });
    assert.equal(
      (await patch(boardToken, explicit.id, { reopen: true, comment: 'x', status: 'blocked' })).body.status,
      'blocked',
    );
    const open = await newIssue(t, boardToken, company.id, { status: 'in_review' });
    assert.equal((await patch(boardToken, open.id, { reopen: true, comment: 'x' })).body.status, 'in_review');
  });

  it('interrupt needs a comment (400) and a board user (403)', async () => {
    const issue = await newIssue(t, boardToken, company.id);
    assert.equal((await patch(boardToken, issue.id, { interrupt: true })).status, 400);
    assert.equal((await patch(main.agent.token, issue.id, { interrupt: true, comment: 'stop' })).status, 403);
    assert.deepEqual((await t.request('GET', `/api/issues/${issue.id}/comments`, { token: boardToken })).body, []);
    const { issue: live, runId } = await checkedOut(main.agent.agent.id);
    const res = await patch(boardToken, live.id, { interrupt: true, comment: 'Stop and rethink' });
    assert.equal(res.status, 200);
    const interrupts = await activityRows(t, company.id, 'issue.interrupted');
    assert.ok(interrupts.some((a) => a.entity_id === live.id && a.details.runId === runId));
  });
});

describe('PATCH on a checked-out issue (rule 3)', () => {
  it('lets the holding run through and stops another agent or a missing run header', async () => {
    const holder = await newAgent(t, boardToken, company.id);
    const { issue, runId } = await checkedOut(holder.agent.id);
    assert.equal(
      (await patch(main.agent.token, issue.id, { title: 'not mine' }, { 'x-service-run-id': randomUUID() })).status,
      409,
    );
    assert.equal((await patch(holder.token, issue.id, { title: 'no header' })).status, 409);
    const ok = await patch(
      holder.token,
      issue.id,
      { title: 'with header', status: 'in_review' },
      { 'x-service-run-id': runId },
    );
    assert.equal(ok.status, 200);
    assert.equal(ok.body.status, 'in_review');
    assert.equal(ok.body.checkoutRunId, null, 'leaving in_progress drops the lock');
    const { issue: boardEdit } = await checkedOut(holder.agent.id);
    assert.equal((await patch(boardToken, boardEdit.id, { priority: 'low' })).status, 200);
  });
});

describe('hiddenAt (rule 4)', () => {
  it('hides an issue from list responses and unhides it', async () => {
    const issue = await newIssue(t, boardToken, company.id);
    assert.ok((await listIds()).includes(issue.id));
    const hidden = await patch(boardToken, issue.id, { hiddenAt: '2030-01-01T00:00:00.000Z' });
    assert.equal(hidden.body.hiddenAt, '2030-01-01T00:00:00.000Z');
    assert.ok(!(await listIds()).includes(issue.id));
    assert.equal(
      (await t.request('GET', `/api/issues/${issue.id}`, { token: boardToken })).status,
      200,
      'still readable by id',
    );
    assert.equal((await patch(boardToken, issue.id, { hiddenAt: 'yesterday' })).status, 400);
    assert.equal((await patch(boardToken, issue.id, { hiddenAt: null })).body.hiddenAt, null);
    assert.ok((await listIds()).includes(issue.id));
  });
});

describe('blockedByIssueIds (rule 5) and blocker resolution wakeups', () => {
  it('replaces the relations, validating company, self-block and cycles at any depth', async () => {
    const [a, b, c, d] = [
      await newIssue(t, boardToken, company.id),
      await newIssue(t, boardToken, company.id),
      await newIssue(t, boardToken, company.id),
      await newIssue(t, boardToken, company.id),
    ];
    assert.equal((await patch(boardToken, a.id, { blockedByIssueIds: [b.id, c.id] })).status, 200);
    assert.deepEqual((await get(a.id)).blockedBy.map((x: any) => x.id).sort(), [b.id, c.id].sort());
    assert.equal((await patch(boardToken, a.id, { blockedByIssueIds: [d.id] })).status, 200);
    assert.deepEqual(
      (await get(a.id)).blockedBy.map((x: any) => x.id),
      [d.id],
      'replaced, not merged',
    );
    assert.deepEqual(
      (await get(d.id)).blocks.map((x: any) => x.id),
      [a.id],
    );
    // a <- d; d <- c; then c <- a would close a <- d <- c <- a.
    assert.equal((await patch(boardToken, d.id, { blockedByIssueIds: [c.id] })).status, 200);
    const cycle = await patch(boardToken, c.id, { blockedByIssueIds: [a.id] });
    assert.equal(cycle.status, 422);
    assert.match(cycle.body.error, /cycle/);
    assert.equal((await patch(boardToken, c.id, { blockedByIssueIds: [d.id] })).status, 422, 'direct cycle');
    assert.equal((await patch(boardToken, a.id, { blockedByIssueIds: [a.id] })).status, 422, 'self-block');
    const foreign = await newIssue(t, other.boardToken, other.company.id);
    assert.equal((await patch(boardToken, a.id, { blockedByIssueIds: [foreign.id] })).status, 422, 'other company');
    assert.equal((await patch(boardToken, a.id, { blockedByIssueIds: [] })).status, 200);
    assert.deepEqual((await get(a.id)).blockedBy, []);
  });

  it('wakes the assignee once the last open blocker is done or cancelled', async () => {
    const worker = await newAgent(t, boardToken, company.id);
    const b1 = await newIssue(t, boardToken, company.id, { status: 'todo' });
    const b2 = await newIssue(t, boardToken, company.id, { status: 'todo' });
    const blocked = await newIssue(t, boardToken, company.id, {
      status: 'blocked',
      assigneeAgentId: worker.agent.id,
      blockedByIssueIds: [b1.id, b2.id],
    });
    const resolved = async () => (await wakeupsOf(worker.agent.id)).filter((w) => w.reason === 'blockers_resolved');
    await patch(boardToken, b1.id, { status: 'done' });
    assert.equal((await resolved()).length, 0, 'one blocker still open');
    await patch(boardToken, b2.id, { status: 'cancelled' });
    assert.deepEqual(
      (await resolved()).map((w) => [w.source, w.issue_id]),
      [['automation', blocked.id]],
    );
    await patch(boardToken, b2.id, { title: 'still cancelled' });
    assert.equal((await resolved()).length, 1, 'no second wakeup without a new resolution');
  });

  it('records an assignment wakeup when the assignee changes', async () => {
    const first = await newAgent(t, boardToken, company.id);
    const second = await newAgent(t, boardToken, company.id);
    const issue = await newIssue(t, boardToken, company.id, { assigneeAgentId: first.agent.id });
    assert.equal((await patch(boardToken, issue.id, { assigneeAgentId: second.agent.id })).status, 200);
    assert.deepEqual(
      (await wakeupsOf(second.agent.id)).map((w) => [w.source, w.issue_id]),
      [['assignment', issue.id]],
    );
    // An agent without the permission may take an issue for itself (no self-wakeup) but not hand it on.
    assert.equal((await patch(first.token, issue.id, { assigneeAgentId: first.agent.id })).status, 200);
    assert.equal((await wakeupsOf(first.agent.id)).length, 1, 'only the create-time assignment');
    assert.equal((await patch(first.token, issue.id, { assigneeAgentId: second.agent.id })).status, 403);
    assert.equal((await patch(first.token, issue.id, { assigneeUserId: randomUUID() })).status, 403);
  });
});

describe('issue activity route', () => {
  it('lists the issue activity newest first, bounded by limit', async () => {
    const issue = await newIssue(t, boardToken, company.id);
    await patch(boardToken, issue.id, { title: 'one' });
    await patch(boardToken, issue.id, { title: 'two' });
    const res = await t.request('GET', `/api/issues/${issue.identifier}/activity`, { token: boardToken });
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.map((a: any) => a.action),
      ['issue.updated', 'issue.updated', 'issue.created'],
    );
    assert.equal(res.body[0].details.changes.title.to, 'two');
    assert.equal(
      (await t.request('GET', `/api/issues/${issue.id}/activity?limit=1`, { token: boardToken })).body.length,
      1,
    );
    assert.equal(
      (await t.request('GET', `/api/issues/${issue.id}/activity?limit=0`, { token: boardToken })).status,
      400,
    );
  });
});
