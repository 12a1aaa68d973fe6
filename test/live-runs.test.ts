// GET /api/companies/{companyId}/live-runs: the board's "Now" view. Real engine runs of a process
// agent: the run appears with its agent and issue, its last log line follows the output (escape
// sequences removed, long lines cut), and it leaves the list when it ends. Bounds and access too.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lastLine, LAST_LINE_MAX } from '../src/modules/runs/last-line.ts';
import { useTestApp } from './helpers/app.ts';
import { newAgent, newIssue } from './helpers/factories.ts';
import { steppingAgent } from './helpers/stepping-agent.ts';
import { waitFor } from './helpers/wait.ts';

const t = await useTestApp({ engine: { pollMs: 200 } });

describe('live runs', () => {
  it('lists a live run with its agent, issue and last log line, following the log, until it ends', async () => {
    const { company, token } = await t.newCompany();
    const { adapterConfig, go } = await steppingAgent([
      ['\x1b[32mstarting\x1b[0m work'],
      ['reading the issue', '', '   '],
      ['y'.repeat(LAST_LINE_MAX + 50)],
    ]);
    const { agent } = await newAgent(t, token, company.id, { name: 'Scout', adapterConfig });
    const issue = await newIssue(t, token, company.id, { title: 'Map the coast' });
    const wake = await t.request('POST', `/api/agents/${agent.id}/wakeup`, {
      token,
      body: { payload: { issueId: issue.id } },
    });
    assert.equal(wake.status, 202, JSON.stringify(wake.body));
    const live = () => t.request('GET', `/api/companies/${company.id}/live-runs`, { token });

    const first = await waitFor('the first line', async () => {
      const res = await live();
      assert.equal(res.status, 200);
      return res.body[0]?.lastLogLine === 'starting work' ? res.body[0] : null;
    });
    assert.equal(first.status, 'running');
    assert.equal(first.agentId, agent.id);
    assert.equal(first.agentName, 'Scout');
    assert.equal(first.issueId, issue.id);
    assert.equal(first.issueIdentifier, issue.identifier);
    assert.equal(first.issueTitle, 'Map the coast');
    assert.ok(first.startedAt && first.createdAt && first.logBytes > 0);

    await go(1);
    await waitFor('blank lines passed over', async () => (await live()).body[0]?.lastLogLine === 'reading the issue');
    await go(2);
    const long = await waitFor('the long line, cut', async () => {
      const line = (await live()).body[0]?.lastLogLine;
      return line?.startsWith('yyy') ? line : null;
    });
    assert.equal(long.length, LAST_LINE_MAX);
    assert.ok(long.endsWith('…'));

    await go(3);
    await waitFor('the run to leave the list', async () => (await live()).body.length === 0);
  });

  it('lists queued runs (no output yet), newest first, up to limit', async () => {
    const { company, token } = await t.newCompany();
    const { agent } = await newAgent(t, token, company.id, { name: 'Idle' });
    const insert = (createdAt: string) =>
      t.database.pool.query(
        `insert into heartbeat_runs (company_id, agent_id, status, invocation_source, adapter_type, created_at) values ($1, $2, 'queued', 'on_demand', 'process', $3) returning id`,
        [company.id, agent.id, createdAt],
      );
    const older = (await insert('2026-01-01T00:00:00Z')).rows[0].id;
    const newer = (await insert('2026-01-02T00:00:00Z')).rows[0].id;
    await t.database.pool.query(
      `insert into heartbeat_runs (company_id, agent_id, status, invocation_source, adapter_type, finished_at) values ($1, $2, 'succeeded', 'on_demand', 'process', now())`,
      [company.id, agent.id],
    );
    const all = await t.request('GET', `/api/companies/${company.id}/live-runs`, { token });
    assert.deepEqual(
      all.body.map((run: { runId: string }) => run.runId),
      [newer, older],
    );
    assert.deepEqual(
      { ...all.body[0], runId: undefined, createdAt: undefined },
      {
        runId: undefined,
        createdAt: undefined,
        status: 'queued',
        agentId: agent.id,
        agentName: 'Idle',
        issueId: null,
        issueIdentifier: null,
        issueTitle: null,
        startedAt: null,
        logBytes: 0,
        lastLogLine: null,
      },
    );
    const one = await t.request('GET', `/api/companies/${company.id}/live-runs?limit=1`, { token });
    assert.deepEqual(
      one.body.map((run: { runId: string }) => run.runId),
      [newer],
    );
    for (const limit of ['0', '101', 'x'])
      assert.equal(
        (await t.request('GET', `/api/companies/${company.id}/live-runs?limit=${limit}`, { token })).status,
        400,
        limit,
      );
  });

  it('is for callers with access to the company', async () => {
    const { company, token } = await t.newCompany();
    const other = await t.newCompany();
    const { token: agentToken } = await newAgent(t, token, company.id);
    assert.equal((await t.request('GET', `/api/companies/${company.id}/live-runs`, { token: agentToken })).status, 200);
    assert.equal(
      (await t.request('GET', `/api/companies/${company.id}/live-runs`, { token: other.token })).status,
      403,
    );
    assert.equal((await t.request('GET', `/api/companies/${company.id}/live-runs`)).status, 401);
    assert.equal((await t.request('GET', '/api/companies/not-a-uuid/live-runs', { token })).status, 400);
  });

  it('reads the last line as a person would see it', () => {
    assert.equal(lastLine(null), null);
    assert.equal(lastLine(''), null);
    assert.equal(lastLine('\n \n'), null);
    assert.equal(lastLine('one\ntwo\n'), 'two');
    assert.equal(lastLine('one\r\ntwo\r\n\r\n'), 'two');
    assert.equal(lastLine('progress 10%\rprogress 90%'), 'progress 90%');
    assert.equal(lastLine('\x1b[1;31mred\x1b[0m \x1b]0;title\x07done\x07'), 'red done');
  });
});
