// Timers and the guards that keep agents from burning money, on two replicas of one database.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { activityRows, newAgent, newIssue } from './helpers/factories.ts';
import { waitFor } from './helpers/wait.ts';

const WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'agents', 'worker.mjs');
const worker = (...args: string[]) => ({ command: process.execPath, args: [WORKER, ...args] });
// No test here is about leases: a 30 s lease keeps a starved replica (a loaded machine) from having its
// live run reaped in the middle of a test (a 3 s one lapsed once, and the storm then rightly ran twice).
const ENGINE = { pollMs: 200, reaperIntervalMs: 500, leaseSec: 30, timerTickMs: 100 };

let a: TestApp;
let b: TestApp;
let board: string;
let companyId: string;

before(async () => {
  a = await startTestApp({ engine: ENGINE });
  b = await startTestApp({ engine: ENGINE, replicaOf: a });
  const c = await a.newCompany();
  board = c.token;
  companyId = c.company.id;
});
after(async () => {
  await b.close();
  await a.close();
});

const sql = async (text: string, params: unknown[] = []) => (await a.database.pool.query(text, params)).rows;
const live = (r: { status: string }) => r.status === 'queued' || r.status === 'running';

const heartbeat = (intervalSec: number, extra: Record<string, unknown> = {}) => ({
  heartbeat: { enabled: true, intervalSec, ...extra },
});

describe('timers', () => {
  it('wake a heartbeat agent exactly once per interval across two replicas, never while its run is live', async () => {
    const { agent } = await newAgent(a, board, companyId, {
      adapterConfig: worker('0'),
      runtimeConfig: heartbeat(1, { skipWhenIdle: false }),
    });
    const started = Date.now();
    // A loaded machine delays ticks (fewer wakes), it never adds slots: wait for three, however long.
    await waitFor(
      'three timer wakes and three runs',
      async () => {
        const [{ wakes, runs }] = await sql(
          `select (select count(*)::int from agent_wakeup_requests where agent_id = $1 and source = 'timer') as wakes,
                  (select count(*)::int from heartbeat_runs where agent_id = $1) as runs`,
          [agent.id],
        );
        return wakes >= 3 && runs >= 3;
      },
      60_000,
    );
    await a.request('PATCH', `/api/agents/${agent.id}`, {
      token: board,
      body: { runtimeConfig: { heartbeat: { enabled: false } } },
    });
    // Slots the agent lived through, counted after the heartbeat went off: more wakes than that
    // would be a slot woken twice (one per replica).
    const elapsedSlots = Math.ceil((Date.now() - started) / 1000) + 1;
    const wakes = await sql(
      "select idempotency_key, status from agent_wakeup_requests where agent_id = $1 and source = 'timer'",
      [agent.id],
    );
    const keys = new Set(wakes.map((w) => w.idempotency_key));
    assert.equal(keys.size, wakes.length, 'one wake per slot, whichever replica queued it');
    assert.ok(
      wakes.length >= 3 && wakes.length <= elapsedSlots,
      `${wakes.length} timer wakes in ${elapsedSlots} slots`,
    );
    const runs = await waitFor('every run to end', async () => {
      const rows = await sql(
        'select status, created_at, finished_at from heartbeat_runs where agent_id = $1 order by created_at',
        [agent.id],
      );
      return rows.some(live) ? null : rows;
    });
    assert.ok(runs.length >= 3);
    for (let i = 1; i < runs.length; i++)
      assert.ok(new Date(runs[i].created_at) >= new Date(runs[i - 1].finished_at), 'runs never overlap');
  });

  it('do not pile up behind a long run: a timer wake while a run is live is skipped, not queued', async () => {
    const { agent } = await newAgent(a, board, companyId, {
      adapterConfig: worker('30000'),
      runtimeConfig: heartbeat(1, { skipWhenIdle: false }),
    });
    // On the same interval: its timer wakes show the ticks that also looked at the busy agent.
    const { agent: witness } = await newAgent(a, board, companyId, {
      adapterConfig: worker('0'),
      runtimeConfig: heartbeat(1, { skipWhenIdle: false }),
    });
    const [run] = await waitFor('the long run to be running', () =>
      sql("select id, started_at from heartbeat_runs where agent_id = $1 and status = 'running'", [agent.id]).then(
        (rows) => (rows.length > 0 ? rows : null),
      ),
    );
    await waitFor(
      'two timer slots ticked while the long run is live',
      async () =>
        (
          await sql(
            "select count(*)::int as n from agent_wakeup_requests where agent_id = $1 and source = 'timer' and created_at > $2",
            [witness.id, run.started_at],
          )
        )[0].n >= 2,
      30_000,
    );
    await waitFor(
      'every wake of the busy agent to be decided',
      async () =>
        (
          await sql("select 1 from agent_wakeup_requests where agent_id = $1 and status in ('queued', 'claimed')", [
            agent.id,
          ])
        ).length === 0,
    );
    const runs = await sql('select id, status from heartbeat_runs where agent_id = $1', [agent.id]);
    assert.deepEqual(
      runs.map((r) => [r.id, r.status]),
      [[run.id, 'running']],
      'the later intervals found the first run still working',
    );
    const deferred = await sql("select 1 from agent_wakeup_requests where agent_id = $1 and status = 'deferred'", [
      agent.id,
    ]);
    assert.equal(deferred.length, 0, 'nothing piled up behind it');
    for (const id of [agent.id, witness.id])
      assert.equal((await a.request('POST', `/api/agents/${id}/pause`, { token: board })).status, 200);
  });

  it('never wake a disabled agent', async () => {
    const { agent } = await newAgent(a, board, companyId, {
      adapterConfig: worker('0'),
      runtimeConfig: { heartbeat: { enabled: false, intervalSec: 1 } },
    });
    // Created after it, on the same interval: its timer wakes are ticks that passed the disabled agent by.
    const { agent: witness } = await newAgent(a, board, companyId, {
      adapterConfig: worker('0'),
      runtimeConfig: heartbeat(1, { skipWhenIdle: false }),
    });
    await waitFor(
      'two timer wakes of the enabled agent',
      async () =>
        (
          await sql("select count(*)::int as n from agent_wakeup_requests where agent_id = $1 and source = 'timer'", [
            witness.id,
          ])
        )[0].n >= 2,
      30_000,
    );
    assert.equal((await sql('select 1 from agent_wakeup_requests where agent_id = $1', [agent.id])).length, 0);
    await a.request('PATCH', `/api/agents/${witness.id}`, {
      token: board,
      body: { runtimeConfig: { heartbeat: { enabled: false } } },
    });
  });

  it('skip a timer wake when nothing changed since the last run (skipWhenIdle), and run again once something did', async () => {
    const { agent } = await newAgent(a, board, companyId, { adapterConfig: worker('0'), runtimeConfig: heartbeat(1) });
    const issue = await newIssue(a, board, companyId, { status: 'todo', assigneeAgentId: agent.id });
    await waitFor('the first run (assignment) to finish', async () => {
      const runs = await sql('select status from heartbeat_runs where agent_id = $1', [agent.id]);
      return runs.length >= 1 && !runs.some(live);
    });
    const idle = await waitFor('timer wakes skipped as idle', async () => {
      const rows = await sql(
        "select 1 from agent_wakeup_requests where agent_id = $1 and source = 'timer' and status = 'skipped' and outcome_reason = 'idle'",
        [agent.id],
      );
      return rows.length >= 2 ? rows : null;
    });
    assert.ok(idle.length >= 2);
    const before = (await sql('select count(*)::int as n from heartbeat_runs where agent_id = $1', [agent.id]))[0].n;
    assert.equal(
      (await a.request('POST', `/api/issues/${issue.id}/comments`, { token: board, body: { body: 'Any news?' } }))
        .status,
      201,
    );
    await waitFor(
      'a timer run after the comment',
      async () =>
        (await sql('select count(*)::int as n from heartbeat_runs where agent_id = $1', [agent.id]))[0].n > before,
    );
    await a.request('PATCH', `/api/agents/${agent.id}`, {
      token: board,
      body: { runtimeConfig: { heartbeat: { enabled: false } } },
    });
  });
});

