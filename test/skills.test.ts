// Company skills and agent skills (SPEC "Skills", agent skills routes; issue 10 section 3), driven
// through the API: bundled skills, managed skills, files, imports from every local form and from a
// local HTTP server standing in for a direct URL, permissions, and sync.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { useTestApp } from './helpers/app.ts';
import { activityRows, newAgent } from './helpers/factories.ts';

const t = await useTestApp();

let companyId: string;
let board: string;
let scratch: string;
let server: Server;
let baseUrl: string;
const served = new Map<string, { status?: number; body: string | Buffer; delayMs?: number }>();

before(async () => {
  const c = await t.newCompany();
  companyId = c.company.id;
  board = c.token;
  scratch = await mkdtemp(path.join(os.tmpdir(), 'boardroom-skills-'));
  server = createServer((req, res) => {
    const entry = served.get(req.url ?? '');
    if (!entry) return void res.writeHead(404).end('missing');
    res.writeHead(entry.status ?? 200, { 'content-type': 'text/markdown' });
    res.end(entry.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(scratch, { recursive: true, force: true });
});

const skillsUrl = (cid = companyId) => `/api/companies/${cid}/skills`;
const list = async (token = board, cid = companyId) => {
  const res = await t.request('GET', skillsUrl(cid), { token });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body as any[];
};
const importSource = (source: string, token = board, cid = companyId) =>
  t.request('POST', `${skillsUrl(cid)}/import`, { token, body: { source } });

/** Writes `files` (relative path -> text) under a new folder of the scratch dir. */
async function folder(name: string, files: Record<string, string>): Promise<string> {
  const dir = path.join(scratch, name);
  for (const [rel, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), text);
  }
  return dir;
}

const skillMd = (fields: string, body = '# Body\n') => `---\n${fields}\n---\n\n${body}`;

describe('skills: bundled', () => {
  it('lists the bundled API skill, re-imported on every list call, read-only', async () => {
    const skills = await list();
    const api = skills.find((s) => s.key === 'boardroom/skills/boardroom-api');
    assert.ok(api, JSON.stringify(skills));
    assert.equal(api.sourceKind, 'service_bundled');
    assert.equal(api.required, true);
    assert.equal(api.editable, false);
    assert.equal(api.trustLevel, 'markdown_only');
    const file = await t.request('GET', `${skillsUrl()}/${api.id}/files?path=SKILL.md`, { token: board });
    assert.equal(file.status, 200);
    for (const topic of ['inbox-lite', '/checkout', '/comments', '/documents/', '/release'])
      assert.ok(file.body.content.includes(topic), topic);

    // A fresh company listed by many callers at once: every call answers, one record results.
    const fresh = await t.newCompany();
    const statuses = await Promise.all(
      Array.from({ length: 6 }, () =>
        t.request('GET', skillsUrl(fresh.company.id), { token: fresh.token }).then((r) => r.status),
      ),
    );
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 200]);
    const { rows } = await t.database.pool.query(
      'select count(*)::int as n from company_skills where company_id = $1',
      [fresh.company.id],
    );
    assert.equal(rows[0].n, 1);

    // Removed behind the server's back: the next list brings it back.
    await t.database.pool.query('delete from company_skills where id = $1', [api.id]);
    assert.ok((await list()).some((s) => s.key === api.key));
    // Tampered content is restored too (the hash differs).
    await t.database.pool.query(
      "update company_skill_files set content = 'tampered' where company_id = $1 and path = 'SKILL.md' and skill_id = (select id from company_skills where company_id = $1 and key = $2)",
      [companyId, api.key],
    );
    await t.database.pool.query("update company_skills set content_hash = 'x' where company_id = $1 and key = $2", [
      companyId,
      api.key,
    ]);
    const again = (await list()).find((s) => s.key === api.key);
    const restored = await t.request('GET', `${skillsUrl()}/${again.id}/files?path=SKILL.md`, { token: board });
    assert.ok(restored.body.content.includes('inbox-lite'));

    const edit = await t.request('PATCH', `${skillsUrl()}/${again.id}/files`, {
      token: board,
      body: { path: 'SKILL.md', content: 'x' },
    });
    assert.equal(edit.status, 403);
    const del = await t.request('DELETE', `${skillsUrl()}/${again.id}`, { token: board });
    assert.equal(del.status, 403);
  });
});

