// POST /api/issues/{issueId}/checkout and /release, and the checkout-ownership check of PATCH.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { useTestApp } from './helpers/app.ts';
import { activityRows, newAgent, newIssue, type AgentFixture } from './helpers/factories.ts';

const t = await useTestApp();
const sql = (text: string, params: unknown[] = []) => t.database.pool.query(text, params);

const a = await t.newCompany();
const a1 = await newAgent(t, a.token, a.company.id, { name: 'Alpha' });
const a2 = await newAgent(t, a.token, a.company.id, { name: 'Beta' });
const b = await t.newCompany();
const b1 = await newAgent(t, b.token, b.company.id, { name: 'Foreign' });

const runHeader = (runId: string) => ({ 'x-service-run-id': runId });

function checkout(
  issue: any,
  agent: AgentFixture,
  runId: string | null,
  expectedStatuses: string[],
  extra: Record<string, unknown> = {},
) {
  return t.request('POST', `/api/issues/${issue.identifier ?? issue.id}/checkout`, {
    token: agent.token,
    headers: runId ? runHeader(runId) : {},
    body: { agentId: agent.agent.id, expectedStatuses, ...extra },
  });
}

const boardCheckout = (
  issue: any,
  agentId: string,
  expectedStatuses: string[],
  token = a.token,
  extra: Record<string, unknown> = {},
) => t.request('POST', `/api/issues/${issue.id}/checkout`, { token, body: { agentId, expectedStatuses, ...extra } });

const release = (issue: any, token: string, runId?: string) =>
  t.request('POST', `/api/issues/${issue.id}/release`, { token, headers: runId ? runHeader(runId) : {} });

async function issueRow(id: string) {
  return (await sql('select * from issues where id = $1', [id])).rows[0];
}

/** An issue checked out by `agent` under a fresh run. */
async function checkedOut(agent: AgentFixture = a1, fields: Record<string, unknown> = {}) {
  const issue = await newIssue(t, a.token, a.company.id, { status: 'todo', ...fields });
  const runId = randomUUID();
  const res = await checkout(issue, agent, runId, ['todo']);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return { issue, runId };
}

function assertConflict(res: any, reason: string) {
  assert.equal(res.status, 409, JSON.stringify(res.body));
  assert.equal(res.body.details.reason, reason);
  assert.equal(res.body.details.retryable, false);
  assert.match(res.body.error, /do not retry/);
}

