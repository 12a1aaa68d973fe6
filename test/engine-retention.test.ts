// Retention: finished runs (with their log chunks) and finished wakeups past the period are pruned
// in bounded batches; live and recent ones stay.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
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