describe('two replicas', () => {
  it('a 50-way wake storm on one issue, split over both replicas, gives exactly one run', async () => {
    // The run works until the storm is decided (paused at the end): a storm that meets a live run
    // coalesces into it, however long a loaded machine takes to decide 50 wakes. (With a short run, a
    // wake decided after it ended rightly starts a run of its own.)
    const { agent } = await newAgent(a, board, companyId, { adapterConfig: worker('300000') });
    const issue = await newIssue(a, board, companyId, { status: 'todo' });
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        (i % 2 ? b : a).request('POST', `/api/agents/${agent.id}/wakeup`, {
          token: board,
          body: { reason: `storm ${i}`, payload: { issueId: issue.id } },
        }),
      ),
    );
    assert.ok(responses.every((r) => r.status === 202));
    const ids = responses.map((r) => r.body.id);
    await waitFor(
      'every wake to be decided',
      async () =>
        (await sql("select 1 from agent_wakeup_requests where id = any($1) and status in ('queued', 'claimed')", [ids]))
          .length === 0,
    );
    const runs = await sql(
      'select id, status, error_code, error, owner_replica from heartbeat_runs where wakeup_request_id = any($1)',
      [ids],
    );
    assert.equal(runs.length, 1, JSON.stringify(runs));
    const outcomes = await sql(
      'select status, count(*)::int as n from agent_wakeup_requests where id = any($1) group by status order by status',
      [ids],
    );
    assert.deepEqual(outcomes, [
      { status: 'coalesced', n: 49 },
      { status: 'completed', n: 1 },
    ]);
    // Pausing cancels the run and the follow-up the coalesced wakes ask for.
    assert.equal((await a.request('POST', `/api/agents/${agent.id}/pause`, { token: board })).status, 200);
    await waitFor(
      'the runs to finish',
      async () => !(await sql('select status from heartbeat_runs where agent_id = $1', [agent.id])).some(live),
    );
  });
});

