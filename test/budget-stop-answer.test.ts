// A hard stop is in effect when the answer of the write that crossed it goes out (issue 25, defect
// 1): a client that reads the agent or wakes it right after the cost event's 201 finds it paused and
// is refused, whichever replica took the cost event, and the scope's live runs on every replica are
// already cancelled. The engine's sweep is set to a minute here, so nothing but the answer path
// (server/budget-stop-answers.ts) can have applied the stop in time.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { LIVE_RUN_STATUSES } from '../src/core/statuses.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { newAgent } from './helpers/factories.ts';
import { waitFor } from './helpers/wait.ts';

const WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'agents', 'worker.mjs');
const NO_SWEEP_MS = 60_000;
const ROUNDS = 200;

let first: TestApp;
let second: TestApp;
before(async () => {
  first = await startTestApp({ budgetStopMs: NO_SWEEP_MS });
  second = await startTestApp({ replicaOf: first, budgetStopMs: NO_SWEEP_MS });
});
after(async () => {
  await second.close();
  await first.close();
});

const costEvent = (agentId: string, costCents: number) => ({
  agentId,
  provider: 'acme',
  model: 'm1',
  costCents,
  occurredAt: new Date().toISOString(),
});

/** A fresh company with a monthly budget of `cents` and one idle agent. */
let companies = 0;
/**
 * A name whose first three letters no other company here shares: past 51 companies on the same
 * three letters the issue prefix falls back to a random number that can collide (a 409 on create).
 */
function uniqueName(): string {
  const n = companies++;
  const letter = (i: number) => String.fromCharCode(65 + (i % 26));
  return `${letter(n)}${letter(Math.floor(n / 26))}${letter(Math.floor(n / 676))} Works`;
}

async function companyOnBudget(t: TestApp, cents: number, agentFields: Record<string, unknown> = {}) {
  const { company, token } = await t.newCompany(undefined, { name: uniqueName() });
  const budget = await t.request('PATCH', `/api/companies/${company.id}/budgets`, {
    token,
    body: { budgetMonthlyCents: cents },
  });
  assert.equal(budget.status, 200, JSON.stringify(budget.body));
  const { agent } = await newAgent(t, token, company.id, agentFields);
  return { company, token, agent };
}

describe('a hard stop crossed by a cost event is in effect when the event answers', () => {
  it(`${ROUNDS} rounds over two replicas: the agent read at once is never idle, a wakeup at once never 202`, async () => {
    const seen = { paused: 0, refused: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      // Odd rounds post the cost to the second replica and read and wake through the first, and the
      // other way round: the stop must hold on a replica that did not answer the cost event.
      const [poster, reader] = round % 2 === 0 ? [first, second] : [second, first];
      const { company, token, agent } = await companyOnBudget(poster, 1000);
      const posted = await poster.request('POST', `/api/companies/${company.id}/cost-events`, {
        token,
        body: costEvent(agent.id, 1200),
      });
      assert.equal(posted.status, 201);
      const read = await reader.request('GET', `/api/agents/${agent.id}`, { token });
      assert.equal(read.status, 200);
      assert.deepEqual(
        [read.body.status, read.body.pauseReason],
        ['paused', 'budget'],
        `round ${round}: the agent read right after the crossing answer`,
      );
      seen.paused++;
      const woken = await reader.request('POST', `/api/agents/${agent.id}/wakeup`, { token, body: {} });
      assert.notEqual(woken.status, 202, `round ${round}: a wakeup right after the crossing answer`);
      assert.equal(woken.status, 409, JSON.stringify(woken.body));
      seen.refused++;
    }
    assert.deepEqual(seen, { paused: ROUNDS, refused: ROUNDS });
    // The stop's audit entry and approval are written as the engine's were.
    const { rows } = await first.database.pool.query(
      "select count(*)::int as n from activity_log where action = 'budget.stop_applied'",
    );
    assert.equal(rows[0].n, ROUNDS);
  });

  it('a lowered budget answers with the scope already stopped', async () => {
    const { company, token, agent } = await companyOnBudget(first, 1000);
    assert.equal(
      (
        await first.request('POST', `/api/companies/${company.id}/cost-events`, {
          token,
          body: costEvent(agent.id, 500),
        })
      ).status,
      201,
    );
    const lowered = await second.request('PATCH', `/api/companies/${company.id}/budgets`, {
      token,
      body: { budgetMonthlyCents: 400 },
    });
    assert.equal(lowered.status, 200);
    const read = await first.request('GET', `/api/agents/${agent.id}`, { token });
    assert.deepEqual([read.body.status, read.body.pauseReason], ['paused', 'budget']);
  });
});

describe('live runs on two replicas', () => {
  let engineA: TestApp;
  let engineB: TestApp;
  before(async () => {
    engineA = await startTestApp({ engine: { pollMs: 100, budgetStopMs: NO_SWEEP_MS } });
    engineB = await startTestApp({ replicaOf: engineA, engine: { pollMs: 100, budgetStopMs: NO_SWEEP_MS } });
  });
  after(async () => {
    await engineB.close();
    await engineA.close();
  });

  it('10 live runs over both replicas are cancelled when the crossing cost event answers', async () => {
    const { company, token } = await engineA.newCompany();
    assert.equal(
      (
        await engineA.request('PATCH', `/api/companies/${company.id}/budgets`, {
          token,
          body: { budgetMonthlyCents: 1000 },
        })
      ).status,
      200,
    );
    const agents: string[] = [];
    for (let i = 0; i < 10; i++) {
      const { agent } = await newAgent(engineA, token, company.id, {
        adapterConfig: { command: process.execPath, args: [WORKER, '120000'] },
      });
      agents.push(agent.id);
      const woken = await (i % 2 === 0 ? engineA : engineB).request('POST', `/api/agents/${agent.id}/wakeup`, {
        token,
        body: {},
      });
      assert.equal(woken.status, 202);
    }
    const sql = async (text: string, params: unknown[]) => (await engineA.database.pool.query(text, params)).rows;
    const running = await waitFor(
      '10 runs running',
      async () => {
        const rows = await sql(
          "select id, agent_id from heartbeat_runs where company_id = $1 and status = 'running' and pid is not null",
          [company.id],
        );
        return rows.length === 10 ? rows : null;
      },
      30_000,
    );
    assert.equal(running.length, 10);
    const posted = await engineB.request('POST', `/api/companies/${company.id}/cost-events`, {
      token,
      body: costEvent(agents[0] as string, 1200),
    });
    assert.equal(posted.status, 201);
    const live = await sql('select id, status from heartbeat_runs where company_id = $1 and status = any($2)', [
      company.id,
      [...LIVE_RUN_STATUSES],
    ]);
    assert.deepEqual(live, [], 'no run of the stopped company is live once the cost event answered');
    const notPaused = await sql("select id, status from agents where company_id = $1 and status <> 'paused'", [
      company.id,
    ]);
    assert.deepEqual(notPaused, []);
    // The processes themselves end soon after (each replica kills its own on the run notification).
    await waitFor(
      'the 10 runs ended with error budget',
      async () =>
        (
          await sql("select count(*)::int as n from heartbeat_runs where company_id = $1 and error = 'budget'", [
            company.id,
          ])
        )[0].n === 10,
      15_000,
    );
  });
});
