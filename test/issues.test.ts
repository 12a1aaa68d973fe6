import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestApp } from './helpers/app.ts';
import { activityRows, companyWithAgent, newAgent, newIssue } from './helpers/factories.ts';

const t = await useTestApp();

async function wakeupsOf(agentId: string): Promise<{ source: string; reason: string; issue_id: string }[]> {
  return (
    await t.database.pool.query(
      'select source, reason, issue_id from agent_wakeup_requests where agent_id = $1 order by created_at',
      [agentId],
    )
  ).rows;
}

const post = (token: string, url: string, body: unknown) => t.request('POST', url, { token, body });
const patch = (token: string, id: string, body: unknown) => t.request('PATCH', `/api/issues/${id}`, { token, body });

// One company with an agent, and an unrelated company with its own board user and agent.
const main = await companyWithAgent(t);
const { company, boardToken } = main;
const other = await companyWithAgent(t);
const issuesUrl = `/api/companies/${company.id}/issues`;

describe('issue create', () => {
  it('creates with defaults, an identifier from the company prefix and an activity entry', async () => {
    const res = await post(boardToken, issuesUrl, { title: '  Write the launch plan ' });
    assert.equal(res.status, 201);
    assert.equal(res.body.title, 'Write the launch plan');
    assert.equal(res.body.status, 'backlog');
    assert.equal(res.body.priority, 'medium');
    assert.match(res.body.identifier, new RegExp(`^${company.issuePrefix}-\\d+$`));
    assert.deepEqual(res.body.labelIds, []);
    const created = await activityRows(t, company.id, 'issue.created');
    assert.ok(created.some((a) => a.entity_id === res.body.id && a.details.identifier === res.body.identifier));
    const label = (await post(boardToken, `/api/companies/${company.id}/labels`, { name: 'Triage' })).body.id;
    const byAgent = await post(main.agent.token, issuesUrl, {
      title: 'Agent filed',
      priority: 'critical',
      labelIds: [label],
    });
    assert.equal(byAgent.status, 201);
    assert.equal(byAgent.body.createdByAgentId, main.agent.agent.id);
    assert.equal(byAgent.body.priority, 'critical');
    assert.deepEqual(byAgent.body.labelIds, [label]);
  });

  it('validates the body: title required, enums, in_progress only via checkout', async () => {
    assert.equal((await post(boardToken, issuesUrl, {})).status, 400);
    assert.equal((await post(boardToken, issuesUrl, { title: '   ' })).status, 400);
    assert.equal((await post(boardToken, issuesUrl, { title: 'x', priority: 'urgent' })).status, 400);
    assert.equal((await post(boardToken, issuesUrl, { title: 'x', status: 'doing' })).status, 400);
    assert.equal((await post(boardToken, issuesUrl, { title: 'x', projectId: 'nope' })).status, 400);
    assert.equal((await post(boardToken, issuesUrl, { title: 'x', status: 'in_progress' })).status, 422);
    const done = await post(boardToken, issuesUrl, { title: 'already done', status: 'done' });
    assert.equal(done.status, 201);
    assert.ok(done.body.completedAt);
  });

  it('rejects references to another company (or to nothing) with 422', async () => {
    const foreignIssue = await newIssue(t, other.boardToken, other.company.id);
    const foreignGoal = (await post(other.boardToken, `/api/companies/${other.company.id}/goals`, { title: 'g' })).body;
    const foreignProject = (
      await post(other.boardToken, `/api/companies/${other.company.id}/projects`, { name: 'Foreign' })
    ).body;
    const foreignWs = (
      await post(other.boardToken, `/api/projects/${foreignProject.id}/workspaces`, { name: 'w', cwd: '/tmp/w' })
    ).body;
    const missing = '00000000-0000-4000-8000-000000000000';
    for (const body of [
      { projectId: foreignProject.id },
      { goalId: foreignGoal.id },
      { parentId: foreignIssue.id },
      { executionWorkspaceId: foreignWs.id },
      { blockedByIssueIds: [foreignIssue.id] },
      { blockedByIssueIds: [missing] },
      { assigneeAgentId: other.agent.agent.id },
      { inheritExecutionWorkspaceFromIssueId: foreignIssue.id },
      { parentId: missing },
    ]) {
      const res = await post(boardToken, issuesUrl, { title: 'x', ...body });
      assert.equal(res.status, 422, JSON.stringify(body));
    }
  });

  it('refuses assignment to terminated or pending agents and stores the linked fields', async () => {
    const gone = await newAgent(t, boardToken, company.id);
    assert.equal((await post(boardToken, `/api/agents/${gone.agent.id}/terminate`, {})).status, 200);
    assert.equal((await post(boardToken, issuesUrl, { title: 'x', assigneeAgentId: gone.agent.id })).status, 422);
    await t.database.pool.query(`update agents set status = 'pending_approval' where id = $1`, [gone.agent.id]);
    assert.equal((await post(boardToken, issuesUrl, { title: 'x', assigneeAgentId: gone.agent.id })).status, 422);

    const goal = (await post(boardToken, `/api/companies/${company.id}/goals`, { title: 'Grow' })).body;
    const project = (await post(boardToken, `/api/companies/${company.id}/projects`, { name: 'Linked fields' })).body;
    const ws = (await post(boardToken, `/api/projects/${project.id}/workspaces`, { name: 'main', cwd: '/tmp/linked' }))
      .body;
    const parent = await newIssue(t, boardToken, company.id, {
      executionWorkspaceId: ws.id,
      executionWorkspaceSettings: { mode: 'isolated' },
    });
    const blocker = await newIssue(t, boardToken, company.id);
    const res = await post(boardToken, issuesUrl, {
      title: 'child',
      projectId: project.id,
      goalId: goal.id,
      parentId: parent.id,
      blockedByIssueIds: [blocker.id],
      assigneeUserId: '22222222-2222-4222-8222-222222222222',
      billingCode: 'OPS-7',
      executionPolicy: { review: 'required' },
      executionWorkspacePreference: 'isolated',
      inheritExecutionWorkspaceFromIssueId: parent.id,
    });
    assert.equal(res.status, 201);
    assert.equal(res.body.executionWorkspaceId, ws.id);
    assert.deepEqual(res.body.executionWorkspaceSettings, { mode: 'isolated' });
    assert.equal(res.body.executionWorkspacePreference, 'isolated');
    assert.equal(res.body.billingCode, 'OPS-7');
    assert.deepEqual(res.body.executionPolicy, { review: 'required' });
    assert.equal(res.body.assigneeUserId, '22222222-2222-4222-8222-222222222222');
    const detail = await t.request('GET', `/api/issues/${res.body.id}`, { token: boardToken });
    assert.deepEqual(
      detail.body.blockedBy.map((b: any) => b.id),
      [blocker.id],
    );
  });

  it('needs task-assignment permission for assignee fields and wakes the assignee', async () => {
    const worker = await newAgent(t, boardToken, company.id);
    const plain = await newAgent(t, boardToken, company.id);
    // Board: always; the assignee gets an assignment wakeup.
    const byBoard = await post(boardToken, issuesUrl, { title: 'for worker', assigneeAgentId: worker.agent.id });
    assert.equal(byBoard.status, 201);
    assert.deepEqual(
      (await wakeupsOf(worker.agent.id)).map((w) => [w.source, w.issue_id]),
      [['assignment', byBoard.body.id]],
    );
    // A plain agent: itself yes (and no wakeup for itself), others or users no.
    assert.equal((await post(plain.token, issuesUrl, { title: 'x', assigneeAgentId: worker.agent.id })).status, 403);
    assert.equal(
      (await post(plain.token, issuesUrl, { title: 'x', assigneeUserId: '22222222-2222-4222-8222-222222222222' }))
        .status,
      403,
    );
    assert.equal((await post(plain.token, issuesUrl, { title: 'mine', assigneeAgentId: plain.agent.id })).status, 201);
    assert.equal((await wakeupsOf(plain.agent.id)).length, 0);
    // Granted: canAssignTasks, canCreateAgents, or role ceo.
    assert.equal(
      (
        await t.request('PATCH', `/api/agents/${plain.agent.id}/permissions`, {
          token: boardToken,
          body: { canAssignTasks: true },
        })
      ).status,
      200,
    );
    assert.equal(
      (await post(plain.token, issuesUrl, { title: 'delegated', assigneeAgentId: worker.agent.id })).status,
      201,
    );
    const creator = await newAgent(t, boardToken, company.id);
    await t.request('PATCH', `/api/agents/${creator.agent.id}/permissions`, {
      token: boardToken,
      body: { canCreateAgents: true },
    });
    assert.equal(
      (await post(creator.token, issuesUrl, { title: 'delegated 2', assigneeAgentId: worker.agent.id })).status,
      201,
    );
    const ceo = await newAgent(t, boardToken, company.id, { role: 'ceo' });
    assert.equal(
      (await post(ceo.token, issuesUrl, { title: 'delegated 3', assigneeAgentId: worker.agent.id })).status,
      201,
    );
    assert.equal((await wakeupsOf(worker.agent.id)).length, 4);
  });

  it('hands out 200 distinct identifiers to 200 concurrent creates', async () => {
    const { company: busy, token } = await t.newCompany();
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => post(token, `/api/companies/${busy.id}/issues`, { title: `race ${i}` })),
    );
    assert.deepEqual([...new Set(results.map((r) => r.status))], [201]);
    const identifiers = new Set(results.map((r) => r.body.identifier));
    assert.equal(identifiers.size, 200);
    const numbers = results.map((r) => r.body.issueNumber).sort((a, b) => a - b);
    assert.deepEqual(
      numbers,
      Array.from({ length: 200 }, (_, i) => i + 1),
    );
    const after = await t.request('GET', `/api/companies/${busy.id}`, { token });
    assert.equal(after.body.issueCounter, 201);
  });

  it('a refused create gives its number back, so a quiet company has no gap; a later number stays taken', async () => {
    const { company: quiet, token } = await t.newCompany();
    const { company: foreign, token: foreignToken } = await t.newCompany();
    const project = await t.request('POST', `/api/companies/${foreign.id}/projects`, {
      token: foreignToken,
      body: { name: 'Elsewhere' },
    });
    const url = `/api/companies/${quiet.id}/issues`;
    assert.equal((await post(token, url, { title: 'one' })).body.issueNumber, 1);
    // The reference check runs after the number is taken (inside the create transaction).
    assert.equal((await post(token, url, { title: 'refused', projectId: project.body.id })).status, 422);
    assert.equal((await post(token, url, { title: 'two' })).body.issueNumber, 2);
    const counter = await t.request('GET', `/api/companies/${quiet.id}`, { token });
    assert.equal(counter.body.issueCounter, 3);
  });
});