describe('skills: managed skills and files', () => {
  it('creates an empty managed skill, writes files, reclassifies trust, deletes', async () => {
    const created = await t.request('POST', skillsUrl(), {
      token: board,
      body: { name: 'Release Notes', description: 'Write release notes' },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.key, `company/${companyId}/release-notes`);
    assert.equal(created.body.sourceKind, 'managed_local');
    assert.equal(created.body.editable, true);
    const id = created.body.id;
    const dup = await t.request('POST', skillsUrl(), { token: board, body: { name: 'release notes' } });
    assert.equal(dup.status, 409);

    const md = await t.request('GET', `${skillsUrl()}/${id}/files`, { token: board });
    assert.match(md.body.content, /^---\nname: "Release Notes"/);

    const asset = await t.request('PATCH', `${skillsUrl()}/${id}/files`, {
      token: board,
      body: { path: 'assets/template.json', content: '{}' },
    });
    assert.equal(asset.status, 200);
    assert.equal(asset.body.trustLevel, 'assets');
    const script = await t.request('PATCH', `${skillsUrl()}/${id}/files`, {
      token: board,
      body: { path: 'scripts/run.sh', content: 'echo hi' },
    });
    assert.equal(script.body.trustLevel, 'scripts_executables');
    const renamed = await t.request('PATCH', `${skillsUrl()}/${id}/files`, {
      token: board,
      body: { path: 'SKILL.md', content: skillMd('name: Notes v2\ndescription: new text\nslug: other-slug') },
    });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.name, 'Notes v2');
    assert.equal(renamed.body.slug, 'release-notes', 'slug and key are the identity: they stay');
    const bad = await t.request('PATCH', `${skillsUrl()}/${id}/files`, {
      token: board,
      body: { path: 'SKILL.md', content: skillMd('name: &anchor x') },
    });
    assert.equal(bad.status, 422);

    const detail = await t.request('GET', `${skillsUrl()}/${id}`, { token: board });
    assert.equal(detail.status, 200);
    assert.deepEqual(
      detail.body.files.map((f: any) => [f.path, f.kind]),
      [
        ['SKILL.md', 'skill'],
        ['assets/template.json', 'asset'],
        ['scripts/run.sh', 'script'],
      ],
    );
    assert.equal(detail.body.usage.agentCount, 0);

    for (const bad of ['../etc/passwd', '/etc/passwd', 'a/../../b', 'a\\b', './SKILL.md']) {
      const res = await t.request('GET', `${skillsUrl()}/${id}/files?path=${encodeURIComponent(bad)}`, {
        token: board,
      });
      assert.equal(res.status, 400, bad);
      const write = await t.request('PATCH', `${skillsUrl()}/${id}/files`, {
        token: board,
        body: { path: bad, content: 'x' },
      });
      assert.equal(write.status, 400, bad);
    }
    assert.equal((await t.request('GET', `${skillsUrl()}/${id}/files?path=nope.md`, { token: board })).status, 404);

    assert.equal((await t.request('DELETE', `${skillsUrl()}/${id}`, { token: board })).status, 204);
    assert.equal((await t.request('GET', `${skillsUrl()}/${id}`, { token: board })).status, 404);
    assert.equal((await activityRows(t, companyId, 'company.skill_deleted')).length, 1);
  });

  it('another company sees 403; a skill named under a company path not its own is 404', async () => {
    const other = await t.newCompany();
    const [api] = await list();
    assert.equal((await t.request('GET', `${skillsUrl()}/${api.id}`, { token: other.token })).status, 403);
    assert.equal(
      (await t.request('GET', `${skillsUrl(other.company.id)}/${api.id}`, { token: other.token })).status,
      404,
    );
    assert.equal(
      (await t.request('GET', `${skillsUrl(other.company.id)}/${api.id}`, { token: t.ownerToken })).status,
      404,
    );
  });
});

