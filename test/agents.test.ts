// Agents: create, list, get, /me, PATCH, permissions and budgets (SPEC "Agents" rules 1-2).
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { useTestApp } from './helpers/app.ts';
import { activityRows, companyWithAgent, newAgent, newSecret, type AgentFixture } from './helpers/factories.ts';

const t = await useTestApp();
const MISSING = '00000000-0000-4000-8000-000000000000';

let companyId: string;
let board: string;
let worker: AgentFixture;
let ceo: AgentFixture;
let creator: AgentFixture;
let other: { companyId: string; board: string; agent: AgentFixture; ceo: AgentFixture };

before(async () => {
  const a = await companyWithAgent(t, { name: 'Worker' });
  companyId = a.company.id;
  board = a.boardToken;
  worker = a.agent;
  ceo = await newAgent(t, board, companyId, { name: 'Chief', role: 'ceo' });
  creator = await newAgent(t, board, companyId, { name: 'Recruiter', permissions: { canCreateAgents: true } });
  const b = await companyWithAgent(t);
  other = {
    companyId: b.company.id,
    board: b.boardToken,
    agent: b.agent,
    ceo: await newAgent(t, b.boardToken, b.company.id, { role: 'ceo' }),
  };
  for (const name of ['Git', 'Review'])
    assert.equal(
      (await t.request('POST', `/api/companies/${companyId}/skills`, { token: board, body: { name } })).status,
      201,
    );
});

const BUNDLED = 'boardroom/skills/boardroom-api';
const skillKey = (slug: string) => `company/${companyId}/${slug}`;

const policyOf = async (agentId: string) =>
  (
    await t.database.pool.query(
      'select amount_cents::int as amount_cents, is_active from budget_policies where scope_type = $1 and scope_id = $2 and is_active',
      ['agent', agentId],
    )
  ).rows;

