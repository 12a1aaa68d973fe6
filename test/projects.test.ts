import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { asc, eq } from 'drizzle-orm';
import { activityLog, projects } from '../src/db/schema/index.ts';
import { PROJECT_PALETTE } from '../src/modules/projects/service.ts';
import { useTestApp } from './helpers/app.ts';
import { activityActions, companyWithAgent } from './helpers/factories.ts';

const t = await useTestApp();
const MISSING = '00000000-0000-4000-8000-000000000000';

const a = await companyWithAgent(t);
const b = await companyWithAgent(t);
const outsiders = [
  { who: 'board user of another company', token: b.boardToken },
  { who: 'agent of another company', token: b.agent.token },
];

async function project(body: Record<string, unknown>, token = a.boardToken, companyId = a.company.id) {
  const res = await t.request('POST', `/api/companies/${companyId}/projects`, { token, body });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

async function goal(title: string, token = a.boardToken, companyId = a.company.id) {
  const res = await t.request('POST', `/api/companies/${companyId}/goals`, { token, body: { title } });
  assert.equal(res.status, 201);
  return res.body;
}

async function secret(name: string, token = a.boardToken, companyId = a.company.id) {
  const res = await t.request('POST', `/api/companies/${companyId}/secrets`, {
    token,
    body: { name, value: 'hunter2' },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

describe('projects', () => {
  it('creates with defaults, a shortname and palette colours in creation order', async () => {
    const { company, token } = await t.newCompany();
    const first = await project({ name: 'Website Redesign!' }, token, company.id);
    assert.equal(first.name, 'Website Redesign!');
    assert.equal(first.urlKey, 'website-redesign');
    assert.equal(first.status, 'backlog');
    assert.equal(first.color, PROJECT_PALETTE[0]);
    assert.deepEqual(first.goalIds, []);
    assert.deepEqual(first.goals, []);
    assert.equal(first.goalId, null);
    assert.equal(first.archivedAt, null);
    assert.equal(first.codebase, null);
    assert.deepEqual(first.workspaces, []);
    assert.equal(first.primaryWorkspace, null);
    assert.deepEqual(await activityActions(t, first.id), ['project.created']);
    const second = await project({ name: 'Mobile app' }, token, company.id);
    assert.equal(second.color, PROJECT_PALETTE[1]);
    const chosen = await project(
      {
        name: 'Coloured',
        color: '#123abc',
        status: 'in_progress',
        targetDate: '2030-01-31',
        description: 'd',
        executionWorkspacePolicy: { mode: 'isolated' },
      },
      token,
      company.id,
    );
    assert.equal(chosen.color, '#123abc');
    assert.equal(chosen.status, 'in_progress');
    assert.equal(chosen.targetDate, '2030-01-31');
    assert.deepEqual(chosen.executionWorkspacePolicy, { mode: 'isolated' });
  });

  it('an agent of the company may create, update and delete projects', async () => {
    const p = await project({ name: 'Agent made' }, a.agent.token);
    const [entry] = await t.database.db.select().from(activityLog).where(eq(activityLog.entityId, p.id));
    assert.equal(entry!.actorType, 'agent');
    assert.equal(
      (await t.request('PATCH', `/api/projects/${p.id}`, { token: a.agent.token, body: { status: 'planned' } })).body
        .status,
      'planned',
    );
    assert.equal((await t.request('DELETE', `/api/projects/${p.id}`, { token: a.agent.token })).status, 200);
  });

  it('rejects bad input with 400', async () => {
    const url = `/api/companies/${a.company.id}/projects`;
    const bad = [
      {},
      { name: '' },
      { name: 'x', status: 'shipped' },
      { name: 'x', color: 'red' },
      { name: 'x', color: '#12345g' },
      { name: 'x', targetDate: 'next week' },
      { name: 'x', goalIds: ['nope'] },
      { name: 'x', goalIds: Array.from({ length: 51 }, () => MISSING) },
      { name: 'x', env: { 'BAD NAME': 'v' } },
      { name: 'x', env: { TOKEN: { type: 'secret_ref', secretId: 'nope' } } },
      { name: 'x', env: { TOKEN: { type: 'secret_ref', secretId: MISSING, version: 0 } } },
      { name: 'x', workspace: { cwd: 42 } },
      { name: 'x', workspace: { cwd: '/x', sourceType: 'ftp' } },
    ];
    for (const body of bad)
      assert.equal((await t.request('POST', url, { token: a.boardToken, body })).status, 400, JSON.stringify(body));
    const p = await project({ name: 'Valid' });
    assert.equal(
      (await t.request('PATCH', `/api/projects/${p.id}`, { token: a.boardToken, body: { archivedAt: 'yesterday' } }))
        .status,
      400,
    );
    assert.equal(
      (await t.request('PATCH', `/api/projects/${p.id}`, { token: a.boardToken, body: { name: null } })).status,
      400,
    );
    assert.equal(
      (await t.request('GET', `/api/companies/${a.company.id}/projects?limit=5000`, { token: a.boardToken })).status,
      400,
    );
    assert.equal((await t.request('GET', `/api/projects/${p.id}?companyId=nope`, { token: a.boardToken })).status, 400);
  });

  it('dedupes names so shortnames stay unique in the company; other companies may reuse them', async () => {
    const { company, token } = await t.newCompany();
    const one = await project({ name: 'Platform' }, token, company.id);
    const two = await project({ name: 'platform' }, token, company.id);
    const three = await project({ name: 'PLATFORM' }, token, company.id);
    assert.deepEqual([one.urlKey, two.urlKey, three.urlKey], ['platform', 'platform-2', 'platform-3']);
    assert.deepEqual([one.name, two.name, three.name], ['Platform', 'platform 2', 'PLATFORM 3']);
    const elsewhere = await project({ name: 'Platform' }, b.boardToken, b.company.id);
    assert.equal(elsewhere.urlKey, 'platform');
  });

  it('concurrent creates of one name get distinct shortnames', async () => {
    const { company, token } = await t.newCompany();
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        t.request('POST', `/api/companies/${company.id}/projects`, { token, body: { name: 'Race' } }),
      ),
    );
    assert.deepEqual(
      results.map((r) => r.status),
      Array(8).fill(201),
    );
    assert.equal(new Set(results.map((r) => r.body.urlKey)).size, 8);
  });

  it('rename: the shortname follows the name; a collision is 409', async () => {
    const { company, token } = await t.newCompany();
    const p = await project({ name: 'Alpha' }, token, company.id);
    await project({ name: 'Beta' }, token, company.id);
    const clash = await t.request('PATCH', `/api/projects/${p.id}`, { token, body: { name: 'BETA' } });
    assert.equal(clash.status, 409);
    assert.equal(typeof clash.body.error, 'string');
    const renamed = await t.request('PATCH', `/api/projects/${p.id}`, { token, body: { name: 'Gamma Ray' } });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.urlKey, 'gamma-ray');
    assert.equal((await t.request('GET', '/api/projects/gamma-ray', { token })).body.id, p.id);
    assert.equal((await t.request('GET', '/api/projects/alpha', { token })).status, 404);
    // Renaming to its own shortname is not a collision.
    assert.equal(
      (await t.request('PATCH', `/api/projects/${p.id}`, { token, body: { name: 'GAMMA ray' } })).status,
      200,
    );
  });

  it('GET by id or shortname; shortnames search only the caller companies; ambiguity is 409', async () => {
    const { token } = await t.newBoardUser();
    const c1 = await t.newCompany(token);
    const c2 = await t.newCompany(token);
    const p1 = await project({ name: 'Shared Name' }, token, c1.company.id);
    const p2 = await project({ name: 'Shared Name' }, token, c2.company.id);
    assert.equal((await t.request('GET', `/api/projects/${p1.id}`, { token })).body.urlKey, 'shared-name');
    const ambiguous = await t.request('GET', '/api/projects/shared-name', { token });
    assert.equal(ambiguous.status, 409);
    assert.equal(ambiguous.body.details.matches.length, 2);
    // The instance owner sees every company, so the shortname is ambiguous for it too.
    assert.equal((await t.request('GET', '/api/projects/shared-name', { token: t.ownerToken })).status, 409);
    const narrowed = await t.request('GET', `/api/projects/shared-name?companyId=${c2.company.id}`, { token });
    assert.equal(narrowed.status, 200);
    assert.equal(narrowed.body.id, p2.id);
    assert.equal(
      (await t.request('GET', `/api/projects/Shared-Name?companyId=${c1.company.id}`, { token })).body.id,
      p1.id,
    );
    // A member of only one of the companies is not confused by the other.
    const single = await t.newBoardUser();
    const { company: c3 } = await t.newCompany(single.token);
    const p3 = await project({ name: 'Shared Name' }, single.token, c3.id);
    assert.equal((await t.request('GET', '/api/projects/shared-name', { token: single.token })).body.id, p3.id);
    // An agent searches its own company only.
    const agentView = await t.request('GET', '/api/projects/shared-name', { token: a.agent.token });
    assert.equal(agentView.status, 404);
    assert.equal((await t.request('GET', '/api/projects/no-such-project', { token })).status, 404);
    assert.equal((await t.request('GET', `/api/projects/${MISSING}`, { token })).status, 404);
    // Narrowing to a company the caller cannot access is 403.
    assert.equal((await t.request('GET', `/api/projects/shared-name?companyId=${c3.id}`, { token })).status, 403);
    // Ambiguity applies to every route that takes {projectId}.
    assert.equal(
      (await t.request('PATCH', '/api/projects/shared-name', { token, body: { status: 'planned' } })).status,
      409,
    );
    assert.equal(
      (
        await t.request('PATCH', `/api/projects/shared-name?companyId=${c1.company.id}`, {
          token,
          body: { status: 'planned' },
        })
      ).body.status,
      'planned',
    );
  });

  it('goalIds are preferred; legacy goalId stays equal to the first linked goal', async () => {
    const g1 = await goal('G1');
    const g2 = await goal('G2');
    const g3 = await goal('G3');
    const p = await project({ name: 'Goals', goalIds: [g2.id, g1.id, g2.id] });
    assert.deepEqual(p.goalIds, [g2.id, g1.id]);
    assert.equal(p.goalId, g2.id);
    assert.deepEqual(p.goals[0], { id: g2.id, title: 'G2', level: 'task', status: 'planned' });
    const patch = (body: unknown) => t.request('PATCH', `/api/projects/${p.id}`, { token: a.boardToken, body });
    let res = await patch({ goalIds: [g3.id, g2.id] });
    assert.deepEqual(res.body.goalIds, [g3.id, g2.id]);
    assert.equal(res.body.goalId, g3.id);
    res = await patch({ goalId: g1.id });
    assert.deepEqual(res.body.goalIds, [g1.id]);
    assert.equal(res.body.goalId, g1.id);
    res = await patch({ goalIds: [g2.id, g3.id], goalId: g2.id });
    assert.deepEqual(res.body.goalIds, [g2.id, g3.id]);
    assert.equal((await patch({ goalIds: [g2.id], goalId: g3.id })).status, 400);
    res = await patch({ status: 'planned' });
    assert.deepEqual(res.body.goalIds, [g2.id, g3.id]);
    // Deleting the first linked goal moves goalId to the next one.
    await t.request('DELETE', `/api/goals/${g2.id}`, { token: a.boardToken });
    res = await t.request('GET', `/api/projects/${p.id}`, { token: a.boardToken });
    assert.deepEqual(res.body.goalIds, [g3.id]);
    assert.equal(res.body.goalId, g3.id);
    res = await patch({ goalId: null });
    assert.deepEqual(res.body.goalIds, []);
    assert.equal(res.body.goalId, null);
    const legacy = await project({ name: 'Legacy', goalId: g1.id });
    assert.deepEqual(legacy.goalIds, [g1.id]);
    assert.equal(legacy.goalId, g1.id);
  });

  it('goals, lead agent and secrets must belong to the same company (422)', async () => {
    const foreignGoal = await goal('Foreign', b.boardToken, b.company.id);
    const foreignSecret = await secret(`FOREIGN_${Date.now()}`, b.boardToken, b.company.id);
    const bad = [
      { name: 'x', goalIds: [foreignGoal.id] },
      { name: 'x', goalIds: [MISSING] },
      { name: 'x', goalId: foreignGoal.id },
      { name: 'x', leadAgentId: b.agent.agent.id },
      { name: 'x', leadAgentId: MISSING },
      { name: 'x', env: { API_TOKEN: { type: 'secret_ref', secretId: foreignSecret.id } } },
      { name: 'x', env: { API_TOKEN: { type: 'secret_ref', secretId: MISSING } } },
    ];
    for (const body of bad) {
      assert.equal(
        (await t.request('POST', `/api/companies/${a.company.id}/projects`, { token: a.boardToken, body })).status,
        422,
        JSON.stringify(body),
      );
    }
    const p = await project({ name: 'Refs', leadAgentId: a.agent.agent.id });
    assert.equal(p.leadAgentId, a.agent.agent.id);
    for (const body of bad.map(({ name: _n, ...rest }) => rest)) {
      assert.equal(
        (await t.request('PATCH', `/api/projects/${p.id}`, { token: a.boardToken, body })).status,
        422,
        JSON.stringify(body),
      );
    }
    assert.deepEqual(await activityActions(t, p.id), ['project.created']);
  });

  it('env: secret references are normalised (latest when omitted) and plain values kept', async () => {
    const s = await secret(`DB_PASSWORD_${Date.now()}`);
    const p = await project({
      name: 'Env',
      env: {
        DB_PASSWORD: { type: 'secret_ref', secretId: s.id },
        PINNED: { type: 'secret_ref', secretId: s.id, version: 1 },
        MODE: 'prod',
        FLAG: { type: 'plain', value: 'on' },
      },
    });
    assert.deepEqual(p.env, {
      DB_PASSWORD: { type: 'secret_ref', secretId: s.id, version: 'latest' },
      PINNED: { type: 'secret_ref', secretId: s.id, version: 1 },
      MODE: 'prod',
      FLAG: { type: 'plain', value: 'on' },
    });
    const patched = await t.request('PATCH', `/api/projects/${p.id}`, {
      token: a.boardToken,
      body: { env: { ONLY: { type: 'secret_ref', secretId: s.id } } },
    });
    assert.deepEqual(patched.body.env, { ONLY: { type: 'secret_ref', secretId: s.id, version: 'latest' } });
    const cleared = await t.request('PATCH', `/api/projects/${p.id}`, { token: a.boardToken, body: { env: null } });
    assert.equal(cleared.body.env, null);
    // The audit trail names env keys, never values.
    const entries = await t.database.db
      .select()
      .from(activityLog)
      .where(eq(activityLog.entityId, p.id))
      .orderBy(asc(activityLog.createdAt));
    assert.deepEqual(
      entries.map((e) => (e.details as any).envKeys),
      [['DB_PASSWORD', 'PINNED', 'MODE', 'FLAG'], ['ONLY'], null],
    );
    assert.ok(!JSON.stringify(entries.map((e) => e.details)).includes('prod'));
  });

  it('archive and unarchive through archivedAt', async () => {
    const p = await project({ name: 'Archivable' });
    const at = '2030-05-01T10:00:00.000Z';
    const archived = await t.request('PATCH', `/api/projects/${p.id}`, {
      token: a.boardToken,
      body: { archivedAt: at },
    });
    assert.equal(archived.status, 200);
    assert.equal(new Date(archived.body.archivedAt).toISOString(), at);
    const listed = await t.request('GET', `/api/companies/${a.company.id}/projects`, { token: a.boardToken });
    assert.ok(listed.body.some((x: any) => x.id === p.id && x.archivedAt !== null));
    const restored = await t.request('PATCH', `/api/projects/${p.id}`, {
      token: a.boardToken,
      body: { archivedAt: null },
    });
    assert.equal(restored.body.archivedAt, null);
    assert.deepEqual(await activityActions(t, p.id), ['project.created', 'project.archived', 'project.updated']);
  });

  it('create with a workspace makes both in one transaction', async () => {
    const p = await project({
      name: 'With code',
      workspace: { cwd: '/srv/code/app', repoUrl: 'https://example.test/app.git', repoRef: 'main' },
    });
    assert.equal(p.workspaces.length, 1);
    assert.equal(p.workspaces[0].isPrimary, true);
    assert.equal(p.workspaces[0].name, 'app');
    assert.equal(p.primaryWorkspace.id, p.workspaces[0].id);
    assert.deepEqual(p.codebase, {
      workspaceId: p.workspaces[0].id,
      sourceType: 'local_path',
      cwd: '/srv/code/app',
      repoUrl: 'https://example.test/app.git',
      repoRef: 'main',
      defaultRef: null,
    });
    assert.deepEqual(await activityActions(t, p.id), ['project.created']);
    assert.deepEqual(await activityActions(t, p.workspaces[0].id), ['project.workspace_created']);
  });

  it('an invalid workspace on create answers 422 and leaves no project behind', async () => {
    const { company, token } = await t.newCompany();
    const invalid = [{ name: 'Empty' }, { sourceType: 'remote_managed', cwd: '/srv/x' }];
    for (const workspace of invalid) {
      const res = await t.request('POST', `/api/companies/${company.id}/projects`, {
        token,
        body: { name: 'Rolled Back', workspace },
      });
      assert.equal(res.status, 422, JSON.stringify(res.body));
    }
    assert.deepEqual((await t.request('GET', `/api/companies/${company.id}/projects`, { token })).body, []);
    assert.deepEqual(await t.database.db.select().from(projects).where(eq(projects.companyId, company.id)), []);
    const entries = await t.database.db.select().from(activityLog).where(eq(activityLog.companyId, company.id));
    assert.deepEqual(
      entries.map((e) => e.action),
      ['company.created'],
    );
    // The shortname was not consumed either.
    assert.equal((await project({ name: 'Rolled Back' }, token, company.id)).urlKey, 'rolled-back');
  });

  it('lists the company projects with their goals and workspaces', async () => {
    const { company, token } = await t.newCompany();
    const g = await goal('Listed goal', token, company.id);
    const p1 = await project({ name: 'L1', goalIds: [g.id], workspace: { cwd: '/a' } }, token, company.id);
    const p2 = await project({ name: 'L2' }, token, company.id);
    const list = await t.request('GET', `/api/companies/${company.id}/projects`, { token });
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.map((p: any) => p.id),
      [p1.id, p2.id],
    );
    assert.deepEqual(list.body[0].goalIds, [g.id]);
    assert.equal(list.body[0].workspaces.length, 1);
    assert.equal(list.body[0].primaryWorkspace.cwd, '/a');
    assert.deepEqual(list.body[1].workspaces, []);
    assert.equal((await t.request('GET', `/api/companies/${company.id}/projects?limit=1`, { token })).body.length, 1);
    assert.equal((await t.request('GET', `/api/companies/${MISSING}/projects`, { token })).status, 404);
  });

  it('DELETE returns the deleted row and removes its workspaces', async () => {
    const p = await project({ name: 'Doomed', workspace: { cwd: '/tmp/doomed' } });
    const res = await t.request('DELETE', `/api/projects/${p.id}`, { token: a.boardToken });
    assert.equal(res.status, 200);
    assert.equal(res.body.id, p.id);
    assert.equal(res.body.name, 'Doomed');
    assert.equal(res.body.workspaces.length, 1);
    assert.equal((await t.request('GET', `/api/projects/${p.id}`, { token: a.boardToken })).status, 404);
    assert.equal((await t.request('GET', `/api/projects/${p.id}/workspaces`, { token: a.boardToken })).status, 404);
    assert.deepEqual(await activityActions(t, p.id), ['project.created', 'project.deleted']);
    assert.equal((await t.request('DELETE', `/api/projects/${p.id}`, { token: a.boardToken })).status, 404);
  });

  it('answers 404 on every project route for a missing project', async () => {
    const base = `/api/projects/${MISSING}`;
    const ws = `${base}/workspaces/${MISSING}`;
    const attempts = [
      await t.request('GET', base, { token: a.boardToken }),
      await t.request('PATCH', base, { token: a.boardToken, body: { status: 'planned' } }),
      await t.request('DELETE', base, { token: a.boardToken }),
      await t.request('GET', `${base}/workspaces`, { token: a.boardToken }),
      await t.request('POST', `${base}/workspaces`, { token: a.boardToken, body: { cwd: '/x' } }),
      await t.request('PATCH', ws, { token: a.boardToken, body: { name: 'x' } }),
      await t.request('DELETE', ws, { token: a.boardToken }),
      await t.request('POST', `${ws}/runtime-services/stop`, { token: a.boardToken }),
    ];
    assert.deepEqual(
      attempts.map((r) => r.status),
      Array(8).fill(404),
    );
  });

  it('refuses every project route to a board user or an agent of another company (403)', async () => {
    const p = await project({
      name: 'Secret plans',
      workspace: { cwd: '/srv/secret', runtimeConfig: { command: 'run' } },
    });
    const wsId = p.workspaces[0].id;
    const ws = `/api/projects/${p.id}/workspaces/${wsId}`;
    for (const { who, token } of outsiders) {
      const attempts = [
        await t.request('GET', `/api/companies/${a.company.id}/projects`, { token }),
        await t.request('POST', `/api/companies/${a.company.id}/projects`, { token, body: { name: 'Intruder' } }),
        await t.request('GET', `/api/projects/${p.id}`, { token }),
        await t.request('PATCH', `/api/projects/${p.id}`, { token, body: { name: 'Hijacked' } }),
        await t.request('DELETE', `/api/projects/${p.id}`, { token }),
        await t.request('GET', `/api/projects/${p.id}/workspaces`, { token }),
        await t.request('POST', `/api/projects/${p.id}/workspaces`, { token, body: { cwd: '/evil' } }),
        await t.request('PATCH', ws, { token, body: { cwd: '/evil' } }),
        await t.request('DELETE', ws, { token }),
        await t.request('POST', `${ws}/runtime-services/start`, { token }),
        await t.request('POST', `${ws}/runtime-services/stop`, { token }),
      ];
      assert.deepEqual(
        attempts.map((r) => r.status),
        Array(11).fill(403),
        who,
      );
      // By shortname the project of another company is simply not found.
      assert.equal((await t.request('GET', `/api/projects/${p.urlKey}`, { token })).status, 404, who);
      assert.equal(
        (await t.request('GET', `/api/projects/${p.urlKey}?companyId=${a.company.id}`, { token })).status,
        403,
        who,
      );
    }
    const after = await t.request('GET', `/api/projects/${p.id}`, { token: a.boardToken });
    assert.equal(after.body.name, 'Secret plans');
    assert.equal(after.body.workspaces.length, 1);
    assert.equal(after.body.workspaces[0].desiredState, null);
    assert.deepEqual(await activityActions(t, p.id), ['project.created']);
  });
});
