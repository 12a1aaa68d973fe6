// The board inbox (GET /api/companies/{companyId}/inbox, POST .../inbox/read): what waits on the
// board, each kind of item and what takes it out again, the per-user read marks, and who may call.
// No engine here: failed runs are written as the engine leaves them.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { companyMemberships } from '../src/db/schema/index.ts';
import { useTestApp } from './helpers/app.ts';
import { newAgent, newIssue } from './helpers/factories.ts';
import { assertBudgetStopsInEffect } from './helpers/budget-stops.ts';

const t = await useTestApp();
const sql = async (text: string, params: unknown[] = []) => (await t.database.pool.query(text, params)).rows;

const { company, token: board } = await t.newCompany();
const C = company.id;
const other = await t.newCompany();

const inbox = async (token = board, companyId = C) => {
  const res = await t.request('GET', `/api/companies/${companyId}/inbox`, { token });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body as { items: any[]; unreadCount: number };
};
const markRead = (keys: string[], token = board) =>
  t.request('POST', `/api/companies/${C}/inbox/read`, { token, body: { keys } });
const item = async (key: string, token = board) => (await inbox(token)).items.find((i) => i.key === key);

/** A finished run as the engine records it, `minutesAgo` after its creation. */
async function finishedRun(
  agentId: string,
  status: string,
  issueId: string | null,
  minutesAgo = 1,
  error: string | null = 'exit code 1',
  errorCode: string | null = status === 'failed' ? 'process_exit_nonzero' : status === 'timed_out' ? 'timeout' : null,
) {
  const [row] = await sql(
    `insert into heartbeat_runs (company_id, agent_id, status, issue_id, error, error_code, exit_code, started_at, finished_at, created_at)
     values ($1, $2, $3, $4, $5, $7, 1, now() - make_interval(mins => $6), now() - make_interval(mins => $6), now() - make_interval(mins => $6)) returning id`,
    [C, agentId, status, issueId, error, minutesAgo, errorCode],
  );
  return row.id as string;
}

