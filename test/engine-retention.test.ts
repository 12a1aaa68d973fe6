// Retention: finished runs (with their log chunks) and finished wakeups past the period are pruned
// in bounded batches; live and recent ones stay.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import path from 'node:path';
import { prunePluginHistory } from '../src/modules/plugins/retention.ts';
import { pruneRunHistory } from '../src/modules/runs/retention.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { newAgent } from './helpers/factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const sql = async (text: string, params: unknown[] = []) => (await t.database.pool.query(text, params)).rows;

describe('pruneRunHistory', () => {
  it('deletes finished runs, their logs and finished wakeups older than the period, a batch at a time', async () => {
    const { company, token } = await t.newCompany();
    const { agent } = await newAgent(t, token, company.id);
    const old = Array.from({ length: 5 }, () => randomUUID());
    const recent = randomUUID();
    const liveOld = randomUUID();
    for (const id of old) {
      await sql(
        `insert into heartbeat_runs (id, company_id, agent_id, status, created_at, finished_at) values ($1, $2, $3, 'succeeded', now() - interval '40 days', now() - interval '40 days')`,
        [id, company.id, agent.id],
      );
      await sql(
        `insert into heartbeat_run_log_chunks (run_id, seq, byte_offset, content) values ($1, 0, 0, 'old log')`,
        [id],
      );
    }
    await sql(
      `insert into heartbeat_runs (id, company_id, agent_id, status, finished_at) values ($1, $2, $3, 'failed', now() - interval '2 days')`,
      [recent, company.id, agent.id],
    );
    await sql(
      `insert into heartbeat_runs (id, company_id, agent_id, status, created_at, lease_expires_at) values ($1, $2, $3, 'running', now() - interval '40 days', now() + interval '1 minute')`,
      [liveOld, company.id, agent.id],
    );
    await sql(
      `insert into agent_wakeup_requests (company_id, agent_id, source, status, requested_by_actor_type, requested_by_actor_id, created_at, finished_at) values
        ($1, $2, 'on_demand', 'completed', 'system', 'test', now() - interval '40 days', now() - interval '40 days'),
        ($1, $2, 'on_demand', 'skipped', 'system', 'test', now() - interval '40 days', now() - interval '40 days'),
        ($1, $2, 'on_demand', 'queued', 'system', 'test', now() - interval '40 days', null)`,
      [company.id, agent.id],
    );

    assert.deepEqual(await pruneRunHistory(t.database.db, 30, 2), { runs: 2, wakeups: 2 });
    assert.deepEqual(await pruneRunHistory(t.database.db, 30, 2), { runs: 2, wakeups: 0 });
    assert.deepEqual(await pruneRunHistory(t.database.db, 30, 2), { runs: 1, wakeups: 0 });
    assert.deepEqual(await pruneRunHistory(t.database.db, 30, 2), { runs: 0, wakeups: 0 });

    const runs = (await sql('select id from heartbeat_runs where agent_id = $1', [agent.id])).map((r) => r.id).sort();
    assert.deepEqual(runs, [recent, liveOld].sort());
    assert.equal(
      (await sql('select count(*)::int as n from heartbeat_run_log_chunks where run_id = any($1)', [old]))[0].n,
      0,
      'logs go with their runs',
    );
    const wakes = await sql('select status from agent_wakeup_requests where agent_id = $1', [agent.id]);
    assert.deepEqual(
      wakes.map((w) => w.status),
      ['queued'],
      'a waiting wake is never pruned',
    );
  });
});

describe('prunePluginHistory', () => {
  it('deletes finished job runs and handed-over deliveries older than the period, a batch at a time', async () => {
    const { company } = await t.newCompany(t.ownerToken);
    const installed = await t.request('POST', '/api/plugins/install', {
      token: t.ownerToken,
      body: { packageName: path.resolve(import.meta.dirname, 'fixtures/plugins/folders') },
    });
    assert.equal(installed.status, 201, JSON.stringify(installed.body));
    const plugin = installed.body.id;
    const run = (fireAt: string, status: string, finishedAt: string | null) =>
      sql(
        `insert into plugin_job_runs (plugin_id, company_id, job_key, fire_at, trigger, status, finished_at) values ($1, $2, 'nightly', ${fireAt}, 'schedule', $3, ${finishedAt})`,
        [plugin, company.id, status],
      );
    await run(`now() - interval '40 days'`, 'succeeded', `now() - interval '40 days'`);
    await run(`now() - interval '39 days'`, 'failed', `now() - interval '39 days'`);
    await run(`now() - interval '38 days'`, 'cancelled', `now() - interval '38 days'`);
    await run(`now() - interval '2 days'`, 'succeeded', `now() - interval '2 days'`);
    await run(`now() - interval '41 days'`, 'running', 'null');
    const delivery = (status: string, age: string) =>
      sql(
        `insert into plugin_webhook_deliveries (plugin_id, company_id, webhook_key, status, method, headers, body, created_at) values ($1, $2, 'in', $3, 'POST', '{}', 'x', now() - interval '${age}')`,
        [plugin, company.id, status],
      );
    await delivery('delivered', '40 days');
    await delivery('failed', '40 days');
    await delivery('delivered', '1 day');
    await delivery('received', '40 days');

    assert.deepEqual(await prunePluginHistory(t.database.db, 30, 2), { jobRuns: 2, deliveries: 2 });
    assert.deepEqual(await prunePluginHistory(t.database.db, 30, 2), { jobRuns: 1, deliveries: 0 });
    assert.deepEqual(await prunePluginHistory(t.database.db, 30, 2), { jobRuns: 0, deliveries: 0 });
    const runs = await sql('select status from plugin_job_runs where plugin_id = $1 order by fire_at', [plugin]);
    assert.deepEqual(
      runs.map((r) => r.status),
      ['running', 'succeeded'],
      'a live run and a recent one stay',
    );
    const kept = await sql('select status from plugin_webhook_deliveries where plugin_id = $1 order by created_at', [
      plugin,
    ]);
    assert.deepEqual(
      kept.map((d) => d.status),
      ['received', 'delivered'],
      'a delivery not handed over yet is never pruned',
    );
  });
});
