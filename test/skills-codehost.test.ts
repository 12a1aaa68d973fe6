// Skills from a code host and the catalog site (SPEC "Skills", §9 versioning; issue 10 §3), driven
// through the API against a local HTTP server standing in for the code host's REST API, its raw
// file host and the catalog site: every source form, failures as 422, update-status and
// install-update after the branch moves, and the local `skill_imported` telemetry event.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { and, asc, eq } from 'drizzle-orm';
import { telemetryEvents } from '../src/db/schema/index.ts';
import { useTestApp } from './helpers/app.ts';
import { activityRows } from './helpers/factories.ts';

type Files = Record<string, string>;
interface FakeRepo {
  defaultBranch: string;
  /** branch -> commit sha; commit sha -> files */
  branches: Record<string, string>;
  commits: Record<string, Files>;
}

const sha = (text: string) => createHash('sha1').update(text).digest('hex');
const repos = new Map<string, FakeRepo>();
let hostDown = false;
/** When set, raw file requests wait for it: a test acts while an import is fetching. */
let rawGate: Promise<void> | null = null;
const skillMd = (fields: string, body = '# Body\n') => `---\n${fields}\n---\n\n${body}`;

/** A commit of `files` on `branch` of `owner/repo` (the branch moves to it). */
function commit(fullName: string, branch: string, files: Files): string {
  const repo = repos.get(fullName) ?? { defaultBranch: branch, branches: {}, commits: {} };
  const id = sha(`${fullName}\0${branch}\0${JSON.stringify(files)}\0${Object.keys(repo.commits).length}`);
  repo.commits[id] = files;
  repo.branches[branch] = id;
  repos.set(fullName, repo);
  return id;
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  const json = (status: number, body: unknown) =>
    void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  if (hostDown) return json(503, { message: 'down' });
  const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] === 'api' && parts[1] === 'repos') {
    const repo = repos.get(`${parts[2]}/${parts[3]}`);
    if (!repo) return json(404, { message: 'Not Found' });
    if (parts.length === 4) return json(200, { default_branch: repo.defaultBranch });
    if (parts[4] === 'commits') {
      const ref = parts.slice(5).join('/');
      const id = repo.branches[ref] ?? (repo.commits[ref] ? ref : undefined);
      return id ? json(200, { sha: id }) : json(422, { message: 'No commit found' });
    }
    if (parts[4] === 'git' && parts[5] === 'trees' && url.searchParams.get('recursive') === '1') {
      const files = repo.commits[parts[6]!];
      if (!files) return json(404, { message: 'Not Found' });
      return json(200, {
        sha: parts[6],
        truncated: false,
        tree: Object.entries(files).map(([p, text]) => ({ path: p, type: 'blob', size: Buffer.byteLength(text) })),
      });
    }
  }
  if (parts[0] === 'raw' && rawGate !== null) {
    void rawGate.then(() => server.emit('request', req, res));
    return;
  }
  if (parts[0] === 'raw') {
    const text = repos.get(`${parts[1]}/${parts[2]}`)?.commits[parts[3]!]?.[parts.slice(4).join('/')];
    if (text === undefined) return void res.writeHead(404).end('404');
    return void res.writeHead(200, { 'content-type': 'text/plain' }).end(text);
  }
  res.writeHead(404).end();
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const fake = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
after(() => new Promise((resolve) => server.close(resolve)));

const t = await useTestApp({
  codeHost: { apiUrl: `${fake}/api`, rawUrl: `${fake}/raw`, catalogUrl: `${fake}/catalog` },
});
const { company, token: board } = await t.newCompany();
const skillsUrl = `/api/companies/${company.id}/skills`;
const importSource = (source: string) => t.request('POST', `${skillsUrl}/import`, { token: board, body: { source } });
const fileOf = async (skillId: string, p: string) =>
  (await t.request('GET', `${skillsUrl}/${skillId}/files?path=${encodeURIComponent(p)}`, { token: board })).body
    .content as string;
const telemetry = () =>
  t.database.db
    .select()
    .from(telemetryEvents)
    .where(and(eq(telemetryEvents.companyId, company.id), eq(telemetryEvents.name, 'skill_imported')))
    .orderBy(asc(telemetryEvents.createdAt));

const acmeMain = commit('acme/tools', 'main', {
  'README.md': '# tools',
  'skills/deploy/SKILL.md': skillMd('name: Deploy\ndescription: ship it'),
  'skills/deploy/scripts/run.sh': 'echo deploy',
  'skills/review/SKILL.md': skillMd('name: Review'),
  'skills/review/references/guide.md': 'be kind',
  'other/ignored/SKILL.md': skillMd('name: Ignored'),
});
commit('acme/tools', 'next', {
  'skills/deploy/SKILL.md': skillMd('name: Deploy\ndescription: next'),
  'other/ignored/SKILL.md': skillMd('name: Ignored'),
});

