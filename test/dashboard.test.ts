// GET /api/companies/{companyId}/dashboard (SPEC Dashboard snapshot): every field from counters
// kept on write, checked against the records they count.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { useTestApp } from './helpers/app.ts';
import { newAgent, newIssue } from './helpers/factories.ts';
import { assertBudgetStopsInEffect } from './helpers/budget-stops.ts';

const t = await useTestApp();
type Day = { day: string; runs: number; succeeded: number; failed: number; spendCents: number };
const dashboard = (companyId: string, token: string) =>
  t.request('GET', `/api/companies/${companyId}/dashboard`, { token });

describe('dashboard', () => {
  it('is all zeros for a new company', async () => {
    const { company, token } = await t.newCompany();
    const res = await dashboard(company.id, token);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      companyId: company.id,
      agents: { active: 0, running: 0, paused: 0, error: 0 },
      tasks: { open: 0, inProgress: 0, blocked: 0, done: 0 },
      costs: { monthSpendCents: 0, monthBudgetCents: 0, monthUtilizationPercent: 0 },
      pendingApprovals: 0,
      budgets: { activeIncidents: 0, pendingApprovals: 0, pausedAgents: 0, pausedProjects: 0 },
      daily: res.body.daily,
    });
    assert.equal(res.body.daily.length, 14);
    assert.ok(
      res.body.daily.every((d: Day) => d.runs === 0 && d.succeeded === 0 && d.failed === 0 && d.spendCents === 0),
    );
  });

  it('gives a 14-day daily series of runs and spend, the company own only', async () => {
    const utcDay = (back: number) => {
      const now = new Date();
      return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - back, 0, 0, 1));
    };
    const seed = async (companyId: string, token: string) => {
      const { agent } = await newAgent(t, token, companyId);
      // Runs have no backdating route: rows as the engine leaves them, one second into the UTC day.
      const runs: [number, string][] = [
        [3, 'succeeded'],
        [3, 'succeeded'],
        [3, 'failed'],
        [0, 'succeeded'],
        [0, 'timed_out'],
        [0, 'cancelled'],
        [0, 'running'],
        [20, 'succeeded'], // outside the 14 days
      ];
      for (const [back, status] of runs)
        await t.database.pool.query(
          'insert into heartbeat_runs (company_id, agent_id, status, created_at) values ($1, $2, $3, $4)',
          [companyId, agent.id, status, utcDay(back)],
        );
      for (const [back, costCents] of <[number, number][]>[
        [3, 40],
        [3, 2],
        [0, 7],
        [20, 1000],
      ]) {
        const res = await t.request('POST', `/api/companies/${companyId}/cost-events`, {
          token,
          body: { agentId: agent.id, provider: 'acme', model: 'm1', costCents, occurredAt: utcDay(back).toISOString() },
        });
        assert.equal(res.status, 201, JSON.stringify(res.body));
      }
    };
    const { company, token } = await t.newCompany();
    const other = await t.newCompany();
    await seed(company.id, token);
    await seed(other.company.id, other.token); // the same again elsewhere: never counted here
    const res = await dashboard(company.id, token);
    assert.equal(res.status, 200);
    const daily: Day[] = res.body.daily;
    assert.equal(daily.length, 14);
    assert.equal(daily[13]!.day, utcDay(0).toISOString().slice(0, 10));
    assert.equal(daily[0]!.day, utcDay(13).toISOString().slice(0, 10));
    assert.deepEqual(daily[10], {
      day: utcDay(3).toISOString().slice(0, 10),
      runs: 3,
      succeeded: 2,
      failed: 1,
      spendCents: 42,
    });
    assert.deepEqual(daily[13], {
      day: utcDay(0).toISOString().slice(0, 10),
      runs: 4,
      succeeded: 1,
      failed: 1,
      spendCents: 7,
    });
    const quiet = daily.filter((_, i) => i !== 10 && i !== 13);
    assert.ok(
      quiet.every((d) => d.runs === 0 && d.spendCents === 0),
      JSON.stringify(quiet),
    );
  });

  it('counts agents, tasks, money, approvals and budget health', async () => {
    const { company, token } = await t.newCompany();
    const C = company.id;
    const worker = await newAgent(t, token, C);
    await newAgent(t, token, C);
    const sleeper = await newAgent(t, token, C);
    assert.equal((await t.request('POST', `/api/agents/${sleeper.agent.id}/pause`, { token })).status, 200);
    for (const status of ['backlog', 'backlog', 'todo', 'blocked', 'done', 'cancelled'])
      await newIssue(t, token, C, { status });
    const held = await newIssue(t, token, C, { status: 'todo' });
    const checkout = await t.request('POST', `/api/issues/${held.id}/checkout`, {
      token: worker.token,
      headers: { 'x-service-run-id': randomUUID() },
      body: { agentId: worker.agent.id, expectedStatuses: ['todo'] },
    });
    assert.equal(checkout.status, 200);
    assert.equal(
      (await t.request('PATCH', `/api/companies/${C}/budgets`, { token, body: { budgetMonthlyCents: 300 } })).status,
      200,
    );
    const spend = await t.request('POST', `/api/companies/${C}/cost-events`, {
      token,
      body: {
        agentId: worker.agent.id,
        provider: 'acme',
        model: 'm1',
        costCents: 100,
        occurredAt: new Date().toISOString(),
      },
    });
    assert.equal(spend.status, 201);
    assert.equal(
      (
        await t.request('POST', `/api/companies/${C}/approvals`, {
          token,
          body: { type: 'request_board_approval', payload: { title: 'Go?' } },
        })
      ).status,
      201,
    );
    // A project whose one-cent lifetime budget is reached: an incident, a paused project, an override approval.
    const project = (await t.request('POST', `/api/companies/${C}/projects`, { token, body: { name: 'Moonshot' } }))
      .body;
    assert.equal(
      (
        await t.request('POST', `/api/companies/${C}/budgets/policies`, {
          token,
          body: { scopeType: 'project', scopeId: project.id, amount: 1 },
        })
      ).status,
      201,
    );
    const over = await t.request('POST', `/api/companies/${C}/cost-events`, {
      token,
      body: {
        agentId: worker.agent.id,
        provider: 'acme',
        model: 'm1',
        costCents: 1,
        occurredAt: new Date().toISOString(),
        projectId: project.id,
      },
    });
    assert.equal(over.status, 201);
    await assertBudgetStopsInEffect(t, C);

    const res = await dashboard(C, token);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.agents, { active: 2, running: 0, paused: 1, error: 0 });
    assert.deepEqual(res.body.tasks, { open: 5, inProgress: 1, blocked: 1, done: 1 });
    assert.deepEqual(res.body.costs, { monthSpendCents: 101, monthBudgetCents: 300, monthUtilizationPercent: 33.67 });
    assert.equal(res.body.pendingApprovals, 2);
    assert.deepEqual(res.body.budgets, { activeIncidents: 1, pendingApprovals: 1, pausedAgents: 1, pausedProjects: 1 });
    // An agent of the company reads it too.
    assert.equal((await dashboard(C, worker.token)).status, 200);
  });

  it('keeps task counts equal to the issues under concurrent creates and status changes', async () => {
    const { company, token } = await t.newCompany();
    const created = await Promise.all(
      Array.from({ length: 20 }, (_, i) => newIssue(t, token, company.id, { status: i % 2 ? 'todo' : 'backlog' })),
    );
    await Promise.all(
      created
        .slice(0, 10)
        .map((issue, i) =>
          t.request('PATCH', `/api/issues/${issue.id}`, { token, body: { status: i % 2 ? 'done' : 'blocked' } }),
        ),
    );
    // No route deletes an issue; a delete in SQL is counted too (here: one backlog, one todo).
    await t.database.pool.query('delete from issues where id = any($1)', [[created[18].id, created[19].id]]);
    const truth = (
      await t.database.pool.query(
        'select status, count(*)::int as n from issues where company_id = $1 group by status order by status',
        [company.id],
      )
    ).rows;
    const kept = (
      await t.database.pool.query(
        'select status, sum(count)::int as n from company_issue_counts where company_id = $1 group by status having sum(count) > 0 order by status',
        [company.id],
      )
    ).rows;
    assert.deepEqual(kept, truth);
    const res = await dashboard(company.id, token);
    assert.deepEqual(res.body.tasks, { open: 13, inProgress: 0, blocked: 5, done: 5 });
  });

  it('answers 403 outside the company and 404 for a missing company', async () => {
    const { company } = await t.newCompany();
    const other = await t.newCompany();
    const outsider = await newAgent(t, other.token, other.company.id);
    assert.equal((await dashboard(company.id, other.token)).status, 403);
    assert.equal((await dashboard(company.id, outsider.token)).status, 403);
    assert.equal((await dashboard(randomUUID(), t.ownerToken)).status, 404);
    assert.equal((await t.request('GET', `/api/companies/${company.id}/dashboard`)).status, 401);
  });
});
