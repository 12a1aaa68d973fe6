// Agents: status table (pause, resume, terminate), hard delete, keys, wakeups and hires.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { useTestApp } from './helpers/app.ts';
import {
  activityRows,
  companyWithAgent,
  newAgent,
  newIssue,
  newSecret,
  type AgentFixture,
} from './helpers/factories.ts';

const t = await useTestApp();
const MISSING = '00000000-0000-4000-8000-000000000000';

let companyId: string;
let board: string;
let worker: AgentFixture;
let ceo: AgentFixture;
let other: { companyId: string; board: string; agent: AgentFixture; ceo: AgentFixture };

before(async () => {
  const a = await companyWithAgent(t, { name: 'Worker' });
  companyId = a.company.id;
  board = a.boardToken;
  worker = a.agent;
  ceo = await newAgent(t, board, companyId, { name: 'Chief', role: 'ceo' });
  const b = await companyWithAgent(t);
  other = {
    companyId: b.company.id,
    board: b.boardToken,
    agent: b.agent,
    ceo: await newAgent(t, b.boardToken, b.company.id, { role: 'ceo' }),
  };
});

/** Puts an agent into pending_approval the way a hire with required approval leaves it. */
async function pendingAgent(): Promise<any> {
  const { agent } = await newAgent(t, board, companyId);
  await t.database.pool.query(`update agents set status = 'pending_approval' where id = $1`, [agent.id]);
  return agent;
}

const post = (url: string, token: string, body?: unknown) => t.request('POST', url, { token, body });

/** An agent's wake rows and wakeup entries: what a refused wakeup must leave as it was. */
async function wakesOf(agentId: string) {
  const { rows } = await t.database.pool.query(
    `select (select count(*)::int from agent_wakeup_requests where agent_id = $1) as wakes,
            (select count(*)::int from activity_log where action = 'agent.wakeup_requested' and entity_id = $1::text) as entries`,
    [agentId],
  );
  return rows[0] as { wakes: number; entries: number };
}

