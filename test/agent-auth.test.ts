// Agent credentials through HTTP (SPEC section 5): API keys and run JWTs, and X-Service-Run-Id.
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { SignJWT } from 'jose';
import { mintAgentJwt } from '../src/modules/auth/jwt.ts';
import { useTestApp } from './helpers/app.ts';
import { activityRows, companyWithAgent, newAgent, type AgentFixture } from './helpers/factories.ts';

const t = await useTestApp();

let companyId: string;
let board: string;
let worker: AgentFixture;
let otherCompanyId: string;

before(async () => {
  const a = await companyWithAgent(t);
  companyId = a.company.id;
  board = a.boardToken;
  worker = a.agent;
  otherCompanyId = (await t.newCompany()).company.id;
});

const me = (token: string, headers?: Record<string, string>) => t.request('GET', '/api/agents/me', { token, headers });
const setStatus = (agentId: string, status: string) =>
  t.database.pool.query('update agents set status = $2 where id = $1', [agentId, status]);
const jwtFor = (
  agent: any,
  over: Partial<{ agentId: string; companyId: string; runId: string }> = {},
  ttl?: number,
  secret = t.config.jwtSecret,
) =>
  mintAgentJwt(
    secret,
    { agentId: agent.id, companyId: agent.companyId, adapterType: agent.adapterType, runId: randomUUID(), ...over },
    ttl,
  );

describe('agent API keys', () => {
  it('authenticate as the agent and set lastUsedAt', async () => {
    const { agent, token } = await newAgent(t, board, companyId);
    const [before] = (await t.request('GET', `/api/agents/${agent.id}/keys`, { token: board })).body;
    assert.equal(before.lastUsedAt, null);
    const res = await me(token);
    assert.equal(res.status, 200);
    assert.equal(res.body.id, agent.id);
    const [after] = (await t.request('GET', `/api/agents/${agent.id}/keys`, { token: board })).body;
    assert.ok(after.lastUsedAt);
    // Updated at most once a minute: a second use right away leaves it unchanged.
    await me(token);
    const [again] = (await t.request('GET', `/api/agents/${agent.id}/keys`, { token: board })).body;
    assert.equal(again.lastUsedAt, after.lastUsedAt);
  });

  it('are refused (401) once revoked, and for terminated or pending_approval agents', async () => {
    const revoked = await newAgent(t, board, companyId);
    const [key] = (await t.request('GET', `/api/agents/${revoked.agent.id}/keys`, { token: board })).body;
    await t.request('DELETE', `/api/agents/${revoked.agent.id}/keys/${key.id}`, { token: board });
    assert.equal((await me(revoked.token)).status, 401);

    // Status checked on every use, independent of revocation.
    const terminated = await newAgent(t, board, companyId);
    await setStatus(terminated.agent.id, 'terminated');
    assert.equal((await me(terminated.token)).status, 401);
    const pending = await newAgent(t, board, companyId);
    await setStatus(pending.agent.id, 'pending_approval');
    assert.equal((await me(pending.token)).status, 401);
    await setStatus(pending.agent.id, 'idle');
    assert.equal((await me(pending.token)).status, 200);

    assert.equal((await me('svc_agent_' + randomBytes(32).toString('base64url'))).status, 401);
  });

  it('are limited to the agent company', async () => {
    assert.equal(
      (await t.request('GET', `/api/companies/${otherCompanyId}/agents`, { token: worker.token })).status,
      403,
    );
    assert.equal((await t.request('GET', `/api/companies/${companyId}/agents`, { token: worker.token })).status, 200);
  });
});

describe('agent JWTs', () => {
  it('authenticate as the agent with the run id from the claim', async () => {
    const runId = randomUUID();
    const token = await jwtFor(worker.agent, { runId });
    const res = await me(token);
    assert.equal(res.status, 200);
    assert.equal(res.body.id, worker.agent.id);
    const patched = await t.request('PATCH', `/api/agents/${worker.agent.id}`, {
      token,
      body: { title: `jwt ${runId}` },
    });
    assert.equal(patched.status, 200);
    const entry = (await activityRows(t, companyId, 'agent.updated')).find(
      (r) => r.details.changes?.title === `jwt ${runId}`,
    );
    assert.equal(entry.run_id, runId);
    assert.equal(entry.actor_type, 'agent');
    assert.equal(entry.actor_id, worker.agent.id);
  });

  it('are refused (401) when expired, badly signed, for another company, or for a missing agent', async () => {
    assert.equal((await me(await jwtFor(worker.agent, {}, -10))).status, 401);
    assert.equal((await me(await jwtFor(worker.agent, {}, undefined, randomBytes(32)))).status, 401);
    assert.equal((await me(await jwtFor(worker.agent, { companyId: otherCompanyId }))).status, 401);
    assert.equal((await me(await jwtFor(worker.agent, { agentId: randomUUID() }))).status, 401);
    const valid = await jwtFor(worker.agent);
    const tampered = valid.slice(0, -4) + (valid.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    assert.equal((await me(tampered)).status, 401);
  });

  it('are refused (401) when issued more than 60 s in the future; a small clock skew passes', async () => {
    const mint = (iatOffset: number) => {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ company_id: companyId, adapter_type: worker.agent.adapterType, run_id: randomUUID() })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(worker.agent.id)
        .setIssuedAt(now + iatOffset)
        .setExpirationTime(now + iatOffset + 3600)
        .sign(t.config.jwtSecret);
    };
    for (const ahead of [120, 3600, 365 * 24 * 3600])
      assert.equal((await me(await mint(ahead))).status, 401, `iat ${ahead}s ahead`);
    assert.equal((await me(await mint(30))).status, 200, 'iat 30 s ahead is clock skew');
    assert.equal((await me(await mint(-30))).status, 200);
  });

  it('are refused (401) for terminated and pending_approval agents', async () => {
    const { agent } = await newAgent(t, board, companyId);
    const token = await jwtFor(agent);
    assert.equal((await me(token)).status, 200);
    await setStatus(agent.id, 'pending_approval');
    assert.equal((await me(token)).status, 401);
    await setStatus(agent.id, 'idle');
    await t.request('POST', `/api/agents/${agent.id}/terminate`, { token: board });
    assert.equal((await me(token)).status, 401);
  });
});

describe('X-Service-Run-Id', () => {
  it('is attached to agent and board actors and lands in activity', async () => {
    const agentRun = `run-${randomUUID()}`;
    await t.request('PATCH', `/api/agents/${worker.agent.id}`, {
      token: worker.token,
      body: { title: agentRun },
      headers: { 'x-service-run-id': agentRun },
    });
    const boardRun = `run-${randomUUID()}`;
    await t.request('PATCH', `/api/agents/${worker.agent.id}`, {
      token: board,
      body: { title: boardRun },
      headers: { 'x-service-run-id': boardRun },
    });
    const rows = await activityRows(t, companyId, 'agent.updated');
    assert.equal(rows.find((r) => r.details.changes?.title === agentRun).run_id, agentRun);
    const boardEntry = rows.find((r) => r.details.changes?.title === boardRun);
    assert.equal(boardEntry.run_id, boardRun);
    assert.equal(boardEntry.actor_type, 'user');
  });
});
