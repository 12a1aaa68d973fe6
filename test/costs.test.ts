// Cost events (SPEC Costs and budgets, Cost event): who may report, what is refused, the month
// counters on agents and companies, and usage that runs report while they run.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { systemActor } from '../src/core/actor.ts';
import { monthlyBudgets } from '../src/modules/budgets/budget-policies.ts';
import { recordCostEvent } from '../src/modules/costs/service.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { newAgent, newIssue } from './helpers/factories.ts';
import { waitFor } from './helpers/wait.ts';

const SPENDER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'agents', 'spender.mjs');

let t: TestApp;
before(async () => {
  t = await startTestApp({
    engine: { pollMs: 200 },
    modelPrices: { 'acme/m1': { inputCentsPerMTok: 300, cachedInputCentsPerMTok: 30, outputCentsPerMTok: 1500 } },
  });
});
after(() => t.close());

const event = (agentId: string, fields: Record<string, unknown> = {}) => ({
  agentId,
  provider: 'acme',
  model: 'm1',
  costCents: 25,
  occurredAt: new Date().toISOString(),
  ...fields,
});
const report = (companyId: string, token: string, body: unknown) =>
  t.request('POST', `/api/companies/${companyId}/cost-events`, { token, body });
const spent = async (token: string, companyId: string, agentId: string) => ({
  agent: (await t.request('GET', `/api/agents/${agentId}`, { token })).body.spentMonthlyCents,
  company: (await t.request('GET', `/api/companies/${companyId}`, { token })).body.spentMonthlyCents,
});

