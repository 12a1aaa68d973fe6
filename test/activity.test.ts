import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { issues } from '../src/db/schema/index.ts';
import { useTestApp } from './helpers/app.ts';
import { newAgent, type AgentFixture } from './helpers/factories.ts';

const t = await useTestApp();
const pool = t.database.pool;

let a: { company: any; token: string };
let b: { company: any; token: string };
let agentA: AgentFixture;
let agentB: AgentFixture;

const entry = (fields: Record<string, unknown> = {}) => ({
  actorId: 'ops-bot',
  action: 'ops.noted',
  entityType: 'note',
  entityId: randomUUID(),
  ...fields,
});

async function post(companyId: string, token: string, body: Record<string, unknown>, headers?: Record<string, string>) {
  return t.request('POST', `/api/companies/${companyId}/activity`, { token, body, headers });
}

async function feed(companyId: string, token: string, query = '') {
  const res = await t.request('GET', `/api/companies/${companyId}/activity${query}`, { token });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body as any[];
}

before(async () => {
  a = await t.newCompany();
  b = await t.newCompany();
  agentA = await newAgent(t, a.token, a.company.id);
  agentB = await newAgent(t, b.token, b.company.id);
});

describe('activity: POST', () => {
  it('creates an entry with defaults, the run id from the header and redacted details', async () => {
    const runId = randomUUID();
    const details = {
      note: 'kept',
      apiKey: 'sk-live-123',
      nested: { password: 'hunter2', count: 3 },
      secretId: 'c0ffee00-0000-4000-8000-000000000000',
      env: {
        DATABASE_URL: 'postgres://u:p@db/x',
        TOKEN: { type: 'secret_ref', secretId: 'c0ffee00-0000-4000-8000-000000000000', version: 2, value: 'smuggled' },
      },
      header: 'Bearer abc.def',
      key: 'svc_board_abcdef',
    };
    const res = await post(a.company.id, a.token, entry({ entityId: 'E-1', details }), { 'x-service-run-id': runId });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.companyId, a.company.id);
    assert.equal(res.body.actorType, 'system');
    assert.equal(res.body.actorId, 'ops-bot');
    assert.equal(res.body.action, 'ops.noted');
    assert.equal(res.body.entityType, 'note');
    assert.equal(res.body.entityId, 'E-1');
    assert.equal(res.body.agentId, null);
    assert.equal(res.body.runId, runId);
    assert.equal(typeof res.body.createdAt, 'string');
    assert.deepEqual(res.body.details, {
      note: 'kept',
      apiKey: '[redacted]',
      nested: { password: '[redacted]', count: 3 },
      secretId: 'c0ffee00-0000-4000-8000-000000000000',
      env: {
        DATABASE_URL: '[redacted]',
        TOKEN: { type: 'secret_ref', secretId: 'c0ffee00-0000-4000-8000-000000000000', version: 2 },
      },
      header: '[redacted]',
      key: '[redacted]',
    });
    // Redacted before storage, not only on the way out.
    const { rows } = await pool.query('select details::text as d from activity_log where id = $1', [res.body.id]);
    for (const leaked of ['sk-live-123', 'hunter2', 'postgres://u:p@db/x', 'smuggled', 'abc.def', 'svc_board_abcdef'])
      assert.ok(!rows[0].d.includes(leaked), leaked);
  });

  it('accepts agent and user actor types, an agent of the company and null details', async () => {
    const res = await post(
      a.company.id,
      a.token,
      entry({ actorType: 'agent', actorId: agentA.agent.id, agentId: agentA.agent.id, details: null }),
    );
    assert.equal(res.status, 201);
    assert.equal(res.body.actorType, 'agent');
    assert.equal(res.body.agentId, agentA.agent.id);
    assert.equal(res.body.details, null);
    assert.equal((await post(a.company.id, a.token, entry({ actorType: 'user' }))).body.actorType, 'user');
  });

  it('validates the body', async () => {
    for (const field of ['actorId', 'action', 'entityType', 'entityId']) {
      const body: Record<string, unknown> = entry();
      delete body[field];
      assert.equal((await post(a.company.id, a.token, body)).status, 400, field);
    }
    assert.equal((await post(a.company.id, a.token, entry({ actorType: 'robot' }))).status, 400);
    assert.equal((await post(a.company.id, a.token, entry({ details: [1, 2] }))).status, 400);
    assert.equal((await post(a.company.id, a.token, entry({ details: 'text' }))).status, 400);
    assert.equal((await post(a.company.id, a.token, entry({ details: { big: 'x'.repeat(70_000) } }))).status, 400);
    assert.equal((await post(a.company.id, a.token, entry({ agentId: 'nope' }))).status, 400);
    assert.equal((await post(a.company.id, a.token, entry({ action: '' }))).status, 400);
    // agentId must be an agent of this company.
    assert.equal((await post(a.company.id, a.token, entry({ agentId: agentB.agent.id }))).status, 422);
    assert.equal((await post(a.company.id, a.token, entry({ agentId: randomUUID() }))).status, 422);
  });

  it('is board only and company scoped', async () => {
    const before = Number(
      (await pool.query('select count(*) from activity_log where company_id = $1', [a.company.id])).rows[0].count,
    );
    assert.equal((await post(a.company.id, agentA.token, entry())).status, 403);
    assert.equal((await post(a.company.id, agentB.token, entry())).status, 403);
    assert.equal((await post(a.company.id, b.token, entry())).status, 403);
    assert.equal((await t.request('POST', `/api/companies/${a.company.id}/activity`, { body: entry() })).status, 401);
    assert.equal((await post(randomUUID(), a.token, entry())).status, 404);
    const afterCount = Number(
      (await pool.query('select count(*) from activity_log where company_id = $1', [a.company.id])).rows[0].count,
    );
    assert.equal(afterCount, before);
  });
});