describe('code-host skills', () => {
  it('imports every skill of owner/repo at the default branch, pinned to its commit', async () => {
    const before = (await telemetry()).length;
    const res = await importSource('acme/tools');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.imported.map((s: any) => s.key).sort(), ['acme/tools/deploy', 'acme/tools/review']);
    assert.deepEqual(
      { kind: res.body.source.kind, commit: res.body.source.commit, trackingRef: res.body.source.trackingRef },
      { kind: 'codehost', commit: acmeMain, trackingRef: 'main' },
    );
    const deploy = res.body.imported.find((s: any) => s.slug === 'deploy');
    assert.equal(deploy.sourceKind, 'codehost');
    assert.equal(deploy.trustLevel, 'scripts_executables');
    assert.deepEqual(deploy.metadata.sources, [
      {
        kind: 'github-dir',
        repo: 'acme/tools',
        path: 'skills/deploy',
        commit: acmeMain,
        trackingRef: 'main',
        hostname: 'github.com',
      },
    ]);
    assert.equal(await fileOf(deploy.id, 'scripts/run.sh'), 'echo deploy');
    const events = await telemetry();
    assert.equal(events.length, before + 1);
    assert.equal(events.at(-1)!.properties.sourceKind, 'codehost');
    assert.equal(events.at(-1)!.properties.count, 2);
    assert.equal((await activityRows(t, company.id, 'company.skills_imported')).length >= 1, true);
  });

  it('owner/repo/skill imports one; tree and blob URLs pin their ref and path', async () => {
    const one = await importSource('acme/tools/review');
    assert.equal(one.status, 200, JSON.stringify(one.body));
    assert.deepEqual(
      one.body.imported.map((s: any) => s.key),
      ['acme/tools/review'],
    );

    const tree = await importSource('https://github.com/acme/tools/tree/next/skills');
    assert.equal(tree.status, 200, JSON.stringify(tree.body));
    assert.deepEqual(
      tree.body.imported.map((s: any) => [s.key, s.description]),
      [['acme/tools/deploy', 'next']],
    );
    assert.equal(tree.body.imported[0].metadata.sources[0].trackingRef, 'next');

    const blob = await importSource('https://github.com/acme/tools/blob/main/other/ignored/SKILL.md');
    assert.equal(blob.status, 200, JSON.stringify(blob.body));
    assert.deepEqual(
      blob.body.imported.map((s: any) => s.key),
      ['acme/tools/ignored'],
    );
    assert.equal(blob.body.imported[0].metadata.sources[0].kind, 'github-file');
    assert.equal(blob.body.imported[0].metadata.sources[0].path, 'other/ignored/SKILL.md');
  });

  it('catalog URLs and install commands resolve to the code host, recorded as catalog with the locator kept', async () => {
    commit('zed/kit', 'trunk', {
      'skills/lint/SKILL.md': skillMd('name: Lint'),
      'skills/fmt/SKILL.md': skillMd('name: Fmt'),
    });
    const byUrl = await importSource(`${fake}/catalog/zed/kit/lint`);
    assert.equal(byUrl.status, 200, JSON.stringify(byUrl.body));
    assert.equal(byUrl.body.source.kind, 'catalog');
    const lint = byUrl.body.imported[0];
    assert.deepEqual(
      [lint.key, lint.sourceKind, lint.sourceLocator, lint.metadata.catalogLocator],
      ['zed/kit/lint', 'catalog', `${fake}/catalog/zed/kit/lint`, `${fake}/catalog/zed/kit/lint`],
    );
    for (const cmd of ['npx skills add zed/kit --skill fmt', 'npx skills add https://github.com/zed/kit --skill fmt']) {
      const res = await importSource(cmd);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(
        res.body.imported.map((s: any) => [s.key, s.sourceKind, s.sourceLocator]),
        [['zed/kit/fmt', 'catalog', cmd]],
      );
    }
  });

  it('a missing repository, ref or skill and a failing host are 422 with the reason, never 500', async () => {
    const missing = await importSource('acme/nope');
    assert.equal(missing.status, 422, JSON.stringify(missing.body));
    assert.match(missing.body.error, /404/);
    assert.equal((await importSource('https://github.com/acme/tools/tree/no-such-branch')).status, 422);
    assert.equal((await importSource('acme/tools/no-such-skill')).status, 422);
    assert.equal((await importSource('https://github.com/acme/tools/blob/main/README.md')).status, 422);
    assert.equal((await importSource('npx skills add')).status, 422);
    // A malformed percent escape in a repository or catalog URL, or a direct URL: bad input, not a 500.
    for (const source of [
      'https://github.com/acme/%zz',
      'https://github.com/acme/tools/tree/%E0',
      'https://example.test/%zz/SKILL.md',
    ]) {
      const res = await importSource(source);
      assert.ok(res.status === 400 || res.status === 422, `${source}: ${res.status} ${JSON.stringify(res.body)}`);
    }
    hostDown = true;
    try {
      const down = await importSource('acme/tools');
      assert.equal(down.status, 422, JSON.stringify(down.body));
      assert.match(down.body.error, /503/);
    } finally {
      hostDown = false;
    }
  });

  it('update-status sees the branch move; install-update replaces files and moves the pin', async () => {
    commit('mov/repo', 'main', { 'skills/s/SKILL.md': skillMd('name: S', 'v1'), 'skills/s/references/a.md': 'old' });
    const imported = await importSource('mov/repo');
    assert.equal(imported.status, 200, JSON.stringify(imported.body));
    const skill = imported.body.imported[0];
    const statusUrl = `${skillsUrl}/${skill.id}/update-status`;
    const first = await t.request('GET', statusUrl, { token: board });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.deepEqual([first.body.supported, first.body.updateAvailable, first.body.trackingRef], [true, false, 'main']);

    const moved = commit('mov/repo', 'main', {
      'skills/s/SKILL.md': skillMd('name: S', 'v2'),
      'skills/s/references/b.md': 'new',
    });
    const second = await t.request('GET', statusUrl, { token: board });
    assert.deepEqual(
      [second.body.updateAvailable, second.body.pinnedCommit, second.body.latestCommit],
      [true, skill.metadata.sources[0].commit, moved],
    );

    const installed = await t.request('POST', `${skillsUrl}/${skill.id}/install-update`, { token: board });
    assert.equal(installed.status, 200, JSON.stringify(installed.body));
    assert.deepEqual(
      [installed.body.status, installed.body.commit, installed.body.skill.id],
      ['updated', moved, skill.id],
    );
    assert.match(await fileOf(skill.id, 'SKILL.md'), /v2/);
    const detail = await t.request('GET', `${skillsUrl}/${skill.id}`, { token: board });
    assert.deepEqual(
      detail.body.files.map((f: any) => f.path),
      ['SKILL.md', 'references/b.md'],
    );
    assert.equal(detail.body.metadata.sources[0].commit, moved);
    const third = await t.request('GET', statusUrl, { token: board });
    assert.deepEqual([third.body.updateAvailable, third.body.pinnedCommit], [false, moved]);
    assert.equal((await activityRows(t, company.id, 'company.skill_updated')).length, 1);
    assert.equal((await telemetry()).at(-1)!.properties.action, 'company.skill_updated');
  });

  it('install-update of a skill deleted while its files were being fetched is 404 and does not bring it back', async () => {
    commit('gone/repo', 'main', { 'skills/g/SKILL.md': skillMd('name: G', 'v1') });
    const skill = (await importSource('gone/repo')).body.imported[0];
    commit('gone/repo', 'main', { 'skills/g/SKILL.md': skillMd('name: G', 'v2') });
    let open!: () => void;
    rawGate = new Promise((resolve) => (open = resolve));
    const update = t.request('POST', `${skillsUrl}/${skill.id}/install-update`, { token: board });
    try {
      await new Promise((r) => setTimeout(r, 300)); // the update is waiting on the raw host
      assert.equal((await t.request('DELETE', `${skillsUrl}/${skill.id}`, { token: board })).status, 204);
    } finally {
      rawGate = null;
      open();
    }
    assert.equal((await update).status, 404);
    assert.equal((await t.request('GET', `${skillsUrl}/${skill.id}`, { token: board })).status, 404);
    const list = await t.request('GET', skillsUrl, { token: board });
    assert.equal(
      list.body.some((s: any) => s.key === skill.key),
      false,
      'no record under its key either',
    );
  });

  it('other kinds: update-status is supported false with a reason; install-update 409', async () => {
    const created = await t.request('POST', skillsUrl, { token: board, body: { name: 'Handmade' } });
    assert.equal(created.status, 201);
    const status = await t.request('GET', `${skillsUrl}/${created.body.id}/update-status`, { token: board });
    assert.equal(status.status, 200);
    assert.equal(status.body.supported, false);
    assert.equal(typeof status.body.reason, 'string');
    assert.equal(
      (await t.request('POST', `${skillsUrl}/${created.body.id}/install-update`, { token: board })).status,
      409,
    );
  });

  it('a local import records skill_imported too, and an unchanged re-import of a pinned skill still counts', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'boardroom-telemetry-'));
    try {
      await writeFile(path.join(dir, 'SKILL.md'), skillMd('name: Local One'));
      const before = (await telemetry()).length;
      assert.equal((await importSource(dir)).status, 200);
      const again = await importSource('acme/tools/review');
      assert.equal(again.body.imported[0].status, 'unchanged');
      const events = await telemetry();
      assert.equal(events.length, before + 2);
      assert.deepEqual(
        events
          .map((e) => e.properties.sourceKind)
          .slice(-2)
          .sort(),
        ['codehost', 'local_path'],
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