describe('agents: pause, resume, terminate', () => {
  it('pauses and resumes with activity entries; both are idempotent', async () => {
    const { agent } = await newAgent(t, board, companyId);
    const paused = await post(`/api/agents/${agent.id}/pause`, board);
    assert.equal(paused.status, 200);
    assert.equal(paused.body.status, 'paused');
    assert.equal((await post(`/api/agents/${agent.id}/pause`, board)).body.status, 'paused');
    const resumed = await post(`/api/agents/${agent.id}/resume`, ceo.token);
    assert.equal(resumed.status, 200);
    assert.equal(resumed.body.status, 'idle');
    assert.equal((await post(`/api/agents/${agent.id}/resume`, board)).body.status, 'idle');
    assert.equal((await activityRows(t, companyId, 'agent.paused')).filter((r) => r.entity_id === agent.id).length, 1);
    assert.equal((await activityRows(t, companyId, 'agent.resumed')).filter((r) => r.entity_id === agent.id).length, 1);
  });

  it('a status PATCH pauses and resumes as the routes do: pauseReason manual, waiting wakes cancelled, reason cleared on leaving', async () => {
    const { agent } = await newAgent(t, board, companyId);
    assert.equal(
      (await post(`/api/agents/${agent.id}/wakeup`, board, { reason: 'queued before the pause' })).status,
      202,
    );
    const paused = await t.request('PATCH', `/api/agents/${agent.id}`, { token: board, body: { status: 'paused' } });
    assert.equal(paused.status, 200);
    assert.deepEqual([paused.body.status, paused.body.pauseReason], ['paused', 'manual']);
    const waiting = await t.database.pool.query(
      'select status, outcome_reason from agent_wakeup_requests where agent_id = $1',
      [agent.id],
    );
    assert.deepEqual(waiting.rows, [{ status: 'cancelled', outcome_reason: 'agent_paused' }]);
    const idle = await t.request('PATCH', `/api/agents/${agent.id}`, { token: board, body: { status: 'idle' } });
    assert.deepEqual([idle.body.status, idle.body.pauseReason], ['idle', null]);
  });

  it('terminates: keys revoked, record kept and fetchable, hidden from lists; pause/resume then 409', async () => {
    const { agent, token } = await newAgent(t, board, companyId, { name: 'Doomed' });
    await post(`/api/agents/${agent.id}/keys`, board, { name: 'second' });
    const res = await post(`/api/agents/${agent.id}/terminate`, board);
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'terminated');
    const keys = await t.request('GET', `/api/agents/${agent.id}/keys`, { token: board });
    assert.equal(keys.body.length, 2);
    assert.ok(keys.body.every((k: any) => k.revokedAt !== null));
    assert.equal((await t.request('GET', '/api/agents/me', { token })).status, 401);
    assert.equal((await t.request('GET', `/api/agents/${agent.id}`, { token: board })).body.status, 'terminated');
    const list = await t.request('GET', `/api/companies/${companyId}/agents`, { token: board });
    assert.ok(!list.body.some((a: any) => a.id === agent.id));
    assert.equal((await post(`/api/agents/${agent.id}/pause`, board)).status, 409);
    assert.equal((await post(`/api/agents/${agent.id}/resume`, board)).status, 409);
    assert.equal((await post(`/api/agents/${agent.id}/terminate`, board)).status, 200);
    assert.equal(
      (await activityRows(t, companyId, 'agent.terminated')).filter((r) => r.entity_id === agent.id).length,
      1,
    );
    // Its name is free again for a new agent.
    assert.equal((await newAgent(t, board, companyId, { name: 'Doomed' })).agent.name, 'Doomed');
  });

  it('refuses to resume (or pause) a pending_approval agent', async () => {
    const agent = await pendingAgent();
    assert.equal((await post(`/api/agents/${agent.id}/resume`, board)).status, 409);
    assert.equal((await post(`/api/agents/${agent.id}/pause`, board)).status, 409);
    assert.equal((await t.request('GET', `/api/agents/${agent.id}`, { token: board })).body.status, 'pending_approval');
  });

  it('allows the board or the company CEO only', async () => {
    const { agent, token } = await newAgent(t, board, companyId);
    for (const action of ['pause', 'resume', 'terminate']) {
      const url = `/api/agents/${agent.id}/${action}`;
      assert.equal((await post(url, token)).status, 403, `${action} self`);
      assert.equal((await post(url, worker.token)).status, 403, `${action} peer`);
      assert.equal((await post(url, other.board)).status, 403, `${action} other board`);
      assert.equal((await post(url, other.agent.token)).status, 403, `${action} other agent`);
      assert.equal((await post(url, other.ceo.token)).status, 403, `${action} other ceo`);
      assert.equal((await post(`/api/agents/${MISSING}/${action}`, board)).status, 404);
    }
    assert.equal((await post(`/api/agents/${agent.id}/pause`, ceo.token)).status, 200);
    assert.equal((await post(`/api/agents/${agent.id}/terminate`, ceo.token)).status, 200);
  });
});

describe('agents: hard delete', () => {
  it('removes the agent, its keys, wakeups and runs; board only', async () => {
    const { agent, token } = await newAgent(t, board, companyId);
    assert.equal((await post(`/api/agents/${agent.id}/wakeup`, board, {})).status, 202);
    await t.database.pool.query('insert into heartbeat_runs (company_id, agent_id, status) values ($1, $2, $3)', [
      companyId,
      agent.id,
      'succeeded',
    ]);
    for (const caller of [token, ceo.token, other.board, other.agent.token]) {
      assert.equal((await t.request('DELETE', `/api/agents/${agent.id}`, { token: caller })).status, 403);
    }
    const res = await t.request('DELETE', `/api/agents/${agent.id}`, { token: board });
    assert.equal(res.status, 200);
    assert.equal((await t.request('GET', `/api/agents/${agent.id}`, { token: board })).status, 404);
    for (const table of ['agent_api_keys', 'agent_wakeup_requests', 'heartbeat_runs']) {
      const { rows } = await t.database.pool.query(`select count(*)::int as n from ${table} where agent_id = $1`, [
        agent.id,
      ]);
      assert.equal(rows[0].n, 0, table);
    }
    assert.equal((await activityRows(t, companyId, 'agent.deleted')).filter((r) => r.entity_id === agent.id).length, 1);
    assert.equal((await t.request('DELETE', `/api/agents/${agent.id}`, { token: board })).status, 404);
  });
});