describe('activity: GET', () => {
  let c: { company: any; token: string };
  let agentC: AgentFixture;
  const ids: string[] = [];

  before(async () => {
    c = await t.newCompany();
    agentC = await newAgent(t, c.token, c.company.id);
    for (const body of [
      entry({ entityType: 'issue', entityId: 'ID-1' }),
      entry({ entityType: 'issue', entityId: 'ID-10' }),
      entry({ entityType: 'project', entityId: 'ID-1', agentId: agentC.agent.id }),
      entry({ entityType: 'issue', entityId: 'ID-1', agentId: agentC.agent.id }),
    ]) {
      ids.push((await post(c.company.id, c.token, body)).body.id);
    }
  });

  it('lists newest first, with exact filters', async () => {
    const all = await feed(c.company.id, c.token, '?entityType=issue');
    assert.deepEqual(
      all.map((e) => e.id),
      [ids[3], ids[1], ids[0]],
    );
    assert.deepEqual(
      (await feed(c.company.id, c.token, '?entityType=issue&entityId=ID-1')).map((e) => e.id),
      [ids[3], ids[0]],
    );
    assert.deepEqual(
      (await feed(c.company.id, c.token, `?agentId=${agentC.agent.id}`)).map((e) => e.id),
      [ids[3], ids[2]],
    );
    assert.deepEqual(
      (await feed(c.company.id, c.token, `?agentId=${agentC.agent.id}&entityType=project`)).map((e) => e.id),
      [ids[2]],
    );
    // Exact, not prefix or case-insensitive.
    assert.deepEqual(await feed(c.company.id, c.token, '?entityId=ID'), []);
    assert.deepEqual(await feed(c.company.id, c.token, '?entityType=ISSUE'), []);
    // The company's own entries only (company.created plus the four above, plus the agent's creation).
    const everything = await feed(c.company.id, c.token);
    assert.ok(everything.every((e) => e.companyId === c.company.id));
    assert.ok(everything.some((e) => e.action === 'company.created'));
    for (let i = 1; i < everything.length; i++) assert.ok(everything[i - 1].createdAt >= everything[i].createdAt);
  });

  it('filters by action, actor type and actor id (exact), combined with the others', async () => {
    const byAgent = (
      await post(c.company.id, c.token, entry({ actorType: 'agent', actorId: agentC.agent.id, action: 'ops.checked' }))
    ).body.id;
    const byUser = (
      await post(c.company.id, c.token, entry({ actorType: 'user', actorId: 'user-7', action: 'ops.checked' }))
    ).body.id;
    assert.deepEqual(
      (await feed(c.company.id, c.token, '?action=ops.checked')).map((e) => e.id),
      [byUser, byAgent],
    );
    assert.deepEqual(
      (await feed(c.company.id, c.token, '?action=ops.checked&actorType=agent')).map((e) => e.id),
      [byAgent],
    );
    assert.deepEqual(
      (await feed(c.company.id, c.token, `?actorId=${agentC.agent.id}`)).map((e) => e.id),
      [byAgent],
    );
    assert.deepEqual(
      (await feed(c.company.id, c.token, '?actorId=user-7&entityType=note')).map((e) => e.id),
      [byUser],
    );
    assert.deepEqual(
      (await feed(c.company.id, c.token, '?action=ops.noted&entityType=issue')).map((e) => e.id),
      [ids[3], ids[1], ids[0]],
    );
    assert.deepEqual(await feed(c.company.id, c.token, '?action=ops'), []);
    assert.equal(
      (await t.request('GET', `/api/companies/${c.company.id}/activity?actorType=robot`, { token: c.token })).status,
      400,
    );
    assert.equal(
      (await t.request('GET', `/api/companies/${c.company.id}/activity?action=${'x'.repeat(201)}`, { token: c.token }))
        .status,
      400,
    );
  });

  it('is bounded: limit picks the newest, at most 1000', async () => {
    assert.deepEqual(
      (await feed(c.company.id, c.token, '?entityType=issue&limit=2')).map((e) => e.id),
      [ids[3], ids[1]],
    );
    assert.equal(
      (await t.request('GET', `/api/companies/${c.company.id}/activity?limit=1001`, { token: c.token })).status,
      400,
    );
    assert.equal(
      (await t.request('GET', `/api/companies/${c.company.id}/activity?limit=0`, { token: c.token })).status,
      400,
    );
    assert.equal(
      (await t.request('GET', `/api/companies/${c.company.id}/activity?agentId=x`, { token: c.token })).status,
      400,
    );
  });

  it('filters out entries about hidden issues', async () => {
    const mk = async (hidden: boolean) => {
      const identifier = `${c.company.issuePrefix}-H${randomBytes(3).toString('hex')}`;
      const [row] = await t.database.db
        .insert(issues)
        .values({
          companyId: c.company.id,
          number: Math.floor(Math.random() * 1e9),
          identifier,
          title: 'x',
          hiddenAt: hidden ? new Date() : null,
        })
        .returning();
      return row!.id;
    };
    const visible = await mk(false);
    const hidden = await mk(true);
    await post(c.company.id, c.token, entry({ entityType: 'issue', entityId: visible }));
    await post(c.company.id, c.token, entry({ entityType: 'issue', entityId: hidden }));
    // An entry about another kind of entity that happens to carry the same id is not an issue entry.
    await post(c.company.id, c.token, entry({ entityType: 'comment', entityId: hidden }));
    const shown = await feed(c.company.id, c.token);
    assert.ok(shown.some((e) => e.entityId === visible));
    assert.ok(!shown.some((e) => e.entityType === 'issue' && e.entityId === hidden));
    assert.ok(shown.some((e) => e.entityType === 'comment' && e.entityId === hidden));
    assert.deepEqual(await feed(c.company.id, c.token, `?entityType=issue&entityId=${hidden}`), []);
    // Unhiding brings them back.
    await pool.query('update issues set hidden_at = null where id = $1', [hidden]);
    assert.equal((await feed(c.company.id, c.token, `?entityType=issue&entityId=${hidden}`)).length, 1);
  });

  it('is readable by agents of the company, not by other companies', async () => {
    assert.ok((await feed(c.company.id, agentC.token)).length > 0);
    assert.equal(
      (await t.request('GET', `/api/companies/${c.company.id}/activity`, { token: agentA.token })).status,
      403,
    );
    assert.equal((await t.request('GET', `/api/companies/${c.company.id}/activity`, { token: a.token })).status, 403);
    assert.equal((await t.request('GET', `/api/companies/${c.company.id}/activity`)).status, 401);
    assert.equal((await t.request('GET', `/api/companies/${randomUUID()}/activity`, { token: a.token })).status, 404);
  });
});