describe('skills: import', () => {
  it('imports a SKILL.md file, a folder with one, and a folder with many; re-import updates in place', async () => {
    const single = await folder('single', {
      'SKILL.md': skillMd(
        [
          'name: Code Review',
          'description: "Review diffs: find bugs" # a comment after a quoted value',
          'required: false',
          'metadata:',
          '  owner: acme',
          '  tags: [review, "git"]',
          '  sources:',
          '    - kind: url',
          '      url: https://example.invalid/x',
          '  nested:',
          '    deep: 3',
        ].join('\n'),
      ),
      'references/checklist.md': '- look',
      'notes.txt': 'plain',
      '.hidden': 'skipped',
    });
    const file = await importSource(path.join(single, 'SKILL.md'));
    assert.equal(file.status, 200, JSON.stringify(file.body));
    const [skill] = file.body.imported;
    assert.equal(skill.slug, 'code-review');
    assert.match(skill.key, /^local\/[0-9a-f]{12}\/code-review$/);
    assert.equal(skill.status, 'created');
    assert.equal(skill.trustLevel, 'markdown_only');
    assert.equal(skill.description, 'Review diffs: find bugs');
    assert.deepEqual(skill.metadata, {
      owner: 'acme',
      tags: ['review', 'git'],
      sources: [{ kind: 'url', url: 'https://example.invalid/x' }],
      nested: { deep: 3 },
    });
    assert.equal(file.body.source.kind, 'local_path');
    const detail = await t.request('GET', `${skillsUrl()}/${skill.id}`, { token: board });
    assert.deepEqual(
      detail.body.files.map((f: any) => [f.path, f.kind]),
      [
        ['SKILL.md', 'skill'],
        ['notes.txt', 'other'],
        ['references/checklist.md', 'reference'],
      ],
    );

    // The folder form of the same skill: same key, same record (its locator moves to the folder);
    // again unchanged; then changed on disk: updated in place.
    const folderForm = await importSource(single);
    assert.equal(folderForm.body.imported[0].id, skill.id);
    const same = await importSource(single);
    assert.equal(same.body.imported[0].id, skill.id);
    assert.equal(same.body.imported[0].status, 'unchanged');
    await writeFile(path.join(single, 'scripts.py'), 'print(1)');
    const changed = await importSource(single);
    assert.equal(changed.body.imported[0].status, 'updated');
    assert.equal(changed.body.imported[0].id, skill.id);
    assert.equal(changed.body.imported[0].trustLevel, 'scripts_executables');

    const many = await folder('many', {
      'alpha/SKILL.md': skillMd('name: Alpha'),
      'alpha/assets/logo.png': '\x89PNG',
      'group/beta/SKILL.md': skillMd('slug: beta-skill'),
      'gamma/SKILL.md': skillMd('description: no name, the folder names it'),
      'broken/SKILL.md': skillMd('name: [unclosed'),
      'not-a-skill/readme.md': 'x',
    });
    const res = await importSource(many);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.imported.map((s: any) => s.slug).sort(), ['alpha', 'beta-skill', 'gamma']);
    assert.equal(res.body.imported.find((s: any) => s.slug === 'alpha').trustLevel, 'assets');
    assert.equal(res.body.warnings.length, 1);
    assert.match(res.body.warnings[0], /broken/);
    const entries = await activityRows(t, companyId, 'company.skills_imported');
    assert.equal(entries.at(-1).details.skills.length, 3);
    assert.equal(entries.at(-1).actor_type, 'user');
  });

  it('refuses unsafe frontmatter, missing paths, unsupported forms and symlinks out', async () => {
    const cases: [string, string][] = [
      ['tag', 'name: !!js/function "x"'],
      ['alias', 'a: &x 1\nb: *x'],
      ['deep', 'a:\n b:\n  c:\n   d:\n    e:\n     f:\n      g:\n       h:\n        i: 1'],
      ['explicit tag', 'name: !!str x'],
      ['dup', 'name: a\nname: b'],
      ['proto', '__proto__: x'],
      ['slug', 'slug: Not Kebab'],
    ];
    for (const [name, fields] of cases) {
      const dir = await folder(`bad-${name}`, { 'SKILL.md': skillMd(fields) });
      const res = await importSource(dir);
      assert.equal(res.status, 422, `${name}: ${JSON.stringify(res.body)}`);
    }
    assert.equal((await importSource(path.join(scratch, 'does-not-exist'))).status, 422);
    assert.equal((await importSource('not a source')).status, 422);
    assert.equal((await importSource('https://example.invalid/acme/skills')).status, 422);
    assert.equal((await importSource(await folder('empty', { 'readme.md': 'x' }))).status, 422);

    // A symlink inside a skill folder is not followed: the target's content never lands.
    const secret = await folder('outside', { 'secret.txt': 'TOP SECRET' });
    const linked = await folder('linked', { 'SKILL.md': skillMd('name: Linked') });
    await symlink(path.join(secret, 'secret.txt'), path.join(linked, 'leak.txt'));
    const res = await importSource(linked);
    assert.equal(res.status, 200);
    const detail = await t.request('GET', `${skillsUrl()}/${res.body.imported[0].id}`, { token: board });
    assert.deepEqual(
      detail.body.files.map((f: any) => f.path),
      ['SKILL.md'],
    );
  });

  it('an import naming a bundled key is skipped, never overwrites it (409 when nothing else)', async () => {
    const dir = await folder('hijack', { 'SKILL.md': skillMd('name: Evil\nkey: boardroom/skills/boardroom-api') });
    const res = await importSource(dir);
    assert.equal(res.status, 409);
    const api = (await list()).find((s) => s.key === 'boardroom/skills/boardroom-api');
    assert.equal(api.sourceKind, 'service_bundled');
    assert.equal(api.name, 'Boardroom API');
  });

  it('imports a direct URL of a SKILL.md from an HTTP server; bounded size; errors are 422', async () => {
    served.set('/acme/deploy/SKILL.md', { body: skillMd('name: Deploy\ndescription: ship it') });
    const res = await importSource(`${baseUrl}/acme/deploy/SKILL.md`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const [skill] = res.body.imported;
    const host = new URL(baseUrl).host;
    assert.match(skill.key, new RegExp(`^url/${host.replace(/\./g, '\\.')}/[0-9a-f]{12}/deploy$`));
    assert.equal(skill.sourceKind, 'url');
    assert.equal(res.body.source.host, host);

    served.set('/huge/SKILL.md', { body: Buffer.alloc(300 * 1024, 'a') });
    const huge = await importSource(`${baseUrl}/huge/SKILL.md`);
    assert.equal(huge.status, 422);
    assert.match(huge.body.error, /larger than/);
    const missing = await importSource(`${baseUrl}/nowhere/SKILL.md`);
    assert.equal(missing.status, 422);
    assert.match(missing.body.error, /HTTP 404/);
  });

  it('mutating routes need the board or permissions.canCreateAgents; reads any member', async () => {
    const plain = await newAgent(t, board, companyId);
    const creator = await newAgent(t, board, companyId, { permissions: { canCreateAgents: true } });
    assert.equal((await t.request('GET', skillsUrl(), { token: plain.token })).status, 200);
    assert.equal((await t.request('POST', skillsUrl(), { token: plain.token, body: { name: 'Nope' } })).status, 403);
    assert.equal((await importSource(path.join(scratch, 'single'), plain.token)).status, 403);
    const made = await t.request('POST', skillsUrl(), { token: creator.token, body: { name: 'By Creator' } });
    assert.equal(made.status, 201);
    assert.equal(
      (
        await t.request('PATCH', `${skillsUrl()}/${made.body.id}/files`, {
          token: plain.token,
          body: { path: 'a.md', content: 'x' },
        })
      ).status,
      403,
    );
    assert.equal((await t.request('DELETE', `${skillsUrl()}/${made.body.id}`, { token: plain.token })).status, 403);
    const [entry] = (await activityRows(t, companyId, 'company.skill_created')).filter(
      (r) => r.entity_id === made.body.id,
    );
    assert.equal(entry.actor_type, 'agent');
  });
});

