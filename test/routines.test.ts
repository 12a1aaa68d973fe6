// Routines through the API: create/get/patch rules (variables, references, status table), who may
// do what (agents own only their routines, other companies 403), triggers (kinds, validation, webhook
// secrets shown only once, the trigger cap, schedules and required variables), the company list
// (order, summaries, paging) and the activity entries. Runs and their issues: routines-runs.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestApp } from './helpers/app.ts';
import { MISSING, routineCompanies } from './helpers/routines.ts';
import { newAgent, newIssue } from './helpers/factories.ts';

const t = await useTestApp();
// Company A: board, agents a1 and a2. Company B: board, agent and references to borrow.
const { A, board, a1, a2, b, bAgent, bProject } = await routineCompanies(t);
const bGoal = (
  await t.request('POST', `/api/companies/${b.company.id}/goals`, { token: b.token, body: { title: 'B goal' } })
).body;
const bIssue = await newIssue(t, b.token, b.company.id);

const createRoutine = (token: string, body: Record<string, unknown>, companyId = A) =>
  t.request('POST', `/api/companies/${companyId}/routines`, { token, body });

async function routine(body: Record<string, unknown> = {}, token = board, companyId = A): Promise<any> {
  const res = await createRoutine(
    token,
    { title: `Routine ${Math.random().toString(36).slice(2, 8)}`, ...body },
    companyId,
  );
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

async function trigger(routineId: string, body: Record<string, unknown>, token = board): Promise<any> {
  const res = await t.request('POST', `/api/routines/${routineId}/triggers`, { token, body });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

const detail = async (id: string, token = board) => {
  const res = await t.request('GET', `/api/routines/${id}`, { token });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
};
const patch = (id: string, body: Record<string, unknown>, token = board) =>
  t.request('PATCH', `/api/routines/${id}`, { token, body });

describe('routines: create, get, patch', () => {
  it('requires a title and applies the defaults', async () => {
    assert.equal((await createRoutine(board, { assigneeAgentId: a1.agent.id })).status, 400);
    assert.equal((await createRoutine(board, { title: '   ', assigneeAgentId: a1.agent.id })).status, 400);
    const r = await routine({ assigneeAgentId: a1.agent.id });
    assert.equal(r.status, 'active');
    assert.equal(r.priority, 'medium');
    assert.equal(r.concurrencyPolicy, 'coalesce_if_active');
    assert.equal(r.catchUpPolicy, 'skip_missed');
    assert.equal(r.createdByAgentId, null);
    assert.equal(typeof r.createdByUserId, 'string');
    const got = await detail(r.id);
    assert.equal(got.title, r.title);
    assert.equal(got.assignedAgent.id, a1.agent.id);
    assert.deepEqual(got.triggers, []);
    assert.deepEqual(got.recentRuns, []);
    assert.equal(got.activeExecutionIssue, null);
  });

  it('refuses undeclared variable references (422) and duplicate variable names (400)', async () => {
    const declared = [{ name: 'repo', defaultValue: 'web' }];
    assert.equal((await createRoutine(board, { title: 'Report {{repo}}', assigneeAgentId: a1.agent.id })).status, 422);
    assert.equal(
      (await createRoutine(board, { title: 'Report {{repo}}', description: 'see {{branch}}', variables: declared }))
        .status,
      422,
    );
    const dup = await createRoutine(board, { title: 'Report', variables: [{ name: 'repo' }, { name: 'repo' }] });
    assert.equal(dup.status, 400);
    const r = await routine({ title: 'Report {{ repo }}', description: 'for {{repo}}', variables: declared });
    assert.equal((await patch(r.id, { title: 'Report {{repo}} on {{branch}}' })).status, 422);
    assert.equal((await patch(r.id, { description: 'about {{nope}}' })).status, 422);
    assert.equal((await patch(r.id, { variables: [] })).status, 422, 'dropping a referenced variable');
    assert.equal((await patch(r.id, { variables: [{ name: 'a' }, { name: 'a' }] })).status, 400);
    const ok = await patch(r.id, {
      title: 'Report {{repo}} on {{branch}}',
      variables: [...declared, { name: 'branch' }],
    });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.deepEqual(
      ok.body.variables.map((v: any) => v.name),
      ['repo', 'branch'],
    );
    assert.equal((await detail(r.id)).title, 'Report {{repo}} on {{branch}}');
  });

  it('refuses references of another company (422) on create and on PATCH', async () => {
    for (const ref of [
      { projectId: bProject.id },
      { goalId: bGoal.id },
      { parentIssueId: bIssue.id },
      { assigneeAgentId: bAgent.agent.id },
    ]) {
      assert.equal((await createRoutine(board, { title: 'Cross', ...ref })).status, 422, JSON.stringify(ref));
    }
    const r = await routine({ assigneeAgentId: a1.agent.id });
    for (const ref of [
      { projectId: bProject.id },
      { goalId: bGoal.id },
      { parentIssueId: bIssue.id },
      { assigneeAgentId: bAgent.agent.id },
    ]) {
      assert.equal((await patch(r.id, ref)).status, 422, JSON.stringify(ref));
    }
    // Own-company references are accepted and shown in the detail.
    const project = (
      await t.request('POST', `/api/companies/${A}/projects`, { token: board, body: { name: 'A project' } })
    ).body;
    const parent = await newIssue(t, board, A);
    assert.equal((await patch(r.id, { projectId: project.id, parentIssueId: parent.id })).status, 200);
    const got = await detail(r.id);
    assert.equal(got.project.id, project.id);
    assert.equal(got.parentIssue.id, parent.id);
    assert.equal(got.assigneeAgentId, a1.agent.id);
  });

  it('refuses a terminated assignee (422)', async () => {
    const gone = await newAgent(t, board, A);
    const r = await routine({ assigneeAgentId: gone.agent.id, status: 'paused' });
    assert.equal((await t.request('POST', `/api/agents/${gone.agent.id}/terminate`, { token: board })).status, 200);
    // Reactivating a routine whose assignee left meanwhile is refused too.
    assert.equal((await patch(r.id, { status: 'active' })).status, 422);
    assert.equal((await detail(r.id)).status, 'paused');
    assert.equal(
      (await createRoutine(board, { title: 'For the departed', assigneeAgentId: gone.agent.id })).status,
      422,
    );
    const other = await routine({ assigneeAgentId: a1.agent.id });
    assert.equal((await patch(other.id, { assigneeAgentId: gone.agent.id })).status, 422);
    assert.equal((await detail(other.id)).assigneeAgentId, a1.agent.id);
    assert.equal((await detail(r.id)).assigneeAgentId, gone.agent.id, 'an existing routine keeps its record');
  });

  it('refuses a pending_approval assignee (422)', async () => {
    const c = await t.newCompany();
    assert.equal(
      (
        await t.request('PATCH', `/api/companies/${c.company.id}`, {
          token: c.token,
          body: { requireBoardApprovalForNewAgents: true },
        })
      ).status,
      200,
    );
    const hire = await t.request('POST', `/api/companies/${c.company.id}/agent-hires`, {
      token: c.token,
      body: { name: 'Draft', role: 'engineer', adapterType: 'process' },
    });
    assert.equal(hire.status, 201, JSON.stringify(hire.body));
    assert.equal(hire.body.agent.status, 'pending_approval');
    assert.equal(
      (await createRoutine(c.token, { title: 'Too early', assigneeAgentId: hire.body.agent.id }, c.company.id)).status,
      422,
    );
    const r = await routine({}, c.token, c.company.id);
    assert.equal((await patch(r.id, { assigneeAgentId: hire.body.agent.id }, c.token)).status, 422);
  });

  it('follows the status table', async () => {
    const unassigned = await routine();
    assert.equal(unassigned.status, 'paused');
    assert.equal(unassigned.assigneeAgentId, null);
    assert.equal((await createRoutine(board, { title: 'Eager', status: 'active' })).status, 422);
    assert.equal((await patch(unassigned.id, { status: 'active' })).status, 422);
    const activated = await patch(unassigned.id, { status: 'active', assigneeAgentId: a1.agent.id });
    assert.equal(activated.status, 200);
    assert.equal(activated.body.status, 'active');
    // Clearing the assignee of an active routine pauses it.
    const cleared = await patch(unassigned.id, { assigneeAgentId: null });
    assert.equal(cleared.status, 200);
    assert.equal(cleared.body.status, 'paused');
    assert.equal(cleared.body.assigneeAgentId, null);
    assert.equal((await patch(unassigned.id, { assigneeAgentId: null, status: 'active' })).status, 422);
    // Assigned while paused: stays paused until asked.
    const reassigned = await patch(unassigned.id, { assigneeAgentId: a2.agent.id });
    assert.equal(reassigned.body.status, 'paused');
    assert.equal((await patch(unassigned.id, { status: 'active' })).body.status, 'active');
    // Archived is final.
    assert.equal((await patch(unassigned.id, { status: 'archived' })).body.status, 'archived');
    for (const status of ['active', 'paused'])
      assert.equal((await patch(unassigned.id, { status })).status, 409, status);
    assert.equal(
      (await t.request('POST', `/api/routines/${unassigned.id}/run`, { token: board, body: {} })).status,
      409,
    );
    assert.equal(
      (await t.request('POST', `/api/routines/${unassigned.id}/triggers`, { token: board, body: { kind: 'api' } }))
        .status,
      409,
    );
    assert.equal((await detail(unassigned.id)).status, 'archived');
  });

  it('keeps nextRunAt null while paused and recomputes it from now on reactivation', async () => {
    const r = await routine({ assigneeAgentId: a1.agent.id });
    const sched = await trigger(r.id, { kind: 'schedule', cronExpression: '*/5 * * * *' });
    assert.ok(Date.parse(sched.nextRunAt) > Date.now());
    assert.equal((await patch(r.id, { status: 'paused' })).status, 200);
    assert.equal((await detail(r.id)).triggers[0].nextRunAt, null);
    // A schedule added while paused has no next run either.
    const later = await trigger(r.id, { kind: 'schedule', cronExpression: '0 * * * *' });
    assert.equal(later.nextRunAt, null);
    const before = Date.now();
    assert.equal((await patch(r.id, { status: 'active' })).status, 200);
    const triggers = (await detail(r.id)).triggers;
    assert.equal(triggers.length, 2);
    for (const tr of triggers) assert.ok(tr.nextRunAt && Date.parse(tr.nextRunAt) > before, JSON.stringify(tr));
    // Disabling a trigger clears its next run; the routine's status no longer matters for it.
    const off = await t.request('PATCH', `/api/routine-triggers/${later.id}`, {
      token: board,
      body: { enabled: false },
    });
    assert.equal(off.status, 200);
    assert.equal(off.body.nextRunAt, null);
    // Archiving stops the remaining schedule for good.
    assert.equal((await patch(r.id, { status: 'archived' })).status, 200);
    assert.deepEqual(
      (await detail(r.id)).triggers.map((tr: any) => tr.nextRunAt),
      [null, null],
    );
  });
});

describe('routines: agents and other companies', () => {
  it('lets an agent read any routine of its company', async () => {
    const theirs = await routine({ assigneeAgentId: a2.agent.id });
    const list = await t.request('GET', `/api/companies/${A}/routines?limit=500`, { token: a1.token });
    assert.equal(list.status, 200);
    assert.ok(list.body.some((r: any) => r.id === theirs.id));
    assert.equal((await detail(theirs.id, a1.token)).assigneeAgentId, a2.agent.id);
    assert.equal((await t.request('GET', `/api/routines/${theirs.id}/runs`, { token: a1.token })).status, 200);
  });

  it('lets an agent create routines only for itself', async () => {
    const own = await routine({}, a1.token);
    assert.equal(own.assigneeAgentId, a1.agent.id);
    assert.equal(own.status, 'active');
    assert.equal(own.createdByAgentId, a1.agent.id);
    assert.equal((await routine({ assigneeAgentId: a1.agent.id }, a1.token)).assigneeAgentId, a1.agent.id);
    assert.equal((await createRoutine(a1.token, { title: 'For a2', assigneeAgentId: a2.agent.id })).status, 403);
  });

  it('lets an agent manage its own routines and nothing else', async () => {
    const own = await routine({ assigneeAgentId: a1.agent.id });
    const theirs = await routine({ assigneeAgentId: a2.agent.id });
    const theirHook = await trigger(theirs.id, { kind: 'webhook' });
    const denied = [
      await patch(theirs.id, { title: 'Mine now' }, a1.token),
      await t.request('POST', `/api/routines/${theirs.id}/triggers`, { token: a1.token, body: { kind: 'api' } }),
      await t.request('PATCH', `/api/routine-triggers/${theirHook.id}`, { token: a1.token, body: { label: 'x' } }),
      await t.request('POST', `/api/routine-triggers/${theirHook.id}/rotate-secret`, { token: a1.token }),
      await t.request('DELETE', `/api/routine-triggers/${theirHook.id}`, { token: a1.token }),
      await t.request('POST', `/api/routines/${theirs.id}/run`, { token: a1.token, body: {} }),
    ];
    assert.deepEqual(
      denied.map((r) => r.status),
      [403, 403, 403, 403, 403, 403],
    );
    const after = await detail(theirs.id);
    assert.equal(after.title, theirs.title);
    assert.equal(after.triggers.length, 1);
    assert.equal(after.recentRuns.length, 0);
    // Its own routine: every management route works, except handing it to another agent.
    assert.equal((await patch(own.id, { assigneeAgentId: a2.agent.id }, a1.token)).status, 403);
    assert.equal((await patch(own.id, { title: 'Renamed by a1' }, a1.token)).status, 200);
    const hook = await trigger(own.id, { kind: 'webhook' }, a1.token);
    assert.equal(
      (await t.request('PATCH', `/api/routine-triggers/${hook.id}`, { token: a1.token, body: { label: 'mine' } }))
        .status,
      200,
    );
    assert.equal(
      (await t.request('POST', `/api/routine-triggers/${hook.id}/rotate-secret`, { token: a1.token })).status,
      200,
    );
    assert.equal((await t.request('POST', `/api/routines/${own.id}/run`, { token: a1.token, body: {} })).status, 202);
    assert.equal((await t.request('DELETE', `/api/routine-triggers/${hook.id}`, { token: a1.token })).status, 204);
    assert.equal((await detail(own.id)).assigneeAgentId, a1.agent.id);
  });

  it('answers 403 to another company and 404 for missing ids', async () => {
    const r = await routine({ assigneeAgentId: a1.agent.id });
    const hook = await trigger(r.id, { kind: 'webhook' });
    for (const token of [b.token, bAgent.token]) {
      const calls = [
        await t.request('GET', `/api/companies/${A}/routines`, { token }),
        await createRoutine(token, { title: 'Intruder' }),
        await t.request('GET', `/api/routines/${r.id}`, { token }),
        await patch(r.id, { title: 'Intruder' }, token),
        await t.request('GET', `/api/routines/${r.id}/runs`, { token }),
        await t.request('POST', `/api/routines/${r.id}/run`, { token, body: {} }),
        await t.request('POST', `/api/routines/${r.id}/triggers`, { token, body: { kind: 'api' } }),
        await t.request('PATCH', `/api/routine-triggers/${hook.id}`, { token, body: { label: 'x' } }),
        await t.request('POST', `/api/routine-triggers/${hook.id}/rotate-secret`, { token }),
        await t.request('DELETE', `/api/routine-triggers/${hook.id}`, { token }),
      ];
      assert.deepEqual(
        calls.map((c) => c.status),
        Array(calls.length).fill(403),
        JSON.stringify(calls.map((c) => c.status)),
      );
    }
    const after = await detail(r.id);
    assert.equal(after.title, r.title);
    assert.equal(after.triggers.length, 1);
    assert.equal(after.recentRuns.length, 0);
    const missing = [
      await t.request('GET', `/api/routines/${MISSING}`, { token: board }),
      await patch(MISSING, { title: 'x' }),
      await t.request('GET', `/api/routines/${MISSING}/runs`, { token: board }),
      await t.request('POST', `/api/routines/${MISSING}/run`, { token: board, body: {} }),
      await t.request('POST', `/api/routines/${MISSING}/triggers`, { token: board, body: { kind: 'api' } }),
      await t.request('PATCH', `/api/routine-triggers/${MISSING}`, { token: board, body: { label: 'x' } }),
      await t.request('POST', `/api/routine-triggers/${MISSING}/rotate-secret`, { token: board }),
      await t.request('DELETE', `/api/routine-triggers/${MISSING}`, { token: board }),
      await t.request('GET', `/api/companies/${MISSING}/routines`, { token: board }),
    ];
    assert.deepEqual(
      missing.map((c) => c.status),
      Array(missing.length).fill(404),
    );
  });
});

describe('routine triggers', () => {
  it('validates schedule triggers (400 shape, 422 cron and timezone) and computes nextRunAt in the zone', async () => {
    const r = await routine({ assigneeAgentId: a1.agent.id });
    const add = (body: Record<string, unknown>) =>
      t.request('POST', `/api/routines/${r.id}/triggers`, { token: board, body });
    assert.equal((await add({ kind: 'schedule', cronExpression: 'every monday' })).status, 422);
    assert.equal((await add({ kind: 'schedule', cronExpression: '61 * * * *' })).status, 422);
    assert.equal(
      (await add({ kind: 'schedule', cronExpression: '0 9 * * *', timezone: 'Mars/Olympus_Mons' })).status,
      422,
    );
    assert.equal((await add({ kind: 'schedule' })).status, 400);
    assert.equal(
      (await add({ kind: 'schedule', cronExpression: '0 9 * * *', signingMode: 'hmac_sha256' })).status,
      400,
    );
    assert.equal((await add({ kind: 'schedule', cronExpression: '0 9 * * *', replayWindowSec: 300 })).status, 400);
    assert.equal((await add({ kind: 'webhook', cronExpression: '0 9 * * *' })).status, 400);
    assert.equal((await add({ kind: 'api', timezone: 'UTC' })).status, 400);
    // replayWindowSec: an integer from 30 to 86400 (SPEC).
    for (const replayWindowSec of [29, 86_401, 300.5])
      assert.equal((await add({ kind: 'webhook', replayWindowSec })).status, 400, String(replayWindowSec));
    assert.equal((await detail(r.id)).triggers.length, 0);
    const utc = await trigger(r.id, { kind: 'schedule', cronExpression: '0 9 * * *' });
    assert.equal(utc.timezone, 'UTC');
    assert.equal(new Date(utc.nextRunAt).getUTCHours(), 9);
    const tokyo = await trigger(r.id, { kind: 'schedule', cronExpression: '0 9 * * *', timezone: 'Asia/Tokyo' });
    assert.equal(new Date(tokyo.nextRunAt).getUTCHours(), 0, '09:00 in Tokyo is 00:00 UTC');
    // A schedule change recomputes nextRunAt; fields of another kind are 422.
    const moved = await t.request('PATCH', `/api/routine-triggers/${utc.id}`, {
      token: board,
      body: { cronExpression: '30 14 * * *' },
    });
    assert.equal(moved.status, 200);
    assert.equal(new Date(moved.body.nextRunAt).getUTCHours(), 14);
    assert.equal(new Date(moved.body.nextRunAt).getUTCMinutes(), 30);
    assert.equal(
      (await t.request('PATCH', `/api/routine-triggers/${utc.id}`, { token: board, body: { cronExpression: 'nope' } }))
        .status,
      422,
    );
    assert.equal(
      (await t.request('PATCH', `/api/routine-triggers/${utc.id}`, { token: board, body: { signingMode: 'none' } }))
        .status,
      422,
    );
    const hook = await trigger(r.id, { kind: 'webhook' });
    const api = await trigger(r.id, { kind: 'api' });
    const widest = await trigger(r.id, { kind: 'webhook', replayWindowSec: 86_400 });
    assert.equal(widest.replayWindowSec, 86_400);
    const patchWindow = (replayWindowSec: number) =>
      t.request('PATCH', `/api/routine-triggers/${hook.id}`, { token: board, body: { replayWindowSec } });
    assert.equal((await patchWindow(86_401)).status, 400);
    assert.equal((await patchWindow(29)).status, 400);
    assert.equal((await detail(r.id)).triggers.find((x: any) => x.id === hook.id).replayWindowSec, 300);
    assert.equal((await patchWindow(86_400)).body.replayWindowSec, 86_400);
    assert.equal(
      (
        await t.request('PATCH', `/api/routine-triggers/${hook.id}`, {
          token: board,
          body: { cronExpression: '0 9 * * *' },
        })
      ).status,
      422,
    );
    assert.equal(
      (await t.request('PATCH', `/api/routine-triggers/${api.id}`, { token: board, body: { timezone: 'UTC' } })).status,
      422,
    );
    assert.equal(
      (await t.request('PATCH', `/api/routine-triggers/${api.id}`, { token: board, body: { replayWindowSec: 60 } }))
        .status,
      422,
    );
  });

  it('previews the next fire times of a cron in a zone, the first being the nextRunAt a trigger gets', async () => {
    const preview = (query: string, token = board, companyId = A) =>
      t.request('GET', `/api/companies/${companyId}/routines/schedule-preview?${query}`, { token });
    const after = '2026-03-27T12:00:00Z';
    // Europe/Berlin springs forward on 2026-03-29 (02:00 -> 03:00): 09:00 local is 08:00 UTC before, 07:00 UTC after.
    const berlin = await preview(
      `cronExpression=${encodeURIComponent('0 9 * * *')}&timezone=Europe/Berlin&after=${after}`,
    );
    assert.equal(berlin.status, 200, JSON.stringify(berlin.body));
    assert.equal(berlin.body.timezone, 'Europe/Berlin');
    assert.deepEqual(berlin.body.fireTimes, [
      '2026-03-28T08:00:00.000Z',
      '2026-03-29T07:00:00.000Z',
      '2026-03-30T07:00:00.000Z',
      '2026-03-31T07:00:00.000Z',
      '2026-04-01T07:00:00.000Z',
    ]);
    const three = await preview(`cronExpression=${encodeURIComponent('*/15 * * * *')}&count=3&after=${after}`);
    assert.deepEqual(three.body, {
      cronExpression: '*/15 * * * *',
      timezone: 'UTC',
      fireTimes: ['2026-03-27T12:15:00.000Z', '2026-03-27T12:30:00.000Z', '2026-03-27T12:45:00.000Z'],
    });
    // Without `after`: from now, the first time equals the nextRunAt a trigger saved now gets.
    const r = await routine({ assigneeAgentId: a1.agent.id });
    const saved = await trigger(r.id, { kind: 'schedule', cronExpression: '7 3 * * *', timezone: 'America/New_York' });
    const fromNow = await preview(`cronExpression=${encodeURIComponent('7 3 * * *')}&timezone=America/New_York`);
    assert.equal(fromNow.body.fireTimes.length, 5);
    assert.equal(fromNow.body.fireTimes[0], saved.nextRunAt);
    // Bad input: 422 with croner's reason, 400 for the shape; other companies 403.
    const bad = await preview('cronExpression=61%20*%20*%20*%20*');
    assert.equal(bad.status, 422);
    assert.match(bad.body.error, /invalid cron expression/);
    assert.equal((await preview('cronExpression=0%209%20*%20*%20*&timezone=Mars/Olympus_Mons')).status, 422);
    assert.equal((await preview('timezone=UTC')).status, 400);
    assert.equal((await preview('cronExpression=0%209%20*%20*%20*&count=21')).status, 400);
    assert.equal((await preview('cronExpression=0%209%20*%20*%20*&after=yesterday')).status, 400);
    assert.equal((await preview('cronExpression=0%209%20*%20*%20*', b.token)).status, 403);
  });

  it('shows the webhook URL and secret only on create and rotate', async () => {
    const r = await routine({ assigneeAgentId: a1.agent.id });
    const created = await t.request('POST', `/api/routines/${r.id}/triggers`, {
      token: board,
      body: { kind: 'webhook', signingMode: 'hmac_sha256' },
    });
    assert.equal(created.status, 201);
    assert.equal(created.headers['cache-control'], 'no-store');
    const { webhookUrl, webhookSecret } = created.body;
    assert.match(webhookUrl, /\/api\/routine-triggers\/public\/[^/]+\/fire$/);
    assert.equal(typeof webhookSecret, 'string');
    assert.ok(webhookSecret.length >= 32);
    assert.equal(created.body.signingMode, 'hmac_sha256');
    assert.equal(created.body.replayWindowSec, 300);
    const publicId = webhookUrl.split('/').at(-2);

    const patched = await t.request('PATCH', `/api/routine-triggers/${created.body.id}`, {
      token: board,
      body: { label: 'GitHub push', replayWindowSec: 600 },
    });
    assert.equal(patched.status, 200);
    assert.equal(patched.body.label, 'GitHub push');
    assert.equal(patched.body.replayWindowSec, 600);
    const rotated = await t.request('POST', `/api/routine-triggers/${created.body.id}/rotate-secret`, { token: board });
    assert.equal(rotated.status, 200);
    assert.equal(rotated.headers['cache-control'], 'no-store');
    assert.equal(rotated.body.webhookUrl, webhookUrl);
    assert.equal(typeof rotated.body.webhookSecret, 'string');
    assert.notEqual(rotated.body.webhookSecret, webhookSecret);

    const got = await t.request('GET', `/api/routines/${r.id}`, { token: board });
    const list = await t.request('GET', `/api/companies/${A}/routines?limit=500`, { token: board });
    const activity = await t.request('GET', `/api/companies/${A}/activity?entityId=${r.id}`, { token: board });
    assert.ok(activity.body.length >= 3, 'created, trigger created, rotated');
    for (const [what, res] of [
      ['PATCH', patched],
      ['GET detail', got],
      ['GET list', list],
      ['GET activity', activity],
    ] as const) {
      assert.equal(res.status, 200, what);
      const text = res.raw.toString();
      for (const secret of [webhookSecret, rotated.body.webhookSecret, publicId])
        assert.ok(!text.includes(secret), `${what} leaks ${secret}`);
      assert.ok(!text.includes('webhookUrl') && !text.includes('webhookSecret'), `${what} carries webhook fields`);
    }
    // Leaving signing mode none issues a secret, shown by that PATCH only.
    const open = await t.request('POST', `/api/routines/${r.id}/triggers`, {
      token: board,
      body: { kind: 'webhook', signingMode: 'none' },
    });
    assert.equal(open.status, 201);
    assert.equal(open.body.webhookSecret, null);
    assert.match(open.body.webhookUrl, /\/fire$/);
    const signed = await t.request('PATCH', `/api/routine-triggers/${open.body.id}`, {
      token: board,
      body: { signingMode: 'bearer' },
    });
    assert.equal(signed.status, 200);
    assert.equal(signed.body.webhookUrl, open.body.webhookUrl);
    assert.equal(typeof signed.body.webhookSecret, 'string');
    const relabelled = await t.request('PATCH', `/api/routine-triggers/${open.body.id}`, {
      token: board,
      body: { label: 'signed now' },
    });
    assert.equal(relabelled.body.webhookSecret, undefined);
    assert.ok(!relabelled.raw.toString().includes(signed.body.webhookSecret));
    // Rotation is webhook-only.
    const api = await trigger(r.id, { kind: 'api' });
    assert.equal(
      (await t.request('POST', `/api/routine-triggers/${api.id}/rotate-secret`, { token: board })).status,
      422,
    );
    assert.equal(api.webhookUrl, undefined);
    assert.equal(api.webhookSecret, undefined);
  });

  it('deletes a trigger for good (204, then 404)', async () => {
    const r = await routine({ assigneeAgentId: a1.agent.id });
    const api = await trigger(r.id, { kind: 'api' });
    assert.equal((await t.request('DELETE', `/api/routine-triggers/${api.id}`, { token: board })).status, 204);
    assert.equal((await t.request('DELETE', `/api/routine-triggers/${api.id}`, { token: board })).status, 404);
    assert.equal(
      (await t.request('PATCH', `/api/routine-triggers/${api.id}`, { token: board, body: { label: 'x' } })).status,
      404,
    );
    assert.equal(
      (await t.request('POST', `/api/routines/${r.id}/run`, { token: board, body: { triggerId: api.id } })).status,
      403,
    );
    assert.deepEqual((await detail(r.id)).triggers, []);
  });

  it('allows at most 20 triggers per routine (422)', async () => {
    const r = await routine({ assigneeAgentId: a1.agent.id });
    for (let i = 0; i < 20; i++) await trigger(r.id, { kind: 'api', label: `t${i}` });
    const over = await t.request('POST', `/api/routines/${r.id}/triggers`, { token: board, body: { kind: 'api' } });
    assert.equal(over.status, 422);
    assert.equal((await detail(r.id)).triggers.length, 20);
  });

  it('keeps schedules disabled while a required variable has no default', async () => {
    const r = await routine({
      title: 'Deploy {{tag}}',
      assigneeAgentId: a1.agent.id,
      variables: [{ name: 'tag', required: true }],
    });
    const add = (body: Record<string, unknown>) =>
      t.request('POST', `/api/routines/${r.id}/triggers`, { token: board, body });
    assert.equal((await add({ kind: 'schedule', cronExpression: '0 9 * * *' })).status, 422);
    assert.equal((await add({ kind: 'schedule', cronExpression: '0 9 * * *', enabled: true })).status, 422);
    const off = await trigger(r.id, { kind: 'schedule', cronExpression: '0 9 * * *', enabled: false });
    assert.equal(off.enabled, false);
    assert.equal(off.nextRunAt, null);
    assert.equal(
      (await t.request('PATCH', `/api/routine-triggers/${off.id}`, { token: board, body: { enabled: true } })).status,
      422,
    );
    assert.equal((await detail(r.id)).triggers[0].enabled, false);
    // With a default it may be enabled; then the default cannot be taken away again.
    assert.equal(
      (await patch(r.id, { variables: [{ name: 'tag', required: true, defaultValue: 'latest' }] })).status,
      200,
    );
    const on = await t.request('PATCH', `/api/routine-triggers/${off.id}`, { token: board, body: { enabled: true } });
    assert.equal(on.status, 200);
    assert.ok(on.body.nextRunAt);
    assert.equal((await patch(r.id, { variables: [{ name: 'tag', required: true }] })).status, 422);
    assert.equal((await detail(r.id)).variables[0].defaultValue, 'latest');
  });
});

describe('routines: company list', () => {
  it('orders by newest update (trigger changes count), with summaries, and pages by keyset', async () => {
    const c = await t.newCompany();
    const agent = await newAgent(t, c.token, c.company.id);
    const list = async (query = '') => {
      const res = await t.request('GET', `/api/companies/${c.company.id}/routines${query}`, { token: c.token });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body as any[];
    };
    const r1 = await routine({ assigneeAgentId: agent.agent.id, title: 'one' }, c.token, c.company.id);
    const r2 = await routine({ assigneeAgentId: agent.agent.id, title: 'two' }, c.token, c.company.id);
    const r3 = await routine({ assigneeAgentId: agent.agent.id, title: 'three' }, c.token, c.company.id);
    assert.deepEqual(
      (await list()).map((r) => r.id),
      [r3.id, r2.id, r1.id],
    );
    assert.equal((await patch(r1.id, { priority: 'high' }, c.token)).status, 200);
    assert.deepEqual(
      (await list()).map((r) => r.id),
      [r1.id, r3.id, r2.id],
    );
    const sched = await trigger(r2.id, { kind: 'schedule', cronExpression: '0 9 * * *', label: 'daily' }, c.token);
    const all = await list();
    assert.deepEqual(
      all.map((r) => r.id),
      [r2.id, r1.id, r3.id],
    );
    assert.deepEqual(all[0].triggers, [
      { id: sched.id, kind: 'schedule', label: 'daily', enabled: true, nextRunAt: sched.nextRunAt, lastFiredAt: null },
    ]);
    assert.deepEqual(all[1].triggers, []);
    assert.equal(all[0].latestRun, null);
    assert.equal(all[0].activeExecutionIssue, null);
    // A run on r3: its latest run and open execution issue show (a run does not reorder the list).
    const run = await t.request('POST', `/api/routines/${r3.id}/run`, { token: c.token, body: {} });
    assert.equal(run.status, 202);
    const withRun = (await list()).find((r) => r.id === r3.id);
    assert.equal(withRun.latestRun.id, run.body.id);
    assert.equal(withRun.latestRun.status, 'issue_created');
    assert.equal(withRun.activeExecutionIssue.id, run.body.linkedIssueId);

    assert.equal((await list('?limit=1')).length, 1);
    for (const bad of ['?limit=501', '?limit=0', '?limit=abc', '?before=not-a-uuid']) {
      assert.equal(
        (await t.request('GET', `/api/companies/${c.company.id}/routines${bad}`, { token: c.token })).status,
        400,
        bad,
      );
    }
    const ordered = (await list()).map((r) => r.id);
    const page1 = await list('?limit=2');
    const page2 = await list(`?limit=2&before=${page1.at(-1).id}`);
    assert.deepEqual(
      page1.map((r) => r.id),
      ordered.slice(0, 2),
    );
    assert.deepEqual(
      page2.map((r) => r.id),
      ordered.slice(2),
    );
    assert.deepEqual(await list(`?before=${page2.at(-1).id}`), []);
    // An id that is no routine of this company is a mistake, not "the first page again".
    for (const unknown of [MISSING, (await routine()).id]) {
      assert.equal(
        (await t.request('GET', `/api/companies/${c.company.id}/routines?before=${unknown}`, { token: c.token }))
          .status,
        400,
      );
    }
    // Filters.
    assert.deepEqual(
      (await list(`?status=paused`)).map((r) => r.id),
      [],
    );
    assert.equal((await patch(r3.id, { status: 'paused' }, c.token)).status, 200);
    assert.deepEqual(
      (await list(`?status=paused`)).map((r) => r.id),
      [r3.id],
    );
  });
});

describe('routines: activity', () => {
  it('records created, updated and trigger entries', async () => {
    const r = await routine({ assigneeAgentId: a1.agent.id });
    assert.equal((await patch(r.id, { status: 'paused' })).status, 200);
    const api = await trigger(r.id, { kind: 'api' });
    const res = await t.request('GET', `/api/companies/${A}/activity?entityId=${r.id}`, { token: board });
    assert.equal(res.status, 200);
    const byAction = (action: string) => res.body.filter((e: any) => e.action === action);
    assert.equal(byAction('routine.created').length, 1);
    assert.equal(byAction('routine.created')[0].entityType, 'routine');
    assert.equal(byAction('routine.updated').length, 1);
    assert.deepEqual(byAction('routine.updated')[0].details.status, { from: 'active', to: 'paused' });
    assert.equal(byAction('routine.trigger_created').length, 1);
    assert.equal(byAction('routine.trigger_created')[0].details.triggerId, api.id);
  });
});