describe('POST /api/issues/{issueId}/checkout', () => {
  it('an agent checks out as itself under its run: in_progress, assignee, run, startedAt, run record, touched run, activity', async () => {
    const issue = await newIssue(t, a.token, a.company.id, { status: 'todo' });
    const runId = randomUUID();
    const res = await checkout(issue, a1, runId, ['todo', 'backlog']);
    assert.equal(res.status, 200);
    assert.equal(res.body.id, issue.id);
    assert.equal(res.body.status, 'in_progress');
    assert.equal(res.body.assigneeAgentId, a1.agent.id);
    assert.equal(res.body.checkoutRunId, runId);
    assert.ok(res.body.startedAt);

    const [run] = (await sql('select * from heartbeat_runs where id = $1', [runId])).rows;
    assert.equal(run.agent_id, a1.agent.id);
    assert.equal(run.company_id, a.company.id);
    assert.equal(run.status, 'running');
    assert.equal(run.invocation_source, 'checkout');
    assert.equal(run.adapter_type, 'process');
    assert.equal(
      (await sql('select 1 from heartbeat_run_issues where run_id = $1 and issue_id = $2', [runId, issue.id])).rowCount,
      1,
    );
    const entries = (await activityRows(t, a.company.id, 'issue.checked_out')).filter((r) => r.entity_id === issue.id);
    assert.equal(entries.length, 1);
    assert.equal(entries[0].agent_id, a1.agent.id);
    assert.equal(entries[0].run_id, runId);
  });

  it('accepts the identifier in the path', async () => {
    const issue = await newIssue(t, a.token, a.company.id, { status: 'backlog' });
    const res = await checkout({ identifier: issue.identifier }, a1, randomUUID(), ['backlog']);
    assert.equal(res.status, 200);
    assert.equal(res.body.id, issue.id);
  });

  it('is idempotent for the same agent and run: 200, nothing changes, no second activity entry', async () => {
    const { issue, runId } = await checkedOut();
    const before = await issueRow(issue.id);
    const again = await checkout(issue, a1, runId, ['in_progress']);
    assert.equal(again.status, 200);
    assert.equal(again.body.checkoutRunId, runId);
    const after = await issueRow(issue.id);
    assert.deepEqual(after.updated_at, before.updated_at);
    assert.deepEqual(after.started_at, before.started_at);
    assert.equal(
      (await activityRows(t, a.company.id, 'issue.checked_out')).filter((r) => r.entity_id === issue.id).length,
      1,
    );
  });

  it('409 owned_by_another_agent with the holder and whether its run is live', async () => {
    const { issue, runId } = await checkedOut();
    const res = await checkout(issue, a2, randomUUID(), ['todo', 'in_progress']);
    assertConflict(res, 'owned_by_another_agent');
    assert.equal(res.body.details.currentStatus, 'in_progress');
    assert.deepEqual(res.body.details.holder, { agentId: a1.agent.id, runId, runStatus: 'running', runLive: true });
    assert.equal((await issueRow(issue.id)).assignee_agent_id, a1.agent.id);
  });

  it('409 owned_by_another_agent for an issue assigned to another agent even before checkout', async () => {
    const issue = await newIssue(t, a.token, a.company.id, { status: 'todo', assigneeAgentId: a2.agent.id });
    assertConflict(await checkout(issue, a1, randomUUID(), ['todo']), 'owned_by_another_agent');
    const mine = await checkout(issue, a2, randomUUID(), ['todo']);
    assert.equal(mine.status, 200);
  });

  it('409 owned_by_another_run when the same agent holds it with another live run', async () => {
    const { issue, runId } = await checkedOut();
    const res = await checkout(issue, a1, randomUUID(), ['in_progress']);
    assertConflict(res, 'owned_by_another_run');
    assert.equal(res.body.details.holder.runId, runId);
    assert.equal(res.body.details.holder.runLive, true);
  });

  it('409 status_mismatch when the status is not in expectedStatuses; nothing changes', async () => {
    const issue = await newIssue(t, a.token, a.company.id, { status: 'backlog' });
    const res = await checkout(issue, a1, randomUUID(), ['todo', 'in_review']);
    assertConflict(res, 'status_mismatch');
    assert.equal(res.body.details.currentStatus, 'backlog');
    assert.deepEqual(res.body.details.holder, { agentId: null, runId: null, runStatus: null, runLive: false });
    const row = await issueRow(issue.id);
    assert.equal(row.status, 'backlog');
    assert.equal(row.assignee_agent_id, null);
  });

  it('checks out from every non-terminal status listed, never from done or cancelled unless listed', async () => {
    for (const status of ['blocked', 'in_review']) {
      const issue = await newIssue(t, a.token, a.company.id, { status });
      assert.equal((await checkout(issue, a1, randomUUID(), [status])).status, 200, status);
    }
    for (const status of ['done', 'cancelled']) {
      const issue = await newIssue(t, a.token, a.company.id, { status });
      const runId = randomUUID();
      assertConflict(await checkout(issue, a1, runId, ['todo', 'in_progress']), 'status_mismatch');
      // Refused: the issue as it was, and no run record for the run named.
      const row = await issueRow(issue.id);
      assert.deepEqual(
        [row.status, row.assignee_agent_id, row.checkout_run_id, row.started_at],
        [status, null, null, null],
        status,
      );
      assert.equal((await sql('select 1 from heartbeat_runs where id = $1', [runId])).rowCount, 0, status);
      assert.equal(
        (await activityRows(t, a.company.id, 'issue.checked_out')).filter((r) => r.entity_id === issue.id).length,
        0,
        status,
      );
      // Listed, the closed status is one the caller expects: the checkout reopens the issue into in_progress.
      const listed = await checkout(issue, a1, runId, [status]);
      assert.equal(listed.status, 200, `${status}: ${JSON.stringify(listed.body)}`);
      assert.deepEqual(
        [listed.body.status, listed.body.assigneeAgentId, listed.body.checkoutRunId],
        ['in_progress', a1.agent.id, runId],
        status,
      );
    }
  });

  it('adopts a stale lock of the same assignee (run failed, cancelled, timed out, succeeded or missing) only when in_progress is expected', async () => {
    for (const runStatus of ['failed', 'cancelled', 'timed_out', 'succeeded', 'missing']) {
      const { issue, runId } = await checkedOut();
      const before = await issueRow(issue.id);
      if (runStatus === 'missing')
        await sql('update issues set checkout_run_id = $2 where id = $1', [issue.id, randomUUID()]);
      else await sql('update heartbeat_runs set status = $2, finished_at = now() where id = $1', [runId, runStatus]);

      const refused = await checkout(issue, a1, randomUUID(), ['todo']);
      assertConflict(refused, 'status_mismatch');
      assert.equal(refused.body.details.holder.runLive, false);
      assert.match(refused.body.error, /include in_progress/);
      const other = await checkout(issue, a2, randomUUID(), ['in_progress']);
      assertConflict(other, 'owned_by_another_agent');
      assert.equal(other.body.details.holder.runLive, false);

      const newRun = randomUUID();
      const adopted = await checkout(issue, a1, newRun, ['in_progress']);
      assert.equal(adopted.status, 200, runStatus);
      assert.equal(adopted.body.checkoutRunId, newRun);
      assert.deepEqual((await issueRow(issue.id)).started_at, before.started_at, 'startedAt is kept on adoption');
    }
  });

  it('409 project_paused and workspace_closed (set as the budget and workspace areas will)', async () => {
    const project = (
      await t.request('POST', `/api/companies/${a.company.id}/projects`, {
        token: a.token,
        body: { name: `Paused ${randomUUID()}` },
      })
    ).body;
    const ws = (
      await t.request('POST', `/api/projects/${project.id}/workspaces`, {
        token: a.token,
        body: { name: 'iso', cwd: '/tmp/iso' },
      })
    ).body;
    const inProject = await newIssue(t, a.token, a.company.id, { status: 'todo', projectId: project.id });
    const inWorkspace = await newIssue(t, a.token, a.company.id, {
      status: 'todo',
      projectId: project.id,
      executionWorkspaceId: ws.id,
    });

    await sql('update projects set paused_at = now() where id = $1', [project.id]);
    assertConflict(await checkout(inProject, a1, randomUUID(), ['todo']), 'project_paused');
    assertConflict(await boardCheckout(inProject, a1.agent.id, ['todo']), 'project_paused');
    await sql('update projects set paused_at = null where id = $1', [project.id]);

    await sql('update project_workspaces set closed_at = now() where id = $1', [ws.id]);
    const closed = await checkout(inWorkspace, a1, randomUUID(), ['todo']);
    assertConflict(closed, 'workspace_closed');
    assert.equal((await issueRow(inWorkspace.id)).status, 'todo');
    assert.equal(
      (await checkout(inProject, a1, randomUUID(), ['todo'])).status,
      200,
      'other issues of the project are unaffected',
    );
    await sql('update project_workspaces set closed_at = null where id = $1', [ws.id]);
    assert.equal((await checkout(inWorkspace, a1, randomUUID(), ['todo'])).status, 200);
  });

  it('an agent checks out only as itself (403) and only with a UUID X-Service-Run-Id header (400)', async () => {
    const issue = await newIssue(t, a.token, a.company.id, { status: 'todo' });
    const asOther = await t.request('POST', `/api/issues/${issue.id}/checkout`, {
      token: a1.token,
      headers: runHeader(randomUUID()),
      body: { agentId: a2.agent.id, expectedStatuses: ['todo'] },
    });
    assert.equal(asOther.status, 403);
    const noHeader = await checkout(issue, a1, null, ['todo']);
    assert.equal(noHeader.status, 400);
    assert.match(noHeader.body.error, /X-Service-Run-Id/);
    assert.equal(
      (
        await t.request('POST', `/api/issues/${issue.id}/checkout`, {
          token: a1.token,
          headers: runHeader('not-a-uuid'),
          body: { agentId: a1.agent.id, expectedStatuses: ['todo'] },
        })
      ).status,
      400,
    );
    assert.equal((await issueRow(issue.id)).status, 'todo');
  });

  it('the run id never comes from the body: runId or checkoutRunId in the body is 400 and changes nothing', async () => {
    const issue = await newIssue(t, a.token, a.company.id, { status: 'todo' });
    const bodyRun = randomUUID();
    for (const field of ['runId', 'checkoutRunId']) {
      assert.equal(
        (await checkout(issue, a1, null, ['todo'], { [field]: bodyRun })).status,
        400,
        `agent without header, ${field}`,
      );
      assert.equal(
        (await checkout(issue, a1, randomUUID(), ['todo'], { [field]: bodyRun })).status,
        400,
        `agent with header, ${field}`,
      );
      assert.equal(
        (await boardCheckout(issue, a1.agent.id, ['todo'], a.token, { [field]: bodyRun })).status,
        400,
        `board, ${field}`,
      );
    }
    const row = await issueRow(issue.id);
    assert.equal(row.status, 'todo');
    assert.equal(row.checkout_run_id, null);
    assert.equal((await sql('select 1 from heartbeat_runs where id = $1', [bodyRun])).rowCount, 0);
  });

  it('a run of another agent is 403; a finished run of its own is 409', async () => {
    const { runId } = await checkedOut(a1);
    const issue = await newIssue(t, a.token, a.company.id, { status: 'todo' });
    assert.equal((await checkout(issue, a2, runId, ['todo'])).status, 403);
    const finished = randomUUID();
    await sql(
      `insert into heartbeat_runs (id, company_id, agent_id, status, finished_at) values ($1, $2, $3, 'succeeded', now())`,
      [finished, a.company.id, a1.agent.id],
    );
    const res = await checkout(issue, a1, finished, ['todo']);
    assert.equal(res.status, 409);
    assert.equal(res.body.details.runStatus, 'succeeded');
    assert.equal((await issueRow(issue.id)).status, 'todo');
  });

  it('a known queued run of the agent is accepted and its lease clock moves', async () => {
    const runId = randomUUID();
    await sql(
      `insert into heartbeat_runs (id, company_id, agent_id, status, updated_at) values ($1, $2, $3, 'queued', now() - interval '1 hour')`,
      [runId, a.company.id, a1.agent.id],
    );
    const issue = await newIssue(t, a.token, a.company.id, { status: 'todo' });
    assert.equal((await checkout(issue, a1, runId, ['todo'])).status, 200);
    const [run] = (
      await sql("select status, updated_at > now() - interval '1 minute' as fresh from heartbeat_runs where id = $1", [
        runId,
      ])
    ).rows;
    assert.deepEqual(run, { status: 'queued', fresh: true });
  });

  it('the agent must be of the issue company (422) and available (409 when paused, terminated or pending approval)', async () => {
    const issue = await newIssue(t, a.token, a.company.id, { status: 'todo' });
    assert.equal((await boardCheckout(issue, b1.agent.id, ['todo'])).status, 422);
    assert.equal((await boardCheckout(issue, randomUUID(), ['todo'])).status, 422);
    const paused = await newAgent(t, a.token, a.company.id, { name: 'Sleepy' });
    assert.equal((await t.request('POST', `/api/agents/${paused.agent.id}/pause`, { token: a.token })).status, 200);
    const res = await checkout(issue, paused, randomUUID(), ['todo']);
    assert.equal(res.status, 409);
    assert.equal(res.body.details.agentStatus, 'paused');
    for (const status of ['terminated', 'pending_approval']) {
      const agent = await newAgent(t, a.token, a.company.id);
      await sql('update agents set status = $2 where id = $1', [agent.agent.id, status]);
      assert.equal((await boardCheckout(issue, agent.agent.id, ['todo'])).status, 409, status);
    }
    assert.equal((await issueRow(issue.id)).status, 'todo');
  });

  it('the board checks out on behalf of an agent without a run; the agent then takes the lock with its run', async () => {
    const issue = await newIssue(t, a.token, a.company.id, { status: 'todo' });
    const res = await boardCheckout(issue, a1.agent.id, ['todo']);
    assert.equal(res.status, 200);
    assert.equal(res.body.assigneeAgentId, a1.agent.id);
    assert.equal(res.body.checkoutRunId, null);
    assert.equal(
      (await boardCheckout(issue, a1.agent.id, ['in_progress'])).status,
      200,
      'idempotent for the board too',
    );
    assertConflict(await checkout(issue, a2, randomUUID(), ['in_progress']), 'owned_by_another_agent');
    const runId = randomUUID();
    const taken = await checkout(issue, a1, runId, ['in_progress']);
    assert.equal(taken.status, 200);
    assert.equal(taken.body.checkoutRunId, runId);
    // Now a live run holds it: the board acting for the same agent does not displace the run.
    assertConflict(await boardCheckout(issue, a1.agent.id, ['in_progress']), 'owned_by_another_run');
  });

  it('validates the body: expectedStatuses non-empty and known, agentId a UUID (400)', async () => {
    const issue = await newIssue(t, a.token, a.company.id, { status: 'todo' });
    assert.equal((await boardCheckout(issue, a1.agent.id, [])).status, 400);
    assert.equal((await boardCheckout(issue, a1.agent.id, ['started'])).status, 400);
    assert.equal((await boardCheckout(issue, 'nope', ['todo'])).status, 400);
    assert.equal(
      (await t.request('POST', `/api/issues/${issue.id}/checkout`, { token: a.token, body: { agentId: a1.agent.id } }))
        .status,
      400,
    );
  });

  it('404 for a missing issue; 403 for a board user and an agent of another company', async () => {
    const issue = await newIssue(t, a.token, a.company.id, { status: 'todo' });
    assert.equal((await boardCheckout({ id: randomUUID() }, a1.agent.id, ['todo'])).status, 404);
    assert.equal((await boardCheckout(issue, a1.agent.id, ['todo'], b.token)).status, 403);
    assert.equal((await checkout(issue, b1, randomUUID(), ['todo'])).status, 403);
    const stranger = await t.newBoardUser();
    assert.equal((await boardCheckout(issue, a1.agent.id, ['todo'], stranger.token)).status, 403);
    assert.equal((await issueRow(issue.id)).status, 'todo');
  });
});