describe('skills: scan-projects', () => {
  it('finds skills in the well-known folders and the workspace root; rescans skip or update; conflicts reported, not overwritten', async () => {
    const managed = await t.request('POST', skillsUrl(), { token: board, body: { name: 'Kept', slug: 'kept' } });
    const ws = await folder('workspace', {
      'SKILL.md': skillMd('name: Repo Root'),
      'scripts/build.sh': 'make',
      'src/app.ts': 'not part of the root skill',
      'skills/lint/SKILL.md': skillMd('name: Lint'),
      'skills/.curated/format/SKILL.md': skillMd('name: Format'),
      'skills/.system/lint/SKILL.md': skillMd('name: Lint'),
      'skills/.experimental/taker/SKILL.md': skillMd(`name: Taker\nkey: ${managed.body.key}`),
      '.claude/skills/tool/SKILL.md': skillMd('name: Tool'),
      'docs/nested/SKILL.md': skillMd('name: Not Well Known'),
    });
    const project = await t.request('POST', `/api/companies/${companyId}/projects`, {
      token: board,
      body: { name: 'Scanned', workspace: { name: 'main', cwd: ws } },
    });
    assert.equal(project.status, 201, JSON.stringify(project.body));
    const workspaceId = project.body.workspaces[0].id;
    const scan = () =>
      t.request('POST', `${skillsUrl()}/scan-projects`, { token: board, body: { projectIds: [project.body.id] } });

    const first = await scan();
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.deepEqual(
      first.body.imported.map((i: any) => i.key).sort(),
      ['format', 'lint', 'repo-root', 'tool'].map((slug) => `project/${workspaceId}/${slug}`).sort(),
    );
    const root = first.body.imported.find((i: any) => i.skill.slug === 'repo-root');
    assert.equal(root.skill.sourceKind, 'project_scan');
    assert.equal(root.skill.trustLevel, 'scripts_executables');
    const rootFiles = (await t.request('GET', `${skillsUrl()}/${root.skill.id}`, { token: board })).body.files.map(
      (f: any) => f.path,
    );
    assert.deepEqual(rootFiles, ['SKILL.md', 'scripts/build.sh'], 'at a root only the three subfolders are walked');
    assert.deepEqual(
      first.body.conflicts.map((c: any) => c.key).sort(),
      [managed.body.key, `project/${workspaceId}/lint`].sort(),
    );
    const kept = await t.request('GET', `${skillsUrl()}/${managed.body.id}`, { token: board });
    assert.equal(kept.body.name, 'Kept');
    assert.equal(kept.body.sourceKind, 'managed_local');

    await writeFile(path.join(ws, 'skills/lint/SKILL.md'), skillMd('name: Lint\ndescription: stricter'));
    const second = await scan();
    assert.deepEqual(second.body.imported, []);
    assert.deepEqual(
      second.body.updated.map((i: any) => i.skill.description),
      ['stricter'],
    );
    assert.equal(second.body.skipped.length, 3);
    assert.equal(
      await readFile(path.join(ws, 'src/app.ts'), 'utf8'),
      'not part of the root skill',
      'workspace files untouched',
    );
    assert.ok(
      (await activityRows(t, companyId, 'company.skills_imported')).some(
        (r) => r.details.source.kind === 'project_scan',
      ),
    );

    const foreign = await t.request('POST', `${skillsUrl()}/scan-projects`, {
      token: board,
      body: { workspaceIds: [crypto.randomUUID()] },
    });
    assert.equal(foreign.status, 422);
    const plain = await newAgent(t, board, companyId);
    assert.equal(
      (await t.request('POST', `${skillsUrl()}/scan-projects`, { token: plain.token, body: {} })).status,
      403,
    );
  });
});