describe('agents: API keys', () => {
  it('creates a key once-visible, lists records without secrets, revokes without removing', async () => {
    const { agent, token } = await newAgent(t, board, companyId);
    const created = await post(`/api/agents/${agent.id}/keys`, board, { name: 'ci' });
    assert.equal(created.status, 201);
    assert.match(created.body.token, /^svc_agent_[A-Za-z0-9_-]{43}$/);
    assert.equal(created.body.name, 'ci');
    const { rows } = await t.database.pool.query('select key_hash from agent_api_keys where id = $1', [
      created.body.id,
    ]);
    assert.notEqual(rows[0].key_hash, created.body.token);
    assert.ok(!rows[0].key_hash.includes(created.body.token));
    const list = await t.request('GET', `/api/agents/${agent.id}/keys`, { token: board });
    assert.equal(list.status, 200);
    assert.equal(list.body.length, 2);
    for (const key of list.body) {
      assert.deepEqual(Object.keys(key).sort(), ['agentId', 'createdAt', 'id', 'lastUsedAt', 'name', 'revokedAt']);
    }
    assert.doesNotMatch(JSON.stringify(list.body), /svc_agent_/);
    // The agent itself may list its keys; others may not.
    assert.equal((await t.request('GET', `/api/agents/${agent.id}/keys`, { token })).status, 200);
    assert.equal((await t.request('GET', `/api/agents/${agent.id}/keys`, { token: worker.token })).status, 403);
    const revoked = await t.request('DELETE', `/api/agents/${agent.id}/keys/${created.body.id}`, { token: board });
    assert.equal(revoked.status, 200);
    assert.ok(revoked.body.revokedAt);
    const after = await t.request('GET', `/api/agents/${agent.id}/keys`, { token: board });
    assert.equal(after.body.length, 2);
    assert.equal((await t.request('GET', '/api/agents/me', { token: created.body.token })).status, 401);
    assert.equal(
      (await activityRows(t, companyId, 'agent.key_created')).filter((r) => r.entity_id === agent.id).length,
      2,
    );
    assert.equal(
      (await activityRows(t, companyId, 'agent.key_revoked')).filter((r) => r.entity_id === agent.id).length,
      1,
    );
    assert.doesNotMatch(JSON.stringify(await activityRows(t, companyId, 'agent.key_created')), /svc_agent_/);
  });

  it('refuses key creation (409) for pending_approval and terminated agents', async () => {
    const pending = await pendingAgent();
    assert.equal((await post(`/api/agents/${pending.id}/keys`, board, { name: 'x' })).status, 409);
    const { agent } = await newAgent(t, board, companyId);
    await post(`/api/agents/${agent.id}/terminate`, board);
    assert.equal((await post(`/api/agents/${agent.id}/keys`, board, { name: 'x' })).status, 409);
  });

  it('lets only the board manage keys, company-scoped, with 404 and 400 cases', async () => {
    const { agent, token } = await newAgent(t, board, companyId);
    const [own] = (await t.request('GET', `/api/agents/${agent.id}/keys`, { token: board })).body;
    for (const caller of [token, ceo.token, other.board, other.agent.token]) {
      assert.equal((await post(`/api/agents/${agent.id}/keys`, caller, { name: 'x' })).status, 403);
      assert.equal(
        (await t.request('DELETE', `/api/agents/${agent.id}/keys/${own.id}`, { token: caller })).status,
        403,
      );
    }
    assert.equal((await t.request('GET', `/api/agents/${agent.id}/keys`, { token: other.board })).status, 403);
    assert.equal((await t.request('GET', `/api/agents/${agent.id}/keys`, { token: other.agent.token })).status, 403);
    assert.equal((await t.request('GET', `/api/agents/${MISSING}/keys`, { token: board })).status, 404);
    assert.equal((await post(`/api/agents/${MISSING}/keys`, board, { name: 'x' })).status, 404);
    assert.equal((await t.request('DELETE', `/api/agents/${agent.id}/keys/${MISSING}`, { token: board })).status, 404);
    // A key id of another agent does not resolve under this agent.
    const [workerKey] = (await t.request('GET', `/api/agents/${worker.agent.id}/keys`, { token: board })).body;
    assert.equal(
      (await t.request('DELETE', `/api/agents/${agent.id}/keys/${workerKey.id}`, { token: board })).status,
      404,
    );
    assert.equal((await t.request('DELETE', `/api/agents/${agent.id}/keys/nope`, { token: board })).status, 400);
    assert.equal((await post(`/api/agents/${agent.id}/keys`, board, { name: '' })).status, 400);
    assert.equal((await post(`/api/agents/${agent.id}/keys`, board, { name: 'x'.repeat(201) })).status, 400);
  });
});

