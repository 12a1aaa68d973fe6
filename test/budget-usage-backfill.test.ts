// Migration 0008 rebuilt the budget scope usage counters from what was already recorded (cost
// events and finished runs). Its statements, run again over this database, must give exactly the
// counters recordCostEvent and finishRun kept event by event.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { newAgent, newIssue } from './helpers/factories.ts';
import { waitFor } from './helpers/wait.ts';

const WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'agents', 'worker.mjs');

let t: TestApp;
before(async () => {
  t = await startTestApp({ engine: { pollMs: 200 } });
});
after(() => t.close());

const counters = async () =>
  (
    await t.database.pool.query(
      'select company_id, scope_type, scope_id, window_key, billed_cents, tokens, runs from budget_scope_usage order by scope_type, scope_id, window_key',
    )
  ).rows;

it("matches the migration's rebuild of the counters from recorded events and runs", async () => {
  const { company, token } = await t.newCompany();
  const { agent } = await newAgent(t, token, company.id, {
    adapterConfig: { command: process.execPath, args: [WORKER, '0'] },
  });
  const project = (
    await t.request('POST', `/api/companies/${company.id}/projects`, { token, body: { name: 'Backfill' } })
  ).body;
  const issue = await newIssue(t, token, company.id, { projectId: project.id, status: 'todo' });
  const at = (iso: string, costCents: number, fields: Record<string, unknown> = {}) =>
    t.request('POST', `/api/companies/${company.id}/cost-events`, {
      token,
      body: {
        agentId: agent.id,
        provider: 'acme',
        model: 'm1',
        costCents,
        occurredAt: iso,
        inputTokens: 10,
        outputTokens: 5,
        ...fields,
      },
    });
  for (const res of await Promise.all([
    at('2026-09-30T23:59:59Z', 7),
    at('2026-10-01T00:00:00Z', 11, { projectId: project.id }),
    at(new Date().toISOString(), 13, { issueId: issue.id }),
  ]))
    assert.equal(res.status, 201);
  // Two finished runs of the agent, one on the project's issue (the worker also reports 2 cents of usage).
  for (const payload of [{ issueId: issue.id }, {}]) {
    assert.equal((await t.request('POST', `/api/agents/${agent.id}/wakeup`, { token, body: { payload } })).status, 202);
    await waitFor('the run to finish', async () => {
      const { rows } = await t.database.pool.query(
        'select count(*)::int as n from heartbeat_runs where agent_id = $1 and finished_at is not null',
        [agent.id],
      );
      return rows[0].n === (payload.issueId ? 1 : 2) ? true : null;
    });
  }
  await waitFor('usage of both runs recorded', async () =>
    (await t.database.pool.query('select count(*)::int as n from cost_events where agent_id = $1', [agent.id])).rows[0]
      .n === 5
      ? true
      : null,
  );
  const kept = await counters();
  assert.ok(
    kept.some((r) => r.scope_type === 'project' && Number(r.runs) === 1),
    'the run on the project issue counted for the project',
  );

  const migration = await readFile(new URL('../src/db/migrations/0008_budgets.sql', import.meta.url), 'utf8');
  const rebuild = migration
    .split('--> statement-breakpoint')
    .filter((statement) => statement.includes('INSERT INTO "budget_scope_usage"'));
  assert.equal(rebuild.length, 2);
  await t.database.pool.query('delete from budget_scope_usage');
  for (const statement of rebuild) await t.database.pool.query(statement);
  assert.deepEqual(await counters(), kept);
});