describe('agent skills', () => {
  it('concurrent identical syncs of one agent all succeed and leave one set of attachments', async () => {
    const agent = await newAgent(t, board, companyId, { adapterType: 'claude_local' });
    const url = `/api/agents/${agent.agent.id}/skills`;
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => t.request('POST', `${url}/sync`, { token: board, body: { desiredSkills: [] } })),
    );
    assert.deepEqual(
      answers.map((a) => a.status),
      Array(8).fill(200),
      JSON.stringify(answers.find((a) => a.status !== 200)?.body),
    );
    assert.deepEqual((await t.request('GET', url, { token: board })).body.desiredSkills, [
      'boardroom/skills/boardroom-api',
    ]);
  });

  it('sync sets exactly the list sent plus required bundled skills; unknown or ambiguous fail with 422', async () => {
    const agent = await newAgent(t, board, companyId, { adapterType: 'claude_local' });
    const a = await folder('sync-a/twin', { 'SKILL.md': skillMd('name: Twin') });
    const b = await folder('sync-b/twin', { 'SKILL.md': skillMd('name: Twin') });
    const one = (await importSource(a)).body.imported[0];
    const two = (await importSource(b)).body.imported[0];
    const deploy = (await list()).find((s) => s.slug === 'deploy');
    const url = `/api/agents/${agent.agent.id}/skills`;

    const initial = await t.request('GET', url, { token: board });
    assert.equal(initial.status, 200);
    assert.equal(initial.body.supported, true);
    assert.equal(initial.body.mode, 'ephemeral');

    const synced = await t.request('POST', `${url}/sync`, {
      token: board,
      body: { desiredSkills: [one.id, 'deploy'] },
    });
    assert.equal(synced.status, 200, JSON.stringify(synced.body));
    assert.deepEqual(synced.body.desiredSkills.sort(), ['boardroom/skills/boardroom-api', deploy.key, one.key].sort());
    assert.equal(synced.body.entries.find((e: any) => e.key === 'boardroom/skills/boardroom-api').required, true);
    // The agent keeps the selection under adapterConfig.serviceSkillSync.desiredSkills (SPEC), in the snapshot's order.
    const stored = (await t.request('GET', `/api/agents/${agent.agent.id}`, { token: board })).body.adapterConfig
      .serviceSkillSync;
    assert.deepEqual(stored, { desiredSkills: (await t.request('GET', url, { token: board })).body.desiredSkills });

    const ambiguous = await t.request('POST', `${url}/sync`, {
      token: board,
      body: { desiredSkills: ['twin', 'nope'] },
    });
    assert.equal(ambiguous.status, 422);
    assert.deepEqual(ambiguous.body.details.unknown, ['nope']);
    assert.deepEqual(ambiguous.body.details.ambiguous[0].keys.sort(), [one.key, two.key].sort());
    // Nothing changed by the failed request.
    assert.equal((await t.request('GET', url, { token: board })).body.desiredSkills.length, 3);

    // Exactly the list: an empty list leaves only the required bundled skill.
    const emptied = await t.request('POST', `${url}/sync`, { token: agent.token, body: { desiredSkills: [] } });
    assert.equal(emptied.status, 200);
    assert.deepEqual(emptied.body.desiredSkills, ['boardroom/skills/boardroom-api']);

    const detail = await t.request('GET', `${skillsUrl()}/${emptied.body.entries[0].skillId}`, { token: board });
    assert.ok(detail.body.usage.agents.some((x: any) => x.id === agent.agent.id));

    // Another agent (no CEO role) may not set this agent's skills.
    const peer = await newAgent(t, board, companyId);
    assert.equal(
      (await t.request('POST', `${url}/sync`, { token: peer.token, body: { desiredSkills: [] } })).status,
      403,
    );
    const processAgent = await t.request('GET', `/api/agents/${peer.agent.id}/skills`, { token: board });
    assert.equal(processAgent.body.mode, 'unsupported');
    assert.equal(processAgent.body.supported, false);
  });
});