describe('wake guards', () => {
  it('a spent wake budget skips further wakes, records agent.wake_rate_limited once and shows on the agent', async () => {
    const { agent } = await newAgent(a, board, companyId, {
      adapterConfig: worker('0'),
      runtimeConfig: { maxRunsPerHour: 2 },
    });
    const wake = () => a.request('POST', `/api/agents/${agent.id}/wakeup`, { token: board, body: {} });
    for (let i = 0; i < 2; i++) {
      assert.equal((await wake()).status, 202);
      await waitFor('the run to finish', async () => {
        const runs = await sql('select status from heartbeat_runs where agent_id = $1', [agent.id]);
        return runs.length === i + 1 && !runs.some(live);
      });
    }
    const third = await wake();
    const decided = await waitFor(
      'the third wake to be decided',
      async () =>
        (
          await sql(
            "select * from agent_wakeup_requests where id = $1 and status <> 'queued' and status <> 'claimed'",
            [third.body.id],
          )
        )[0],
    );
    assert.equal(decided.status, 'skipped');
    assert.equal(decided.outcome_reason, 'wake_rate_limited');
    const shown = (await a.request('GET', `/api/agents/${agent.id}`, { token: board })).body;
    assert.ok(shown.wakeRateLimitedUntil && new Date(shown.wakeRateLimitedUntil).getTime() > Date.now());
    const fourth = await wake();
    assert.equal(fourth.status, 202);
    assert.deepEqual(
      { skipped: fourth.body.skipped, reason: fourth.body.reason },
      { skipped: true, reason: 'wake_rate_limited' },
    );
    assert.equal(
      (await activityRows(a, companyId, 'agent.wake_rate_limited')).filter((r) => r.entity_id === agent.id).length,
      1,
    );
    assert.equal((await sql('select count(*)::int as n from heartbeat_runs where agent_id = $1', [agent.id]))[0].n, 2);
  });

  it("an agent's own comment mentioning itself does not wake it", async () => {
    const { agent, token } = await newAgent(a, board, companyId, {
      name: `Selfie ${Date.now()}`,
      adapterConfig: worker('0'),
    });
    const { agent: colleague } = await newAgent(a, board, companyId, {
      name: `Colleague ${Date.now()}`,
      adapterConfig: worker('0'),
    });
    const issue = await newIssue(a, board, companyId, { status: 'todo' });
    assert.equal(
      (
        await a.request('POST', `/api/issues/${issue.id}/comments`, {
          token,
          body: { body: `note to @${agent.name} and @${colleague.name}: done` },
        })
      ).status,
      201,
    );
    // The same comment's other mention was queued: the mentions of this comment have been handled.
    await waitFor(
      'the colleague to be woken by the mention',
      async () =>
        (await sql("select 1 from agent_wakeup_requests where agent_id = $1 and reason = 'mention'", [colleague.id]))
          .length === 1,
    );
    assert.equal((await sql('select 1 from agent_wakeup_requests where agent_id = $1', [agent.id])).length, 0);
  });

  it('an interrupt comment stops the live run holding the issue and starts a fresh one', async () => {
    const { agent } = await newAgent(a, board, companyId, { adapterConfig: worker('20000', '0', 'checkout') });
    const issue = await newIssue(a, board, companyId, { status: 'todo' });
    await a.request('POST', `/api/agents/${agent.id}/wakeup`, {
      token: board,
      body: { payload: { issueId: issue.id } },
    });
    const first = await waitFor('the run to hold the checkout', async () => {
      const [row] = await sql('select checkout_run_id from issues where id = $1', [issue.id]);
      return row.checkout_run_id;
    });
    const res = await a.request('POST', `/api/issues/${issue.id}/comments`, {
      token: board,
      body: { body: 'Stop, do this instead', interrupt: true },
    });
    assert.equal(res.status, 201);
    await waitFor('the first run cancelled and a second one started', async () => {
      const runs = await sql('select id, status from heartbeat_runs where agent_id = $1 order by created_at', [
        agent.id,
      ]);
      return runs.length === 2 && runs[0].id === first && runs[0].status === 'cancelled' && live(runs[1]);
    });
    const interrupted = (await a.request('GET', `/api/heartbeat-runs/${first}`, { token: board })).body;
    assert.deepEqual(
      [interrupted.errorCode, interrupted.error],
      ['interrupted_by_comment', 'interrupted by a board comment'],
    );
    await a.request('POST', `/api/agents/${agent.id}/pause`, { token: board });
  });
});
