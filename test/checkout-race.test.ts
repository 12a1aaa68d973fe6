// Checkout races: the database decides, exactly one caller wins. 50 agents on one issue, and 20 runs
// of one agent on each of several issues (the case that once let a run adopt the winner's fresh lock
// as stale, because the stale test read an old snapshot).
import { randomUUID } from 'node:crypto';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestApp } from './helpers/app.ts';
import { newAgent, newIssue, type AgentFixture } from './helpers/factories.ts';

const t = await useTestApp();
const RACERS = 50;
const RUNS_PER_ISSUE = 20;
const RUN_RACE_ISSUES = 10;

describe('checkout race', () => {
  it('50 agents with their own keys and runs: one 200, 49 409; then idempotency, stale adoption and refusals', async () => {
    const { company, token } = await t.newCompany();
    const racers: AgentFixture[] = [];
    // Created ten at a time: fast, and light on the shared two-core runner.
    for (let i = 0; i < RACERS; i += 10) {
      racers.push(
        ...(await Promise.all(
          Array.from({ length: 10 }, (_, j) => newAgent(t, token, company.id, { name: `Racer ${i + j}` })),
        )),
      );
    }
    const issue = await newIssue(t, token, company.id, { status: 'todo' });
    const runIds = racers.map(() => randomUUID());

    const results = await Promise.all(
      racers.map((racer, i) =>
        t.request('POST', `/api/issues/${issue.id}/checkout`, {
          token: racer.token,
          headers: { 'x-service-run-id': runIds[i]! },
          body: { agentId: racer.agent.id, expectedStatuses: ['todo', 'backlog'] },
        }),
      ),
    );
    const winners = results.map((r, i) => ({ r, i })).filter(({ r }) => r.status === 200);
    const losers = results.filter((r) => r.status === 409);
    assert.equal(winners.length, 1, `statuses: ${results.map((r) => r.status).join(',')}`);
    assert.equal(losers.length, RACERS - 1);
    const w = winners[0]!.i;
    const winner = racers[w]!;
    for (const lost of losers) {
      assert.equal(lost.body.details.holder.agentId, winner.agent.id);
      assert.equal(lost.body.details.retryable, false);
      assert.match(lost.body.error, /do not retry/);
    }

    // The database holds exactly the winner: the issue row, one touched-run row, one activity entry.
    const {
      rows: [row],
    } = await t.database.pool.query('select status, assignee_agent_id, checkout_run_id from issues where id = $1', [
      issue.id,
    ]);
    assert.deepEqual(row, { status: 'in_progress', assignee_agent_id: winner.agent.id, checkout_run_id: runIds[w] });
    const touched = await t.database.pool.query('select run_id from heartbeat_run_issues where issue_id = $1', [
      issue.id,
    ]);
    assert.deepEqual(
      touched.rows.map((r) => r.run_id),
      [runIds[w]],
    );
    const activity = await t.database.pool.query(
      `select agent_id, run_id from activity_log where entity_id = $1 and action = 'issue.checked_out'`,
      [issue.id],
    );
    assert.deepEqual(activity.rows, [{ agent_id: winner.agent.id, run_id: runIds[w] }]);
    // Losers' transactions rolled back: only the winner's run was recorded.
    const runs = await t.database.pool.query('select id from heartbeat_runs where company_id = $1', [company.id]);
    assert.deepEqual(
      runs.rows.map((r) => r.id),
      [runIds[w]],
    );

    const checkout = (racer: AgentFixture, runId: string, expectedStatuses: string[]) =>
      t.request('POST', `/api/issues/${issue.id}/checkout`, {
        token: racer.token,
        headers: { 'x-service-run-id': runId },
        body: { agentId: racer.agent.id, expectedStatuses },
      });

    const repeat = await checkout(winner, runIds[w]!, ['in_progress']);
    assert.equal(repeat.status, 200);
    assert.equal(repeat.body.checkoutRunId, runIds[w]);

    // The engine marks the winner's run failed: the lock is stale, the same assignee adopts it.
    await t.database.pool.query(`update heartbeat_runs set status = 'failed', finished_at = now() where id = $1`, [
      runIds[w],
    ]);
    const other = racers[(w + 1) % RACERS]!;
    const stolen = await checkout(other, randomUUID(), ['todo', 'in_progress']);
    assert.equal(stolen.status, 409);
    assert.equal(stolen.body.details.reason, 'owned_by_another_agent');
    assert.equal(stolen.body.details.holder.runLive, false);
    const newRun = randomUUID();
    const adopted = await checkout(winner, newRun, ['in_progress']);
    assert.equal(adopted.status, 200);
    assert.equal(adopted.body.checkoutRunId, newRun);
    assert.equal(adopted.body.assigneeAgentId, winner.agent.id);
    const stillRefused = await checkout(other, randomUUID(), ['in_progress']);
    assert.equal(stillRefused.status, 409);
    assert.equal(stillRefused.body.details.holder.runId, newRun);
    assert.equal(stillRefused.body.details.holder.runLive, true);
  });

  it('20 runs of one agent race on each of 10 issues: one 200 per issue, the others 409, one running run per issue', async () => {
    const { company, token } = await t.newCompany();
    const agent = await newAgent(t, token, company.id, { name: 'Many Runs' });
    for (let n = 0; n < RUN_RACE_ISSUES; n++) {
      const issue = await newIssue(t, token, company.id, { status: 'todo' });
      const runIds = Array.from({ length: RUNS_PER_ISSUE }, () => randomUUID());
      const results = await Promise.all(
        runIds.map((runId) =>
          t.request('POST', `/api/issues/${issue.id}/checkout`, {
            token: agent.token,
            headers: { 'x-service-run-id': runId },
            body: { agentId: agent.agent.id, expectedStatuses: ['todo', 'in_progress'] },
          }),
        ),
      );
      const statuses = results.map((r) => r.status).join(',');
      const winners = results.map((r, i) => ({ r, runId: runIds[i]! })).filter(({ r }) => r.status === 200);
      assert.equal(winners.length, 1, `issue ${n}: statuses ${statuses}`);
      const winnerRun = winners[0]!.runId;
      assert.equal(winners[0]!.r.body.checkoutRunId, winnerRun);
      for (const r of results.filter((x) => x.status !== 200)) {
        assert.equal(r.status, 409, `issue ${n}: ${JSON.stringify(r.body)}`);
        assert.equal(r.body.details.reason, 'owned_by_another_run');
        assert.equal(r.body.details.holder.runId, winnerRun);
        assert.equal(r.body.details.holder.runLive, true);
        assert.equal(r.body.details.retryable, false);
      }

      const {
        rows: [row],
      } = await t.database.pool.query('select status, assignee_agent_id, checkout_run_id from issues where id = $1', [
        issue.id,
      ]);
      assert.deepEqual(row, { status: 'in_progress', assignee_agent_id: agent.agent.id, checkout_run_id: winnerRun });
      const runs = await t.request('GET', `/api/issues/${issue.id}/runs`, { token });
      assert.equal(runs.status, 200);
      assert.deepEqual(
        runs.body.map((r: any) => [r.runId, r.status]),
        [[winnerRun, 'running']],
      );
      // Refused runs left no run record: only the winner of each issue so far is running.
      const running = await t.database.pool.query(
        `select id from heartbeat_runs where agent_id = $1 and status = 'running'`,
        [agent.agent.id],
      );
      assert.equal(running.rowCount, n + 1);
      assert.ok(running.rows.some((r) => r.id === winnerRun));
    }
  });
});