describe('board inbox: items', () => {
  it('lists pending and revision_requested approvals, not decided ones, with the requester and a summary', async () => {
    assert.equal(
      (
        await t.request('PATCH', `/api/companies/${C}`, {
          token: board,
          body: { requireBoardApprovalForNewAgents: true },
        })
      ).status,
      200,
    );
    const hirer = await newAgent(t, board, C, { name: 'Hirer', permissions: { canCreateAgents: true } });
    const hire = await t.request('POST', `/api/companies/${C}/agent-hires`, {
      token: hirer.token,
      body: { name: 'Scout', role: 'researcher', adapterType: 'process' },
    });
    assert.equal(hire.status, 201, JSON.stringify(hire.body));
    const revise = await t.request('POST', `/api/companies/${C}/approvals`, {
      token: board,
      body: { type: 'request_board_approval', payload: { title: 'Open an office' } },
    });
    const decided = await t.request('POST', `/api/companies/${C}/approvals`, {
      token: board,
      body: { type: 'request_board_approval', payload: { title: 'Done deal' } },
    });
    assert.equal(
      (
        await t.request('POST', `/api/approvals/${revise.body.id}/request-revision`, {
          token: board,
          body: { decisionNote: 'more detail' },
        })
      ).status,
      200,
    );
    assert.equal(
      (await t.request('POST', `/api/approvals/${decided.body.id}/approve`, { token: board, body: {} })).status,
      200,
    );

    const { items } = await inbox();
    const hireItem = items.find((i) => i.key === `approval:${hire.body.approval.id}`);
    assert.deepEqual(
      {
        kind: hireItem.kind,
        approvalType: hireItem.approvalType,
        status: hireItem.status,
        requestedByAgentId: hireItem.requestedByAgentId,
        requestedByAgentName: hireItem.requestedByAgentName,
        summary: hireItem.summary,
        read: hireItem.read,
      },
      {
        kind: 'approval',
        approvalType: 'hire_agent',
        status: 'pending',
        requestedByAgentId: hirer.agent.id,
        requestedByAgentName: 'Hirer',
        summary: 'Scout',
        read: false,
      },
    );
    const revised = items.find((i) => i.key === `approval:${revise.body.id}`);
    assert.equal(revised.status, 'revision_requested');
    assert.equal(revised.summary, 'Open an office');
    assert.equal(
      items.find((i) => i.key === `approval:${decided.body.id}`),
      undefined,
    );
  });

  it('lists a failed or timed-out run until a later run of the agent on the same issue exists; old and successful runs are left out', async () => {
    const worker = await newAgent(t, board, C, { name: 'Worker' });
    const issue = await newIssue(t, board, C, { title: 'Flaky job' });
    const failed = await finishedRun(worker.agent.id, 'failed', issue.id, 5);
    const timedOut = await finishedRun(worker.agent.id, 'timed_out', null, 4, 'deadline passed');
    await finishedRun(worker.agent.id, 'succeeded', (await newIssue(t, board, C)).id, 3, null);
    await finishedRun(worker.agent.id, 'failed', (await newIssue(t, board, C)).id, 60 * 24 * 8);

    let runs = (await inbox()).items.filter((i) => i.kind === 'run');
    assert.deepEqual(runs.map((r) => r.runId).sort(), [failed, timedOut].sort());
    const f = runs.find((r) => r.runId === failed);
    assert.deepEqual(
      {
        status: f.status,
        agentId: f.agentId,
        agentName: f.agentName,
        issueId: f.issueId,
        issueIdentifier: f.issueIdentifier,
        issueTitle: f.issueTitle,
        error: f.error,
        errorCode: f.errorCode,
        errorHelp: f.errorHelp,
      },
      {
        status: 'failed',
        agentId: worker.agent.id,
        agentName: 'Worker',
        issueId: issue.id,
        issueIdentifier: issue.identifier,
        issueTitle: 'Flaky job',
        error: 'exit code 1',
        errorCode: 'process_exit_nonzero',
        errorHelp: {
          meaning: "The agent's process ended with an error (a non-zero exit code).",
          action: "Read the run's transcript for the process's own reason, fix it, then retry.",
        },
      },
    );
    assert.equal(runs.find((r) => r.runId === timedOut).issueId, null);
    assert.equal(runs.find((r) => r.runId === timedOut).errorCode, 'timeout');

    // The retry's run (on the same issue) takes the failure out; the issue-less one stays.
    await finishedRun(worker.agent.id, 'succeeded', issue.id, 0, null);
    runs = (await inbox()).items.filter((i) => i.kind === 'run');
    assert.deepEqual(
      runs.map((r) => r.runId),
      [timedOut],
    );
  });

  it('a run ended before codes were recorded, or with a code this server does not know (a newer replica), shows none', async () => {
    const agent = await newAgent(t, board, C, { name: 'Older' });
    const old = await finishedRun(agent.agent.id, 'failed', null, 2, 'boom', null);
    const newer = await finishedRun(
      agent.agent.id,
      'failed',
      (await newIssue(t, board, C)).id,
      1,
      'boom',
      'from_the_future',
    );
    const items = (await inbox()).items.filter((i) => i.runId === old || i.runId === newer);
    assert.equal(items.length, 2);
    for (const item of items) assert.deepEqual([item.error, item.errorCode, item.errorHelp], ['boom', null, null]);
    const detail = await t.request('GET', `/api/heartbeat-runs/${newer}`, { token: board });
    assert.equal(detail.status, 200);
    assert.equal(detail.body.errorCode, null);
  });

  it('lists open budget incidents with the scope named, not resolved ones', async () => {
    const spender = await newAgent(t, board, C, { name: 'Spender' });
    const policy = await t.request('POST', `/api/companies/${C}/budgets/policies`, {
      token: board,
      body: { scopeType: 'agent', scopeId: spender.agent.id, amount: 100 },
    });
    assert.equal(policy.status, 201, JSON.stringify(policy.body));
    const cost = await t.request('POST', `/api/companies/${C}/cost-events`, {
      token: board,
      body: {
        agentId: spender.agent.id,
        provider: 'acme',
        model: 'm1',
        costCents: 150,
        occurredAt: new Date().toISOString(),
      },
    });
    assert.equal(cost.status, 201, JSON.stringify(cost.body));
    await assertBudgetStopsInEffect(t, C);

    const incidents = (await inbox()).items.filter((i) => i.kind === 'budget_incident');
    const hard = incidents.find((i) => i.incidentKind === 'hard');
    assert.ok(hard, JSON.stringify(incidents));
    assert.deepEqual(
      {
        scopeType: hard.scopeType,
        scopeId: hard.scopeId,
        scopeName: hard.scopeName,
        metric: hard.metric,
        amount: hard.amount,
        observed: hard.observed,
      },
      {
        scopeType: 'agent',
        scopeId: spender.agent.id,
        scopeName: 'Spender',
        metric: 'billed_cents',
        amount: 100,
        observed: 150,
      },
    );

    const resolved = await t.request('POST', `/api/companies/${C}/budget-incidents/${hard.incidentId}/resolve`, {
      token: board,
      body: { action: 'keep_paused' },
    });
    assert.equal(resolved.status, 200, JSON.stringify(resolved.body));
    assert.equal(await item(hard.key), undefined);
  });

  it("lists open, visible issues that are blocked or assigned to the caller, not other users' or closed ones", async () => {
    const user = await t.newBoardUser('Second');
    await t.database.db.insert(companyMemberships).values({ companyId: C, userId: user.userId });
    const blocked = await newIssue(t, board, C, { title: 'Waiting on legal', status: 'blocked' });
    const mine = await newIssue(t, board, C, {
      title: 'For the second user',
      status: 'todo',
      assigneeUserId: user.userId,
    });
    const closed = await newIssue(t, board, C, { status: 'done', assigneeUserId: user.userId });
    const hidden = await newIssue(t, board, C, { status: 'blocked' });
    await sql('update issues set hidden_at = now() where id = $1', [hidden.id]);

    const second = (await inbox(user.token)).items.filter((i) => i.kind === 'issue');
    assert.deepEqual(
      second.map((i) => [i.issueId, i.reason]).sort(),
      [
        [blocked.id, 'blocked'],
        [mine.id, 'assigned'],
      ].sort(),
    );
    assert.equal(second.find((i) => i.issueId === blocked.id).identifier, blocked.identifier);
    const owners = (await inbox()).items.filter((i) => i.kind === 'issue').map((i) => i.issueId);
    assert.ok(owners.includes(blocked.id) && !owners.includes(mine.id) && !owners.includes(closed.id));
  });
});