describe('POST /api/issues/{issueId}/release', () => {
  it('the assignee releases from its checkout run: todo, agent and run cleared, assigneeUserId kept, activity', async () => {
    const issue = await newIssue(t, a.token, a.company.id, { status: 'todo' });
    const [membership] = (await sql('select user_id from company_memberships where company_id = $1', [a.company.id]))
      .rows;
    await sql('update issues set assignee_user_id = $2 where id = $1', [issue.id, membership.user_id]);
    const runId = randomUUID();
    assert.equal((await checkout(issue, a1, runId, ['todo'])).status, 200);

    const res = await release(issue, a1.token, runId);
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'todo');
    assert.equal(res.body.assigneeAgentId, null);
    assert.equal(res.body.checkoutRunId, null);
    assert.equal(res.body.assigneeUserId, membership.user_id);
    const entries = (await activityRows(t, a.company.id, 'issue.released')).filter((r) => r.entity_id === issue.id);
    assert.equal(entries.length, 1);
    assert.equal(entries[0].details.agentId, a1.agent.id);
    assert.equal(entries[0].details.runId, runId);
    // Released: anyone may check it out again.
    assert.equal((await checkout(issue, a2, randomUUID(), ['todo'])).status, 200);
  });

  it('another agent is 403; the assignee from another run (or a run-less lock) is 409; no header is 400', async () => {
    const { issue, runId } = await checkedOut(a1);
    assert.equal((await release(issue, a2.token, randomUUID())).status, 403);
    const wrongRun = await release(issue, a1.token, randomUUID());
    assertConflict(wrongRun, 'run_mismatch');
    assert.equal(wrongRun.body.details.holder.runId, runId);
    assert.equal((await release(issue, a1.token)).status, 400);
    assert.equal((await issueRow(issue.id)).checkout_run_id, runId);

    const boardLocked = await newIssue(t, a.token, a.company.id, { status: 'todo' });
    assert.equal((await boardCheckout(boardLocked, a1.agent.id, ['todo'])).status, 200);
    assertConflict(await release(boardLocked, a1.token, randomUUID()), 'run_mismatch');
  });

  it('the board releases without ownership, even a live lock', async () => {
    const { issue } = await checkedOut(a1);
    const res = await release(issue, a.token);
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'todo');
    assert.equal(res.body.assigneeAgentId, null);
    assert.equal(res.body.checkoutRunId, null);
  });

  it('409 not_checked_out for an issue nobody checked out, and for closed issues', async () => {
    const issue = await newIssue(t, a.token, a.company.id, { status: 'todo' });
    assertConflict(await release(issue, a.token), 'not_checked_out');
    const done = await newIssue(t, a.token, a.company.id, { status: 'done' });
    assertConflict(await release(done, a.token), 'not_checked_out');
    assert.equal((await issueRow(done.id)).status, 'done');
  });

  it('404 for a missing issue; 403 for a board user and an agent of another company', async () => {
    const { issue, runId } = await checkedOut(a1);
    assert.equal((await release({ id: randomUUID() }, a.token)).status, 404);
    assert.equal((await release(issue, b.token)).status, 403);
    assert.equal((await release(issue, b1.token, runId)).status, 403);
    assert.equal((await issueRow(issue.id)).status, 'in_progress');
  });
});

