// The routine scheduler with a clock the test controls: fireDueSchedules(db, nowMs) called directly,
// or engines whose `clock` setting reads a shared variable. Expected instants are worked out by hand
// from the zone rules (never by asking croner), and every tick is counted in routine_runs.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { systemActor } from '../src/core/actor.ts';
import { routines, routineTriggers } from '../src/db/schema/index.ts';
import { decideStrandedRuns, recordRun } from '../src/modules/routines/routine-runs.ts';
import { fireDueSchedules } from '../src/modules/routines/scheduler.ts';
import { startTestApp, useTestApp, type TestApp } from './helpers/app.ts';
import { newAgent } from './helpers/factories.ts';
import { waitFor } from './helpers/wait.ts';

const t = await useTestApp();
const { company, token: board } = await t.newCompany();
const { agent } = await newAgent(t, board, company.id, { adapterConfig: { command: 'true' } });

const MINUTE = 60_000;
const ms = (iso: string) => Date.parse(iso);
const iso = (value: number | string | Date) => new Date(value).toISOString();
const query = async (app: TestApp, text: string, params: unknown[] = []) =>
  (await app.database.pool.query(text, params)).rows;
const sql = (text: string, params: unknown[] = []) => query(t, text, params);
const fire = (nowMs: number) => fireDueSchedules(t.database.db, nowMs);

// Tests move time far from the real clock: what one leaves due must not fire in the next.
afterEach(() => sql('update routine_triggers set next_run_at = null'));

