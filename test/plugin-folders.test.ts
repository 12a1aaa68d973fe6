// A plugin's local folders (SPEC "Plugins": the four local-folders routes): only the instance owner
// mounts a server folder for a company's plugin, a path that exposes the system or the data directory
// is refused, and the company's worker then reads the folder and cannot write into it (under a
// sandbox). A mount change restarts the worker, so the next call sees it.
import assert from 'node:assert/strict';
import { access, chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { activityLog } from '../src/db/schema/index.ts';
import { pluginWorkersOf } from '../src/modules/plugins/routes.ts';
import { availableSandbox } from '../src/modules/plugins/worker/sandbox.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { newAgent } from './helpers/factories.ts';

const FIXTURE = path.resolve(import.meta.dirname, 'fixtures/plugins/folders');

let t: TestApp;
let companyA: string;
let boardA: string; // a board user of company A who is not the instance owner
let boardB: string;
let pluginId: string;
let folder: string;

const url = (companyId = companyA, key = 'docs') =>
  `/api/plugins/${pluginId}/companies/${companyId}/local-folders${key ? `/${key}` : ''}`;
const list = (companyId = companyA, token = t.ownerToken) => t.request('GET', url(companyId, ''), { token });
const put = (body: Record<string, unknown>, token = t.ownerToken, key = 'docs') =>
  t.request('PUT', url(companyA, key), { token, body });
const validate = (candidate: string, token = t.ownerToken) =>
  t.request('POST', `${url()}/validate`, { token, body: { path: candidate } });
const workerSees = async () =>
  (await pluginWorkersOf(t.app).call(pluginId, companyA, 'invoke', { do: 'list', key: 'docs' })) as {
    mounted: boolean;
    files?: { ok: boolean; value?: string[] };
    write?: { ok: boolean; error?: string };
  };

before(async () => {
  t = await startTestApp();
  const a = await t.newCompany();
  companyA = a.company.id;
  boardA = a.token;
  boardB = (await t.newCompany()).token;
  const installed = await t.request('POST', '/api/plugins/install', {
    token: t.ownerToken,
    body: { packageName: FIXTURE },
  });
  assert.equal(installed.status, 201, JSON.stringify(installed.body));
  pluginId = installed.body.id;
  const consent = await t.request('POST', `/api/companies/${companyA}/plugins/${pluginId}/enable`, {
    token: boardA,
    body: { capabilities: ['folders.read'] },
  });
  assert.equal(consent.status, 200, JSON.stringify(consent.body));
  // Readable by anyone, as a worker running as `nobody` needs.
  folder = await mkdtemp(path.join(os.tmpdir(), 'boardroom-folder-'));
  await chmod(folder, 0o755);
  await writeFile(path.join(folder, 'a.txt'), 'alpha', { mode: 0o644 });
  await writeFile(path.join(folder, 'b.txt'), 'beta', { mode: 0o644 });
});
after(async () => {
  await t.close();
  await rm(folder, { recursive: true, force: true });
});

describe('plugin local folders', () => {
  it('lists the declared folders, unmounted at first, to the company’s board only', async () => {
    const res = await list(companyA, boardA);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body, [{ key: 'docs', description: 'the documents it indexes', path: null }]);
    assert.equal((await list(companyA, boardB)).status, 403);
    const { token: agent } = await newAgent(t, boardA, companyA);
    assert.equal((await list(companyA, agent)).status, 403);
    assert.equal((await t.request('GET', `${url()}/status`, { token: agent })).status, 403);
    assert.equal((await t.request('GET', `${url()}/status`, { token: boardB })).status, 403);
    assert.equal(
      (
        await t.request('GET', `/api/plugins/${crypto.randomUUID()}/companies/${companyA}/local-folders`, {
          token: boardA,
        })
      ).status,
      404,
    );
    assert.equal((await t.request('GET', `${url(companyA, 'nope')}/status`, { token: boardA })).status, 404);
    const status = await t.request('GET', `${url()}/status`, { token: boardA });
    assert.equal(status.status, 200, JSON.stringify(status.body));
    assert.equal(status.body.check, null);
  });

  it('validate says why a path would be refused, and only the instance owner may ask', async () => {
    const ok = await validate(`${folder}/./`);
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.deepEqual(ok.body, { path: folder, ok: true, problems: [] });
    const refused = async (candidate: string, problem: RegExp) => {
      const res = await validate(candidate);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.ok, false, candidate);
      assert.ok(
        res.body.problems.some((p: string) => problem.test(p)),
        `${candidate}: ${JSON.stringify(res.body.problems)}`,
      );
    };
    await refused('relative/path', /absolute/);
    await refused(path.join(folder, 'missing'), /no such folder/);
    await refused(path.join(folder, 'a.txt'), /not a folder/);
    await refused('/', /root/);
    await refused('/etc', /system folder/);
    await refused('/proc/self', /system folder/);
    await refused(t.config.dataDir, /data directory/);
    await refused(path.dirname(t.config.dataDir), /data directory/);
    await mkdir(path.join(t.config.dataDir, 'inside'), { recursive: true });
    await refused(path.join(t.config.dataDir, 'inside'), /data directory/);
    assert.equal((await validate(folder, boardA)).status, 403);
    assert.equal((await validate(folder, boardB)).status, 403);
  });

  it('mounting: owner only, refused paths 422, and the worker then reads the folder without writing into it', async () => {
    assert.deepEqual(await workerSees(), { mounted: false });
    assert.equal((await put({ path: folder }, boardA)).status, 403);
    assert.equal((await put({ path: folder }, boardB)).status, 403);
    const { token: agent } = await newAgent(t, boardA, companyA);
    assert.equal((await put({ path: folder }, agent)).status, 403);
    assert.equal((await validate(folder, agent)).status, 403);
    const bad = await put({ path: '/etc' });
    assert.equal(bad.status, 422, JSON.stringify(bad.body));
    assert.match(bad.body.error, /system folder/);
    assert.ok(Array.isArray(bad.body.details.problems));
    assert.equal((await put({ path: folder }, t.ownerToken, 'nope')).status, 404);

    const res = await put({ path: folder });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.path, folder);
    assert.equal((await list(companyA, boardA)).body[0].path, folder);
    const [entry] = await t.database.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.companyId, companyA), eq(activityLog.action, 'plugin.folder_mounted')));
    assert.ok(entry, 'the mount is in the company’s activity');

    // The running worker was restarted with the mount.
    const seen = await workerSees();
    assert.equal(seen.mounted, true);
    assert.deepEqual(seen.files, { ok: true, value: ['a.txt', 'b.txt'] });
    if (availableSandbox() !== 'none') {
      assert.equal(seen.write?.ok, false, 'the folder is read-only to a sandboxed worker');
      await assert.rejects(access(path.join(folder, 'planted.txt')), 'nothing was planted');
    }

    const status = await t.request('GET', `${url()}/status`, { token: boardA });
    assert.deepEqual(status.body.check, { path: folder, ok: true, problems: [] });
  });

  it('status reports a mounted folder that went away; unmounting restarts the worker without it', async () => {
    const gone = await mkdtemp(path.join(os.tmpdir(), 'boardroom-folder-gone-'));
    assert.equal((await put({ path: gone })).status, 200);
    await rm(gone, { recursive: true });
    const status = await t.request('GET', `${url()}/status`, { token: boardA });
    assert.equal(status.body.check.ok, false);
    assert.match(status.body.check.problems.join(' '), /no such folder/);

    const res = await put({ path: null });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.path, null);
    assert.deepEqual(await workerSees(), { mounted: false });
  });
});