describe('board inbox: read marks', () => {
  it('marks items read for the caller only; a change after the mark makes the item unread again', async () => {
    const issue = await newIssue(t, board, C, { title: 'Stuck', status: 'blocked' });
    const key = `issue:${issue.id}`;
    const before = await inbox();
    assert.equal((await item(key)).read, false);

    const res = await markRead([key, key, `approval:${randomUUID()}`]);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.marked, 2);
    const after = await inbox();
    assert.equal((await item(key)).read, true);
    assert.equal(after.unreadCount, before.unreadCount - 1);
    assert.equal(after.unreadCount, after.items.filter((i) => !i.read).length);

    // Another board user of the company has their own marks.
    const user = await t.newBoardUser('Third');
    await t.database.db.insert(companyMemberships).values({ companyId: C, userId: user.userId });
    assert.equal((await item(key, user.token)).read, false);

    // The issue changes: unread again, until marked again.
    assert.equal(
      (await t.request('PATCH', `/api/issues/${issue.id}`, { token: board, body: { title: 'Stuck harder' } })).status,
      200,
    );
    assert.equal((await item(key)).read, false);
    await markRead([key]);
    assert.equal((await item(key)).read, true);
  });

  it('marks all: every key shown', async () => {
    const { items } = await inbox();
    assert.ok(items.length > 3);
    assert.equal((await markRead(items.map((i) => i.key))).status, 200);
    assert.equal((await inbox()).unreadCount, 0);
  });

  it('validates keys: kind and uuid, 1 to 200 of them', async () => {
    for (const keys of [
      [],
      ['issue:nope'],
      ['robot:' + randomUUID()],
      [randomUUID()],
      Array.from({ length: 201 }, () => `issue:${randomUUID()}`),
    ]) {
      const res = await markRead(keys);
      assert.equal(res.status, 400, `${JSON.stringify(keys).slice(0, 80)}: ${JSON.stringify(res.body)}`);
      assert.equal(typeof res.body.error, 'string');
    }
    assert.equal((await t.request('POST', `/api/companies/${C}/inbox/read`, { token: board, body: {} })).status, 400);
  });
});

describe('board inbox: access', () => {
  it('is board only and company scoped', async () => {
    const agent = await newAgent(t, board, C);
    assert.equal((await t.request('GET', `/api/companies/${C}/inbox`, { token: agent.token })).status, 403);
    assert.equal((await markRead([`issue:${randomUUID()}`], agent.token)).status, 403);
    assert.equal((await t.request('GET', `/api/companies/${C}/inbox`, { token: other.token })).status, 403);
    assert.equal((await markRead([`issue:${randomUUID()}`], other.token)).status, 403);
    assert.equal((await t.request('GET', `/api/companies/${C}/inbox`)).status, 401);
    assert.equal((await t.request('GET', `/api/companies/${randomUUID()}/inbox`, { token: board })).status, 404);
    assert.deepEqual((await inbox(other.token, other.company.id)).items, []);
  });
});