describe('issue routes by UUID or identifier, and the company boundary', () => {
  it('resolves {issueId} as UUID or identifier on every issue route', async () => {
    const issue = await newIssue(t, boardToken, company.id);
    for (const key of [issue.id, issue.identifier, issue.identifier.toLowerCase()]) {
      assert.equal((await t.request('GET', `/api/issues/${key}`, { token: boardToken })).body.id, issue.id);
      assert.equal((await t.request('GET', `/api/issues/${key}/activity`, { token: boardToken })).status, 200);
    }
    const patched = await patch(boardToken, issue.identifier, { priority: 'high' });
    assert.equal(patched.status, 200);
    assert.equal(patched.body.priority, 'high');
    assert.equal((await t.request('GET', '/api/issues/ZZZ-999999', { token: boardToken })).status, 404);
    assert.equal(
      (await t.request('GET', '/api/issues/00000000-0000-4000-8000-000000000000', { token: boardToken })).status,
      404,
    );
    assert.equal((await patch(boardToken, 'not-an-issue', { title: 'x' })).status, 404);
  });

  it('answers 403 to a board user and an agent of another company on every route', async () => {
    const issue = await newIssue(t, boardToken, company.id);
    for (const token of [other.boardToken, other.agent.token]) {
      assert.equal((await t.request('GET', issuesUrl, { token })).status, 403);
      assert.equal((await post(token, issuesUrl, { title: 'intruder' })).status, 403);
      assert.equal((await t.request('GET', `/api/issues/${issue.id}`, { token })).status, 403);
      assert.equal((await t.request('GET', `/api/issues/${issue.identifier}`, { token })).status, 403);
      assert.equal((await patch(token, issue.id, { title: 'hijack' })).status, 403);
      assert.equal((await t.request('GET', `/api/issues/${issue.id}/activity`, { token })).status, 403);
    }
    assert.equal((await t.request('GET', `/api/issues/${issue.id}`)).status, 401);
    assert.equal((await t.request('GET', `/api/issues/${issue.id}`, { token: boardToken })).body.title, issue.title);
  });
});