describe('agents: wakeup', () => {
  it('records a queued wakeup request (202) for the board or the agent itself', async () => {
    const res = await post(`/api/agents/${worker.agent.id}/wakeup`, board, {
      source: 'on_demand',
      triggerDetail: 'ping',
      reason: 'look at this',
      payload: { issue: 'X-1' },
      forceFreshSession: true,
    });
    assert.equal(res.status, 202);
    assert.equal(res.body.status, 'queued');
    assert.equal(res.body.source, 'on_demand');
    assert.equal(res.body.triggerDetail, 'ping');
    assert.equal(res.body.forceFreshSession, true);
    const { rows } = await t.database.pool.query('select status, reason from agent_wakeup_requests where id = $1', [
      res.body.id,
    ]);
    assert.deepEqual(rows, [{ status: 'queued', reason: 'look at this' }]);
    const self = await t.request('POST', `/api/agents/${worker.agent.id}/wakeup`, {
      token: worker.token,
      body: { source: 'automation' },
      headers: { 'x-service-run-id': 'run-77' },
    });
    assert.equal(self.status, 202);
    const entry = (await activityRows(t, companyId, 'agent.wakeup_requested')).find(
      (r) => r.details.wakeupRequestId === self.body.id,
    );
    assert.equal(entry.run_id, 'run-77');
    assert.equal(entry.actor_type, 'agent');
  });

  it('returns the same request for a repeated idempotencyKey', async () => {
    const body = { source: 'on_demand', idempotencyKey: `k-${randomUUID()}` };
    const first = await post(`/api/agents/${worker.agent.id}/wakeup`, board, body);
    const second = await post(`/api/agents/${worker.agent.id}/wakeup`, board, body);
    assert.equal(first.status, 202);
    assert.equal(second.status, 202);
    assert.equal(second.body.id, first.body.id);
    const { rows } = await t.database.pool.query(
      'select count(*)::int as n from agent_wakeup_requests where idempotency_key = $1',
      [body.idempotencyKey],
    );
    assert.equal(rows[0].n, 1);
  });

  it('skips timer wakes while the heartbeat is disabled', async () => {
    const { agent } = await newAgent(t, board, companyId);
    const skipped = await post(`/api/agents/${agent.id}/wakeup`, board, { source: 'timer' });
    assert.equal(skipped.status, 202);
    assert.deepEqual(skipped.body, { skipped: true, reason: 'heartbeat_disabled', agentId: agent.id, source: 'timer' });
    const { rows } = await t.database.pool.query(
      'select count(*)::int as n from agent_wakeup_requests where agent_id = $1',
      [agent.id],
    );
    assert.equal(rows[0].n, 0);
    await t.request('PATCH', `/api/agents/${agent.id}`, {
      token: board,
      body: { runtimeConfig: { heartbeat: { enabled: true } } },
    });
    const queued = await post(`/api/agents/${agent.id}/wakeup`, board, { source: 'timer' });
    assert.equal(queued.status, 202);
    assert.equal(queued.body.status, 'queued');
  });

  it('checks payload.issueId: a UUID (400) of an issue of the same company (422), recorded on the wake', async () => {
    const url = `/api/agents/${worker.agent.id}/wakeup`;
    const before = await wakesOf(worker.agent.id);
    assert.equal((await post(url, board, { payload: { issueId: 'ACM-1' } })).status, 400);
    assert.equal((await post(url, board, { payload: { issueId: 42 } })).status, 400);
    assert.equal((await post(url, board, { payload: { issueId: MISSING } })).status, 422);
    const elsewhere = await t.newCompany();
    const foreign = await newIssue(t, elsewhere.token, elsewhere.company.id);
    assert.equal((await post(url, board, { payload: { issueId: foreign.id } })).status, 422);
    assert.deepEqual(await wakesOf(worker.agent.id), before, 'a refused wakeup writes no wake row');
    const own = await newIssue(t, board, companyId);
    const queued = await post(url, board, { payload: { issueId: own.id } });
    assert.equal(queued.status, 202);
    assert.equal(queued.body.issueId, own.id);
  });

  it('answers 409 for paused, terminated and pending_approval agents', async () => {
    const paused = (await newAgent(t, board, companyId)).agent;
    await post(`/api/agents/${paused.id}/pause`, board);
    const terminated = (await newAgent(t, board, companyId)).agent;
    await post(`/api/agents/${terminated.id}/terminate`, board);
    for (const agent of [paused, terminated, await pendingAgent()]) {
      assert.equal((await post(`/api/agents/${agent.id}/wakeup`, board, {})).status, 409);
      assert.deepEqual(await wakesOf(agent.id), { wakes: 0, entries: 0 }, 'a refused wakeup writes no wake row');
    }
  });

  it('refuses other agents (403), other companies (403), missing agents (404) and bad bodies (400)', async () => {
    const url = `/api/agents/${worker.agent.id}/wakeup`;
    const before = await wakesOf(worker.agent.id);
    for (const caller of [ceo.token, other.board, other.agent.token])
      assert.equal((await post(url, caller, {})).status, 403);
    assert.equal((await post(`/api/agents/${MISSING}/wakeup`, board, {})).status, 404);
    assert.equal((await post(url, board, { source: 'whenever' })).status, 400);
    assert.equal((await post(url, board, { triggerDetail: 'loud' })).status, 400);
    assert.equal((await post(url, board, { payload: 'text' })).status, 400);
    assert.equal((await post(url, board, { forceFreshSession: 'yes' })).status, 400);
    assert.deepEqual(await wakesOf(worker.agent.id), before, 'a refused wakeup writes no wake row');
    assert.deepEqual(await wakesOf(MISSING), { wakes: 0, entries: 0 });
  });
});

