// Budgets through the API (SPEC Costs and budgets, Budget policy and incident, Budget; issue 9 items
// 3 to 5 and 8): crossings under concurrency, incident resolution and the override approval, policy
// creation and evaluation, the overview, and the UTC month boundary with a clock under test control.
// No engine here: every hard stop below is applied by the app's budget-stop consumer (the engine's,
// started alone by the test app) as its incident commits; assertions on a stop wait for it (bounded).
// Stops of live runs, and the runs metric, are in budgets-stop.test.ts (they need the engine).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { systemActor } from '../src/core/actor.ts';
import { recordCostEvent } from '../src/modules/costs/service.ts';
import { useTestApp } from './helpers/app.ts';
import { newAgent, newIssue } from './helpers/factories.ts';
import { waitFor } from './helpers/wait.ts';
import { assertBudgetStopsInEffect } from './helpers/budget-stops.ts';

const t = await useTestApp();
const sql = async (text: string, params: unknown[] = []) => (await t.database.pool.query(text, params)).rows;
const MISSING = '00000000-0000-4000-8000-000000000000';

const event = (agentId: string, fields: Record<string, unknown> = {}) => ({
  agentId,
  provider: 'acme',
  model: 'm1',
  costCents: 20,
  occurredAt: new Date().toISOString(),
  ...fields,
});