async function newRoutine(app: TestApp, token: string, assigneeAgentId: string, fields: Record<string, unknown> = {}) {
  const res = await app.request('POST', `/api/companies/${company.id}/routines`, {
    token,
    body: { title: 'Nightly report', assigneeAgentId, ...fields },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

async function newSchedule(app: TestApp, token: string, routineId: string, cronExpression: string, timezone?: string) {
  const res = await app.request('POST', `/api/routines/${routineId}/triggers`, {
    token,
    body: { kind: 'schedule', cronExpression, ...(timezone && { timezone }) },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

/** A routine of the file's agent with one schedule trigger. */
async function scheduled(cron: string, fields: Record<string, unknown> = {}, timezone?: string) {
  const routine = await newRoutine(t, board, agent.id, fields);
  const trigger = await newSchedule(t, board, routine.id, cron, timezone);
  return { routine, trigger };
}

/** The trigger as the API shows it (GET routine detail). */
async function triggerOf(routineId: string, triggerId: string) {
  const res = await t.request('GET', `/api/routines/${routineId}`, { token: board });
  assert.equal(res.status, 200);
  return res.body.triggers.find((x: any) => x.id === triggerId);
}
const nextRunAt = async (routineId: string, triggerId: string) =>
  (await triggerOf(routineId, triggerId)).nextRunAt as string | null;

/** Pretends the trigger was last scheduled for `at` (as if the scheduler had computed it then). */
const dueAt = (triggerId: string, at: number, app = t) =>
  query(app, 'update routine_triggers set next_run_at = $2 where id = $1', [triggerId, new Date(at)]);
const runsOfTrigger = (triggerId: string) =>
  sql('select * from routine_runs where trigger_id = $1 order by scheduled_for, created_at', [triggerId]);

describe('schedule triggers: nextRunAt', () => {
  it('is computed in the trigger zone, recomputed on PATCH, null while disabled or paused and back after', async () => {
    const { routine, trigger } = await scheduled('0 9 * * *', {}, 'Asia/Kolkata');
    const patchTrigger = async (body: Record<string, unknown>) => {
      const res = await t.request('PATCH', `/api/routine-triggers/${trigger.id}`, { token: board, body });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.nextRunAt as string | null;
    };
    const timeOfDay = (value: string | null) => (value === null ? null : value.slice(11));
    const within24h = (value: string) => {
      const ahead = ms(value) - Date.now();
      assert.ok(ahead > 0 && ahead <= 24 * 60 * MINUTE, `${value} is the next daily tick`);
    };
    // 09:00 in India (UTC+05:30, no daylight saving) is 03:30 UTC.
    assert.equal(timeOfDay(trigger.nextRunAt), '03:30:00.000Z');
    within24h(trigger.nextRunAt);
    assert.equal(timeOfDay(await patchTrigger({ timezone: 'UTC' })), '09:00:00.000Z');
    assert.equal(timeOfDay(await patchTrigger({ cronExpression: '15 10 * * *' })), '10:15:00.000Z');
    // 10:15 in Tokyo (UTC+9) is 01:15 UTC.
    const tokyo = await patchTrigger({ timezone: 'Asia/Tokyo' });
    assert.equal(timeOfDay(tokyo), '01:15:00.000Z');
    within24h(tokyo!);
    assert.equal(await nextRunAt(routine.id, trigger.id), tokyo);

    assert.equal(await patchTrigger({ enabled: false }), null);
    assert.equal(await patchTrigger({ enabled: true }), tokyo);
    for (const status of ['paused', 'active'])
      assert.equal(
        (await t.request('PATCH', `/api/routines/${routine.id}`, { token: board, body: { status } })).status,
        200,
      );
    assert.equal(await nextRunAt(routine.id, trigger.id), tokyo);
    await t.request('PATCH', `/api/routines/${routine.id}`, { token: board, body: { status: 'paused' } });
    assert.equal(await nextRunAt(routine.id, trigger.id), null);
    await t.request('PATCH', `/api/routines/${routine.id}`, { token: board, body: { status: 'active' } });

    // Refused changes leave it as it was.
    for (const body of [
      { timezone: 'Mars/Olympus' },
      { cronExpression: '61 * * * *' },
      { cronExpression: 'every day' },
    ]) {
      assert.equal(
        (await t.request('PATCH', `/api/routine-triggers/${trigger.id}`, { token: board, body })).status,
        422,
      );
    }
    assert.equal(await nextRunAt(routine.id, trigger.id), tokyo);
  });

  /** Fires the trigger at each tick it announces, from `start`: the ticks seen, each with its run. */
  async function walk(cron: string, timezone: string, start: string, steps: number): Promise<string[]> {
    const { routine, trigger } = await scheduled(cron, { concurrencyPolicy: 'always_enqueue' }, timezone);
    await dueAt(trigger.id, ms(start));
    const seen = [start];
    for (let i = 0; i < steps; i++) {
      await fire(ms(seen.at(-1)!));
      seen.push((await nextRunAt(routine.id, trigger.id))!);
    }
    const runs = await runsOfTrigger(trigger.id);
    assert.deepEqual(
      runs.map((r) => iso(r.scheduled_for)),
      seen.slice(0, steps),
      'one run per tick, each for its tick',
    );
    return seen;
  }

  it('Europe/Berlin 02:30 daily across spring forward (28 March 2027): the missing 02:30 fires at 03:00 CEST', async () => {
    // 27 March 02:30 CET (UTC+1) = 01:30Z; on the 28th clocks jump 02:00 -> 03:00, so 02:30 does not
    // exist and the first valid moment after it is 03:00 CEST (UTC+2) = 01:00Z; then 02:30 CEST = 00:30Z.
    assert.deepEqual(await walk('30 2 * * *', 'Europe/Berlin', '2027-03-27T01:30:00.000Z', 3), [
      '2027-03-27T01:30:00.000Z',
      '2027-03-28T01:00:00.000Z',
      '2027-03-29T00:30:00.000Z',
      '2027-03-30T00:30:00.000Z',
    ]);
  });

  it('Europe/Berlin 02:30 daily across fall back (25 October 2026): the twice-occurring 02:30 fires once', async () => {
    // 24 October 02:30 CEST = 00:30Z; on the 25th 03:00 CEST -> 02:00 CET, so 02:30 happens at 00:30Z
    // and again at 01:30Z: it fires at the first only; from the 26th, 02:30 CET = 01:30Z.
    assert.deepEqual(await walk('30 2 * * *', 'Europe/Berlin', '2026-10-24T00:30:00.000Z', 3), [
      '2026-10-24T00:30:00.000Z',
      '2026-10-25T00:30:00.000Z',
      '2026-10-26T01:30:00.000Z',
      '2026-10-27T01:30:00.000Z',
    ]);
  });

  it('America/New_York: 09:00 moves from 14:00Z to 13:00Z on 14 March 2027; 01:30 fires once on 1 November 2026', async () => {
    // EST is UTC-5, EDT UTC-4; spring forward is the second Sunday of March, fall back the first Sunday of November.
    assert.deepEqual(await walk('0 9 * * *', 'America/New_York', '2027-03-13T14:00:00.000Z', 2), [
      '2027-03-13T14:00:00.000Z',
      '2027-03-14T13:00:00.000Z',
      '2027-03-15T13:00:00.000Z',
    ]);
    // 1 November 2026: 01:30 EDT = 05:30Z, then 02:00 EDT -> 01:00 EST and 01:30 EST (06:30Z) is not a second tick.
    assert.deepEqual(await walk('30 1 * * *', 'America/New_York', '2026-10-31T05:30:00.000Z', 3), [
      '2026-10-31T05:30:00.000Z',
      '2026-11-01T05:30:00.000Z',
      '2026-11-02T06:30:00.000Z',
      '2026-11-03T06:30:00.000Z',
    ]);
  });
});

describe('scheduler: exactly once', () => {
  it('a due tick fires once however often the pass runs: source schedule, scheduledFor = the tick, nextRunAt past now', async () => {
    const { routine, trigger } = await scheduled('*/5 * * * *');
    const tick = ms('2030-01-01T00:05:00Z');
    await dueAt(trigger.id, tick);
    assert.equal((await fire(tick - 1)).length, 0, 'not due a millisecond early');
    const first = await fire(tick);
    assert.equal(first.length, 1);
    assert.deepEqual(await fire(tick), []);
    assert.deepEqual(await fire(tick + 1_000), []);
    const runs = (await t.request('GET', `/api/routines/${routine.id}/runs`, { token: board })).body;
    assert.equal(runs.length, 1);
    assert.equal(runs[0].id, first[0]);
    assert.equal(runs[0].source, 'schedule');
    assert.equal(runs[0].triggerId, trigger.id);
    assert.equal(iso(runs[0].scheduledFor), iso(tick));
    assert.deepEqual(runs[0].triggerPayload, { scheduledFor: iso(tick) });
    assert.equal(runs[0].status, 'issue_created');
    const after = await triggerOf(routine.id, trigger.id);
    assert.equal(after.nextRunAt, iso(tick + 5 * MINUTE));
    assert.ok(after.lastFiredAt);
    const [issue] = await sql('select origin_kind, origin_id, assignee_agent_id from issues where id = $1', [
      runs[0].linkedIssueId,
    ]);
    assert.deepEqual(issue, { origin_kind: 'routine_execution', origin_id: routine.id, assignee_agent_id: agent.id });
  });

  it('five concurrent passes at the same instant record each tick of each trigger once', async () => {
    const tick = ms('2030-02-01T00:00:00Z');
    const triggers = [];
    for (let i = 0; i < 5; i++) {
      const { trigger } = await scheduled('*/10 * * * * *', { concurrencyPolicy: 'always_enqueue' });
      await dueAt(trigger.id, tick);
      triggers.push(trigger.id);
    }
    // Ticks at :00, :10 and :20 are all due (none late enough to be missed).
    const passes = await Promise.all(Array.from({ length: 5 }, () => fire(tick + 20_000)));
    const ids = passes.flat();
    assert.equal(ids.length, 15);
    assert.equal(new Set(ids).size, 15);
    const rows = await sql(
      'select trigger_id, scheduled_for, count(*)::int as n from routine_runs where trigger_id = any($1) group by 1, 2',
      [triggers],
    );
    assert.equal(rows.length, 15);
    assert.ok(rows.every((r) => r.n === 1));
    const nexts = await sql('select next_run_at from routine_triggers where id = any($1)', [triggers]);
    assert.ok(nexts.every((r) => iso(r.next_run_at) === iso(tick + 30_000)));
  });

  it('two replicas with engines on one database, one restarted midway: one run per tick over 20 ticks', async () => {
    let clockMs = 0; // 1970: nothing is due until the test says so
    const engine = { clock: () => clockMs, routineTickMs: 50, pollMs: 200 };
    const a = await startTestApp({ engine });
    let b = await startTestApp({ replicaOf: a, engine });
    try {
      const c = await a.newCompany();
      const worker = await newAgent(a, c.token, c.company.id, { adapterConfig: { command: 'true' } });
      const routine = (
        await a.request('POST', `/api/companies/${c.company.id}/routines`, {
          token: c.token,
          body: { title: 'Every minute', assigneeAgentId: worker.agent.id },
        })
      ).body;
      const trigger = (
        await a.request('POST', `/api/routines/${routine.id}/triggers`, {
          token: c.token,
          body: { kind: 'schedule', cronExpression: '* * * * *' },
        })
      ).body;
      const start = ms('2031-01-01T00:00:00Z');
      await dueAt(trigger.id, start, a);
      const count = async () =>
        Number((await query(a, 'select count(*) from routine_runs where trigger_id = $1', [trigger.id]))[0].count);
      for (let i = 0; i < 20; i++) {
        if (i === 10) {
          // A restart: replica b stops, a new one takes its place on the same database.
          await b.close();
          b = await startTestApp({ replicaOf: a, engine });
        }
        clockMs = start + i * MINUTE + 200;
        await waitFor(`the run of tick ${i}`, async () => (await count()) >= i + 1, 30_000);
        // Both replicas get several passes at the same clock before it moves on.
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const rows = await query(
        a,
        'select scheduled_for, count(*)::int as n from routine_runs where trigger_id = $1 group by scheduled_for order by scheduled_for',
        [trigger.id],
      );
      assert.deepEqual(
        rows.map((r) => [iso(r.scheduled_for), r.n]),
        Array.from({ length: 20 }, (_, i) => [iso(start + i * MINUTE), 1]),
      );
    } finally {
      await b.close();
      await a.close();
    }
  });
});

describe('scheduler: catch-up after an outage', () => {
  // Every minute; the scheduler was down from `start` until 30 min 30 s later. Ticks start ..
  // start+30min are due (31); a tick more than 60 s late is missed, so start .. start+29min (30)
  // are missed and start+30min (30 s late) is on time.
  const start = ms('2030-03-01T10:00:00Z');
  const now = start + 30 * MINUTE + 30_000;

  async function outage(catchUpPolicy: string) {
    const { routine, trigger } = await scheduled('* * * * *', { catchUpPolicy, concurrencyPolicy: 'always_enqueue' });
    await dueAt(trigger.id, start);
    const ids = await fire(now);
    assert.equal(
      await nextRunAt(routine.id, trigger.id),
      iso(start + 31 * MINUTE),
      'next tick after now, in the future',
    );
    const runs = await runsOfTrigger(trigger.id);
    return {
      ids,
      skipped: runs.filter((r) => r.status === 'skipped'),
      fired: runs.filter((r) => r.status !== 'skipped'),
    };
  }

  it('skip_missed: the 30 missed ticks are one skipped run that says so; the on-time tick fires', async () => {
    const { ids, skipped, fired } = await outage('skip_missed');
    assert.equal(skipped.length, 1);
    assert.equal(skipped[0].trigger_payload.missedTicks, 30);
    assert.equal(skipped[0].trigger_payload.firstMissedAt, iso(start));
    assert.equal(skipped[0].trigger_payload.lastMissedAt, iso(start + 29 * MINUTE));
    assert.match(skipped[0].failure_reason, /\b30 scheduled ticks\b/);
    assert.match(skipped[0].failure_reason, /skip_missed/);
    assert.ok(skipped[0].completed_at);
    assert.deepEqual(
      fired.map((r) => [iso(r.scheduled_for), r.status]),
      [[iso(start + 30 * MINUTE), 'issue_created']],
    );
    assert.deepEqual(
      ids,
      fired.map((r) => r.id),
    );
  });

  it('enqueue_missed_with_cap: the latest 10 missed ticks fire, the 20 older ones are one skipped run; the on-time tick fires', async () => {
    const { skipped, fired } = await outage('enqueue_missed_with_cap');
    assert.equal(skipped.length, 1);
    assert.equal(skipped[0].trigger_payload.missedTicks, 20);
    assert.equal(skipped[0].trigger_payload.firstMissedAt, iso(start));
    assert.equal(skipped[0].trigger_payload.lastMissedAt, iso(start + 19 * MINUTE));
    assert.match(skipped[0].failure_reason, /\b20 scheduled ticks\b/);
    assert.match(skipped[0].failure_reason, /enqueue_missed_with_cap/);
    assert.deepEqual(
      fired.map((r) => iso(r.scheduled_for)),
      Array.from({ length: 11 }, (_, i) => iso(start + (20 + i) * MINUTE)),
    );
    assert.ok(fired.every((r) => r.status === 'issue_created'));
    assert.equal(new Set(fired.map((r) => r.linked_issue_id)).size, 11);
  });
});

describe('scheduler: concurrency policy against a live execution issue', () => {
  for (const [policy, expected] of [
    ['coalesce_if_active', 'coalesced'],
    ['skip_if_active', 'skipped'],
    ['always_enqueue', 'issue_created'],
  ] as const) {
    it(`${policy}: the second tick is ${expected}`, async () => {
      const { routine, trigger } = await scheduled('*/5 * * * *', { concurrencyPolicy: policy });
      const tick = ms('2030-04-01T08:00:00Z');
      await dueAt(trigger.id, tick);
      const [firstId] = await fire(tick);
      const [secondId] = await fire(tick + 5 * MINUTE);
      const byId = new Map((await runsOfTrigger(trigger.id)).map((r) => [r.id, r]));
      const first = byId.get(firstId!);
      const second = byId.get(secondId!);
      assert.equal(first.status, 'issue_created');
      assert.equal(second.status, expected);
      if (policy === 'always_enqueue') assert.notEqual(second.linked_issue_id, first.linked_issue_id);
      else assert.equal(second.linked_issue_id, first.linked_issue_id);
      assert.equal(second.coalesced_into_run_id, policy === 'coalesce_if_active' ? first.id : null);
      const open = await sql(
        "select count(*)::int as n from issues where origin_id = $1 and status not in ('done', 'cancelled')",
        [routine.id],
      );
      assert.equal(open[0].n, policy === 'always_enqueue' ? 2 : 1);

      // Once the execution issue is done, the next tick makes a new one whatever the policy.
      assert.equal(
        (await t.request('PATCH', `/api/issues/${first.linked_issue_id}`, { token: board, body: { status: 'done' } }))
          .status,
        200,
      );
      assert.equal((await runsOfTrigger(trigger.id)).find((r) => r.id === first.id).status, 'completed');
      if (policy === 'always_enqueue') return;
      const [thirdId] = await fire(tick + 10 * MINUTE);
      const third = (await runsOfTrigger(trigger.id)).find((r) => r.id === thirdId);
      assert.equal(third.status, 'issue_created');
      assert.notEqual(third.linked_issue_id, first.linked_issue_id);
    });
  }
});

describe('scheduler: the real clock and stranded runs', () => {
  it("with the engine's default settings, each tick's run exists within 2 s of its time", async () => {
    const app = await startTestApp({ engine: {} });
    try {
      const c = await app.newCompany();
      const worker = await newAgent(app, c.token, c.company.id, { adapterConfig: { command: 'true' } });
      const routine = (
        await app.request('POST', `/api/companies/${c.company.id}/routines`, {
          token: c.token,
          body: { title: 'Every 2 s', assigneeAgentId: worker.agent.id },
        })
      ).body;
      const trigger = (
        await app.request('POST', `/api/routines/${routine.id}/triggers`, {
          token: c.token,
          body: { kind: 'schedule', cronExpression: '*/2 * * * * *' },
        })
      ).body;
      const rows = await waitFor(
        'three schedule runs',
        async () => {
          const found = await query(
            app,
            'select scheduled_for, extract(epoch from created_at - scheduled_for) * 1000 as lag_ms from routine_runs where trigger_id = $1 order by scheduled_for',
            [trigger.id],
          );
          return found.length >= 3 ? found : null;
        },
        15_000,
      );
      for (const row of rows.slice(0, 3)) {
        const lag = Number(row.lag_ms);
        assert.ok(lag >= -100 && lag < 2_000, `tick ${iso(row.scheduled_for)} recorded ${lag} ms after its time`);
        assert.equal(new Date(row.scheduled_for).getUTCSeconds() % 2, 0);
      }
      // Consecutive ticks, none skipped.
      assert.equal(ms(iso(rows[2].scheduled_for)) - ms(iso(rows[0].scheduled_for)), 4_000);
    } finally {
      await app.close();
    }
  });

  it('a run recorded but never decided (a crash between the steps) is decided by the sweep once it is 5 s old', async () => {
    const { routine, trigger } = await scheduled('0 0 * * *');
    const db = t.database.db;
    const [routineRow] = await db.select().from(routines).where(eq(routines.id, routine.id));
    const [triggerRow] = await db.select().from(routineTriggers).where(eq(routineTriggers.id, trigger.id));
    const record = (scheduledFor: string) =>
      db.transaction((tx) =>
        recordRun(tx, systemActor('scheduler'), routineRow!, triggerRow!, {
          source: 'schedule',
          scheduledFor: new Date(scheduledFor),
        }),
      );
    const old = (await record('2030-05-01T00:00:00Z')).run;
    const recent = (await record('2030-05-02T00:00:00Z')).run;
    await sql("update routine_runs set created_at = now() - interval '10 seconds' where id = $1", [old.id]);
    const status = async (id: string) =>
      (await sql('select status, linked_issue_id from routine_runs where id = $1', [id]))[0];
    assert.equal((await status(old.id)).status, 'received');

    assert.equal(await decideStrandedRuns(db), 1);
    const decided = await status(old.id);
    assert.equal(decided.status, 'issue_created');
    assert.ok(decided.linked_issue_id);
    assert.equal((await status(recent.id)).status, 'received', 'a fresh run is left to its own decision');
    // Later (an injectable clock again), the recent one is stranded too: the policy sees the open issue.
    assert.equal(await decideStrandedRuns(db, Date.now() + 6_000), 1);
    assert.deepEqual(await status(recent.id), { status: 'coalesced', linked_issue_id: decided.linked_issue_id });
    assert.equal(await decideStrandedRuns(db, Date.now() + 6_000), 0);
  });
});
