// `boardroom company export|import` (issue 20, section 3) against a running instance's database:
// to a folder and to a .zip, a dry run that changes nothing, an import as a new company and into an
// existing one, and refusals that exit 1 with the reason.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { zipSync } from 'fflate';
import pg from 'pg';
import { readZip } from '../src/lib/zip.ts';
import { freshDatabase, runCli, spawnServer, tempDir, waitForHealth } from './helpers/server-process.ts';

describe('boardroom company export and import', () => {
  it('moves a company through a folder and a zip, with a dry run that writes nothing', async () => {
    const databaseUrl = await freshDatabase();
    const dataDir = await tempDir('boardroom-portability-');
    const env = { DATABASE_URL: databaseUrl };
    const server = spawnServer(['--data-dir', dataDir, '--port', '0'], env);
    const client = new pg.Client({ connectionString: databaseUrl });
    try {
      const base = await server.baseUrl();
      await waitForHealth(base);
      const key = await runCli(['board-key', 'create', '--data-dir', dataDir], env);
      assert.equal(key.code, 0, key.stderr);
      const api = async (method: string, url: string, body?: unknown) => {
        const res = await fetch(`${base}${url}`, {
          method,
          headers: {
            authorization: `Bearer ${key.stdout.trim()}`,
            ...(body ? { 'content-type': 'application/json' } : {}),
          },
          body: body ? JSON.stringify(body) : undefined,
        });
        assert.ok(res.ok, `${method} ${url}: ${res.status} ${await res.clone().text()}`);
        return res.json();
      };
      const company = await api('POST', '/api/companies', { name: 'Cli Works' });
      const ceo = await api('POST', `/api/companies/${company.id}/agents`, {
        name: 'Boss',
        role: 'ceo',
        adapterType: 'process',
        adapterConfig: { env: { API_TOKEN: 'plain-token-value' } },
      });
      await api('POST', `/api/companies/${company.id}/issues`, { title: 'First task', assigneeAgentId: ceo.id });
      const form = new FormData();
      form.append('file', new Blob(['attached bytes'], { type: 'text/plain' }), 'notes.txt');
      const issue = await api('POST', `/api/companies/${company.id}/issues`, { title: 'With a file' });
      const upload = await fetch(`${base}/api/companies/${company.id}/issues/${issue.id}/attachments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key.stdout.trim()}` },
        body: form,
      });
      assert.equal(upload.status, 201);

      const folder = path.join(dataDir, 'out', 'cli-works');
      const exported = await runCli(['company', 'export', company.id, '--out', folder, '--data-dir', dataDir], env);
      assert.equal(exported.code, 0, exported.stderr);
      assert.match(
        exported.stdout,
        /^exported Cli Works to .*: 1 agents, 0 projects, 0 goals, 2 issues, 0 routines, 0 skills, 1 blobs\nwarning: agents\/boss: env API_TOKEN looks sensitive/,
      );
      assert.match(
        await readFile(path.join(folder, 'COMPANY.md'), 'utf8'),
        /^---\nschema: agentcompanies\/v1\nname: Cli Works\n/,
      );
      assert.ok(existsSync(path.join(folder, 'agents', 'boss', 'AGENTS.md')));
      assert.ok(
        !(await readFile(path.join(folder, 'agents', 'boss', 'AGENTS.md'), 'utf8')).includes('plain-token-value'),
      );

      const zip = path.join(dataDir, 'out', 'cli-works.zip');
      const zipped = await runCli(['company', 'export', company.id, '--out', zip, '--data-dir', dataDir], env);
      assert.equal(zipped.code, 0, zipped.stderr);
      const entries = readZip(await readFile(zip), { maxEntries: 100, maxEntryBytes: 1e6, maxTotalBytes: 1e7 });
      assert.ok(entries.some((e) => e.name === 'cli-works/COMPANY.md'));
      assert.ok(entries.some((e) => e.name.startsWith('cli-works/blobs/') && e.data.toString() === 'attached bytes'));

      await client.connect();
      const companies = async () => Number((await client.query('select count(*) from companies')).rows[0].count);
      const before = await companies();
      const dry = await runCli(['company', 'import', zip, '--dry-run', '--data-dir', dataDir], env);
      assert.equal(dry.code, 0, dry.stderr);
      const plan = JSON.parse(dry.stdout);
      assert.equal(plan.plan.companyAction, 'create');
      assert.deepEqual(
        plan.plan.issuePlans.map((p: any) => p.action),
        ['create', 'create'],
      );
      assert.equal(await companies(), before, 'a dry run creates nothing');

      const fromZip = await runCli(
        [
          'company',
          'import',
          zip,
          '--name',
          'Cli Works Copy',
          '--secret',
          'API_TOKEN=new-token',
          '--data-dir',
          dataDir,
        ],
        env,
      );
      assert.equal(fromZip.code, 0, fromZip.stderr);
      const created = JSON.parse(fromZip.stdout);
      assert.equal(created.company.name, 'Cli Works Copy');
      assert.equal(
        (await client.query('select status from agents where company_id = $1', [created.company.id])).rows[0].status,
        'paused',
      );
      assert.equal(
        Number(
          (await client.query('select count(*) from issue_attachments where company_id = $1', [created.company.id]))
            .rows[0].count,
        ),
        1,
      );

      const into = await runCli(
        ['company', 'import', folder, '--into', created.company.id, '--strategy', 'skip', '--data-dir', dataDir],
        env,
      );
      assert.equal(into.code, 0, into.stderr);
      const skipped = JSON.parse(into.stdout);
      assert.deepEqual(
        [...skipped.agents, ...skipped.issues].map((e: any) => e.action),
        ['skip', 'skip', 'skip'],
      );

      // Refusals: a future schema, a bad strategy, a missing source, a ZIP bomb, a zip of more files
      // than a bundle holds, a `../` path in a zip; nothing is created.
      const future = path.join(dataDir, 'future');
      await mkdir(future, { recursive: true });
      await writeFile(path.join(future, 'COMPANY.md'), '---\nschema: agentcompanies/v9\nname: Later\n---\n');
      const bomb = path.join(dataDir, 'bomb.zip');
      await writeFile(bomb, zipSync({ 'bomb/zeros.txt': [new Uint8Array(32 * 1024 * 1024), { level: 9 }] }));
      const crowded = path.join(dataDir, 'crowded.zip');
      await writeFile(
        crowded,
        zipSync(Object.fromEntries(Array.from({ length: 5001 }, (_, n) => [`crowd/${n}.md`, new Uint8Array(0)]))),
      );
      const escaping = path.join(dataDir, 'escaping.zip');
      await writeFile(
        escaping,
        zipSync({ 'COMPANY.md': Buffer.from('---\nname: Evil\n---\n'), '../outside.md': Buffer.from('no') }),
      );
      const count = await companies();
      for (const [args, message] of [
        [[future], /agentcompanies\/v9/],
        [[folder, '--strategy', 'merge'], /--strategy must be one of rename, skip, replace/],
        [[path.join(dataDir, 'nothing-here')], /does not exist/],
        [[bomb], /bomb\.zip: bomb\/zeros\.txt is 33554432 bytes; at most 10485760/],
        [[crowded], /crowded\.zip: the archive has more than 5000 entries/],
        [[escaping], /bundle path "\.\.\/outside\.md" is not a relative path inside the bundle/],
      ] as const) {
        const res = await runCli(['company', 'import', ...args, '--data-dir', dataDir], env);
        assert.equal(res.code, 1, res.stdout);
        assert.match(res.stderr, message);
      }
      assert.equal(await companies(), count);
    } finally {
      await client.end().catch(() => undefined);
      server.child.kill('SIGKILL');
    }
  });
});
