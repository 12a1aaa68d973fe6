// The engine under load: many agents, several live runs each, runs starting and finishing in the
// same millisecond. Every run must end with the status its process earned, never with an error of
// the engine's own (a deadlock between two runs' transactions was one).
import assert from 'node:assert/strict';
import path from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import pino from 'pino';
import { sql as sqlTag } from 'drizzle-orm';
import { systemActor } from '../src/core/actor.ts';
import { finishRun } from '../src/modules/runs/lifecycle.ts';
import { transactionWithRetry } from '../src/db/retry.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { newAgent, newIssue } from './helpers/factories.ts';
import { waitFor } from './helpers/wait.ts';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'agents');
const BARRIER = path.join(FIXTURES, 'barrier.mjs');
const AGENTS = 20;
const WAKES_PER_AGENT = 10;

const logLines: string[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    logLines.push(...String(chunk).split('\n').filter(Boolean));
    done();
  },
});

let t: TestApp;
let board: string;
let companyId: string;

before(async () => {
  t = await startTestApp({ engine: { pollMs: 200, reaperIntervalMs: 500 }, logger: pino({ level: 'info' }, sink) });
  const c = await t.newCompany();
  board = c.token;
  companyId = c.company.id;
});
after(() => t.close());

const sql = async (text: string, params: unknown[] = []) => (await t.database.pool.query(text, params)).rows;

describe('engine: 20 agents, 5 runs each at once, 200 wakes', () => {
  it('every run ends as its process ended: no deadlock, no run failed by the engine, no error logged', async () => {
    const agents = await Promise.all(
      Array.from({ length: AGENTS }, () =>
        newAgent(t, board, companyId, {
          adapterConfig: { command: process.execPath, args: [BARRIER, '250', 'checkout'] },
          runtimeConfig: { maxConcurrentRuns: 5, maxRunsPerHour: 1000 },
        }),
      ),
    );
    // One issue per wake so runs of one agent go side by side; each process checks its issue out (as
    // real agents do: the issue and run rows get locked by the API too); every third one exits 3.
    const expected = new Map<string, number>();
    const wakes: { agentId: string; issueId: string }[] = [];
    for (const [a, { agent }] of agents.entries()) {
      for (let i = 0; i < WAKES_PER_AGENT; i++) {
        const exitCode = (a * WAKES_PER_AGENT + i) % 3 === 0 ? 3 : 0;
        const issue = await newIssue(t, board, companyId, { title: `load ${a}-${i} exit ${exitCode}`, status: 'todo' });
        expected.set(issue.id, exitCode);
        wakes.push({ agentId: agent.id, issueId: issue.id });
      }
    }

    const started = Date.now();
    const responses = await Promise.all(
      wakes.map((w) =>
        t.request('POST', `/api/agents/${w.agentId}/wakeup`, {
          token: board,
          body: { payload: { issueId: w.issueId } },
        }),
      ),
    );
    assert.ok(responses.every((r) => r.status === 202));
    const wakeIds = responses.map((r) => r.body.id);
    const runs = await waitFor(
      'every wake to become a finished run',
      async () => {
        const rows = await sql(
          `select w.status as wake_status, r.* from agent_wakeup_requests w left join heartbeat_runs r on r.id = w.run_id where w.id = any($1)`,
          [wakeIds],
        );
        return rows.length === wakes.length &&
          rows.every((r) => r.wake_status === 'completed' && r.status && !['queued', 'running'].includes(r.status))
          ? rows
          : null;
      },
      240_000,
    );
    const elapsedMs = Date.now() - started;

    const engineFailures = runs.filter((r) => /engine error|deadlock/.test(r.error ?? ''));
    assert.deepEqual(
      engineFailures.map((r) => r.error),
      [],
      'no run failed by the engine',
    );
    for (const run of runs) {
      const exitCode = expected.get(run.issue_id);
      assert.equal(run.exit_code, exitCode, `run ${run.id}`);
      assert.equal(run.status, exitCode === 0 ? 'succeeded' : 'failed', `run ${run.id}: ${run.error}`);
    }
    // Each process checked its issue out with its run, and the run is listed on its issue.
    const held = await sql(
      `select i.id, i.checkout_run_id, exists (select 1 from heartbeat_run_issues l where l.issue_id = i.id and l.run_id = i.checkout_run_id) as linked from issues i where i.id = any($1)`,
      [[...expected.keys()]],
    );
    const runOfIssue = new Map(runs.map((r) => [r.issue_id, r.id]));
    assert.ok(
      held.every((i) => i.checkout_run_id === runOfIssue.get(i.id) && i.linked),
      'every issue checked out by its run and linked to it',
    );
    const errors = logLines.filter((line) => line.includes('"level":50'));
    assert.deepEqual(errors, [], 'no error logged');
    // Each agent's status follows its last run; none is left running.
    const statuses = await sql(`select status from agents where company_id = $1`, [companyId]);
    assert.ok(
      statuses.every((a) => a.status === 'idle' || a.status === 'error'),
      JSON.stringify(statuses),
    );
    const perRun = await sql(
      `select max(c) as most from (select count(*) as c from heartbeat_runs where company_id = $1 and status in ('queued', 'running') group by agent_id) x`,
      [companyId],
    );
    assert.equal(perRun[0].most, null);
    const retries = logLines.filter((line) => line.includes('retrying the transaction')).length;
    console.log(
      `200 wakes of 20 agents: ${elapsedMs} ms from the first wake to the last finished run; ${retries} transaction retries logged`,
    );
  });
});