describe('POST /api/companies/{companyId}/cost-events', () => {
  it('stores the event, adds it to the agent and company month, and records activity', async () => {
    const { company, token } = await t.newCompany();
    const { agent } = await newAgent(t, token, company.id);
    const other = await newAgent(t, token, company.id);
    const issue = await newIssue(t, token, company.id, { billingCode: 'CLIENT-7' });
    const res = await report(
      company.id,
      token,
      event(agent.id, { issueId: issue.id, inputTokens: 1000, outputTokens: 50, billingType: 'metered_api' }),
    );
    assert.equal(res.status, 201);
    assert.equal(res.body.costCents, 25);
    assert.equal(res.body.biller, 'acme', 'biller defaults to the provider');
    assert.equal(res.body.billingCode, 'CLIENT-7', "the issue's billing code by default");
    assert.equal(res.body.inputTokens, 1000);
    assert.equal((await report(company.id, token, event(agent.id, { costCents: 5 }))).status, 201);
    assert.equal((await report(company.id, token, event(other.agent.id, { costCents: 7 }))).status, 201);
    assert.deepEqual(await spent(token, company.id, agent.id), { agent: 30, company: 37 });
    const activity = (await t.request('GET', `/api/companies/${company.id}/activity?action=cost.reported`, { token }))
      .body;
    assert.equal(activity.filter((a: any) => a.action === 'cost.reported').length, 3);
  });

  it('counts a report once however often it is retried with its idempotencyKey, concurrently too', async () => {
    const { company, token } = await t.newCompany();
    const { agent } = await newAgent(t, token, company.id);
    const body = event(agent.id, { costCents: 40, idempotencyKey: 'req_0001' });
    const answers = await Promise.all(Array.from({ length: 10 }, () => report(company.id, token, body)));
    assert.deepEqual(answers.map((r) => r.status).sort(), [200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    assert.equal(new Set(answers.map((r) => r.body.id)).size, 1);
    assert.equal(
      (await report(company.id, token, event(agent.id, { costCents: 5, idempotencyKey: 'req_0002' }))).status,
      201,
    );
    assert.deepEqual(await spent(token, company.id, agent.id), { agent: 45, company: 45 });
    const rows = (
      await t.database.pool.query('select count(*)::int as n from cost_events where company_id = $1', [company.id])
    ).rows[0];
    assert.equal(rows.n, 2);
    // The same key in another company is another event.
    const other = await t.newCompany();
    const otherAgent = await newAgent(t, other.token, other.company.id);
    assert.equal(
      (await report(other.company.id, other.token, event(otherAgent.agent.id, { idempotencyKey: 'req_0001' }))).status,
      201,
    );
  });

  it('lets an agent report only for itself', async () => {
    const { company, token } = await t.newCompany();
    const me = await newAgent(t, token, company.id);
    const other = await newAgent(t, token, company.id);
    assert.equal((await report(company.id, me.token, event(me.agent.id))).status, 201);
    const denied = await report(company.id, me.token, event(other.agent.id));
    assert.equal(denied.status, 403);
    assert.match(denied.body.error, /only for itself/);
    const foreign = await t.newCompany();
    assert.equal((await report(foreign.company.id, me.token, event(me.agent.id))).status, 403, 'another company');
    assert.equal((await report('00000000-0000-4000-8000-000000000000', token, event(me.agent.id))).status, 404);
  });

  it('refuses malformed fields with 400 and references outside the company with 422', async () => {
    const { company, token } = await t.newCompany();
    const { agent } = await newAgent(t, token, company.id);
    const foreign = await t.newCompany();
    const foreignAgent = await newAgent(t, foreign.token, foreign.company.id);
    const foreignIssue = await newIssue(t, foreign.token, foreign.company.id);
    const bad: Record<string, unknown>[] = [
      { provider: undefined },
      { model: undefined },
      { costCents: undefined },
      { occurredAt: undefined },
      { costCents: -1 },
      { costCents: 1.5 },
      { costCents: '5' },
      { occurredAt: 'yesterday' },
      { occurredAt: '2026-13-01T00:00:00Z' },
      { billingType: 'free_lunch' },
      { inputTokens: -3 },
      { provider: '' },
    ];
    for (const fields of bad) {
      const res = await report(company.id, token, event(agent.id, fields));
      assert.equal(res.status, 400, JSON.stringify(fields));
    }
    for (const [body, pattern] of [
      [event(foreignAgent.agent.id), /agentId/],
      [event(agent.id, { issueId: foreignIssue.id }), /issueId/],
      [event(agent.id, { occurredAt: new Date(Date.now() + 3600_000).toISOString() }), /future/],
      [event(agent.id, { heartbeatRunId: '00000000-0000-4000-8000-000000000000' }), /heartbeatRunId/],
    ] as const) {
      const res = await report(company.id, token, body);
      assert.equal(res.status, 422, JSON.stringify(body));
      assert.match(res.body.error, pattern);
    }
    assert.deepEqual(await spent(token, company.id, agent.id), { agent: 0, company: 0 }, 'nothing refused was counted');
  });

  it("keeps an event of an earlier month out of this month's counters", async () => {
    const { company, token } = await t.newCompany();
    const { agent } = await newAgent(t, token, company.id);
    const lastMonth = new Date();
    lastMonth.setUTCDate(1);
    lastMonth.setUTCDate(0);
    const res = await report(
      company.id,
      token,
      event(agent.id, { occurredAt: lastMonth.toISOString(), costCents: 900 }),
    );
    assert.equal(res.status, 201);
    assert.deepEqual(await spent(token, company.id, agent.id), { agent: 0, company: 0 });
  });

  it('starts the month counters again on the first of the month, with no reset job (clock under test control)', async () => {
    const { company, token } = await t.newCompany();
    const { agent } = await newAgent(t, token, company.id);
    const ctx = { db: t.database.db, actor: systemActor('test') };
    const lateNovember = new Date('2026-11-30T23:50:00Z');
    const earlyDecember = new Date('2026-12-01T00:10:00Z');
    await recordCostEvent(
      ctx,
      company.id,
      event(agent.id, { costCents: 40, occurredAt: lateNovember.toISOString() }),
      lateNovember,
    );
    const spentAt = async (now: Date) =>
      (await monthlyBudgets(t.database.db, 'agent', [agent.id], now)).get(agent.id)!.spentMonthlyCents;
    assert.equal(await spentAt(lateNovember), 40);
    assert.equal(await spentAt(earlyDecember), 0, 'November spend does not count in December');
    await recordCostEvent(
      ctx,
      company.id,
      event(agent.id, { costCents: 3, occurredAt: earlyDecember.toISOString() }),
      earlyDecember,
    );
    assert.equal(await spentAt(earlyDecember), 3);
    // A late November event arriving in December belongs to November: it does not touch December's spend.
    await recordCostEvent(
      ctx,
      company.id,
      event(agent.id, { costCents: 50, occurredAt: lateNovember.toISOString() }),
      earlyDecember,
    );
    assert.equal(await spentAt(earlyDecember), 3);
    assert.equal(await spentAt(lateNovember), 90);
  });
});

describe('usage reported by a running run', () => {
  it('becomes cost events as it arrives: reported cost, priced from the table, subscription at 0 cents with tokens kept', async () => {
    const { company, token } = await t.newCompany();
    const reports = [
      { provider: 'acme', model: 'm1', inputTokens: 1000, outputTokens: 100, costCents: 9, billingType: 'metered_api' },
      {
        provider: 'acme',
        model: 'm1',
        inputTokens: 1_000_000,
        cachedInputTokens: 500_000,
        outputTokens: 100_000,
        billingType: 'metered_api',
      },
      { provider: 'acme', model: 'm1', inputTokens: 2000, outputTokens: 300, billingType: 'subscription_included' },
    ];
    const { agent } = await newAgent(t, token, company.id, {
      adapterConfig: { command: process.execPath, args: [SPENDER, JSON.stringify(reports), '300', '3000'] },
    });
    const issue = await newIssue(t, token, company.id, { title: 'Spend', status: 'todo' });
    assert.equal(
      (await t.request('POST', `/api/agents/${agent.id}/wakeup`, { token, body: { payload: { issueId: issue.id } } }))
        .status,
      202,
    );
    const rows = async () =>
      (await t.database.pool.query('select * from cost_events where agent_id = $1 order by created_at', [agent.id]))
        .rows;
    const events = await waitFor('three cost events', async () => ((await rows()).length === 3 ? rows() : null));
    const [run] = (await t.database.pool.query('select id, status from heartbeat_runs where agent_id = $1', [agent.id]))
      .rows;
    assert.equal(run.status, 'running', 'the events arrived while the run was still running');
    // 500k uncached input at 300 c/MTok = 150, 500k cached at 30 = 15, 100k output at 1500 = 150.
    assert.deepEqual(
      events.map((e) => Number(e.cost_cents)),
      [9, 315, 0],
    );
    assert.deepEqual(
      events.map((e) => e.billing_type),
      ['metered_api', 'metered_api', 'subscription_included'],
    );
    assert.equal(Number(events[2].input_tokens), 2000, 'subscription usage keeps its tokens');
    assert.ok(events.every((e) => e.heartbeat_run_id === run.id && e.issue_id === issue.id));
    assert.deepEqual(await spent(token, company.id, agent.id), { agent: 324, company: 324 });
  });
});
