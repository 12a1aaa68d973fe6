// Company portability (issue 20, docs/portability.md): export a company as a bundle, import it as a
// new company or into an existing one, through HTTP. The round trip compares the two companies'
// bundles file by file: the same structure by slugs and fields, and no secret value in any file.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { useTestApp } from './helpers/app.ts';
import { multipartBody, newAgent } from './helpers/factories.ts';

const t = await useTestApp();
const pool = t.database.pool;
const SECRET_VALUE = 'sk-live-9f8e7d6c5b4a-very-secret';
const PLAIN_PASSWORD = 'hunter2-plain-password';
const ALL = { company: true, agents: true, projects: true, goals: true, issues: true, skills: true, routines: true };
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

async function ok<T = any>(method: string, url: string, token: string, body: unknown, status = 200): Promise<T> {
  const res = await t.request(method, url, { token, body });
  assert.equal(res.status, status, `${method} ${url}: ${res.status} ${JSON.stringify(res.body).slice(0, 500)}`);
  return res.body;
}
const count = async (table: string, companyId?: string) =>
  Number(
    (
      await pool.query(
        `select count(*) from ${table}${companyId ? ' where company_id = $1' : ''}`,
        companyId ? [companyId] : [],
      )
    ).rows[0].count,
  );

/** A company with everything a bundle carries (issue 20, section 4). */
async function richCompany() {
  const { company, token } = await t.newCompany(undefined, {
    name: `Portable ${randomUUID().slice(0, 6)}`,
    description: 'Robots, built by agents',
    budgetMonthlyCents: 900_000,
    brandColor: '#0f766e',
  });
  const c = company.id as string;
  const logo = await t.request('POST', `/api/companies/${c}/logo`, {
    token,
    ...multipartBody([{ name: 'file', data: PNG, filename: 'logo.png', contentType: 'image/png' }]),
  });
  await ok('PATCH', `/api/companies/${c}`, token, { logoAssetId: logo.body.assetId ?? logo.body.id });
  const secret = await ok(
    'POST',
    `/api/companies/${c}/secrets`,
    token,
    { name: 'OPENAI_API_KEY', value: SECRET_VALUE },
    201,
  );
  const skill = await ok(
    'POST',
    `/api/companies/${c}/skills`,
    token,
    { name: 'Release notes', description: 'How we write release notes' },
    201,
  );
  // The org tree: a CEO, three managers, six reports.
  const env = {
    OPENAI_API_KEY: { type: 'secret_ref', secretId: secret.id },
    DB_PASSWORD: PLAIN_PASSWORD,
    LOG_LEVEL: 'debug',
  };
  const ceo = await newAgent(t, token, c, {
    name: 'Chief',
    role: 'ceo',
    title: 'CEO',
    capabilities: 'Runs the company',
    budgetMonthlyCents: 50_000,
    adapterConfig: { command: '/usr/local/bin/agent', env },
  });
  const managers: any[] = [];
  for (const name of ['Build Lead', 'Sales Lead', 'Ops Lead']) {
    managers.push(
      await ok(
        'POST',
        `/api/companies/${c}/agents`,
        token,
        {
          name,
          role: 'manager',
          reportsTo: ceo.agent.id,
          adapterType: 'process',
          adapterConfig: { env },
          budgetMonthlyCents: 20_000,
          desiredSkills: [skill.key],
        },
        201,
      ),
    );
  }
  const reports: any[] = [];
  for (let i = 0; i < 6; i += 1) {
    reports.push(
      await ok(
        'POST',
        `/api/companies/${c}/agents`,
        token,
        {
          name: `Worker ${i}`,
          role: 'engineer',
          reportsTo: managers[i % 3].id,
          adapterType: 'process',
          adapterConfig: { env: { LOG_LEVEL: 'info' } },
        },
        201,
      ),
    );
  }
  const top = await ok(
    'POST',
    `/api/companies/${c}/goals`,
    token,
    { title: 'Ship robots', level: 'company', status: 'active', ownerAgentId: ceo.agent.id },
    201,
  );
  const goal2 = await ok('POST', `/api/companies/${c}/goals`, token, { title: 'Sell robots', parentId: top.id }, 201);
  const project = await ok(
    'POST',
    `/api/companies/${c}/projects`,
    token,
    {
      name: 'Factory',
      goalIds: [top.id],
      leadAgentId: managers[0].id,
      env: { REGION: 'eu' },
      workspace: { name: 'web', repoUrl: 'https://example.com/acme/web.git', repoRef: 'main', setupCommand: 'npm ci' },
    },
    201,
  );
  const project2 = await ok(
    'POST',
    `/api/companies/${c}/projects`,
    token,
    { name: 'Storefront', workspace: { name: 'local', cwd: '/srv/acme/storefront' } },
    201,
  );
  const issues: any[] = [];
  for (let i = 0; i < 50; i += 1) {
    issues.push(
      await ok(
        'POST',
        `/api/companies/${c}/issues`,
        token,
        {
          title: `Task ${i}`,
          description: `Do thing ${i}`,
          priority: ['critical', 'high', 'medium', 'low'][i % 4],
          status: ['backlog', 'todo', 'done', 'in_review'][i % 4],
          projectId: i % 2 === 0 ? project.id : project2.id,
          goalId: i % 5 === 0 ? goal2.id : undefined,
          assigneeAgentId: reports[i % 6].id,
          parentId: i > 0 && i % 10 === 0 ? issues[0].id : undefined,
        },
        201,
      ),
    );
  }
  for (const issue of issues.slice(0, 10))
    await ok(
      'PUT',
      `/api/issues/${issue.id}/documents/plan`,
      token,
      { title: 'Plan', body: `# Plan for ${issue.title}\n\nSteps.` },
      201,
    );
  for (const issue of issues.slice(0, 5)) {
    const res = await t.request('POST', `/api/companies/${c}/issues/${issue.id}/attachments`, {
      token,
      ...multipartBody([
        { name: 'file', data: `log of ${issue.title}`, filename: 'log.txt', contentType: 'text/plain' },
      ]),
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
  }
  const routine = await ok(
    'POST',
    `/api/companies/${c}/routines`,
    token,
    { title: 'Weekly report', assigneeAgentId: managers[1].id, projectId: project.id },
    201,
  );
  await ok(
    'POST',
    `/api/routines/${routine.id}/triggers`,
    token,
    { kind: 'schedule', label: 'Mondays', cronExpression: '0 9 * * 1', timezone: 'Europe/Berlin' },
    201,
  );
  const hook = await ok(
    'POST',
    `/api/companies/${c}/routines`,
    token,
    { title: 'On deploy', assigneeAgentId: managers[2].id },
    201,
  );
  await ok('POST', `/api/routines/${hook.id}/triggers`, token, { kind: 'webhook', signingMode: 'hmac_sha256' }, 201);
  return { company, token, ceo, managers, reports, issues, secret, skill };
}

/**
 * A bundle's files with one company's identity replaced by a placeholder, and .boardroom.yaml parsed
 * without its `ids` (each instance's own record ids), for comparing two companies.
 */
const normalised = (files: Record<string, unknown>, companyId: string) => {
  const { ids: _sourceIds, ...meta } = parseYaml(files['.boardroom.yaml'] as string);
  return JSON.parse(JSON.stringify({ ...files, '.boardroom.yaml': meta }).replaceAll(companyId, '<company>'));
};

describe('portability: round trip', () => {
  let source: Awaited<ReturnType<typeof richCompany>>;
  let bundle: any;
  let imported: any;
  before(async () => {
    source = await richCompany();
    bundle = await ok('POST', `/api/companies/${source.company.id}/exports`, source.token, { include: ALL });
  });

  it('exports every part of the company, and no secret value in any file', () => {
    const paths = Object.keys(bundle.files);
    assert.ok(
      paths.includes('COMPANY.md') &&
        paths.includes('README.md') &&
        paths.includes('.boardroom.yaml') &&
        paths.includes('images/logo.png'),
    );
    assert.equal(paths.filter((p) => /^agents\/[^/]+\/AGENTS\.md$/.test(p)).length, 10);
    assert.equal(paths.filter((p) => /^goals\/[^/]+\/GOAL\.md$/.test(p)).length, 2);
    assert.equal(paths.filter((p) => /^projects\/[^/]+\/PROJECT\.md$/.test(p)).length, 2);
    assert.equal(paths.filter((p) => /^tasks\/[^/]+\/TASK\.md$/.test(p)).length, 52, '50 issues and 2 routines');
    assert.equal(paths.filter((p) => /^tasks\/[^/]+\/documents\/plan\.md$/.test(p)).length, 10);
    assert.equal(paths.filter((p) => p.startsWith('blobs/')).length, 5);
    assert.ok(paths.includes('skills/release-notes/SKILL.md'));
    assert.match(bundle.files['COMPANY.md'], /^---\nschema: agentcompanies\/v1\n/);
    assert.deepEqual(bundle.manifest.counts, {
      agents: 10,
      projects: 2,
      goals: 2,
      issues: 50,
      routines: 2,
      skills: 1,
      blobs: 5,
    });
    const text = JSON.stringify(bundle);
    assert.ok(!text.includes(SECRET_VALUE), 'the secret value left');
    assert.ok(!text.includes(PLAIN_PASSWORD), 'a sensitive plain value left');
    assert.ok(
      text.includes('"LOG_LEVEL":"debug"') || bundle.files['agents/chief/AGENTS.md'].includes('LOG_LEVEL: debug'),
      'ordinary env values stay',
    );
    assert.deepEqual(bundle.manifest.envInputs.map((i: any) => [i.key, i.kind, i.requirement]).sort(), [
      ['DB_PASSWORD', 'secret', 'required'],
      ['OPENAI_API_KEY', 'secret', 'required'],
    ]);
    assert.ok(bundle.warnings.some((w: string) => w.includes('DB_PASSWORD')));
    // Machine paths: the agent's absolute command is flagged; the local workspace path is left out.
    assert.ok(
      bundle.manifest.systemDependent.some(
        (s: any) => s.field === 'adapterConfig.command' && s.value === '/usr/local/bin/agent',
      ),
    );
    assert.ok(!text.includes('/srv/acme/storefront'));
    assert.match(bundle.files['README.md'], /## Org chart\n\n- \*\*Chief\*\*[^\n]*\n {2}- \*\*Build Lead\*\*/);
  });

  it("maps every exported record's source id to its slug in .boardroom.yaml `ids`", async () => {
    const { ids } = parseYaml(bundle.files['.boardroom.yaml']);
    const c = source.company.id;
    assert.deepEqual(ids.company, { [c]: bundle.rootPath });
    const agents = await ok<any[]>('GET', `/api/companies/${c}/agents`, source.token, undefined);
    assert.equal(agents.length, 10);
    assert.deepEqual(ids.agents, Object.fromEntries(agents.map((a) => [a.id, a.urlKey])));
    const projects = await ok<any[]>('GET', `/api/companies/${c}/projects`, source.token, undefined);
    assert.deepEqual(ids.projects, Object.fromEntries(projects.map((p) => [p.id, p.urlKey])));
    assert.deepEqual(ids.skills, { [source.skill.id]: 'release-notes' });
    // Goals, tasks and routines get slugs from their titles: each id names the file of its record.
    const titled = (records: any[], kind: string, file: (slug: string) => string) => {
      assert.deepEqual(Object.keys(ids[kind]).sort(), records.map((r) => r.id).sort(), kind);
      for (const r of records)
        assert.match(bundle.files[file(ids[kind][r.id])] ?? '', new RegExp(`\ntitle: ${r.title}\n`), `${kind} ${r.id}`);
    };
    titled(source.issues, 'issues', (slug) => `tasks/${slug}/TASK.md`);
    titled(
      await ok<any[]>('GET', `/api/companies/${c}/goals`, source.token, undefined),
      'goals',
      (slug) => `goals/${slug}/GOAL.md`,
    );
    titled(
      await ok<any[]>('GET', `/api/companies/${c}/routines`, source.token, undefined),
      'routines',
      (slug) => `tasks/${slug}/TASK.md`,
    );
  });

  it('imports as a new company with the same structure, every agent and routine paused', async () => {
    const body = {
      source: { type: 'inline', rootPath: bundle.rootPath, files: bundle.files },
      target: { mode: 'new_company' },
      secretValues: { OPENAI_API_KEY: 'new-key-value', DB_PASSWORD: 'new-password' },
    };
    const preview = await ok('POST', '/api/companies/import/preview', source.token, body);
    assert.equal(preview.plan.companyAction, 'create');
    assert.deepEqual(preview.errors, []);
    assert.equal(preview.plan.agentPlans.length, 10);
    assert.ok(preview.plan.agentPlans.every((p: any) => p.action === 'create' && p.existingId === null));
    assert.ok(preview.envInputs.every((i: any) => i.supplied));
    imported = await ok('POST', '/api/companies/import', source.token, body, 201);
    assert.equal(imported.company.action, 'created');
    assert.equal(imported.company.name, source.company.name);
    const id = imported.company.id;
    assert.notEqual(id, source.company.id);

    // The local workspace lost its path at export: it has nothing to point at, so it is not created.
    assert.ok(
      imported.warnings.includes('projects/storefront: 1 workspace(s) without a path or repository were not created'),
    );
    const expected = normalised(bundle.files, source.company.id);
    expected['projects/storefront/PROJECT.md'] = expected['projects/storefront/PROJECT.md'].replace(
      /workspaces:\n(  .*\n)+/,
      '',
    );
    const again = await ok('POST', `/api/companies/${id}/exports`, source.token, { include: ALL });
    assert.deepEqual(normalised(again.files, id), expected);
    assert.deepEqual(again.manifest, bundle.manifest);

    const agents = await pool.query('select status from agents where company_id = $1', [id]);
    assert.equal(agents.rows.length, 10);
    assert.ok(agents.rows.every((a) => a.status === 'paused'));
    const routines = await pool.query(
      'select r.status, t.kind, t.next_run_at, t.public_id from routines r join routine_triggers t on t.routine_id = r.id where r.company_id = $1',
      [id],
    );
    assert.equal(routines.rows.length, 2);
    assert.ok(routines.rows.every((r) => r.status === 'paused' && r.next_run_at === null));
    assert.ok(routines.rows.find((r) => r.kind === 'webhook').public_id);
    // Supplied values are company secrets referenced at latest.
    const secrets = await ok('GET', `/api/companies/${id}/secrets`, source.token, undefined);
    assert.deepEqual(secrets.map((s: any) => s.name).sort(), ['DB_PASSWORD', 'OPENAI_API_KEY']);
    const chief = (
      await pool.query(`select adapter_config from agents where company_id = $1 and url_key = 'chief'`, [id])
    ).rows[0].adapter_config;
    assert.deepEqual(chief.env.OPENAI_API_KEY, {
      type: 'secret_ref',
      secretId: secrets.find((s: any) => s.name === 'OPENAI_API_KEY').id,
      version: 'latest',
    });
    assert.equal(await count('issues', id), 50);
    assert.equal(await count('issue_attachments', id), 5);
    const activity = await pool.query(
      `select details from activity_log where company_id = $1 and action = 'company.imported'`,
      [id],
    );
    assert.equal(activity.rows.length, 1);
    assert.deepEqual(activity.rows[0].details.issues, { created: 50, updated: 0, skipped: 0 });
  });

  it('imports twice into the same company: rename, skip and replace do what they promise', async () => {
    const id = imported.company.id;
    const files = { ...bundle.files };
    const body = (collisionStrategy: string) => ({
      source: { type: 'inline', files },
      target: { mode: 'existing_company', companyId: id },
      collisionStrategy,
    });
    const agentsBefore = await count('agents', id);

    const skip = await ok('POST', '/api/companies/import/preview', source.token, body('skip'));
    assert.equal(skip.plan.companyAction, 'none');
    assert.ok(skip.plan.agentPlans.every((p: any) => p.action === 'skip' && p.existingId));
    const skipped = await ok('POST', '/api/companies/import', source.token, body('skip'), 201);
    assert.ok(skipped.agents.every((a: any) => a.action === 'skip'));
    assert.equal(await count('agents', id), agentsBefore);
    assert.equal(await count('issues', id), 50);

    const rename = await ok('POST', '/api/companies/import/preview', source.token, body('rename'));
    const chief = rename.plan.agentPlans.find((p: any) => p.slug === 'chief');
    assert.deepEqual([chief.action, chief.plannedName], ['create', 'Chief 2']);
    assert.ok(chief.existingId);
    const renamed = await ok('POST', '/api/companies/import', source.token, body('rename'), 201);
    assert.equal(await count('agents', id), agentsBefore + 10);
    const chief2 = (
      await pool.query(`select url_key, name, reports_to, status from agents where id = $1`, [
        renamed.agents.find((a: any) => a.slug === 'chief').id,
      ])
    ).rows[0];
    assert.deepEqual([chief2.url_key, chief2.name, chief2.status], ['chief-2', 'Chief 2', 'paused']);
    // The renamed copies report to each other, not to the first import's agents.
    const lead2 = (
      await pool.query(`select reports_to from agents where company_id = $1 and url_key = 'build-lead-2'`, [id])
    ).rows[0];
    assert.equal(lead2.reports_to, renamed.agents.find((a: any) => a.slug === 'chief').id);
    assert.equal(await count('issues', id), 100);

    // Replace overwrites the first import's records in place (the "2" copies are other records).
    await pool.query(
      `update agents set title = 'Changed', status = 'idle' where company_id = $1 and url_key = 'chief'`,
      [id],
    );
    const replaced = await ok('POST', '/api/companies/import', source.token, body('replace'), 201);
    assert.equal(replaced.company.action, 'updated');
    const chiefNow = (
      await pool.query(`select title, status from agents where company_id = $1 and url_key = 'chief'`, [id])
    ).rows[0];
    assert.deepEqual(chiefNow, { title: 'CEO', status: 'paused' });
    assert.ok(replaced.agents.every((a: any) => a.action === 'update'));
    assert.equal(await count('agents', id), agentsBefore + 10);
    assert.equal(await count('issues', id), 100);
    assert.equal(
      Number(
        (
          await pool.query(
            `select count(*) from issue_document_revisions r join issue_documents d on d.id = r.document_id where d.company_id = $1 and d.latest_revision_number = 2`,
            [id],
          )
        ).rows[0].count,
      ),
      20,
      'each replaced document got a second revision',
    );

    // A second rename finds chief and chief-2 taken: chief-3.
    const third = await ok('POST', '/api/companies/import', source.token, body('rename'), 201);
    const chief3 = (
      await pool.query(`select url_key, name from agents where id = $1`, [
        third.agents.find((a: any) => a.slug === 'chief').id,
      ])
    ).rows[0];
    assert.deepEqual(chief3, { url_key: 'chief-3', name: 'Chief 3' });
    assert.equal(await count('agents', id), agentsBefore + 20);
  });

  it('answers the same snapshot to an export running beside an import into the company', async () => {
    const id = imported.company.id;
    const issuesBefore = await count('issues', id);
    const extra: Record<string, string> = {};
    for (let i = 0; i < 30; i += 1)
      extra[`tasks/concurrent-${i}/TASK.md`] = `---\ntitle: Concurrent ${i}\nstatus: todo\npriority: low\n---\n`;
    const [applied, exported] = await Promise.all([
      t.request('POST', `/api/companies/${id}/imports/apply`, {
        token: source.token,
        body: { source: { type: 'inline', files: { '.boardroom.yaml': 'schema: agentcompanies/v1\n', ...extra } } },
      }),
      t.request('POST', `/api/companies/${id}/export`, { token: source.token, body: { include: { issues: true } } }),
    ]);
    assert.equal(applied.status, 201, JSON.stringify(applied.body));
    assert.equal(exported.status, 200);
    const concurrent = Object.keys(exported.body.files).filter((p) => p.startsWith('tasks/concurrent-')).length;
    // All of the import or none of it: never a half-imported company.
    assert.ok(concurrent === 0 || concurrent === 30, `the export saw ${concurrent} of 30 imported tasks`);
    assert.equal(exported.body.manifest.counts.issues, concurrent === 0 ? issuesBefore : issuesBefore + 30);
    assert.equal(await count('issues', id), issuesBefore + 30);
  });
});

describe('portability: overrides', () => {
  it('applies nameOverrides and adapterOverrides, and leaves an input without a value unset', async () => {
    const { token } = await t.newBoardUser();
    const files = {
      'COMPANY.md': '---\nschema: agentcompanies/v1\nname: Template\n---\n',
      'agents/chief/AGENTS.md':
        '---\nname: Chief\nrole: ceo\nadapter:\n  type: claude_local\n  config:\n    model: big\n    env:\n      API_KEY:\n        input: API_KEY\n---\n',
      'projects/site/PROJECT.md': '---\nname: Site\nlead: chief\n---\n',
      '.boardroom.yaml':
        'schema: agentcompanies/v1\ninputs:\n  - key: API_KEY\n    kind: secret\n    requirement: required\n    usedBy:\n      - { path: agents/chief, env: API_KEY }\n',
    };
    const body = {
      source: { type: 'inline', files },
      target: { mode: 'new_company' },
      nameOverrides: { company: 'Acme from template', agents: { chief: 'Big Boss' }, projects: { site: 'Website' } },
      adapterOverrides: {
        chief: { adapterType: 'process', adapterConfig: { command: 'node', env: { API_KEY: { input: 'API_KEY' } } } },
      },
    };
    const preview = await ok('POST', '/api/companies/import/preview', token, body);
    assert.equal(preview.plan.companyName, 'Acme from template');
    assert.deepEqual(
      preview.plan.agentPlans.map((p: any) => p.plannedName),
      ['Big Boss'],
    );
    assert.deepEqual(
      preview.envInputs.map((i: any) => [i.key, i.supplied]),
      [['API_KEY', false]],
    );
    assert.ok(preview.warnings.some((w: string) => w.startsWith('input API_KEY has no value')));
    const applied = await ok('POST', '/api/companies/import', token, body, 201);
    assert.equal(applied.company.name, 'Acme from template');
    const chief = (
      await pool.query('select name, url_key, adapter_type, adapter_config from agents where id = $1', [
        applied.agents[0].id,
      ])
    ).rows[0];
    assert.deepEqual(chief, {
      name: 'Big Boss',
      url_key: 'chief',
      adapter_type: 'process',
      adapter_config: { command: 'node', env: {} },
    });
    const project = (
      await pool.query('select name, lead_agent_id from projects where id = $1', [applied.projects[0].id])
    ).rows[0];
    assert.deepEqual(project, { name: 'Website', lead_agent_id: applied.agents[0].id });
    assert.equal(await count('secrets', applied.company.id), 0);
  });
});

describe('portability: refused bundles create nothing', () => {
  let token: string;
  before(async () => {
    ({ token } = await t.newBoardUser());
  });
  const importNew = (files: Record<string, unknown>) =>
    t.request('POST', '/api/companies/import', {
      token,
      body: { source: { type: 'inline', files }, target: { mode: 'new_company', newCompanyName: 'Refused' } },
    });
  const refused = async (files: Record<string, unknown>, status: number, pattern: RegExp) => {
    const before = await count('companies');
    const res = await importNew(files);
    assert.equal(res.status, status, JSON.stringify(res.body).slice(0, 300));
    assert.match(res.body.error, pattern);
    assert.equal(await count('companies'), before);
  };

  it('refuses paths outside the root with 400', async () => {
    await refused({ 'COMPANY.md': '---\nname: X\n---\n', '../escape.md': 'x' }, 400, /not a relative path/);
    await refused({ 'agents/../../etc/passwd': 'x' }, 400, /not a relative path/);
    await refused({ '/etc/passwd': 'x' }, 400, /not a relative path/);
    await refused({ 'agents\\x': 'x' }, 400, /not a relative path/);
  });

  it('refuses a NUL in a path with 400', async () => {
    const res = await t.request('POST', '/api/companies/import', {
      token,
      payload: JSON.stringify({
        source: { type: 'inline', files: { 'a\u0000b': 'x' } },
        target: { mode: 'new_company' },
      }),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(res.status, 400);
  });

  it('refuses a file just over the size limit with 413', async () => {
    const limit = 10 * 1024 * 1024;
    await refused(
      {
        'COMPANY.md': '---\nname: Big\n---\n',
        'blobs/big': { encoding: 'base64', data: Buffer.alloc(limit + 1).toString('base64') },
      },
      413,
      /is 10485761 bytes; a file may have at most 10485760/,
    );
    // At the limit itself the file is not refused for its size (the blob's name is no hash: 422).
    await refused(
      {
        'COMPANY.md': '---\nname: Big\n---\n',
        'blobs/big': { encoding: 'base64', data: Buffer.alloc(limit).toString('base64') },
      },
      422,
      /does not hash to its name/,
    );
  });

  it('refuses more files than the limit with 413', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i <= 5000; i += 1) files[`goals/g${i}/GOAL.md`] = '';
    await refused(files, 413, /5001 files; at most 5000/);
  });

  it('refuses a future schema with 422 naming it', async () => {
    await refused({ 'COMPANY.md': '---\nschema: agentcompanies/v2\nname: Future\n---\n' }, 422, /agentcompanies\/v2/);
    await refused(
      { '.boardroom.yaml': 'schema: agentcompanies/v7\n', 'COMPANY.md': '---\nname: Future\n---\n' },
      422,
      /agentcompanies\/v7/,
    );
  });

  it('refuses a plan with errors with 422, listing them; the preview shows them', async () => {
    const files = {
      'COMPANY.md': '---\nname: Broken\n---\n',
      'agents/a/AGENTS.md': '---\nname: A\nadapter:\n  type: process\nreportsTo: nobody\n---\n',
      'goals/g/GOAL.md': '---\ntitle: G\nlevel: galaxy\n---\n',
      'tasks/r/TASK.md': '---\ntitle: R\nrecurring: true\nvariables:\n  - name: 1bad\n---\n',
      'tasks/c/TASK.md': '---\ntitle: C\nrecurring: true\n---\n',
      '.boardroom.yaml':
        'schema: agentcompanies/v1\nroutines:\n  c:\n    triggers:\n      - kind: schedule\n        cronExpression: "99 * * * *"\n',
    };
    const preview = await t.request('POST', '/api/companies/import/preview', {
      token,
      body: { source: { type: 'inline', files }, target: { mode: 'new_company' } },
    });
    assert.equal(preview.status, 200);
    assert.deepEqual(
      preview.body.errors.map((e: string) => e.split(':')[0]),
      ['agents/a', 'goals/g', 'tasks/c', 'tasks/r'],
    );
    assert.equal(preview.body.errors[0], 'agents/a: reportsTo nobody is no agent of the bundle');
    assert.equal(preview.body.errors[1], 'goals/g: unknown level galaxy');
    assert.match(preview.body.errors[2], /invalid cron expression/);
    assert.match(preview.body.errors[3], /variables: 0\.name letters, digits and underscores/);
    await refused(files, 422, /plan has 4 error/);
  });

  it('refuses webhook triggers the API would refuse: replayWindowSec outside 30 to 86400, an unknown signingMode (422)', async () => {
    const files = (trigger: string) => ({
      'COMPANY.md': '---\nname: Hooks\n---\n',
      'tasks/w/TASK.md': '---\ntitle: W\nrecurring: true\n---\n',
      '.boardroom.yaml': `schema: agentcompanies/v1\nroutines:\n  w:\n    triggers:\n      - ${trigger}\n`,
    });
    for (const trigger of [
      '{ kind: webhook, signingMode: codehost_hmac, replayWindowSec: 86401 }',
      '{ kind: webhook, signingMode: codehost_hmac, replayWindowSec: 1000000000 }',
      '{ kind: webhook, replayWindowSec: 29 }',
      '{ kind: webhook, replayWindowSec: 300.5 }',
      '{ kind: webhook, signingMode: rot13 }',
    ])
      await refused(files(trigger), 422, /plan has 1 error/);
    const preview = await t.request('POST', '/api/companies/import/preview', {
      token,
      body: {
        source: { type: 'inline', files: files('{ kind: webhook, replayWindowSec: 86401 }') },
        target: { mode: 'new_company' },
      },
    });
    assert.match(preview.body.errors[0], /^tasks\/w: trigger webhook: replayWindowSec/);
    // The widest window is allowed, and kept.
    const widest = await importNew(files('{ kind: webhook, signingMode: codehost_hmac, replayWindowSec: 86400 }'));
    assert.equal(widest.status, 201, JSON.stringify(widest.body).slice(0, 300));
    const [row] = (
      await pool.query(
        'select t.replay_window_sec from routine_triggers t join routines r on r.id = t.routine_id where r.company_id = $1',
        [widest.body.company.id],
      )
    ).rows;
    assert.equal(row.replay_window_sec, 86_400);
  });

  it('rolls everything back when a write fails midway (409), the company included', async () => {
    // Two primary workspaces of one project pass the plan and break a unique index at the last insert.
    const files = {
      'COMPANY.md': '---\nname: Halfway\n---\n',
      'agents/a/AGENTS.md': '---\nname: A\nadapter:\n  type: process\n---\n',
      'tasks/t/TASK.md': '---\ntitle: T\n---\n',
      'projects/p/PROJECT.md':
        '---\nname: P\nworkspaces:\n  - { name: one, repoUrl: "https://example.com/a.git", isPrimary: true }\n  - { name: two, repoUrl: "https://example.com/b.git", isPrimary: true }\n---\n',
    };
    const agents = await count('agents');
    await refused(files, 409, /conflicts/);
    assert.equal(await count('agents'), agents);
  });
});

describe('portability: who may call', () => {
  let board: { company: any; token: string };
  let ceo: { agent: any; token: string };
  let worker: { agent: any; token: string };
  let outsider: { token: string };
  const minimal = { 'COMPANY.md': '---\nschema: agentcompanies/v1\nname: Tiny\n---\n' };
  before(async () => {
    board = await t.newCompany();
    ceo = await newAgent(t, board.token, board.company.id, { role: 'ceo' });
    worker = await newAgent(t, board.token, board.company.id, { role: 'engineer' });
    outsider = await t.newBoardUser();
  });

  it('POST /export: any caller with access; 401, 403, 404 otherwise', async () => {
    const url = `/api/companies/${board.company.id}/export`;
    assert.equal((await t.request('POST', url, { token: worker.token, body: {} })).status, 200);
    const res = await t.request('POST', url, { token: board.token, body: {} });
    assert.deepEqual(
      Object.keys(res.body.files)
        .sort()
        .filter((p) => !p.startsWith('agents/')),
      ['.boardroom.yaml', 'COMPANY.md', 'README.md'],
      'default: the company and its agents',
    );
    assert.equal((await t.request('POST', url, { body: {} })).status, 401);
    assert.equal((await t.request('POST', url, { token: outsider.token, body: {} })).status, 403);
    assert.equal(
      (await t.request('POST', `/api/companies/${randomUUID()}/export`, { token: board.token, body: {} })).status,
      404,
    );
    assert.equal(
      (await t.request('POST', url, { token: board.token, body: { include: { issues: 'yes' } } })).status,
      400,
    );
  });

  it('shows env values only to callers who may read configurations; credentials in a config never leave', async () => {
    const configured = await newAgent(t, board.token, board.company.id, {
      name: 'Configured',
      adapterType: 'http',
      adapterConfig: {
        url: 'https://example.com/hook',
        headers: { Authorization: 'Bearer abc123', Accept: 'json' },
        env: { LOG_LEVEL: 'debug' },
      },
    });
    const path = `agents/${configured.agent.urlKey}/AGENTS.md`;
    const asBoard = await ok('POST', `/api/companies/${board.company.id}/export`, board.token, {});
    assert.match(asBoard.files[path], /LOG_LEVEL: debug/);
    assert.match(asBoard.files[path], /Accept: json/);
    assert.ok(!JSON.stringify(asBoard).includes('abc123'));
    assert.ok(
      asBoard.warnings.includes(
        `agents/${configured.agent.urlKey}: adapterConfig.headers.Authorization looks like a credential; left out`,
      ),
    );
    const asWorker = await ok('POST', `/api/companies/${board.company.id}/export`, worker.token, {});
    assert.match(asWorker.files[path], /LOG_LEVEL:\n\s+input: LOG_LEVEL/);
    assert.ok(asWorker.warnings.some((w: string) => w.includes('env LOG_LEVEL is not readable by the caller')));
    const asCeo = await ok('POST', `/api/companies/${board.company.id}/export`, ceo.token, {});
    assert.match(asCeo.files[path], /LOG_LEVEL: debug/);
  });

  it('reads a `path` source for the instance owner', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bundle-'));
    try {
      await mkdir(join(dir, 'goals', 'g'), { recursive: true });
      await writeFile(join(dir, 'COMPANY.md'), '---\nschema: agentcompanies/v1\nname: From disk\n---\n');
      await writeFile(join(dir, 'goals', 'g', 'GOAL.md'), '---\ntitle: Disk goal\n---\n');
      const preview = await ok('POST', '/api/companies/import/preview', t.ownerToken, {
        source: { type: 'path', path: dir },
        target: { mode: 'new_company' },
      });
      assert.equal(preview.plan.companyName, 'From disk');
      assert.deepEqual(
        preview.plan.goalPlans.map((p: any) => [p.slug, p.action]),
        [['g', 'create']],
      );
      const missing = await t.request('POST', '/api/companies/import/preview', {
        token: t.ownerToken,
        body: { source: { type: 'path', path: join(dir, 'nope') }, target: { mode: 'new_company' } },
      });
      assert.equal(missing.status, 400);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('POST /exports and /exports/preview: board and CEO; other agents 403', async () => {
    for (const path of ['exports', 'exports/preview']) {
      const url = `/api/companies/${board.company.id}/${path}`;
      assert.equal((await t.request('POST', url, { token: ceo.token, body: {} })).status, 200, path);
      assert.equal((await t.request('POST', url, { token: worker.token, body: {} })).status, 403, path);
      assert.equal((await t.request('POST', url, { token: outsider.token, body: {} })).status, 403, path);
    }
    const preview = await ok('POST', `/api/companies/${board.company.id}/exports/preview`, board.token, {
      include: { agents: true },
    });
    assert.equal(preview.files, undefined);
    assert.ok(preview.fileInventory.some((f: any) => f.path === 'COMPANY.md' && f.kind === 'company' && f.bytes > 0));
    assert.equal(preview.counts.files, preview.fileInventory.length);
  });

  it('POST /exports: a company beyond the export cap is 413', async () => {
    const { company, token } = await t.newCompany();
    await pool.query(
      `insert into issues (company_id, number, identifier, title) select $1, n, $2 || '-' || n, 'Bulk ' || n from generate_series(1, 2001) n`,
      [company.id, company.issuePrefix],
    );
    const res = await t.request('POST', `/api/companies/${company.id}/exports`, {
      token,
      body: { include: { issues: true } },
    });
    assert.equal(res.status, 413);
    assert.match(res.body.error, /more than 2000 issues/);
    const some = await ok('POST', `/api/companies/${company.id}/exports`, token, {
      include: { issues: true },
      issues: [`${company.issuePrefix}-7`],
    });
    assert.equal(some.manifest.counts.issues, 1);
  });

  it("POST /api/companies/import and its preview: board only; an existing target must be the caller's", async () => {
    for (const url of ['/api/companies/import/preview', '/api/companies/import']) {
      const body = { source: { type: 'inline', files: minimal }, target: { mode: 'new_company' } };
      assert.equal((await t.request('POST', url, { token: ceo.token, body })).status, 403, url);
      assert.equal((await t.request('POST', url, { body })).status, 401, url);
      const other = { ...body, target: { mode: 'existing_company', companyId: board.company.id } };
      assert.equal((await t.request('POST', url, { token: outsider.token, body: other })).status, 403, url);
      assert.equal(
        (
          await t.request('POST', url, {
            token: outsider.token,
            body: { ...body, target: { mode: 'existing_company', companyId: randomUUID() } },
          })
        ).status,
        404,
        url,
      );
      assert.equal(
        (
          await t.request('POST', url, {
            token: outsider.token,
            body: { ...body, source: { type: 'path', path: '/tmp' } },
          })
        ).status,
        403,
        `${url}: a path source is the instance owner's`,
      );
    }
    const created = await ok(
      'POST',
      '/api/companies/import',
      outsider.token,
      { source: { type: 'inline', files: minimal }, target: { mode: 'new_company' } },
      201,
    );
    assert.equal(created.company.name, 'Tiny');
    const mine = await ok('GET', '/api/companies', outsider.token, undefined);
    assert.ok(
      mine.some((c: any) => c.id === created.company.id),
      'the importer is a member of the new company',
    );
  });

  it('an SVG logo that is unsafe is 400, a logo of another type 415', async () => {
    const withLogo = (data: Buffer, contentType: string, ext: string) => ({
      source: {
        type: 'inline',
        files: {
          'COMPANY.md': `---\nname: Logo\nlogo: images/logo.${ext}\n---\n`,
          [`images/logo.${ext}`]: { encoding: 'base64', data: data.toString('base64'), contentType },
        },
      },
      target: { mode: 'new_company' },
    });
    assert.equal(
      (
        await t.request('POST', '/api/companies/import', {
          token: outsider.token,
          body: withLogo(Buffer.from('<svg><script>alert(1)</script></svg>'), 'image/svg+xml', 'svg'),
        })
      ).status,
      400,
    );
    assert.equal(
      (
        await t.request('POST', '/api/companies/import', {
          token: outsider.token,
          body: withLogo(Buffer.from('%PDF'), 'application/pdf', 'pdf'),
        })
      ).status,
      415,
    );
  });

  it('/imports/preview and /imports/apply: board and CEO, own company only, replace refused', async () => {
    const url = (p: string) => `/api/companies/${board.company.id}/imports/${p}`;
    const body = { source: { type: 'inline', files: { 'goals/g/GOAL.md': '---\ntitle: Imported goal\n---\n' } } };
    const preview = await ok('POST', url('preview'), ceo.token, body);
    assert.equal(preview.plan.companyAction, 'none');
    assert.deepEqual(
      preview.plan.goalPlans.map((p: any) => p.action),
      ['create'],
    );
    // What a refused apply must leave as it was: the companies, this company's goals and its activity.
    const state = async () => ({
      companies: await count('companies'),
      goals: (
        await pool.query('select id, title, description, updated_at from goals where company_id = $1 order by id', [
          board.company.id,
        ])
      ).rows,
      activity: await count('activity_log', board.company.id),
    });
    const before = await state();
    const replacePreview = await ok('POST', url('preview'), board.token, { ...body, collisionStrategy: 'replace' });
    assert.match(replacePreview.errors[0], /replace is refused/);
    const replace = await t.request('POST', url('apply'), {
      token: board.token,
      body: { ...body, collisionStrategy: 'replace' },
    });
    assert.equal(replace.status, 422);
    const elsewhere = await t.request('POST', url('apply'), {
      token: board.token,
      body: { ...body, target: { mode: 'new_company' } },
    });
    assert.equal(elsewhere.status, 422);
    assert.deepEqual(await state(), before, 'a refused apply changes nothing');
    for (const p of ['preview', 'apply']) {
      assert.equal((await t.request('POST', url(p), { token: worker.token, body })).status, 403, p);
      assert.equal((await t.request('POST', url(p), { token: outsider.token, body })).status, 403, p);
      assert.equal((await t.request('POST', url(p), { body })).status, 401, p);
      assert.equal(
        (await t.request('POST', `/api/companies/${randomUUID()}/imports/${p}`, { token: board.token, body })).status,
        404,
        p,
      );
    }
    const applied = await ok('POST', url('apply'), ceo.token, body, 201);
    assert.deepEqual(
      applied.goals.map((g: any) => g.action),
      ['create'],
    );
    assert.equal(applied.company.action, 'unchanged');
    // Now the bundle's goal collides with one of the company: replace would overwrite it, and is refused.
    const imported = await state();
    const overwrite = await t.request('POST', url('apply'), {
      token: board.token,
      body: {
        source: { type: 'inline', files: { 'goals/g/GOAL.md': '---\ntitle: Replaced goal\n---\nNew text\n' } },
        collisionStrategy: 'replace',
      },
    });
    assert.equal(overwrite.status, 422);
    assert.deepEqual(await state(), imported, 'the colliding goal is as it was');
    assert.ok(imported.goals.some((g) => g.title === 'Imported goal'));
  });
});