describe('engine: the lock order (agent, issue, run, wakeup)', () => {
  // What a pause (or an interrupt, or a decision) does: lock the agent, then end its run. A finish
  // of that run racing it used to lock the run, then wait for the agent: each waited for the other
  // and PostgreSQL aborted one (40P01). Here the two sides are held apart on purpose, so the cycle
  // forms every time when the order is wrong. Plain transactions, no retry: the order alone must do it.
  it("a run's finish waits for its agent's lock before it takes the run's: no deadlock with a pause ending that run", async () => {
    const { agent } = await newAgent(t, board, companyId, {
      adapterConfig: { command: process.execPath, args: [path.join(FIXTURES, 'worker.mjs'), '60000'] },
    });
    await t.request('POST', `/api/agents/${agent.id}/wakeup`, { token: board, body: {} });
    const run = await waitFor(
      'the run to start',
      async () =>
        (await sql(`select id from heartbeat_runs where agent_id = $1 and status = 'running'`, [agent.id]))[0],
    );

    const pause = new pg.Client({ connectionString: t.databaseUrl });
    await pause.connect();
    try {
      await pause.query('begin');
      await pause.query('select id from agents where id = $1 for no key update', [agent.id]);
      const finishing = t.database.db
        .transaction((tx) => finishRun(tx, systemActor('test'), run.id, { status: 'succeeded' }))
        .then(
          (ended) => ({ ended, error: null }),
          (error: Error) => ({ ended: null, error }),
        );
      await waitFor(
        'the finish to wait for a lock',
        async () =>
          (
            await sql(
              `select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query like '%heartbeat_runs%'`,
            )
          ).length > 0,
      );
      // The pause's second step: end the run.
      await pause.query(
        `update heartbeat_runs set status = 'cancelled', error = 'agent_paused', finished_at = now() where id = $1 and status in ('queued', 'running')`,
        [run.id],
      );
      await pause.query('commit');
      const { ended, error } = await finishing;
      assert.equal(
        error,
        null,
        `the finish failed: ${error?.message} ${(error?.cause as Error | undefined)?.message ?? ''}`,
      );
      assert.equal(ended, null, 'the pause ended the run first; the finish found nothing live');
    } finally {
      await pause.end();
    }
    const [row] = await sql('select status, error from heartbeat_runs where id = $1', [run.id]);
    assert.deepEqual(row, { status: 'cancelled', error: 'agent_paused' });
  });
});

describe('engine: transactionWithRetry', () => {
  // A real cycle between two transactions: the retried one waits first, so its deadlock check fires
  // first and PostgreSQL aborts it; the second try runs after the other side committed.
  it('runs a transaction again when PostgreSQL aborts it for a deadlock (40P01), and only then', async () => {
    const [{ agent: first }, { agent: second }] = [
      await newAgent(t, board, companyId),
      await newAgent(t, board, companyId),
    ];
    const other = new pg.Client({ connectionString: t.databaseUrl });
    await other.connect();
    const retries: string[] = [];
    let attempts = 0;
    try {
      const lockRow = (tx: Parameters<Parameters<typeof transactionWithRetry>[1]>[0], id: string) =>
        tx.execute(sqlTag`select id from agents where id = ${id} for no key update`);
      let otherDone: Promise<unknown> = Promise.resolve();
      const result = await transactionWithRetry(
        t.database.db,
        async (tx) => {
          attempts++;
          await lockRow(tx, first.id);
          if (attempts === 1) {
            await other.query('begin');
            await other.query('select id from agents where id = $1 for no key update', [second.id]);
            // The other side asks for `first` once this one is seen waiting for `second`: the cycle,
            // with this side waiting first whatever the machine's load (a fixed delay was not).
            otherDone = waitFor(
              'the retried transaction waiting for a row lock',
              async () =>
                (
                  await t.database.pool.query(
                    "select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
                  )
                ).rowCount,
              30_000,
            ).then(async () => {
              await other.query('select id from agents where id = $1 for no key update', [first.id]);
              await other.query('commit');
            });
          }
          await lockRow(tx, second.id);
          return attempts;
        },
        { onRetry: (err) => retries.push(String((err as { cause?: { code?: string } }).cause?.code)) },
      );
      await otherDone;
      assert.equal(result, 2);
      assert.deepEqual(retries, ['40P01']);
    } finally {
      await other.end();
    }
    // Anything else fails at once, untried.
    attempts = 0;
    await assert.rejects(
      transactionWithRetry(t.database.db, async (tx) => {
        attempts++;
        await tx.execute(sqlTag`select 1 / 0`);
      }),
    );
    assert.equal(attempts, 1);
  });
});