async function spend(
  companyId: string,
  token: string,
  agentId: string,
  costCents: number,
  fields: Record<string, unknown> = {},
) {
  const res = await t.request('POST', `/api/companies/${companyId}/cost-events`, {
    token,
    body: event(agentId, { costCents, ...fields }),
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  await assertBudgetStopsInEffect(t, companyId);
  return res.body;
}

async function setAgentBudget(agentId: string, token: string, cents: number) {
  const res = await t.request('PATCH', `/api/agents/${agentId}/budgets`, {
    token,
    body: { budgetMonthlyCents: cents },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  await assertBudgetStopsInEffect(t, res.body.companyId);
  return res.body;
}

async function setCompanyBudget(companyId: string, token: string, cents: number) {
  const res = await t.request('PATCH', `/api/companies/${companyId}/budgets`, {
    token,
    body: { budgetMonthlyCents: cents },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  await assertBudgetStopsInEffect(t, companyId);
  return res.body;
}

async function createPolicy(companyId: string, token: string, body: Record<string, unknown>) {
  const res = await t.request('POST', `/api/companies/${companyId}/budgets/policies`, { token, body });
  await assertBudgetStopsInEffect(t, companyId);
  return res;
}
const resolve = (companyId: string, incidentId: string, token: string, body: unknown) =>
  t.request('POST', `/api/companies/${companyId}/budget-incidents/${incidentId}/resolve`, { token, body });
const getAgent = async (id: string, token: string) => (await t.request('GET', `/api/agents/${id}`, { token })).body;
const getApproval = async (id: string, token: string) =>
  (await t.request('GET', `/api/approvals/${id}`, { token })).body;
const incidentRows = (companyId: string) =>
  sql('select * from budget_incidents where company_id = $1 order by created_at, kind', [companyId]);
const overrideApprovals = (companyId: string) =>
  sql("select * from approvals where company_id = $1 and type = 'budget_override_required' order by created_at", [
    companyId,
  ]);
const policyRow = async (id: string) => (await sql('select * from budget_policies where id = $1', [id]))[0];

/** The one open hard incident of a company (asserted to be the only one). */
async function openHard(companyId: string) {
  const open = (await incidentRows(companyId)).filter((i) => i.kind === 'hard' && i.status === 'open');
  assert.equal(open.length, 1, `one open hard incident, got ${open.length}`);
  return open[0];
}

async function newProject(companyId: string, token: string) {
  const res = await t.request('POST', `/api/companies/${companyId}/projects`, {
    token,
    body: { name: `Project ${randomUUID()}` },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

describe('exactly once under concurrency', () => {
  it('100 concurrent cost events crossing 80 and 100 percent make one soft and one hard incident, one approval and one stop', async () => {
    const { company, token } = await t.newCompany();
    const { agent } = await newAgent(t, token, company.id);
    assert.equal((await setAgentBudget(agent.id, token, 1000)).budgetMonthlyCents, 1000);

    const answers = await Promise.all(
      Array.from({ length: 100 }, () =>
        t.request('POST', `/api/companies/${company.id}/cost-events`, {
          token,
          body: event(agent.id, { costCents: 20 }),
        }),
      ),
    );
    assert.deepEqual(
      answers.map((r) => r.status),
      Array(100).fill(201),
      'every event is accepted, also those after the stop',
    );
    await assertBudgetStopsInEffect(t, company.id);

    const incidents = await incidentRows(company.id);
    const soft = incidents.filter((i) => i.kind === 'soft');
    const hard = incidents.filter((i) => i.kind === 'hard');
    assert.equal(soft.length, 1, 'one soft incident');
    assert.equal(hard.length, 1, 'one hard incident');
    assert.equal(incidents.length, 2);
    // Each event saw strictly increasing counters: the crossing one saw exactly the line.
    assert.equal(Number(soft[0].observed), 800);
    assert.equal(soft[0].threshold_percent, 80);
    assert.equal(Number(hard[0].observed), 1000);
    assert.equal(hard[0].threshold_percent, 100);
    assert.equal(hard[0].stop_pending, false, 'the stop was applied');
    assert.deepEqual(hard[0].paused_agent_ids, [agent.id]);

    const approvals = await overrideApprovals(company.id);
    assert.equal(approvals.length, 1, 'one budget_override_required approval');
    assert.equal(approvals[0].status, 'pending');
    assert.equal(approvals[0].payload.incidentId, hard[0].id);
    assert.equal(hard[0].approval_id, approvals[0].id);

    const after = await getAgent(agent.id, token);
    assert.equal(after.status, 'paused');
    assert.equal(after.pauseReason, 'budget');
    assert.equal(after.spentMonthlyCents, 2000);
    assert.equal((await t.request('GET', `/api/companies/${company.id}`, { token })).body.spentMonthlyCents, 2000);
    assert.equal(
      Number((await sql('select count(*) from cost_events where agent_id = $1', [agent.id]))[0].count),
      100,
      'all 100 events stored',
    );
    assert.equal(
      (
        await sql("select * from activity_log where company_id = $1 and action = 'budget.hard_limit_reached'", [
          company.id,
        ])
      ).length,
      1,
    );
    assert.equal(
      (
        await sql("select * from activity_log where company_id = $1 and action = 'budget.warn_threshold_reached'", [
          company.id,
        ])
      ).length,
      1,
    );
    assert.equal(
      (await sql("select * from activity_log where company_id = $1 and action = 'agent.paused'", [company.id])).length,
      1,
      'paused once',
    );
  });
});

describe('POST /api/companies/{companyId}/budget-incidents/{incidentId}/resolve', () => {
  it('raise_budget_and_resume: 400 without amount, 422 at or below observed, 403 for agents, 404 across companies; then resumes, approves and sets the policy', async () => {
    const { company, token } = await t.newCompany();
    const { agent, token: agentToken } = await newAgent(t, token, company.id);
    await setAgentBudget(agent.id, token, 100);
    await spend(company.id, token, agent.id, 60);
    await spend(company.id, token, agent.id, 90);
    const incident = await openHard(company.id);
    assert.equal(Number(incident.observed), 150);
    assert.equal((await getAgent(agent.id, token)).pauseReason, 'budget');

    const missing = await resolve(company.id, incident.id, token, { action: 'raise_budget_and_resume' });
    assert.equal(missing.status, 400);
    assert.match(JSON.stringify(missing.body), /amount/);
    assert.equal((await resolve(company.id, incident.id, token, { action: 'resume' })).status, 400, 'unknown action');
    for (const amount of [100, 150]) {
      const low = await resolve(company.id, incident.id, token, { action: 'raise_budget_and_resume', amount });
      assert.equal(low.status, 422, `amount ${amount}`);
      assert.equal(low.body.details.observed, 150);
    }
    const byAgent = await resolve(company.id, incident.id, agentToken, { action: 'keep_paused' });
    assert.equal(byAgent.status, 403);
    const foreign = await t.newCompany();
    assert.equal(
      (await resolve(foreign.company.id, incident.id, foreign.token, { action: 'keep_paused' })).status,
      404,
      "another company's incident",
    );
    assert.equal(
      (await resolve(company.id, incident.id, foreign.token, { action: 'keep_paused' })).status,
      403,
      "a company that is not the caller's",
    );
    assert.equal((await resolve(company.id, MISSING, token, { action: 'keep_paused' })).status, 404);

    // Nothing refused changed anything.
    assert.equal(Number((await policyRow(incident.policy_id)).amount_cents), 100);
    assert.equal((await getAgent(agent.id, token)).status, 'paused');
    assert.equal((await getApproval(incident.approval_id, token)).status, 'pending');

    const raised = await resolve(company.id, incident.id, token, {
      action: 'raise_budget_and_resume',
      amount: 151,
      note: 'one more cent',
    });
    assert.equal(raised.status, 200, JSON.stringify(raised.body));
    assert.equal(raised.body.status, 'resolved');
    assert.equal(raised.body.resolution, 'raise_budget_and_resume');
    assert.ok(raised.body.resolvedByUserId && raised.body.resolvedAt);
    const resumed = await getAgent(agent.id, token);
    assert.equal(resumed.status, 'idle');
    assert.equal(resumed.pauseReason, null);
    assert.equal(resumed.budgetMonthlyCents, 151, 'the policy is the agent budget');
    assert.equal(Number((await policyRow(incident.policy_id)).amount_cents), 151);
    const approval = await getApproval(incident.approval_id, token);
    assert.equal(approval.status, 'approved');
    assert.equal(approval.decisionNote, 'one more cent');
    assert.equal(
      (await t.request('POST', `/api/approvals/${incident.approval_id}/reject`, { token })).status,
      422,
      'the approval was decided with the incident',
    );

    const again = await resolve(company.id, incident.id, token, { action: 'keep_paused' });
    assert.equal(again.status, 409, 'resolved twice');
    assert.equal((await getAgent(agent.id, token)).status, 'idle');

    // The new line stops again when crossed.
    await spend(company.id, token, agent.id, 1);
    const second = await openHard(company.id);
    assert.notEqual(second.id, incident.id);
    assert.equal(Number(second.amount), 151);
    assert.equal((await getAgent(agent.id, token)).pauseReason, 'budget');
  });

  it('keep_paused: the scope stays paused and the approval is rejected', async () => {
    const { company, token } = await t.newCompany();
    const { agent } = await newAgent(t, token, company.id);
    await setAgentBudget(agent.id, token, 50);
    await spend(company.id, token, agent.id, 50);
    const incident = await openHard(company.id);
    const kept = await resolve(company.id, incident.id, token, { action: 'keep_paused' });
    assert.equal(kept.status, 200);
    assert.equal(kept.body.resolution, 'keep_paused');
    assert.equal(kept.body.status, 'resolved');
    const still = await getAgent(agent.id, token);
    assert.equal(still.status, 'paused');
    assert.equal(still.pauseReason, 'budget');
    assert.equal(still.budgetMonthlyCents, 50, 'the budget is unchanged');
    assert.equal((await getApproval(incident.approval_id, token)).status, 'rejected');
    assert.equal((await t.request('POST', `/api/agents/${agent.id}/wakeup`, { token, body: {} })).status, 409);
    assert.equal(
      (await resolve(company.id, incident.id, token, { action: 'raise_budget_and_resume', amount: 500 })).status,
      409,
      'resolved already',
    );
    assert.equal((await getAgent(agent.id, token)).status, 'paused');
  });

  it('company scope: resumes only the agents the stop paused and that are still paused for the budget', async () => {
    const { company, token } = await t.newCompany();
    const worker = await newAgent(t, token, company.id, { name: 'Worker' });
    const handPaused = await newAgent(t, token, company.id, { name: 'Hand paused' });
    const repaused = await newAgent(t, token, company.id, { name: 'Paused again by hand' });
    const active = await newAgent(t, token, company.id, { name: 'Active' });
    assert.equal(
      (await t.request('PATCH', `/api/agents/${active.agent.id}`, { token, body: { status: 'active' } })).body.status,
      'active',
    );
    assert.equal((await setCompanyBudget(company.id, token, 100)).budgetMonthlyCents, 100);
    const paused = await t.request('POST', `/api/agents/${handPaused.agent.id}/pause`, { token });
    assert.equal(paused.body.pauseReason, 'manual');

    await spend(company.id, token, worker.agent.id, 100);
    const incident = await openHard(company.id);
    assert.equal(incident.scope_type, 'company');
    assert.deepEqual(
      [...incident.paused_agent_ids].sort(),
      [worker.agent.id, repaused.agent.id, active.agent.id].sort(),
      'every working agent, any working status',
    );
    for (const a of [worker, repaused, active]) assert.equal((await getAgent(a.agent.id, token)).pauseReason, 'budget');
    assert.equal((await getAgent(handPaused.agent.id, token)).pauseReason, 'manual', 'a hand pause is not taken over');

    // The board takes one of the stopped agents over: resumed, then paused by hand.
    assert.equal((await t.request('POST', `/api/agents/${repaused.agent.id}/resume`, { token })).body.status, 'idle');
    assert.equal(
      (await t.request('POST', `/api/agents/${repaused.agent.id}/pause`, { token })).body.pauseReason,
      'manual',
    );

    const raised = await resolve(company.id, incident.id, token, { action: 'raise_budget_and_resume', amount: 1000 });
    assert.equal(raised.status, 200);
    assert.equal((await getAgent(worker.agent.id, token)).status, 'idle');
    assert.equal((await getAgent(active.agent.id, token)).status, 'idle');
    for (const a of [handPaused, repaused]) {
      const agent = await getAgent(a.agent.id, token);
      assert.equal(agent.status, 'paused', agent.name);
      assert.equal(agent.pauseReason, 'manual', agent.name);
    }
    assert.equal((await t.request('GET', `/api/companies/${company.id}`, { token })).body.budgetMonthlyCents, 1000);
  });
});

describe('the budget_override_required approval', () => {
  it('approving it resumes over budget and resolves the incident (override_approved)', async () => {
    const { company, token } = await t.newCompany();
    const { agent } = await newAgent(t, token, company.id);
    await setAgentBudget(agent.id, token, 100);
    await spend(company.id, token, agent.id, 90);
    await spend(company.id, token, agent.id, 30);
    const incident = await openHard(company.id);
    const approved = await t.request('POST', `/api/approvals/${incident.approval_id}/approve`, {
      token,
      body: { decisionNote: 'finish the sprint' },
    });
    assert.equal(approved.status, 200);
    assert.equal(approved.body.status, 'approved');
    const resumed = await getAgent(agent.id, token);
    assert.equal(resumed.status, 'idle');
    assert.equal(resumed.pauseReason, null);
    assert.equal(resumed.budgetMonthlyCents, 100, 'the budget stays as it was');
    const rows = await incidentRows(company.id);
    const closed = rows.find((i) => i.id === incident.id);
    assert.equal(closed.status, 'resolved');
    assert.equal(closed.resolution, 'override_approved');
    assert.ok(closed.resolved_by_user_id);
    assert.ok(
      rows.every((i) => i.status === 'resolved'),
      'the soft incident of that window is closed with it',
    );
    assert.equal((await resolve(company.id, incident.id, token, { action: 'keep_paused' })).status, 409);
    // Over budget by decision: more spend crosses no line, so it does not stop again this month.
    await spend(company.id, token, agent.id, 10);
    assert.equal((await getAgent(agent.id, token)).status, 'idle');
    assert.equal((await incidentRows(company.id)).length, rows.length);
  });

  it('rejecting it keeps the scope paused and resolves the incident (keep_paused)', async () => {
    const { company, token } = await t.newCompany();
    const { agent } = await newAgent(t, token, company.id);
    await setAgentBudget(agent.id, token, 100);
    await spend(company.id, token, agent.id, 100);
    const incident = await openHard(company.id);
    const rejected = await t.request('POST', `/api/approvals/${incident.approval_id}/reject`, { token });
    assert.equal(rejected.status, 200);
    const agentNow = await getAgent(agent.id, token);
    assert.equal(agentNow.status, 'paused');
    assert.equal(agentNow.pauseReason, 'budget');
    const closed = (await incidentRows(company.id)).find((i) => i.id === incident.id);
    assert.equal(closed.status, 'resolved');
    assert.equal(closed.resolution, 'keep_paused');
    assert.equal(
      (await resolve(company.id, incident.id, token, { action: 'raise_budget_and_resume', amount: 1000 })).status,
      409,
    );
  });
});

describe('POST /api/companies/{companyId}/budgets/policies', () => {
  it('applies the SPEC defaults per scope', async () => {
    const { company, token } = await t.newCompany();
    const { agent } = await newAgent(t, token, company.id);
    const project = await newProject(company.id, token);
    const forProject = await createPolicy(company.id, token, {
      scopeType: 'project',
      scopeId: project.id,
      amount: 5000,
    });
    assert.equal(forProject.status, 201, JSON.stringify(forProject.body));
    assert.deepEqual(
      { ...forProject.body, id: undefined, createdAt: undefined, updatedAt: undefined },
      {
        id: undefined,
        companyId: company.id,
        scopeType: 'project',
        scopeId: project.id,
        metric: 'billed_cents',
        windowKind: 'lifetime',
        amount: 5000,
        warnPercent: 80,
        hardStopEnabled: true,
        notifyEnabled: true,
        isActive: true,
        createdAt: undefined,
        updatedAt: undefined,
      },
    );
    const forCompany = await createPolicy(company.id, token, { scopeType: 'company', amount: 7000 });
    assert.equal(forCompany.status, 201);
    assert.equal(forCompany.body.scopeId, company.id, 'the company itself by default');
    assert.equal(forCompany.body.windowKind, 'calendar_month_utc');
    assert.equal(forCompany.body.metric, 'billed_cents');
    assert.equal(forCompany.body.warnPercent, 80);
    assert.equal(
      (await t.request('GET', `/api/companies/${company.id}`, { token })).body.budgetMonthlyCents,
      7000,
      'the monthly cents policy is the company budget',
    );
    const forAgent = await createPolicy(company.id, token, { scopeType: 'agent', scopeId: agent.id, amount: 300 });
    assert.equal(forAgent.status, 201);
    assert.equal(forAgent.body.windowKind, 'calendar_month_utc');
    assert.equal((await getAgent(agent.id, token)).budgetMonthlyCents, 300);
    const custom = await createPolicy(company.id, token, {
      scopeType: 'agent',
      scopeId: agent.id,
      metric: 'tokens',
      windowKind: 'lifetime',
      amount: 10,
      warnPercent: 50,
      hardStopEnabled: false,
      notifyEnabled: false,
    });
    assert.equal(custom.status, 201);
    assert.deepEqual(
      [
        custom.body.metric,
        custom.body.windowKind,
        custom.body.warnPercent,
        custom.body.hardStopEnabled,
        custom.body.notifyEnabled,
      ],
      ['tokens', 'lifetime', 50, false, false],
    );
  });

  it('400 for malformed bodies, 422 for scopes outside the company, 409 for a second active policy, 403 for agents', async () => {
    const { company, token } = await t.newCompany();
    const { agent, token: agentToken } = await newAgent(t, token, company.id);
    const project = await newProject(company.id, token);
    const foreign = await t.newCompany();
    const foreignAgent = await newAgent(t, foreign.token, foreign.company.id);
    const foreignProject = await newProject(foreign.company.id, foreign.token);
    for (const body of [
      { scopeType: 'agent', amount: 100 },
      { scopeType: 'project', amount: 100 },
      { scopeType: 'company', amount: 0 },
      { scopeType: 'company', amount: -5 },
      { scopeType: 'company', amount: 1.5 },
      { scopeType: 'company', amount: 100, metric: 'dollars' },
      { scopeType: 'company', amount: 100, windowKind: 'weekly' },
      { scopeType: 'company', amount: 100, warnPercent: 100 },
      { scopeType: 'team', amount: 100 },
      { scopeType: 'agent', scopeId: 'not-a-uuid', amount: 100 },
      { scopeType: 'company' },
    ]) {
      assert.equal((await createPolicy(company.id, token, body)).status, 400, JSON.stringify(body));
    }
    for (const body of [
      { scopeType: 'agent', scopeId: foreignAgent.agent.id, amount: 100 },
      { scopeType: 'project', scopeId: foreignProject.id, amount: 100 },
      { scopeType: 'company', scopeId: foreign.company.id, amount: 100 },
      { scopeType: 'agent', scopeId: project.id, amount: 100 },
    ]) {
      const res = await createPolicy(company.id, token, body);
      assert.equal(res.status, 422, JSON.stringify(body));
      assert.match(res.body.error, /scopeId/);
    }
    assert.equal(
      (await createPolicy(company.id, token, { scopeType: 'project', scopeId: project.id, amount: 100 })).status,
      201,
    );
    const duplicate = await createPolicy(company.id, token, { scopeType: 'project', scopeId: project.id, amount: 900 });
    assert.equal(duplicate.status, 409);
    assert.equal(
      (
        await createPolicy(company.id, token, {
          scopeType: 'project',
          scopeId: project.id,
          windowKind: 'calendar_month_utc',
          amount: 900,
        })
      ).status,
      201,
      'another window is another policy',
    );
    assert.equal(
      (
        await createPolicy(company.id, token, {
          scopeType: 'project',
          scopeId: project.id,
          metric: 'tokens',
          amount: 900,
        })
      ).status,
      201,
      'another metric too',
    );
    assert.equal(
      (
        await createPolicy(company.id, token, {
          scopeType: 'project',
          scopeId: project.id,
          amount: 900,
          isActive: false,
        })
      ).status,
      201,
      'an inactive one does not compete',
    );
    assert.equal(
      (await createPolicy(company.id, agentToken, { scopeType: 'agent', scopeId: agent.id, amount: 100 })).status,
      403,
    );
    assert.equal(
      (await createPolicy(foreign.company.id, token, { scopeType: 'company', amount: 100 })).status,
      403,
      'another company',
    );
    assert.equal((await createPolicy(MISSING, token, { scopeType: 'company', amount: 100 })).status, 404);
    const active = await sql('select * from budget_policies where company_id = $1 and is_active', [company.id]);
    assert.equal(active.length, 3, 'only the three accepted active policies exist');
    assert.deepEqual(await incidentRows(company.id), [], 'nothing was spent: nothing raised');
  });

  it('tokens metric: input plus output tokens crossing the amount stop the agent', async () => {
    const { company, token } = await t.newCompany();
    const { agent } = await newAgent(t, token, company.id);
    const policy = await createPolicy(company.id, token, {
      scopeType: 'agent',
      scopeId: agent.id,
      metric: 'tokens',
      amount: 1000,
    });
    assert.equal(policy.status, 201);
    await spend(company.id, token, agent.id, 0, { inputTokens: 400, cachedInputTokens: 300, outputTokens: 390 });
    assert.deepEqual(
      (await incidentRows(company.id)).map((i) => i.kind),
      [],
      '790 tokens: below the warn line',
    );
    await spend(company.id, token, agent.id, 0, {
      inputTokens: 5,
      outputTokens: 5,
      billingType: 'subscription_included',
    });
    const soft = await incidentRows(company.id);
    assert.deepEqual(
      soft.map((i) => [i.kind, i.metric, Number(i.observed)]),
      [['soft', 'tokens', 800]],
      'subscription tokens count',
    );
    assert.equal((await getAgent(agent.id, token)).status, 'idle');
    await spend(company.id, token, agent.id, 0, { inputTokens: 150, outputTokens: 50 });
    const hard = await openHard(company.id);
    assert.equal(hard.metric, 'tokens');
    assert.equal(Number(hard.observed), 1000);
    const stopped = await getAgent(agent.id, token);
    assert.equal(stopped.status, 'paused');
    assert.equal(stopped.pauseReason, 'budget');
    assert.equal(stopped.spentMonthlyCents, 0, 'no cents were spent');
  });

  it('a policy with hardStopEnabled false raises the hard incident but stops nothing', async () => {
    const { company, token } = await t.newCompany();
    const { agent } = await newAgent(t, token, company.id);
    assert.equal(
      (
        await createPolicy(company.id, token, {
          scopeType: 'agent',
          scopeId: agent.id,
          amount: 100,
          hardStopEnabled: false,
          notifyEnabled: false,
        })
      ).status,
      201,
    );
    await spend(company.id, token, agent.id, 90);
    assert.deepEqual(await incidentRows(company.id), [], 'notifyEnabled false: no soft incident');
    await spend(company.id, token, agent.id, 20);
    const hard = await openHard(company.id);
    assert.equal(hard.approval_id, null);
    assert.equal((await getAgent(agent.id, token)).status, 'idle');
    assert.deepEqual(await overrideApprovals(company.id), []);
  });
});

describe('PATCH /api/companies/{companyId}/budgets/policies/{policyId}', () => {
  it('changes amount and thresholds, evaluated at once (lowered below the spend: a stop); 400, 403, 404 and 409', async () => {
    const { company, token } = await t.newCompany();
    const { agent, token: agentToken } = await newAgent(t, token, company.id);
    const created = await createPolicy(company.id, token, { scopeType: 'agent', scopeId: agent.id, amount: 1000 });
    assert.equal(created.status, 201);
    const id = created.body.id;
    const patch = async (body: unknown, as = token, companyId = company.id, policyId = id) => {
      const res = await t.request('PATCH', `/api/companies/${companyId}/budgets/policies/${policyId}`, {
        token: as,
        body,
      });
      await assertBudgetStopsInEffect(t, company.id);
      return res;
    };
    await spend(company.id, token, agent.id, 300);

    assert.equal((await patch({})).status, 400, 'nothing to change');
    const tooHigh = await patch({ warnPercent: 100 });
    assert.equal(tooHigh.status, 400);
    assert.equal(tooHigh.body.details[0].path, '/warnPercent');
    assert.equal((await patch({ amount: 5 }, agentToken)).status, 403);
    assert.equal((await patch({ amount: 5 }, token, company.id, MISSING)).status, 404);
    const other = await t.newCompany();
    assert.equal(
      (await patch({ amount: 5 }, other.token, other.company.id)).status,
      404,
      "another company's policy is not found",
    );

    const warned = await patch({ warnPercent: 25, amount: 1100 });
    assert.equal(warned.status, 200, JSON.stringify(warned.body));
    assert.deepEqual([warned.body.amount, warned.body.warnPercent, warned.body.hardStopEnabled], [1100, 25, true]);
    assert.deepEqual(
      (await incidentRows(company.id)).map((i) => i.kind),
      ['soft'],
    );
    assert.equal((await getAgent(agent.id, token)).status, 'idle');

    assert.equal((await patch({ amount: 200 })).status, 200);
    assert.equal(Number((await openHard(company.id)).observed), 300);
    assert.equal((await getAgent(agent.id, token)).pauseReason, 'budget');

    assert.equal((await patch({ isActive: false })).body.isActive, false);
    assert.equal(
      (await createPolicy(company.id, token, { scopeType: 'agent', scopeId: agent.id, amount: 5000 })).status,
      201,
    );
    assert.equal(
      (await patch({ isActive: true })).status,
      409,
      'another active policy has the scope, metric and window',
    );
  });
});

describe('PATCH /api/companies/{companyId}/budgets', () => {
  it('evaluates the new amount at once: past the warn line a soft incident, below the spend an immediate stop; agents get 403', async () => {
    const { company, token } = await t.newCompany();
    const a = await newAgent(t, token, company.id);
    const b = await newAgent(t, token, company.id);
    await setCompanyBudget(company.id, token, 1000);
    await spend(company.id, token, a.agent.id, 200);
    await spend(company.id, token, b.agent.id, 100);
    assert.deepEqual(await incidentRows(company.id), []);

    const byAgent = await t.request('PATCH', `/api/companies/${company.id}/budgets`, {
      token: a.token,
      body: { budgetMonthlyCents: 1 },
    });
    assert.equal(byAgent.status, 403);
    assert.equal((await t.request('GET', `/api/companies/${company.id}`, { token })).body.budgetMonthlyCents, 1000);

    await setCompanyBudget(company.id, token, 350);
    assert.deepEqual(
      (await incidentRows(company.id)).map((i) => [i.kind, Number(i.observed)]),
      [['soft', 300]],
    );
    assert.equal((await getAgent(a.agent.id, token)).status, 'idle');

    const lowered = await setCompanyBudget(company.id, token, 200);
    assert.equal(lowered.budgetMonthlyCents, 200);
    assert.equal(lowered.spentMonthlyCents, 300);
    const hard = await openHard(company.id);
    assert.equal(Number(hard.observed), 300);
    assert.equal(Number(hard.amount), 200);
    for (const { agent } of [a, b]) {
      const now = await getAgent(agent.id, token);
      assert.equal(now.status, 'paused', 'stopped before the PATCH answered');
      assert.equal(now.pauseReason, 'budget');
    }
    assert.equal((await overrideApprovals(company.id)).length, 1);
  });
});

describe('GET /api/companies/{companyId}/budgets/overview', () => {
  it('policies with observed and utilisation, open incidents, paused counts and pending approvals; 403 and 404', async () => {
    const { company, token } = await t.newCompany();
    const a = await newAgent(t, token, company.id, { name: 'A' });
    const b = await newAgent(t, token, company.id, { name: 'B' });
    const c = await newAgent(t, token, company.id, { name: 'C' });
    const p = await newProject(company.id, token);
    const q = await newProject(company.id, token);
    await setCompanyBudget(company.id, token, 1000);
    await setAgentBudget(a.agent.id, token, 700);
    await setAgentBudget(b.agent.id, token, 30);
    assert.equal(
      (await createPolicy(company.id, token, { scopeType: 'project', scopeId: p.id, amount: 300 })).status,
      201,
    );
    assert.equal(
      (await createPolicy(company.id, token, { scopeType: 'project', scopeId: q.id, amount: 10 })).status,
      201,
    );
    const issueInP = await newIssue(t, token, company.id, { projectId: p.id });

    await spend(company.id, token, a.agent.id, 100, { issueId: issueInP.id }); // counts for project P through its issue
    await spend(company.id, token, b.agent.id, 30); // B reaches its budget
    await spend(company.id, token, a.agent.id, 10, { projectId: q.id }); // Q reaches its budget
    assert.equal((await t.request('POST', `/api/agents/${c.agent.id}/pause`, { token })).status, 200);

    const res = await t.request('GET', `/api/companies/${company.id}/budgets/overview`, { token });
    assert.equal(res.status, 200);
    const view = res.body;
    const byScope = new Map(view.policies.map((policy: any) => [policy.scopeId, policy]));
    assert.equal(view.policies.length, 5);
    const expected: [string, number, number][] = [
      [company.id, 140, 14],
      [a.agent.id, 110, 15.71],
      [b.agent.id, 30, 100],
      [p.id, 100, 33.33],
      [q.id, 10, 100],
    ];
    for (const [scopeId, observed, utilizationPercent] of expected) {
      const policy: any = byScope.get(scopeId);
      assert.deepEqual([policy.observed, policy.utilizationPercent], [observed, utilizationPercent], scopeId);
    }
    assert.equal((byScope.get(p.id) as any).windowKind, 'lifetime');
    assert.deepEqual(
      view.activeIncidents.map((i: any) => [i.scopeId, i.kind, i.status]).sort(),
      [
        [b.agent.id, 'hard', 'open'],
        [q.id, 'hard', 'open'],
      ].sort(),
    );
    assert.equal(view.pausedAgentCount, 2);
    assert.equal(view.budgetPausedAgentCount, 1);
    assert.equal(view.pausedProjectCount, 1);
    assert.equal(view.pendingApprovalCount, 2);
    assert.ok((await t.request('GET', `/api/projects/${q.id}`, { token })).body.pausedAt, 'project Q is paused');
    assert.equal((await t.request('GET', `/api/projects/${p.id}`, { token })).body.pausedAt, null);

    assert.equal(
      (await t.request('GET', `/api/companies/${company.id}/budgets/overview`, { token: a.token })).status,
      200,
      'its agents read it',
    );
    const foreign = await t.newCompany();
    assert.equal(
      (await t.request('GET', `/api/companies/${company.id}/budgets/overview`, { token: foreign.token })).status,
      403,
    );
    assert.equal((await t.request('GET', `/api/companies/${MISSING}/budgets/overview`, { token })).status, 404);
    assert.equal((await t.request('GET', `/api/companies/${company.id}/budgets/overview`)).status, 401);
  });
});

describe('the UTC month boundary (clock under test control)', () => {
  it('November spend does not count toward a December monthly budget', async () => {
    const { company, token } = await t.newCompany();
    const december = await newAgent(t, token, company.id);
    const control = await newAgent(t, token, company.id);
    await setAgentBudget(december.agent.id, token, 100);
    await setAgentBudget(control.agent.id, token, 100);
    const ctx = { db: t.database.db, actor: systemActor('test') };
    const lateNovember = new Date('2025-11-30T23:50:00Z');
    const earlyDecember = new Date('2025-12-01T00:10:00Z');
    const at = (agentId: string, cents: number, occurredAt: Date) =>
      event(agentId, { costCents: cents, occurredAt: occurredAt.toISOString() });

    // Both agents at 90 percent in November (a soft incident each, in window 2025-11).
    const hardIncidents = async () => (await incidentRows(company.id)).filter((i) => i.kind === 'hard');
    for (const { agent } of [december, control])
      await recordCostEvent(ctx, company.id, at(agent.id, 90, lateNovember), lateNovember);
    assert.deepEqual(
      (await incidentRows(company.id)).map((i) => [i.kind, i.window_key]),
      [
        ['soft', '2025-11'],
        ['soft', '2025-11'],
      ],
    );

    // December: 10 cents is 10 percent of December's budget, not 100 of November's.
    await recordCostEvent(ctx, company.id, at(december.agent.id, 10, earlyDecember), earlyDecember);
    assert.deepEqual(await hardIncidents(), []);
    // A late November event arriving in December belongs to November, which December's budget no longer reads.
    await recordCostEvent(ctx, company.id, at(december.agent.id, 30, lateNovember), earlyDecember);
    assert.deepEqual(await hardIncidents(), []);
    // The control: the same 10 cents in November reach November's budget.
    await recordCostEvent(ctx, company.id, at(control.agent.id, 10, lateNovember), lateNovember);
    // Its stop is the engine's (here the app's budget-stop consumer): applied once, within the bound.
    await waitFor('the control agent stopped', async () =>
      (await hardIncidents()).some((i) => i.stop_pending === false && i.approval_id !== null),
    );

    const incidents = await incidentRows(company.id);
    const hard = incidents.filter((i) => i.kind === 'hard');
    assert.deepEqual(
      hard.map((i) => [i.scope_id, i.window_key, Number(i.observed)]),
      [[control.agent.id, '2025-11', 100]],
    );
    assert.equal(incidents.length, 3);
    assert.equal((await getAgent(december.agent.id, token)).status, 'idle');
    assert.equal((await getAgent(control.agent.id, token)).pauseReason, 'budget');
    const usage = await sql(
      "select window_key, billed_cents from budget_scope_usage where scope_type = 'agent' and scope_id = $1 order by window_key",
      [december.agent.id],
    );
    assert.deepEqual(
      usage.map((u) => [u.window_key, Number(u.billed_cents)]),
      [
        ['2025-11', 120],
        ['2025-12', 10],
        ['lifetime', 130],
      ],
    );
  });
});
