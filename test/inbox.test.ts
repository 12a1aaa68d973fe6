// GET /api/agents/me/inbox-lite and GET /api/issues/{issueId}/heartbeat-context.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { useTestApp } from './helpers/app.ts';
import { multipartBody, newAgent, newIssue } from './helpers/factories.ts';

const t = await useTestApp();
const sql = (text: string, params: unknown[] = []) => t.database.pool.query(text, params);

const a = await t.newCompany();
const b = await t.newCompany();
const b1 = await newAgent(t, b.token, b.company.id, { name: 'Outsider' });

const INBOX_FIELDS = [
  'id',
  'identifier',
  'title',
  'status',
  'priority',
  'projectId',
  'goalId',
  'parentId',
  'updatedAt',
  'activeRun',
  'dependencyReady',
  'unresolvedBlockerCount',
  'unresolvedBlockerIssueIds',
];

const inbox = (token: string) => t.request('GET', '/api/agents/me/inbox-lite', { token });
const context = (issue: any, token: string, query = '') =>
  t.request('GET', `/api/issues/${issue.identifier ?? issue.id}/heartbeat-context${query}`, { token });

describe('GET /api/agents/me/inbox-lite', () => {
  it("lists the agent's open, visible assignments by priority with blockers and the active run", async () => {
    const me = await newAgent(t, a.token, a.company.id, { name: 'Inbox owner' });
    const other = await newAgent(t, a.token, a.company.id, { name: 'Someone else' });
    const assign = (fields: Record<string, unknown>) =>
      newIssue(t, a.token, a.company.id, { assigneeAgentId: me.agent.id, ...fields });

    const blocker = await newIssue(t, a.token, a.company.id, { status: 'todo', title: 'Blocker' });
    const doneBlocker = await newIssue(t, a.token, a.company.id, { status: 'done' });
    const low = await assign({ status: 'todo', priority: 'low' });
    const critical = await assign({
      status: 'backlog',
      priority: 'critical',
      blockedByIssueIds: [blocker.id, doneBlocker.id],
    });
    const high = await assign({ status: 'todo', priority: 'high', blockedByIssueIds: [doneBlocker.id] });
    await assign({ status: 'done', priority: 'critical' });
    await assign({ status: 'cancelled', priority: 'critical' });
    const hidden = await assign({ status: 'todo', priority: 'critical' });
    await sql('update issues set hidden_at = now() where id = $1', [hidden.id]);
    await newIssue(t, a.token, a.company.id, { status: 'todo', assigneeAgentId: other.agent.id });

    const runId = randomUUID();
    const checkout = await t.request('POST', `/api/issues/${high.id}/checkout`, {
      token: me.token,
      headers: { 'x-service-run-id': runId },
      body: { agentId: me.agent.id, expectedStatuses: ['todo'] },
    });
    assert.equal(checkout.status, 200);

    const res = await inbox(me.token);
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.map((i: any) => i.id),
      [critical.id, high.id, low.id],
    );
    for (const item of res.body) assert.deepEqual(Object.keys(item).sort(), [...INBOX_FIELDS].sort());

    const [c, h, l] = res.body;
    assert.equal(c.identifier, critical.identifier);
    assert.equal(c.status, 'backlog');
    assert.equal(c.priority, 'critical');
    assert.equal(c.dependencyReady, false);
    assert.equal(c.unresolvedBlockerCount, 1);
    assert.deepEqual(c.unresolvedBlockerIssueIds, [blocker.id]);
    assert.equal(c.activeRun, null);
    assert.equal(h.dependencyReady, true, 'a done blocker is resolved');
    assert.equal(h.unresolvedBlockerCount, 0);
    assert.deepEqual(h.unresolvedBlockerIssueIds, []);
    assert.equal(h.status, 'in_progress');
    assert.equal(h.activeRun.id, runId);
    assert.equal(h.activeRun.status, 'running');
    assert.ok(h.activeRun.startedAt);
    assert.equal(l.dependencyReady, true);

    // The blocker closes: the dependency is ready. The run finishes: no active run any more.
    await sql(`update issues set status = 'done' where id = $1`, [blocker.id]);
    await sql(`update heartbeat_runs set status = 'succeeded', finished_at = now() where id = $1`, [runId]);
    const after = (await inbox(me.token)).body;
    assert.equal(after[0].dependencyReady, true);
    assert.equal(after[0].unresolvedBlockerCount, 0);
    assert.equal(after[1].activeRun, null);
  });

  it('is empty for an agent without assignments, and shows nothing of another company', async () => {
    const idle = await newAgent(t, a.token, a.company.id, { name: 'Idle' });
    assert.deepEqual((await inbox(idle.token)).body, []);
    await newIssue(t, a.token, a.company.id, { status: 'todo', assigneeAgentId: idle.agent.id });
    assert.equal((await inbox(idle.token)).body.length, 1);
    assert.deepEqual((await inbox(b1.token)).body, []);
  });

  it('is agent-only: 403 for board users', async () => {
    assert.equal((await inbox(a.token)).status, 403);
    assert.equal((await inbox(t.ownerToken)).status, 403);
  });
});