describe('agents: hires', () => {
  async function insertIssue(cid: string): Promise<string> {
    const n = Math.floor(Math.random() * 1e9);
    const { rows } = await t.database.pool.query(
      'insert into issues (company_id, number, identifier, title) values ($1, $2, $3, $4) returning id',
      [cid, n, `HIRE${n}-1`, 'hire source'],
    );
    return rows[0].id;
  }

  it('creates the agent directly when the company does not require approval', async () => {
    const res = await post(`/api/companies/${companyId}/agent-hires`, board, {
      name: 'Hire',
      adapterType: 'process',
      budgetMonthlyCents: 100,
    });
    assert.equal(res.status, 201);
    assert.equal(res.body.agent.status, 'idle');
    assert.equal(res.body.approval, null);
    assert.equal(
      (await activityRows(t, companyId, 'agent.hire_requested')).filter((r) => r.entity_id === res.body.agent.id)
        .length,
      1,
    );
  });

  it('creates a pending_approval draft and a hire_agent approval with a redacted snapshot linked to the source issues', async () => {
    const { company, token } = await t.newCompany(undefined, { requireBoardApprovalForNewAgents: true });
    const secret = await newSecret(t, token, company.id);
    const manager = (await newAgent(t, token, company.id, { name: 'Boss', role: 'ceo' })).agent;
    const [i1, i2] = [await insertIssue(company.id), await insertIssue(company.id)];
    const res = await post(`/api/companies/${company.id}/agent-hires`, token, {
      name: 'Draft',
      role: 'engineer',
      title: 'Backend',
      reportsTo: manager.id,
      adapterType: 'process',
      adapterConfig: {
        env: { TOKEN: 'plain-secret-value', REF: { type: 'secret_ref', secretId: secret.id } },
        model: 'm',
      },
      budgetMonthlyCents: 900,
      sourceIssueId: i1,
      sourceIssueIds: [i1, i2],
    });
    assert.equal(res.status, 201);
    assert.equal(res.body.agent.status, 'pending_approval');
    const approval = res.body.approval;
    assert.equal(approval.type, 'hire_agent');
    assert.equal(approval.status, 'pending');
    assert.equal(approval.payload.agentId, res.body.agent.id);
    assert.equal(approval.payload.name, 'Draft');
    assert.equal(approval.payload.role, 'engineer');
    assert.equal(approval.payload.title, 'Backend');
    assert.equal(approval.payload.reportsTo, manager.id);
    assert.equal(approval.payload.adapterType, 'process');
    assert.equal(approval.payload.budgetMonthlyCents, 900);
    assert.equal(approval.payload.adapterConfig.model, 'm');
    assert.equal(approval.payload.adapterConfig.env.TOKEN, '[redacted]');
    assert.doesNotMatch(JSON.stringify(approval), /plain-secret-value/);
    const links = await t.database.pool.query(
      'select issue_id from approval_issues where approval_id = $1 order by issue_id',
      [approval.id],
    );
    assert.deepEqual(
      links.rows.map((r) => r.issue_id),
      [i1, i2].sort(),
    );
    // The proposed budget is the draft's policy at once (inert: a draft cannot run); no keys for a draft.
    const policies = await t.database.pool.query('select 1 from budget_policies where scope_id = $1 and is_active', [
      res.body.agent.id,
    ]);
    assert.equal(policies.rowCount, 1);
    assert.equal((await post(`/api/agents/${res.body.agent.id}/keys`, token, { name: 'x' })).status, 409);
  });

  it('rejects source issues of another company (422) and rolls the draft back', async () => {
    const { company, token } = await t.newCompany(undefined, { requireBoardApprovalForNewAgents: true });
    const foreignIssue = await insertIssue(other.companyId);
    const res = await post(`/api/companies/${company.id}/agent-hires`, token, {
      name: 'Rollback',
      adapterType: 'process',
      sourceIssueIds: [foreignIssue],
    });
    assert.equal(res.status, 422);
    const list = await t.request('GET', `/api/companies/${company.id}/agents`, { token });
    assert.deepEqual(list.body, []);
  });

  it('lets agents with canCreateAgents or the CEO role hire; others 403', async () => {
    const recruiter = await newAgent(t, board, companyId, { permissions: { canCreateAgents: true } });
    const url = `/api/companies/${companyId}/agent-hires`;
    const body = { name: 'Hired', adapterType: 'process' };
    const byRecruiter = await post(url, recruiter.token, body);
    assert.equal(byRecruiter.status, 201);
    assert.equal(
      (await activityRows(t, companyId, 'agent.hire_requested')).find((r) => r.entity_id === byRecruiter.body.agent.id)
        .actor_type,
      'agent',
    );
    assert.equal((await post(url, ceo.token, body)).status, 201);
    assert.equal((await post(url, worker.token, body)).status, 403);
    assert.equal((await post(url, other.board, body)).status, 403);
    assert.equal((await post(url, other.agent.token, body)).status, 403);
    assert.equal((await post(url, other.ceo.token, body)).status, 403);
    assert.equal((await post(`/api/companies/${MISSING}/agent-hires`, board, body)).status, 404);
    assert.equal((await post(url, board, { name: 'x' })).status, 400);
    assert.equal((await post(url, board, { ...body, sourceIssueIds: ['nope'] })).status, 400);
  });
});