describe('PATCH of a checked-out issue (assertMayUpdateCheckedOutIssue)', () => {
  const patch = (issue: any, token: string, runId?: string) =>
    t.request('PATCH', `/api/issues/${issue.id}`, {
      token,
      headers: runId ? runHeader(runId) : {},
      body: { title: `Renamed ${randomUUID()}` },
    });

  it('the assignee passes with the holding run id; another run, no header or another agent is 409 with the holder', async () => {
    const { issue, runId } = await checkedOut(a1);
    assert.equal((await patch(issue, a1.token, runId)).status, 200);
    assertConflict(await patch(issue, a1.token, randomUUID()), 'run_mismatch');
    assertConflict(await patch(issue, a1.token), 'run_mismatch');
    const other = await patch(issue, a2.token, randomUUID());
    assertConflict(other, 'owned_by_another_agent');
    assert.equal(other.body.details.holder.agentId, a1.agent.id);
  });

  it('the board always passes; a stale lock lets the assignee through with its new run; issues not in progress are not checked', async () => {
    const { issue, runId } = await checkedOut(a1);
    assert.equal((await patch(issue, a.token)).status, 200);
    await sql(`update heartbeat_runs set status = 'timed_out' where id = $1`, [runId]);
    assert.equal((await patch(issue, a1.token, randomUUID())).status, 200);
    assertConflict(await patch(issue, a2.token, randomUUID()), 'owned_by_another_agent');
    const open = await newIssue(t, a.token, a.company.id, { status: 'todo' });
    assert.equal((await patch(open, a2.token)).status, 200);
  });
});
