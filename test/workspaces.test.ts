import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { asc, eq } from 'drizzle-orm';
import { workspaceOperations } from '../src/db/schema/index.ts';
import { useTestApp } from './helpers/app.ts';
import { activityActions, companyWithAgent } from './helpers/factories.ts';

const t = await useTestApp();
const MISSING = '00000000-0000-4000-8000-000000000000';

const a = await companyWithAgent(t);
const b = await companyWithAgent(t);

async function newProject(body: Record<string, unknown> = {}) {
  const res = await t.request('POST', `/api/companies/${a.company.id}/projects`, {
    token: a.boardToken,
    body: { name: 'Workspaces', ...body },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

async function addWorkspace(projectId: string, body: Record<string, unknown>, token = a.boardToken) {
  const res = await t.request('POST', `/api/projects/${projectId}/workspaces`, { token, body });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

async function workspaces(projectId: string): Promise<any[]> {
  const res = await t.request('GET', `/api/projects/${projectId}/workspaces`, { token: a.boardToken });
  assert.equal(res.status, 200);
  return res.body;
}

const primaryOf = async (projectId: string) =>
  (await workspaces(projectId)).filter((w) => w.isPrimary).map((w) => w.id);

describe('project workspaces', () => {
  it('creates workspaces: the first is primary, the others not unless isPrimary moves it', async () => {
    const p = await newProject();
    const first = await addWorkspace(p.id, { cwd: '/srv/app/', isPrimary: false });
    assert.equal(first.isPrimary, true);
    assert.equal(first.name, 'app');
    assert.equal(first.sourceType, 'local_path');
    assert.equal(first.projectId, p.id);
    assert.equal(first.companyId, a.company.id);
    assert.equal(first.desiredState, null);
    const second = await addWorkspace(p.id, { repoUrl: 'git@example.test:acme/api.git' }, a.agent.token);
    assert.equal(second.isPrimary, false);
    assert.equal(second.sourceType, 'git_repo');
    assert.equal(second.name, 'api');
    const third = await addWorkspace(p.id, {
      name: 'Docs',
      cwd: '/srv/docs',
      isPrimary: true,
      metadata: { team: 'docs' },
    });
    assert.equal(third.isPrimary, true);
    assert.deepEqual(third.metadata, { team: 'docs' });
    assert.deepEqual(await primaryOf(p.id), [third.id]);
    assert.deepEqual(
      (await workspaces(p.id)).map((w) => w.id),
      [first.id, second.id, third.id],
    );
    const project = await t.request('GET', `/api/projects/${p.id}`, { token: a.boardToken });
    assert.equal(project.body.primaryWorkspace.id, third.id);
    assert.equal(project.body.codebase.cwd, '/srv/docs');
    assert.deepEqual(await activityActions(t, first.id), ['project.workspace_created']);
  });

  it('enforces the workspace rules with 422', async () => {
    const p = await newProject();
    const url = `/api/projects/${p.id}/workspaces`;
    const invalid = [
      { name: 'Nothing' },
      { cwd: null, repoUrl: null },
      { sourceType: 'remote_managed', cwd: '/srv/x' },
      { sourceType: 'remote_managed', cwd: '/srv/x', remoteProvider: 'cloud' },
    ];
    for (const body of invalid)
      assert.equal((await t.request('POST', url, { token: a.boardToken, body })).status, 422, JSON.stringify(body));
    const viaRef = await addWorkspace(p.id, {
      sourceType: 'remote_managed',
      cwd: '/srv/x',
      remoteWorkspaceRef: 'ws-123',
    });
    assert.equal(viaRef.remoteWorkspaceRef, 'ws-123');
    const viaRepo = await addWorkspace(p.id, { sourceType: 'remote_managed', repoUrl: 'https://example.test/r.git' });
    assert.equal(viaRepo.sourceType, 'remote_managed');
    assert.equal((await workspaces(p.id)).length, 2);
  });

  it('remote_managed has its own rule: remoteWorkspaceRef or repoUrl, no cwd needed (workspace route, project create, PATCH)', async () => {
    const p = await newProject();
    const url = `/api/projects/${p.id}/workspaces`;
    const refOnly = await addWorkspace(p.id, {
      sourceType: 'remote_managed',
      remoteProvider: 'cloud',
      remoteWorkspaceRef: 'ws-remote-1',
    });
    assert.equal(refOnly.sourceType, 'remote_managed');
    assert.equal(refOnly.remoteWorkspaceRef, 'ws-remote-1');
    assert.equal(refOnly.cwd, null);
    assert.equal(refOnly.repoUrl, null);
    assert.equal(refOnly.name, 'ws-remote-1');

    const created = await t.request('POST', `/api/companies/${a.company.id}/projects`, {
      token: a.boardToken,
      body: {
        name: 'Remote only',
        workspace: { name: 'Cloud', sourceType: 'remote_managed', remoteWorkspaceRef: 'ws-remote-2' },
      },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const [ws] = await workspaces(created.body.id);
    assert.equal(ws.sourceType, 'remote_managed');
    assert.equal(ws.remoteWorkspaceRef, 'ws-remote-2');
    assert.equal(ws.isPrimary, true);

    // The remote rule still holds without a reference, and the other types still need cwd or repoUrl.
    for (const body of [
      { sourceType: 'remote_managed', remoteProvider: 'cloud' },
      { sourceType: 'local_path', remoteWorkspaceRef: 'ws-x' },
      { remoteWorkspaceRef: 'ws-x' },
    ]) {
      assert.equal((await t.request('POST', url, { token: a.boardToken, body })).status, 422, JSON.stringify(body));
    }
    const noRef = await t.request('POST', `/api/companies/${a.company.id}/projects`, {
      token: a.boardToken,
      body: { name: 'Remote none', workspace: { sourceType: 'remote_managed' } },
    });
    assert.equal(noRef.status, 422);

    // PATCH re-checks the merged row: a remote workspace may drop its repoUrl while it keeps a reference.
    const viaRepo = await addWorkspace(p.id, {
      sourceType: 'remote_managed',
      repoUrl: 'https://example.test/r.git',
      remoteWorkspaceRef: 'ws-remote-3',
    });
    const patched = await t.request('PATCH', `${url}/${viaRepo.id}`, { token: a.boardToken, body: { repoUrl: null } });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.equal(
      (await t.request('PATCH', `${url}/${viaRepo.id}`, { token: a.boardToken, body: { remoteWorkspaceRef: null } }))
        .status,
      422,
    );
    assert.equal(
      (await t.request('PATCH', `${url}/${refOnly.id}`, { token: a.boardToken, body: { sourceType: 'local_path' } }))
        .status,
      422,
    );
  });

  it('rejects bad input with 400', async () => {
    const p = await newProject();
    const url = `/api/projects/${p.id}/workspaces`;
    const bad = [
      { cwd: 5 },
      { cwd: '' },
      { cwd: '/x', sourceType: 'ftp' },
      { cwd: '/x', isPrimary: 'yes' },
      { cwd: '/x', metadata: [] },
      { cwd: 'x'.repeat(4097) },
    ];
    for (const body of bad)
      assert.equal((await t.request('POST', url, { token: a.boardToken, body })).status, 400, JSON.stringify(body));
    const ws = await addWorkspace(p.id, { cwd: '/x' });
    assert.equal(
      (await t.request('PATCH', `${url}/${ws.id}`, { token: a.boardToken, body: { name: null } })).status,
      400,
    );
    assert.equal(
      (await t.request('PATCH', `${url}/not-a-uuid`, { token: a.boardToken, body: { name: 'y' } })).status,
      400,
    );
    assert.equal(
      (await t.request('POST', `${url}/${ws.id}/runtime-services/explode`, { token: a.boardToken })).status,
      400,
    );
  });

  it('PATCH changes any field and re-checks the rules on the merged result', async () => {
    const p = await newProject();
    const ws = await addWorkspace(p.id, { cwd: '/srv/one' });
    const url = `/api/projects/${p.id}/workspaces/${ws.id}`;
    const patched = await t.request('PATCH', url, {
      token: a.agent.token,
      body: {
        name: 'Renamed',
        repoUrl: 'https://example.test/one.git',
        defaultRef: 'main',
        setupCommand: 'npm ci',
        runtimeConfig: { command: 'npm start' },
      },
    });
    assert.equal(patched.status, 200);
    assert.equal(patched.body.name, 'Renamed');
    assert.equal(patched.body.cwd, '/srv/one');
    assert.equal(patched.body.defaultRef, 'main');
    assert.deepEqual(patched.body.runtimeConfig, { command: 'npm start' });
    // With repoUrl present the directory may go; then removing repoUrl too would break the rule.
    assert.equal((await t.request('PATCH', url, { token: a.boardToken, body: { cwd: null } })).body.cwd, null);
    assert.equal((await t.request('PATCH', url, { token: a.boardToken, body: { repoUrl: null } })).status, 422);
    assert.equal(
      (
        await t.request('PATCH', url, {
          token: a.boardToken,
          body: { sourceType: 'remote_managed', repoUrl: null, cwd: '/srv/one' },
        })
      ).status,
      422,
    );
    const current = (await workspaces(p.id))[0];
    assert.equal(current.repoUrl, 'https://example.test/one.git');
    assert.equal(current.sourceType, 'local_path');
    assert.deepEqual(await activityActions(t, ws.id), [
      'project.workspace_created',
      'project.workspace_updated',
      'project.workspace_updated',
    ]);
  });

  it('PATCH isPrimary moves the primary; unsetting it promotes the oldest other; the only workspace stays primary', async () => {
    const p = await newProject();
    const w1 = await addWorkspace(p.id, { cwd: '/1' });
    const url = (id: string) => `/api/projects/${p.id}/workspaces/${id}`;
    assert.equal(
      (await t.request('PATCH', url(w1.id), { token: a.boardToken, body: { isPrimary: false } })).status,
      422,
    );
    assert.deepEqual(await primaryOf(p.id), [w1.id]);
    const w2 = await addWorkspace(p.id, { cwd: '/2' });
    const w3 = await addWorkspace(p.id, { cwd: '/3' });
    const moved = await t.request('PATCH', url(w3.id), { token: a.boardToken, body: { isPrimary: true } });
    assert.equal(moved.body.isPrimary, true);
    assert.deepEqual(await primaryOf(p.id), [w3.id]);
    // Already primary: a no-op, not a conflict with itself.
    assert.equal(
      (await t.request('PATCH', url(w3.id), { token: a.boardToken, body: { isPrimary: true } })).status,
      200,
    );
    const unset = await t.request('PATCH', url(w3.id), { token: a.boardToken, body: { isPrimary: false } });
    assert.equal(unset.body.isPrimary, false);
    assert.deepEqual(await primaryOf(p.id), [w1.id]);
    assert.equal(
      (await t.request('PATCH', url(w2.id), { token: a.boardToken, body: { isPrimary: false } })).body.isPrimary,
      false,
    );
    assert.deepEqual(await primaryOf(p.id), [w1.id]);
  });

  it('DELETE returns the deleted row; deleting the primary promotes the oldest remaining', async () => {
    const p = await newProject();
    const w1 = await addWorkspace(p.id, { cwd: '/1' });
    const w2 = await addWorkspace(p.id, { cwd: '/2' });
    const w3 = await addWorkspace(p.id, { cwd: '/3' });
    const url = (id: string) => `/api/projects/${p.id}/workspaces/${id}`;
    const gone = await t.request('DELETE', url(w2.id), { token: a.boardToken });
    assert.equal(gone.status, 200);
    assert.equal(gone.body.id, w2.id);
    assert.equal(gone.body.cwd, '/2');
    assert.deepEqual(await primaryOf(p.id), [w1.id]);
    const primaryGone = await t.request('DELETE', url(w1.id), { token: a.agent.token });
    assert.equal(primaryGone.body.isPrimary, true);
    assert.deepEqual(await primaryOf(p.id), [w3.id]);
    assert.equal((await t.request('DELETE', url(w3.id), { token: a.boardToken })).status, 200);
    const project = await t.request('GET', `/api/projects/${p.id}`, { token: a.boardToken });
    assert.deepEqual(project.body.workspaces, []);
    assert.equal(project.body.primaryWorkspace, null);
    assert.equal(project.body.codebase, null);
    assert.equal((await t.request('DELETE', url(w3.id), { token: a.boardToken })).status, 404);
    assert.deepEqual(await activityActions(t, w1.id), ['project.workspace_created', 'project.workspace_deleted']);
    // The next workspace of the now-empty project is primary again.
    assert.equal((await addWorkspace(p.id, { cwd: '/4' })).isPrimary, true);
  });

  it('concurrent first workspaces: all created, exactly one primary', async () => {
    const p = await newProject();
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        t.request('POST', `/api/projects/${p.id}/workspaces`, { token: a.boardToken, body: { cwd: `/c${i}` } }),
      ),
    );
    assert.deepEqual(
      results.map((r) => r.status),
      Array(6).fill(201),
    );
    assert.equal((await primaryOf(p.id)).length, 1);
  });

  it('a workspace must belong to the project in the path (404)', async () => {
    const p1 = await newProject();
    const p2 = await newProject();
    const ws = await addWorkspace(p1.id, { cwd: '/srv/p1', runtimeConfig: { command: 'x' } });
    const wrong = `/api/projects/${p2.id}/workspaces/${ws.id}`;
    assert.equal((await t.request('PATCH', wrong, { token: a.boardToken, body: { name: 'x' } })).status, 404);
    assert.equal((await t.request('DELETE', wrong, { token: a.boardToken })).status, 404);
    assert.equal((await t.request('POST', `${wrong}/runtime-services/start`, { token: a.boardToken })).status, 404);
    const missing = `/api/projects/${p1.id}/workspaces/${MISSING}`;
    assert.equal((await t.request('PATCH', missing, { token: a.boardToken, body: { name: 'x' } })).status, 404);
    assert.equal((await t.request('DELETE', missing, { token: a.boardToken })).status, 404);
    assert.equal((await t.request('POST', `${missing}/runtime-services/stop`, { token: a.boardToken })).status, 404);
    assert.equal((await workspaces(p1.id))[0].name, 'p1');
  });

  it('workspace routes accept the project shortname', async () => {
    const p = await newProject({ name: 'Shortname Workspaces' });
    const ws = await addWorkspace(p.urlKey, { cwd: '/srv/short' });
    assert.equal(ws.projectId, p.id);
    assert.equal(
      (await t.request('GET', `/api/projects/${p.urlKey}/workspaces`, { token: a.boardToken })).body.length,
      1,
    );
  });

  it('runtime services: start/restart need a local cwd and runtimeConfig; each action records desiredState and an operation', async () => {
    const p = await newProject();
    const noConfig = await addWorkspace(p.id, { cwd: '/srv/noconfig' });
    const emptyConfig = await addWorkspace(p.id, { cwd: '/srv/empty', runtimeConfig: {} });
    const repoOnly = await addWorkspace(p.id, {
      repoUrl: 'https://example.test/r.git',
      runtimeConfig: { command: 'x' },
    });
    const remote = await addWorkspace(p.id, {
      sourceType: 'remote_managed',
      cwd: '/remote/path',
      remoteWorkspaceRef: 'r-1',
      runtimeConfig: { command: 'x' },
    });
    const action = (id: string, act: string, token = a.boardToken) =>
      t.request('POST', `/api/projects/${p.id}/workspaces/${id}/runtime-services/${act}`, { token });
    for (const ws of [noConfig, emptyConfig, repoOnly, remote]) {
      for (const act of ['start', 'restart']) {
        const res = await action(ws.id, act);
        assert.equal(res.status, 422, `${ws.name} ${act}`);
      }
    }
    const refused = await t.database.db
      .select()
      .from(workspaceOperations)
      .where(eq(workspaceOperations.workspaceId, noConfig.id));
    assert.deepEqual(refused, []);
    // Stopping needs nothing to run.
    const stopped = await action(noConfig.id, 'stop');
    assert.equal(stopped.status, 200);
    assert.equal(stopped.body.workspace.desiredState, 'stopped');
    assert.equal(stopped.body.operation.action, 'stop');

    const ready = await addWorkspace(p.id, {
      cwd: '/srv/ready',
      runtimeConfig: { command: 'npm run dev', port: 3000 },
    });
    const started = await action(ready.id, 'start', a.agent.token);
    assert.equal(started.status, 200);
    assert.equal(started.body.workspace.id, ready.id);
    assert.equal(started.body.workspace.desiredState, 'running');
    assert.equal(started.body.operation.workspaceId, ready.id);
    assert.equal(started.body.operation.action, 'start');
    assert.equal(started.body.operation.desiredState, 'running');
    assert.equal(started.body.operation.status, 'requested');
    assert.equal(started.body.operation.actorType, 'agent');
    assert.equal(started.body.operation.actorId, a.agent.agent.id);
    assert.equal((await action(ready.id, 'stop')).body.workspace.desiredState, 'stopped');
    const restarted = await action(ready.id, 'restart');
    assert.equal(restarted.body.workspace.desiredState, 'running');
    assert.equal(restarted.body.operation.actorType, 'user');
    const ops = await t.database.db
      .select()
      .from(workspaceOperations)
      .where(eq(workspaceOperations.workspaceId, ready.id))
      .orderBy(asc(workspaceOperations.createdAt));
    assert.deepEqual(
      ops.map((o) => [o.action, o.desiredState]),
      [
        ['start', 'running'],
        ['stop', 'stopped'],
        ['restart', 'running'],
      ],
    );
    assert.deepEqual(await activityActions(t, ready.id), [
      'project.workspace_created',
      'project.workspace_runtime_start',
      'project.workspace_runtime_stop',
      'project.workspace_runtime_restart',
    ]);
    assert.equal((await workspaces(p.id)).find((w) => w.id === ready.id).desiredState, 'running');
  });

  it('refuses every workspace route to a board user or an agent of another company (403)', async () => {
    const p = await newProject();
    const ws = await addWorkspace(p.id, { cwd: '/srv/mine', runtimeConfig: { command: 'x' } });
    const url = `/api/projects/${p.id}/workspaces`;
    for (const token of [b.boardToken, b.agent.token]) {
      const attempts = [
        await t.request('GET', url, { token }),
        await t.request('POST', url, { token, body: { cwd: '/evil' } }),
        await t.request('PATCH', `${url}/${ws.id}`, { token, body: { cwd: '/evil' } }),
        await t.request('DELETE', `${url}/${ws.id}`, { token }),
        await t.request('POST', `${url}/${ws.id}/runtime-services/start`, { token }),
        await t.request('POST', `${url}/${ws.id}/runtime-services/stop`, { token }),
        await t.request('POST', `${url}/${ws.id}/runtime-services/restart`, { token }),
      ];
      assert.deepEqual(
        attempts.map((r) => r.status),
        Array(7).fill(403),
      );
    }
    const [still] = await workspaces(p.id);
    assert.equal(still.cwd, '/srv/mine');
    assert.equal(still.desiredState, null);
    assert.deepEqual(await activityActions(t, ws.id), ['project.workspace_created']);
  });
});