describe('activity: append-only', () => {
  it('refuses UPDATE, DELETE and TRUNCATE in the database itself', async () => {
    const id = (await post(a.company.id, a.token, entry())).body.id;
    await assert.rejects(pool.query("update activity_log set action = 'rewritten' where id = $1", [id]), /append-only/);
    await assert.rejects(pool.query('delete from activity_log where id = $1', [id]), /append-only/);
    await assert.rejects(pool.query('truncate activity_log'), /append-only/);
    // Setting the marker for another company does not unlock this one.
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query("select set_config('boardroom.deleting_company', $1, true)", [b.company.id]);
      await assert.rejects(client.query('delete from activity_log where id = $1', [id]), /append-only/);
      await client.query('rollback');
    } finally {
      client.release();
    }
    const { rows } = await pool.query('select action from activity_log where id = $1', [id]);
    assert.deepEqual(rows, [{ action: 'ops.noted' }]);
  });

  it('lets a company delete remove its own activity, and only its own', async () => {
    const doomed = await t.newCompany();
    await newAgent(t, doomed.token, doomed.company.id);
    await post(doomed.company.id, doomed.token, entry());
    const count = async (companyId: string) =>
      Number((await pool.query('select count(*) from activity_log where company_id = $1', [companyId])).rows[0].count);
    assert.ok((await count(doomed.company.id)) >= 3);
    const othersBefore = await count(a.company.id);
    const res = await t.request('DELETE', `/api/companies/${doomed.company.id}`, { token: doomed.token });
    assert.equal(res.status, 200);
    assert.equal(await count(doomed.company.id), 0);
    assert.equal(await count(a.company.id), othersBefore);
  });
});