describe('issue detail', () => {
  it('returns project, resolved goal, ancestors, relations, documents, mentions and workspace', async () => {
    const companyGoal = (
      await post(boardToken, `/api/companies/${company.id}/goals`, { title: 'Company mission', level: 'company' })
    ).body;
    const projectGoal = (
      await post(boardToken, `/api/companies/${company.id}/goals`, { title: 'Ship v2', level: 'team' })
    ).body;
    const ownGoal = (
      await post(boardToken, `/api/companies/${company.id}/goals`, { title: 'Fix login', level: 'task' })
    ).body;
    const project = (
      await post(boardToken, `/api/companies/${company.id}/projects`, {
        name: 'Website Relaunch',
        goalIds: [projectGoal.id],
      })
    ).body;
    const ws = (await post(boardToken, `/api/projects/${project.id}/workspaces`, { name: 'main', cwd: '/tmp/site' }))
      .body;

    const root = await newIssue(t, boardToken, company.id);
    const middle = await newIssue(t, boardToken, company.id, { parentId: root.id, projectId: project.id });
    const blocker = await newIssue(t, boardToken, company.id);
    const issue = await newIssue(t, boardToken, company.id, {
      parentId: middle.id,
      projectId: project.id,
      goalId: ownGoal.id,
      blockedByIssueIds: [blocker.id],
      executionWorkspaceId: ws.id,
      description: `Touches #${project.urlKey} and #no-such-project.\n\n## Plan\n1. old plan step\n\n## Notes\nlater`,
    });
    const dependent = await newIssue(t, boardToken, company.id, { blockedByIssueIds: [issue.id] });

    const d = (await t.request('GET', `/api/issues/${issue.identifier}`, { token: boardToken })).body;
    assert.equal(d.project.id, project.id);
    assert.equal(d.goal.id, ownGoal.id);
    assert.deepEqual(
      d.ancestors.map((a: any) => a.id),
      [middle.id, root.id],
    );
    assert.equal(d.ancestors[0].project.id, project.id);
    assert.equal(d.ancestors[0].goal.id, projectGoal.id, 'no own goal: the project goal');
    assert.equal(d.ancestors[1].project, null);
    assert.equal(d.ancestors[1].goal.id, companyGoal.id, 'no project: the company default goal');
    assert.deepEqual(
      d.blockedBy.map((b: any) => b.identifier),
      [blocker.identifier],
    );
    assert.deepEqual(
      d.blocks.map((b: any) => b.id),
      [dependent.id],
    );
    assert.equal(d.planDocument, null);
    assert.deepEqual(d.legacyPlanDocument, { body: '1. old plan step', source: 'description' });
    assert.deepEqual(
      d.mentionedProjects.map((p: any) => p.id),
      [project.id],
    );
    assert.equal(d.currentExecutionWorkspace.id, ws.id);
    assert.deepEqual(d.workProducts, []);
    assert.deepEqual(d.documentSummaries, []);

    // Goal resolution on the issue itself: project goal, then company goal.
    assert.equal(
      (await t.request('GET', `/api/issues/${middle.id}`, { token: boardToken })).body.goal.id,
      projectGoal.id,
    );
    assert.equal(
      (await t.request('GET', `/api/issues/${root.id}`, { token: boardToken })).body.goal.id,
      companyGoal.id,
    );

    // A plan document replaces the legacy fallback and shows in the summaries.
    const put = await t.request('PUT', `/api/issues/${issue.id}/documents/plan`, {
      token: boardToken,
      body: { title: 'Plan', format: 'markdown', body: '# Real plan' },
    });
    assert.equal(put.status, 201);
    await t.request('PUT', `/api/issues/${issue.id}/documents/notes`, {
      token: boardToken,
      body: { format: 'markdown', body: 'n' },
    });
    const d2 = (await t.request('GET', `/api/issues/${issue.id}`, { token: boardToken })).body;
    assert.equal(d2.planDocument.body, '# Real plan');
    assert.equal(d2.planDocument.key, 'plan');
    assert.equal(d2.legacyPlanDocument, null);
    assert.deepEqual(
      d2.documentSummaries.map((s: any) => [s.key, s.latestRevisionNumber]),
      [
        ['notes', 1],
        ['plan', 1],
      ],
    );
  });

  it('reads a <plan> block as the legacy plan', async () => {
    const issue = await newIssue(t, boardToken, company.id, { description: 'intro <plan>\nstep one\n</plan> outro' });
    const d = (await t.request('GET', `/api/issues/${issue.id}`, { token: boardToken })).body;
    assert.deepEqual(d.legacyPlanDocument, { body: 'step one', source: 'description' });
    const plain = await newIssue(t, boardToken, company.id, { description: 'no plan here' });
    assert.equal(
      (await t.request('GET', `/api/issues/${plain.id}`, { token: boardToken })).body.legacyPlanDocument,
      null,
    );
  });
});