describe('GET /api/issues/{issueId}/heartbeat-context', () => {
  it('returns the reduced issue, ancestors, project and goal, comment cursor, wake comment and attachments', async () => {
    const agent = await newAgent(t, a.token, a.company.id, { name: 'Waker' });
    const goal = (
      await t.request('POST', `/api/companies/${a.company.id}/goals`, {
        token: a.token,
        body: { title: 'Ship it', level: 'team' },
      })
    ).body;
    const project = (
      await t.request('POST', `/api/companies/${a.company.id}/projects`, {
        token: a.token,
        body: { name: `Context ${randomUUID()}`, goalIds: [goal.id] },
      })
    ).body;
    const root = await newIssue(t, a.token, a.company.id, { title: 'Root' });
    const parent = await newIssue(t, a.token, a.company.id, { title: 'Parent', parentId: root.id });
    const issue = await newIssue(t, a.token, a.company.id, {
      title: 'Leaf',
      description: 'Do the thing',
      parentId: parent.id,
      projectId: project.id,
      assigneeAgentId: agent.agent.id,
      status: 'todo',
    });

    const first = await t.request('POST', `/api/issues/${issue.id}/comments`, {
      token: a.token,
      body: { body: 'First' },
    });
    const second = await t.request('POST', `/api/issues/${issue.id}/comments`, {
      token: a.token,
      body: { body: 'Please look at the logs' },
    });
    assert.equal(first.status, 201);
    const elsewhere = await t.request('POST', `/api/issues/${parent.id}/comments`, {
      token: a.token,
      body: { body: 'Not this issue' },
    });
    const { payload, headers } = multipartBody([
      { name: 'file', data: 'hello', filename: 'notes.txt', contentType: 'text/plain' },
    ]);
    const upload = await t.request('POST', `/api/companies/${a.company.id}/issues/${issue.id}/attachments`, {
      token: a.token,
      payload,
      headers,
    });
    assert.equal(upload.status, 201);

    const res = await context(issue, agent.token, `?wakeCommentId=${second.body.id}`);
    assert.equal(res.status, 200);
    const body = res.body;
    assert.deepEqual(Object.keys(body).sort(), [
      'ancestors',
      'attachments',
      'commentCursor',
      'goal',
      'issue',
      'project',
      'wakeComment',
    ]);
    assert.equal(body.issue.id, issue.id);
    assert.equal(body.issue.identifier, issue.identifier);
    assert.equal(body.issue.title, 'Leaf');
    assert.equal(body.issue.description, 'Do the thing');
    assert.equal(body.issue.assigneeAgentId, agent.agent.id);
    assert.equal(body.issue.status, 'todo');
    assert.deepEqual(
      body.ancestors.map((x: any) => x.id),
      [parent.id, root.id],
    );
    assert.equal(body.ancestors[0].identifier, parent.identifier);
    assert.equal(body.project.id, project.id);
    assert.equal(body.project.name, project.name);
    assert.deepEqual(body.goal, { id: goal.id, title: 'Ship it', level: 'team', status: 'planned' });
    assert.deepEqual(body.commentCursor, {
      totalComments: 2,
      latestCommentId: second.body.id,
      latestCommentAt: second.body.createdAt,
    });
    assert.equal(body.wakeComment.id, second.body.id);
    assert.equal(body.wakeComment.body, 'Please look at the logs');
    assert.equal(typeof body.wakeComment.authorUserId, 'string');
    assert.equal(body.wakeComment.authorAgentId, null);
    assert.deepEqual(body.attachments, [
      {
        id: upload.body.id,
        name: 'notes.txt',
        contentType: 'text/plain',
        byteSize: 5,
        createdAt: upload.body.createdAt,
      },
    ]);

    // A wake comment of another issue, or none asked for, is null.
    assert.equal((await context(issue, agent.token, `?wakeCommentId=${elsewhere.body.id}`)).body.wakeComment, null);
    assert.equal((await context(issue, a.token)).body.wakeComment, null);
    assert.equal((await context(issue, a.token, '?wakeCommentId=nope')).status, 400);
  });

  it('an issue without goal or project gets the company default goal, an empty cursor and no ancestors', async () => {
    const c = await t.newCompany();
    const companyGoal = (
      await t.request('POST', `/api/companies/${c.company.id}/goals`, {
        token: c.token,
        body: { title: 'Mission', level: 'company' },
      })
    ).body;
    const issue = await newIssue(t, c.token, c.company.id, { title: 'Lonely' });
    const res = await context(issue, c.token);
    assert.equal(res.status, 200);
    assert.equal(res.body.goal.id, companyGoal.id);
    assert.equal(res.body.project, null);
    assert.deepEqual(res.body.ancestors, []);
    assert.deepEqual(res.body.commentCursor, { totalComments: 0, latestCommentId: null, latestCommentAt: null });
    assert.deepEqual(res.body.attachments, []);
  });

  it('404 for a missing issue; 403 for a board user and an agent of another company', async () => {
    const issue = await newIssue(t, a.token, a.company.id);
    assert.equal((await context({ id: randomUUID() }, a.token)).status, 404);
    assert.equal((await context(issue, b.token)).status, 403);
    assert.equal((await context(issue, b1.token)).status, 403);
  });
});