describe('agents: create', () => {
  it('creates an idle agent with defaults, stored permissions and skills, and an activity entry', async () => {
    const res = await t.request('POST', `/api/companies/${companyId}/agents`, {
      token: board,
      body: {
        name: 'Analyst',
        role: 'engineer',
        adapterType: 'process',
        permissions: { canCreateAgents: true },
        desiredSkills: ['git', 'git', 'review'],
        runtimeConfig: { heartbeat: { intervalSec: 60 } },
      },
    });
    assert.equal(res.status, 201);
    assert.equal(res.body.status, 'idle');
    assert.equal(res.body.urlKey, 'analyst');
    assert.deepEqual(res.body.permissions, { canCreateAgents: true });
    assert.deepEqual(res.body.runtimeConfig.heartbeat, { intervalSec: 60, enabled: false });
    // Slugs resolve to the company's skills, as sync resolves them, and the required bundled skill comes too.
    assert.deepEqual(res.body.adapterConfig.serviceSkillSync.desiredSkills, [
      BUNDLED,
      skillKey('git'),
      skillKey('review'),
    ]);
    const skills = await t.request('GET', `/api/agents/${res.body.id}/skills`, { token: board });
    assert.deepEqual(skills.body.desiredSkills, [BUNDLED, skillKey('git'), skillKey('review')]);
    const [entry] = await activityRows(t, companyId, 'agent.created').then((rows) =>
      rows.filter((r) => r.entity_id === res.body.id),
    );
    assert.equal(entry.actor_type, 'user');
    assert.deepEqual(entry.details.adapterConfig.serviceSkillSync.desiredSkills, [
      BUNDLED,
      skillKey('git'),
      skillKey('review'),
    ]);
    assert.deepEqual(await policyOf(res.body.id), []);
  });

  it("keeps desiredSkills given by id, key or slug, with sync's validation: unknown or ambiguous references are 422 and create nothing", async () => {
    const [git] = (await t.request('GET', `/api/companies/${companyId}/skills`, { token: board })).body.filter(
      (s: any) => s.slug === 'git',
    );
    const create = (name: string, desiredSkills: unknown) =>
      t.request('POST', `/api/companies/${companyId}/agents`, {
        token: board,
        body: { name, adapterType: 'claude_local', desiredSkills },
      });
    const byId = await create('Skilled by id', [git.id, skillKey('review')]);
    assert.equal(byId.status, 201, JSON.stringify(byId.body));
    const snapshot = await t.request('GET', `/api/agents/${byId.body.id}/skills`, { token: board });
    assert.deepEqual(
      snapshot.body.entries.map((e: any) => [e.key, e.required]),
      [
        [BUNDLED, true],
        [skillKey('git'), false],
        [skillKey('review'), false],
      ],
    );
    const none = await create('Skilled by none', []);
    assert.equal(none.status, 201);
    assert.deepEqual(
      (await t.request('GET', `/api/agents/${none.body.id}/skills`, { token: board })).body.desiredSkills,
      [BUNDLED],
    );

    // Two imported skills named Twin, from two folders: the slug `twin` is ambiguous.
    const scratch = await mkdtemp(path.join(os.tmpdir(), 'boardroom-agent-skills-'));
    const twins = [];
    for (const side of ['a', 'b']) {
      await mkdir(path.join(scratch, side, 'twin'), { recursive: true });
      await writeFile(path.join(scratch, side, 'twin', 'SKILL.md'), '---\nname: Twin\n---\n\n# Twin\n');
      const imported = await t.request('POST', `/api/companies/${companyId}/skills/import`, {
        token: board,
        body: { source: path.join(scratch, side, 'twin') },
      });
      assert.equal(imported.status, 200, JSON.stringify(imported.body));
      twins.push(imported.body.imported[0].key);
    }
    await rm(scratch, { recursive: true, force: true });
    const ambiguous = await create('Never made', ['git', 'twin']);
    assert.equal(ambiguous.status, 422, JSON.stringify(ambiguous.body));
    assert.deepEqual(
      ambiguous.body.details.ambiguous.map((a: any) => [a.reference, a.keys.sort()]),
      [['twin', twins.sort()]],
    );
    const refused = await create('Never made', ['git', 'no-such-skill', 'another-unknown']);
    assert.equal(refused.status, 422, JSON.stringify(refused.body));
    assert.deepEqual(refused.body.details.unknown, ['no-such-skill', 'another-unknown']);
    assert.equal(
      (
        await t.database.pool.query('select count(*)::int as n from agents where company_id = $1 and name = $2', [
          companyId,
          'Never made',
        ])
      ).rows[0].n,
      0,
      'no agent is left behind',
    );
    // Another company's skill is unknown here.
    const theirs = await t.request('POST', `/api/companies/${other.companyId}/skills`, {
      token: other.board,
      body: { name: 'Theirs' },
    });
    assert.equal((await create('Never made', [theirs.body.id])).status, 422);
    assert.equal((await create('Never made', [theirs.body.key])).status, 422);
    // The same bounds as sync: 400.
    for (const bad of ['git', [''], ['x'.repeat(301)], Array.from({ length: 101 }, (_, i) => `s${i}`), [1]]) {
      assert.equal((await create('Never made', bad)).status, 400, JSON.stringify(bad).slice(0, 50));
    }
    assert.equal(
      (
        await t.database.pool.query('select count(*)::int as n from agents where company_id = $1 and name like $2', [
          companyId,
          'Never made%',
        ])
      ).rows[0].n,
      0,
    );
  });

  it('dedups names with a numeric suffix and derives a unique urlKey', async () => {
    const names = [];
    for (let i = 0; i < 3; i++) {
      const res = await t.request('POST', `/api/companies/${companyId}/agents`, {
        token: board,
        body: { name: 'Scout', adapterType: 'process' },
      });
      assert.equal(res.status, 201);
      names.push([res.body.name, res.body.urlKey]);
    }
    assert.deepEqual(names, [
      ['Scout', 'scout'],
      ['Scout 2', 'scout-2'],
      ['Scout 3', 'scout-3'],
    ]);
    // The same name in another company is free.
    const elsewhere = await t.request('POST', `/api/companies/${other.companyId}/agents`, {
      token: other.board,
      body: { name: 'Scout', adapterType: 'process' },
    });
    assert.equal(elsewhere.body.name, 'Scout');
  });

  it('creates the agent monthly budget policy for a positive budget', async () => {
    const { agent } = await newAgent(t, board, companyId, { budgetMonthlyCents: 2500 });
    assert.deepEqual(await policyOf(agent.id), [{ amount_cents: 2500, is_active: true }]);
  });

  it('is board-only and company-scoped', async () => {
    const body = { name: 'Nope', adapterType: 'process' };
    assert.equal(
      (await t.request('POST', `/api/companies/${companyId}/agents`, { token: ceo.token, body })).status,
      403,
    );
    assert.equal(
      (await t.request('POST', `/api/companies/${companyId}/agents`, { token: other.board, body })).status,
      403,
    );
    assert.equal(
      (await t.request('POST', `/api/companies/${companyId}/agents`, { token: other.agent.token, body })).status,
      403,
    );
    assert.equal((await t.request('POST', `/api/companies/${MISSING}/agents`, { token: board, body })).status, 404);
  });

  it('rejects bad bodies with 400', async () => {
    const url = `/api/companies/${companyId}/agents`;
    for (const body of [
      { adapterType: 'process' },
      { name: 'X' },
      { name: 5, adapterType: 'process' },
      { name: 'X', adapterType: 'process', reportsTo: 'nope' },
      { name: 'X', adapterType: 'process', budgetMonthlyCents: -1 },
      { name: 'X', adapterType: 'process', adapterConfig: [] },
      { name: 'X', adapterType: 'process', runtimeConfig: { heartbeat: { enabled: 'yes' } } },
    ]) {
      const res = await t.request('POST', url, { token: board, body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(typeof res.body.error, 'string');
    }
    assert.equal(
      (
        await t.request('POST', url, {
          token: board,
          payload: '{"name":',
          headers: { 'content-type': 'application/json' },
        })
      ).status,
      400,
    );
  });

  it('requires reportsTo to be an agent of the same company', async () => {
    const url = `/api/companies/${companyId}/agents`;
    assert.equal(
      (
        await t.request('POST', url, {
          token: board,
          body: { name: 'Sub', adapterType: 'process', reportsTo: other.agent.agent.id },
        })
      ).status,
      422,
    );
    assert.equal(
      (
        await t.request('POST', url, {
          token: board,
          body: { name: 'Sub', adapterType: 'process', reportsTo: MISSING },
        })
      ).status,
      422,
    );
    const ok = await t.request('POST', url, {
      token: board,
      body: { name: 'Sub', adapterType: 'process', reportsTo: ceo.agent.id },
    });
    assert.equal(ok.status, 201);
    assert.equal(ok.body.reportsTo, ceo.agent.id);
  });

  it('accepts secret references of the same company only, normalised, and redacts env in activity', async () => {
    const secret = await newSecret(t, board, companyId);
    const foreign = await newSecret(t, other.board, other.companyId);
    const url = `/api/companies/${companyId}/agents`;
    const bad = await t.request('POST', url, {
      token: board,
      body: {
        name: 'Sec',
        adapterType: 'process',
        adapterConfig: { env: { KEY: { type: 'secret_ref', secretId: foreign.id } } },
      },
    });
    assert.equal(bad.status, 422);
    const res = await t.request('POST', url, {
      token: board,
      body: {
        name: 'Sec',
        adapterType: 'process',
        adapterConfig: { env: { KEY: { type: 'secret_ref', secretId: secret.id }, PLAIN: 'hunter2' } },
      },
    });
    assert.equal(res.status, 201);
    assert.deepEqual(res.body.adapterConfig.env.KEY, { type: 'secret_ref', secretId: secret.id, version: 'latest' });
    const [entry] = (await activityRows(t, companyId, 'agent.created')).filter((r) => r.entity_id === res.body.id);
    assert.doesNotMatch(JSON.stringify(entry.details), /hunter2/);
  });
});

describe('agents: list and get', () => {
  let secretive: any;
  before(async () => {
    secretive = (
      await newAgent(t, board, companyId, {
        name: 'Secretive',
        adapterConfig: { env: { PLAIN: 'hunter2' }, model: 'm1' },
        runtimeConfig: { env: { X: 'y' } },
      })
    ).agent;
  });

  it('lists live agents; config is redacted for callers who may not read it', async () => {
    const asBoard = await t.request('GET', `/api/companies/${companyId}/agents`, { token: board });
    assert.equal(asBoard.status, 200);
    const seen = asBoard.body.find((a: any) => a.id === secretive.id);
    assert.equal(seen.adapterConfig.env.PLAIN, 'hunter2');
    assert.equal(seen.configRedacted, false);
    const asWorker = await t.request('GET', `/api/companies/${companyId}/agents`, { token: worker.token });
    const redacted = asWorker.body.find((a: any) => a.id === secretive.id);
    assert.equal(redacted.adapterConfig.env.PLAIN, '[redacted]');
    assert.equal(redacted.runtimeConfig.env.X, '[redacted]');
    assert.equal(redacted.adapterConfig.model, 'm1');
    assert.equal(redacted.configRedacted, true);
    assert.doesNotMatch(JSON.stringify(asWorker.body), /hunter2/);
    for (const reader of [ceo, creator]) {
      const res = await t.request('GET', `/api/companies/${companyId}/agents`, { token: reader.token });
      assert.equal(res.body.find((a: any) => a.id === secretive.id).adapterConfig.env.PLAIN, 'hunter2');
    }
    // An agent reads its own configuration.
    const self = await t.request('GET', `/api/agents/${worker.agent.id}`, { token: worker.token });
    assert.equal(self.body.configRedacted, false);
    const single = await t.request('GET', `/api/agents/${secretive.id}`, { token: worker.token });
    assert.equal(single.status, 200);
    assert.equal(single.body.adapterConfig.env.PLAIN, '[redacted]');
  });

  it('answers 403 for another company and 404 for a missing one', async () => {
    assert.equal((await t.request('GET', `/api/companies/${companyId}/agents`, { token: other.board })).status, 403);
    assert.equal(
      (await t.request('GET', `/api/companies/${companyId}/agents`, { token: other.agent.token })).status,
      403,
    );
    assert.equal((await t.request('GET', `/api/companies/${MISSING}/agents`, { token: board })).status, 404);
    assert.equal((await t.request('GET', `/api/agents/${secretive.id}`, { token: other.board })).status, 403);
    assert.equal((await t.request('GET', `/api/agents/${secretive.id}`, { token: other.agent.token })).status, 403);
    assert.equal(
      (await t.request('GET', `/api/agents/secretive?companyId=${companyId}`, { token: other.board })).status,
      403,
    );
    assert.equal((await t.request('GET', `/api/agents/${MISSING}`, { token: board })).status, 404);
    assert.equal((await t.request('GET', `/api/agents/nobody?companyId=${companyId}`, { token: board })).status, 404);
    assert.equal((await t.request('GET', `/api/agents/secretive?companyId=nope`, { token: board })).status, 400);
  });

  it('gets one agent by UUID or shortname with chainOfCommand and access', async () => {
    const mid = (await newAgent(t, board, companyId, { name: 'Middle', reportsTo: ceo.agent.id })).agent;
    const leaf = (await newAgent(t, board, companyId, { name: 'Leaf Node', reportsTo: mid.id })).agent;
    const byId = await t.request('GET', `/api/agents/${leaf.id}`, { token: board });
    assert.equal(byId.status, 200);
    assert.deepEqual(
      byId.body.chainOfCommand.map((a: any) => a.id),
      [mid.id, ceo.agent.id],
    );
    assert.deepEqual(byId.body.access, { canAssignTasks: false, reason: 'none' });
    const byKey = await t.request('GET', `/api/agents/leaf-node?companyId=${companyId}`, { token: board });
    assert.equal(byKey.body.id, leaf.id);
    // Board callers must say which company a shortname belongs to; agents use their own.
    assert.equal((await t.request('GET', '/api/agents/leaf-node', { token: board })).status, 400);
    assert.equal((await t.request('GET', '/api/agents/leaf-node', { token: worker.token })).body.id, leaf.id);
    assert.equal((await t.request('GET', '/api/agents/leaf-node', { token: other.agent.token })).status, 404);
    const ceoView = await t.request('GET', `/api/agents/${ceo.agent.id}`, { token: board });
    assert.deepEqual(ceoView.body.chainOfCommand, []);
    assert.deepEqual(ceoView.body.access, { canAssignTasks: true, reason: 'ceo_role' });
    assert.deepEqual((await t.request('GET', `/api/agents/${creator.agent.id}`, { token: board })).body.access, {
      canAssignTasks: true,
      reason: 'agent_creator',
    });
  });

  it('GET /api/agents/me is for agents only', async () => {
    const me = await t.request('GET', '/api/agents/me', { token: worker.token });
    assert.equal(me.status, 200);
    assert.equal(me.body.id, worker.agent.id);
    assert.ok(Array.isArray(me.body.chainOfCommand));
    assert.equal((await t.request('GET', '/api/agents/me', { token: board })).status, 403);
    assert.equal((await t.request('GET', '/api/agents/me')).status, 401);
  });
});

describe('agents: PATCH', () => {
  it('merges adapterConfig, or replaces it keeping the skill selection', async () => {
    const { agent } = await newAgent(t, board, companyId, {
      adapterConfig: { model: 'a', cwd: '/tmp' },
      desiredSkills: ['git'],
    });
    const merged = await t.request('PATCH', `/api/agents/${agent.id}`, {
      token: board,
      body: { adapterConfig: { model: 'b' }, title: 'Lead' },
    });
    assert.equal(merged.status, 200);
    assert.equal(merged.body.adapterConfig.model, 'b');
    assert.equal(merged.body.adapterConfig.cwd, '/tmp');
    assert.equal(merged.body.title, 'Lead');
    const replaced = await t.request('PATCH', `/api/agents/${agent.id}`, {
      token: board,
      body: { adapterConfig: { model: 'c' }, replaceAdapterConfig: true },
    });
    assert.equal(replaced.body.adapterConfig.model, 'c');
    assert.equal(replaced.body.adapterConfig.cwd, undefined);
    assert.deepEqual(replaced.body.adapterConfig.serviceSkillSync.desiredSkills, [BUNDLED, skillKey('git')]);
    const entries = (await activityRows(t, companyId, 'agent.updated')).filter((r) => r.entity_id === agent.id);
    assert.equal(entries.length, 2);
  });

  it('rejects a permissions body with 422 and bad fields with 400', async () => {
    const url = `/api/agents/${worker.agent.id}`;
    assert.equal(
      (await t.request('PATCH', url, { token: board, body: { permissions: { canCreateAgents: true } } })).status,
      422,
    );
    assert.equal((await t.request('PATCH', url, { token: board, body: { status: 'sleeping' } })).status, 400);
    assert.equal((await t.request('PATCH', url, { token: board, body: { name: '' } })).status, 400);
    assert.equal((await t.request('PATCH', url, { token: board, body: { replaceAdapterConfig: 'yes' } })).status, 400);
    assert.equal((await t.request('GET', url, { token: board })).body.permissions.canCreateAgents, false);
  });

  it('renames with a new urlKey and answers 409 on a shortname collision', async () => {
    const { agent } = await newAgent(t, board, companyId, { name: 'Renamee' });
    const renamed = await t.request('PATCH', `/api/agents/${agent.id}`, {
      token: board,
      body: { name: 'Renamed One' },
    });
    assert.equal(renamed.body.urlKey, 'renamed-one');
    const clash = await t.request('PATCH', `/api/agents/${agent.id}`, { token: board, body: { name: 'worker' } });
    assert.equal(clash.status, 409);
    // A terminated agent's shortname is free again.
    const gone = (await newAgent(t, board, companyId, { name: 'Ghost' })).agent;
    assert.equal((await t.request('POST', `/api/agents/${gone.id}/terminate`, { token: board })).status, 200);
    assert.equal(
      (await t.request('PATCH', `/api/agents/${agent.id}`, { token: board, body: { name: 'Ghost' } })).status,
      200,
    );
  });

  it('never lets reportsTo leave the company or create a cycle, at any depth', async () => {
    const a = (await newAgent(t, board, companyId)).agent;
    const b = (await newAgent(t, board, companyId, { reportsTo: a.id })).agent;
    const c = (await newAgent(t, board, companyId, { reportsTo: b.id })).agent;
    const patch = (id: string, reportsTo: string | null) =>
      t.request('PATCH', `/api/agents/${id}`, { token: board, body: { reportsTo } });
    assert.equal((await patch(a.id, c.id)).status, 422);
    assert.equal((await patch(a.id, b.id)).status, 422);
    assert.equal((await patch(a.id, a.id)).status, 422);
    assert.equal((await patch(a.id, other.agent.agent.id)).status, 422);
    assert.equal((await patch(c.id, a.id)).status, 200);
    assert.equal((await patch(c.id, null)).body.reportsTo, null);
  });

  it('validates secret references on patch', async () => {
    const foreign = await newSecret(t, other.board, other.companyId);
    const res = await t.request('PATCH', `/api/agents/${worker.agent.id}`, {
      token: board,
      body: { adapterConfig: { env: { K: { type: 'secret_ref', secretId: foreign.id } } } },
    });
    assert.equal(res.status, 422);
  });

  it('refuses status patches that resume a terminated agent or activate a pending_approval agent', async () => {
    const { agent } = await newAgent(t, board, companyId);
    const url = `/api/agents/${agent.id}`;
    assert.equal((await t.request('PATCH', url, { token: board, body: { status: 'paused' } })).body.status, 'paused');
    assert.equal((await t.request('PATCH', url, { token: board, body: { status: 'terminated' } })).status, 422);
    assert.equal((await t.request('PATCH', url, { token: board, body: { status: 'pending_approval' } })).status, 422);
    await t.request('POST', `${url}/terminate`, { token: board });
    assert.equal((await t.request('PATCH', url, { token: board, body: { status: 'idle' } })).status, 409);
    assert.equal((await t.request('GET', url, { token: board })).body.status, 'terminated');
    const pending = (await newAgent(t, board, companyId)).agent;
    await t.database.pool.query(`update agents set status = 'pending_approval' where id = $1`, [pending.id]);
    assert.equal(
      (await t.request('PATCH', `/api/agents/${pending.id}`, { token: board, body: { status: 'active' } })).status,
      409,
    );
  });

  it('lets an agent patch itself (not status, role or reportsTo) and the CEO patch others', async () => {
    const self = await t.request('PATCH', `/api/agents/${worker.agent.id}`, {
      token: worker.token,
      body: { capabilities: 'writes code' },
    });
    assert.equal(self.status, 200);
    assert.equal(self.body.capabilities, 'writes code');
    for (const body of [{ status: 'paused' }, { role: 'ceo' }, { reportsTo: null }]) {
      assert.equal(
        (await t.request('PATCH', `/api/agents/${worker.agent.id}`, { token: worker.token, body })).status,
        403,
        JSON.stringify(body),
      );
    }
    assert.equal(
      (await t.request('PATCH', `/api/agents/${ceo.agent.id}`, { token: worker.token, body: { title: 'x' } })).status,
      403,
    );
    assert.equal(
      (await t.request('PATCH', `/api/agents/${worker.agent.id}`, { token: creator.token, body: { title: 'x' } }))
        .status,
      403,
    );
    assert.equal(
      (await t.request('PATCH', `/api/agents/${worker.agent.id}`, { token: ceo.token, body: { title: 'Engineer' } }))
        .body.title,
      'Engineer',
    );
  });

  it('answers 403 across companies and 404 for a missing agent', async () => {
    const url = `/api/agents/${worker.agent.id}`;
    assert.equal((await t.request('PATCH', url, { token: other.board, body: { title: 'x' } })).status, 403);
    assert.equal((await t.request('PATCH', url, { token: other.agent.token, body: { title: 'x' } })).status, 403);
    assert.equal((await t.request('PATCH', url, { token: other.ceo.token, body: { title: 'x' } })).status, 403);
    assert.equal(
      (await t.request('PATCH', `/api/agents/${MISSING}`, { token: board, body: { title: 'x' } })).status,
      404,
    );
  });
});

describe('agents: permissions and budgets', () => {
  it('lets the board or the company CEO change permissions', async () => {
    const { agent, token } = await newAgent(t, board, companyId);
    const url = `/api/agents/${agent.id}/permissions`;
    const res = await t.request('PATCH', url, { token: board, body: { canCreateAgents: true } });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.permissions, { canCreateAgents: true });
    const byCeo = await t.request('PATCH', url, {
      token: ceo.token,
      body: { canCreateAgents: false, canAssignTasks: true },
    });
    assert.equal(byCeo.status, 200);
    assert.deepEqual(byCeo.body.permissions, { canCreateAgents: false });
    assert.deepEqual(byCeo.body.access, { canAssignTasks: true, reason: 'explicit_grant' });
    assert.equal(
      (await activityRows(t, companyId, 'agent.permissions_updated')).filter((r) => r.entity_id === agent.id).length,
      2,
    );
    assert.equal((await t.request('PATCH', url, { token, body: { canCreateAgents: true } })).status, 403);
    assert.equal(
      (await t.request('PATCH', url, { token: creator.token, body: { canCreateAgents: true } })).status,
      403,
    );
    assert.equal((await t.request('PATCH', url, { token: other.board, body: { canCreateAgents: true } })).status, 403);
    assert.equal(
      (await t.request('PATCH', url, { token: other.agent.token, body: { canCreateAgents: true } })).status,
      403,
    );
    assert.equal(
      (await t.request('PATCH', url, { token: other.ceo.token, body: { canCreateAgents: true } })).status,
      403,
    );
    assert.equal((await t.request('PATCH', url, { token: board, body: {} })).status, 400);
    assert.equal((await t.request('PATCH', url, { token: board, body: { canCreateAgents: 'yes' } })).status, 400);
    assert.equal(
      (
        await t.request('PATCH', `/api/agents/${MISSING}/permissions`, {
          token: board,
          body: { canCreateAgents: true },
        })
      ).status,
      404,
    );
  });

  it('sets the budget and syncs the agent budget policy', async () => {
    const { agent, token } = await newAgent(t, board, companyId);
    const url = `/api/agents/${agent.id}/budgets`;
    const res = await t.request('PATCH', url, { token: board, body: { budgetMonthlyCents: 4000 } });
    assert.equal(res.status, 200);
    assert.equal(res.body.budgetMonthlyCents, 4000);
    assert.deepEqual(await policyOf(agent.id), [{ amount_cents: 4000, is_active: true }]);
    assert.equal((await t.request('PATCH', url, { token: ceo.token, body: { budgetMonthlyCents: 6000 } })).status, 200);
    assert.deepEqual(await policyOf(agent.id), [{ amount_cents: 6000, is_active: true }]);
    assert.equal((await t.request('PATCH', url, { token: board, body: { budgetMonthlyCents: 0 } })).status, 200);
    assert.deepEqual(await policyOf(agent.id), []);
    assert.equal(
      (await activityRows(t, companyId, 'agent.budget_updated')).filter((r) => r.entity_id === agent.id).length,
      3,
    );
    assert.equal((await t.request('PATCH', url, { token, body: { budgetMonthlyCents: 1 } })).status, 403);
    assert.equal((await t.request('PATCH', url, { token: other.board, body: { budgetMonthlyCents: 1 } })).status, 403);
    assert.equal(
      (await t.request('PATCH', url, { token: other.agent.token, body: { budgetMonthlyCents: 1 } })).status,
      403,
    );
    assert.equal((await t.request('PATCH', url, { token: board, body: { budgetMonthlyCents: -5 } })).status, 400);
    assert.equal((await t.request('PATCH', url, { token: board, body: {} })).status, 400);
    assert.equal(
      (await t.request('PATCH', `/api/agents/${MISSING}/budgets`, { token: board, body: { budgetMonthlyCents: 1 } }))
        .status,
      404,
    );
  });
});
