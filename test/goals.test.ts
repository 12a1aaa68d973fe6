import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { activityLog } from '../src/db/schema/index.ts';
import { defaultCompanyGoal } from '../src/modules/goals/service.ts';
import { useTestApp } from './helpers/app.ts';
import { activityActions, companyWithAgent, newAgent } from './helpers/factories.ts';

const t = await useTestApp();
const MISSING = '00000000-0000-4000-8000-000000000000';

// Company A (board + agent) and company B (board + agent) for cross-company attempts.
const a = await companyWithAgent(t);
const b = await companyWithAgent(t);
const outsiders = [
  { who: 'board user of another company', token: b.boardToken },
  { who: 'agent of another company', token: b.agent.token },
];

async function goal(body: Record<string, unknown>, token = a.boardToken, companyId = a.company.id) {
  const res = await t.request('POST', `/api/companies/${companyId}/goals`, { token, body });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

describe('goals', () => {
  it('creates with defaults level task and status planned, by the board or an agent of the company', async () => {
    const g = await goal({ title: '  Ship v1  ' });
    assert.equal(g.title, 'Ship v1');
    assert.equal(g.level, 'task');
    assert.equal(g.status, 'planned');
    assert.equal(g.parentId, null);
    assert.equal(g.companyId, a.company.id);
    assert.deepEqual(await activityActions(t, g.id), ['goal.created']);

    const byAgent = await goal(
      { title: 'Agent goal', level: 'agent', status: 'active', ownerAgentId: a.agent.agent.id },
      a.agent.token,
    );
    assert.equal(byAgent.level, 'agent');
    assert.equal(byAgent.status, 'active');
    assert.equal(byAgent.ownerAgentId, a.agent.agent.id);
    const [entry] = await t.database.db.select().from(activityLog).where(eq(activityLog.entityId, byAgent.id));
    assert.equal(entry!.actorType, 'agent');
    assert.equal(entry!.agentId, a.agent.agent.id);
  });

  it('rejects bad input with 400', async () => {
    const url = `/api/companies/${a.company.id}/goals`;
    assert.equal((await t.request('POST', url, { token: a.boardToken, body: {} })).status, 400);
    assert.equal((await t.request('POST', url, { token: a.boardToken, body: { title: '   ' } })).status, 400);
    assert.equal(
      (await t.request('POST', url, { token: a.boardToken, body: { title: 'x', level: 'galaxy' } })).status,
      400,
    );
    assert.equal(
      (await t.request('POST', url, { token: a.boardToken, body: { title: 'x', status: 'done' } })).status,
      400,
    );
    assert.equal(
      (await t.request('POST', url, { token: a.boardToken, body: { title: 'x', parentId: 'nope' } })).status,
      400,
    );
    assert.equal((await t.request('POST', url, { token: a.boardToken, body: { title: 'x'.repeat(501) } })).status, 400);
    assert.equal((await t.request('GET', '/api/goals/not-a-uuid', { token: a.boardToken })).status, 400);
    const g = await goal({ title: 'Patch me' });
    assert.equal(
      (await t.request('PATCH', `/api/goals/${g.id}`, { token: a.boardToken, body: { status: 'exploded' } })).status,
      400,
    );
    assert.equal(
      (await t.request('PATCH', `/api/goals/${g.id}`, { token: a.boardToken, body: { title: null } })).status,
      400,
    );
  });

  it('lists only the company goals, oldest first, bounded by limit', async () => {
    const { company, token } = await t.newCompany();
    const first = await goal({ title: 'One' }, token, company.id);
    const second = await goal({ title: 'Two' }, token, company.id);
    await goal({ title: 'Elsewhere' }, b.boardToken, b.company.id);
    const list = await t.request('GET', `/api/companies/${company.id}/goals`, { token });
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.map((g: any) => g.id),
      [first.id, second.id],
    );
    const limited = await t.request('GET', `/api/companies/${company.id}/goals?limit=1`, { token });
    assert.deepEqual(
      limited.body.map((g: any) => g.id),
      [first.id],
    );
    assert.equal((await t.request('GET', `/api/companies/${company.id}/goals?limit=0`, { token })).status, 400);
    assert.equal((await t.request('GET', `/api/companies/${MISSING}/goals`, { token })).status, 404);
  });

  it('GET one: 404 when missing, 403 for another company (access checked after lookup)', async () => {
    const g = await goal({ title: 'Visible' });
    const own = await t.request('GET', `/api/goals/${g.id}`, { token: a.agent.token });
    assert.equal(own.status, 200);
    assert.equal(own.body.id, g.id);
    assert.equal((await t.request('GET', `/api/goals/${MISSING}`, { token: a.boardToken })).status, 404);
    assert.equal((await t.request('GET', `/api/goals/${g.id}`)).status, 401);
  });

  it('PATCH changes only the given fields; null clears nullable ones', async () => {
    const g = await goal({ title: 'Original', description: 'Why', level: 'team', ownerAgentId: a.agent.agent.id });
    const res = await t.request('PATCH', `/api/goals/${g.id}`, { token: a.agent.token, body: { status: 'achieved' } });
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'achieved');
    assert.equal(res.body.title, 'Original');
    assert.equal(res.body.description, 'Why');
    assert.equal(res.body.level, 'team');
    assert.equal(res.body.ownerAgentId, a.agent.agent.id);
    const cleared = await t.request('PATCH', `/api/goals/${g.id}`, {
      token: a.boardToken,
      body: { description: null, ownerAgentId: null, title: 'Renamed' },
    });
    assert.equal(cleared.body.description, null);
    assert.equal(cleared.body.ownerAgentId, null);
    assert.equal(cleared.body.title, 'Renamed');
    assert.equal(cleared.body.level, 'team');
    assert.deepEqual(await activityActions(t, g.id), ['goal.created', 'goal.updated', 'goal.updated']);
    assert.equal(
      (await t.request('PATCH', `/api/goals/${MISSING}`, { token: a.boardToken, body: { title: 'x' } })).status,
      404,
    );
  });

  it('parentId must be a goal of the same company (422), on create and on PATCH', async () => {
    const foreign = await goal({ title: 'B goal' }, b.boardToken, b.company.id);
    const url = `/api/companies/${a.company.id}/goals`;
    assert.equal(
      (await t.request('POST', url, { token: a.boardToken, body: { title: 'x', parentId: foreign.id } })).status,
      422,
    );
    // A missing parent is treated like a foreign one: 422, revealing nothing about other companies.
    assert.equal(
      (await t.request('POST', url, { token: a.boardToken, body: { title: 'x', parentId: MISSING } })).status,
      422,
    );
    const parent = await goal({ title: 'Parent', level: 'company' });
    const child = await goal({ title: 'Child', parentId: parent.id });
    assert.equal(child.parentId, parent.id);
    const bad = await t.request('PATCH', `/api/goals/${child.id}`, {
      token: a.boardToken,
      body: { parentId: foreign.id },
    });
    assert.equal(bad.status, 422);
    assert.equal(typeof bad.body.error, 'string');
    assert.equal(
      (await t.request('PATCH', `/api/goals/${child.id}`, { token: a.boardToken, body: { parentId: MISSING } })).status,
      422,
    );
    // The failed PATCHes left the goal and the audit trail untouched.
    assert.equal((await t.request('GET', `/api/goals/${child.id}`, { token: a.boardToken })).body.parentId, parent.id);
    assert.deepEqual(await activityActions(t, child.id), ['goal.created']);
    const detached = await t.request('PATCH', `/api/goals/${child.id}`, {
      token: a.boardToken,
      body: { parentId: null },
    });
    assert.equal(detached.body.parentId, null);
  });

  it('never allows a cycle, at any depth', async () => {
    const root = await goal({ title: 'Root' });
    const mid = await goal({ title: 'Mid', parentId: root.id });
    const leaf = await goal({ title: 'Leaf', parentId: mid.id });
    const deep = await goal({ title: 'Deep', parentId: leaf.id });
    assert.equal(
      (await t.request('PATCH', `/api/goals/${root.id}`, { token: a.boardToken, body: { parentId: root.id } })).status,
      422,
    );
    assert.equal(
      (await t.request('PATCH', `/api/goals/${root.id}`, { token: a.boardToken, body: { parentId: mid.id } })).status,
      422,
    );
    assert.equal(
      (await t.request('PATCH', `/api/goals/${root.id}`, { token: a.boardToken, body: { parentId: deep.id } })).status,
      422,
    );
    assert.equal(
      (await t.request('PATCH', `/api/goals/${mid.id}`, { token: a.boardToken, body: { parentId: deep.id } })).status,
      422,
    );
    // Moving a subtree somewhere that is not below itself is fine.
    const other = await goal({ title: 'Other' });
    const moved = await t.request('PATCH', `/api/goals/${mid.id}`, {
      token: a.boardToken,
      body: { parentId: other.id },
    });
    assert.equal(moved.status, 200);
    assert.equal(moved.body.parentId, other.id);
    assert.equal(
      (await t.request('PATCH', `/api/goals/${root.id}`, { token: a.boardToken, body: { parentId: deep.id } })).status,
      200,
    );
  });

  it('concurrent re-parentings cannot build a cycle together', async () => {
    // Each pair alone passes the cycle check; only serialising hierarchy changes stops both winning.
    const pairs = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => [await goal({ title: `X${i}` }), await goal({ title: `Y${i}` })]),
    );
    const results = await Promise.all(
      pairs.flatMap(([x, y]) => [
        t.request('PATCH', `/api/goals/${x.id}`, { token: a.boardToken, body: { parentId: y.id } }),
        t.request('PATCH', `/api/goals/${y.id}`, { token: a.boardToken, body: { parentId: x.id } }),
      ]),
    );
    for (let i = 0; i < results.length; i += 2)
      assert.deepEqual([results[i]!.status, results[i + 1]!.status].sort(), [200, 422]);
  });

  it('ownerAgentId must be an agent of the same company (422)', async () => {
    const url = `/api/companies/${a.company.id}/goals`;
    assert.equal(
      (await t.request('POST', url, { token: a.boardToken, body: { title: 'x', ownerAgentId: b.agent.agent.id } }))
        .status,
      422,
    );
    assert.equal(
      (await t.request('POST', url, { token: a.boardToken, body: { title: 'x', ownerAgentId: MISSING } })).status,
      422,
    );
    const g = await goal({ title: 'Owned' });
    assert.equal(
      (
        await t.request('PATCH', `/api/goals/${g.id}`, {
          token: a.boardToken,
          body: { ownerAgentId: b.agent.agent.id },
        })
      ).status,
      422,
    );
    const other = await newAgent(t, a.boardToken, a.company.id);
    const ok = await t.request('PATCH', `/api/goals/${g.id}`, {
      token: a.boardToken,
      body: { ownerAgentId: other.agent.id },
    });
    assert.equal(ok.body.ownerAgentId, other.agent.id);
  });

  it('DELETE returns the deleted row; children become top-level goals', async () => {
    const parent = await goal({ title: 'Doomed', level: 'team' });
    const child = await goal({ title: 'Orphan', parentId: parent.id });
    const res = await t.request('DELETE', `/api/goals/${parent.id}`, { token: a.agent.token });
    assert.equal(res.status, 200);
    assert.equal(res.body.id, parent.id);
    assert.equal(res.body.title, 'Doomed');
    assert.equal(res.body.level, 'team');
    assert.equal((await t.request('GET', `/api/goals/${parent.id}`, { token: a.boardToken })).status, 404);
    assert.equal((await t.request('GET', `/api/goals/${child.id}`, { token: a.boardToken })).body.parentId, null);
    assert.deepEqual(await activityActions(t, parent.id), ['goal.created', 'goal.deleted']);
    assert.equal((await t.request('DELETE', `/api/goals/${parent.id}`, { token: a.boardToken })).status, 404);
  });

  it('refuses every route to a board user or an agent of another company (403)', async () => {
    const g = await goal({ title: 'Private' });
    for (const { who, token } of outsiders) {
      const attempts = [
        await t.request('GET', `/api/companies/${a.company.id}/goals`, { token }),
        await t.request('POST', `/api/companies/${a.company.id}/goals`, { token, body: { title: 'Intruder' } }),
        await t.request('GET', `/api/goals/${g.id}`, { token }),
        await t.request('PATCH', `/api/goals/${g.id}`, { token, body: { title: 'Hijacked' } }),
        await t.request('DELETE', `/api/goals/${g.id}`, { token }),
      ];
      assert.deepEqual(
        attempts.map((r) => r.status),
        [403, 403, 403, 403, 403],
        who,
      );
    }
    const still = await t.request('GET', `/api/goals/${g.id}`, { token: a.boardToken });
    assert.equal(still.body.title, 'Private');
    assert.deepEqual(await activityActions(t, g.id), ['goal.created']);
  });

  it('defaultCompanyGoal is the oldest top-level company-level goal, or null', async () => {
    const { company, token } = await t.newCompany();
    assert.equal(await defaultCompanyGoal(t.database.db, company.id), null);
    await goal({ title: 'Task goal' }, token, company.id);
    assert.equal(await defaultCompanyGoal(t.database.db, company.id), null);
    const mission = await goal({ title: 'Mission', level: 'company' }, token, company.id);
    await goal({ title: 'Nested company goal', level: 'company', parentId: mission.id }, token, company.id);
    await goal({ title: 'Later mission', level: 'company' }, token, company.id);
    assert.equal((await defaultCompanyGoal(t.database.db, company.id))?.id, mission.id);
  });
});
