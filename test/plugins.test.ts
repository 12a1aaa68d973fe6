// The plugin registry and company consent (issue 27 sections 1 and 2), through the API on a real
// database: the shipped examples install from their paths; packages are validated, stored by content
// hash and materialised from the database alone; install, upgrade and uninstall are all or nothing;
// an upgrade asking for more capabilities waits for each company's consent; only the instance owner
// manages plugins, only a company's board consents for it, agents are refused everywhere.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import { PLUGIN_EXAMPLES_DIR } from '../src/paths.ts';
import { materialisePlugin, pluginCacheDir } from '../src/modules/plugins/store.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { newAgent } from './helpers/factories.ts';

let t: TestApp;
let owner: string;
let scratch: string;
/** Company A (the owner's) and company B (another board user's). */
let companyA: string;
let companyB: string;
let boardB: string;

before(async () => {
  t = await startTestApp();
  owner = t.ownerToken;
  companyA = (await t.newCompany(owner)).company.id;
  const b = await t.newCompany();
  companyB = b.company.id;
  boardB = b.token;
  scratch = await mkdtemp(path.join(os.tmpdir(), 'boardroom-plugin-src-'));
});
after(async () => {
  await t.close();
  await rm(scratch, { recursive: true, force: true });
});

const sql = async (text: string, params: unknown[] = []) => (await t.database.pool.query(text, params)).rows;
const count = async (table: string) => (await sql(`select count(*)::int as n from ${table}`))[0].n as number;
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const install = (body: Record<string, unknown>, token = owner) =>
  t.request('POST', '/api/plugins/install', { token, body });
const upgrade = (id: string, body?: Record<string, unknown>) =>
  t.request('POST', `/api/plugins/${id}/upgrade`, { token: owner, ...(body && { body }) });
const uninstall = (id: string) => t.request('DELETE', `/api/plugins/${id}`, { token: owner });
const companyPlugins = async (companyId: string, token = owner) => {
  const res = await t.request('GET', `/api/companies/${companyId}/plugins`, { token });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body as any[];
};
const consent = (companyId: string, pluginId: string, capabilities: string[], token = owner) =>
  t.request('POST', `/api/companies/${companyId}/plugins/${pluginId}/enable`, { token, body: { capabilities } });
const stagingLeft = async () =>
  (await readdir(path.join(t.config.dataDir, 'plugins')).catch(() => [] as string[])).filter((n) =>
    n.startsWith('.staging-'),
  );

const WORKER = 'process.stdin.resume();\n';

/** A plugin package under the scratch folder: package.json, the manifest (with `change`) and `files`. */
async function writePlugin(
  id: string,
  change: Record<string, unknown> = {},
  files: Record<string, string> = { 'worker.mjs': WORKER },
  dir?: string,
): Promise<string> {
  const root = dir ?? (await mkdtemp(path.join(scratch, `${id}-`)));
  const manifest = {
    id,
    apiVersion: 1,
    version: '1.0.0',
    displayName: `Plugin ${id}`,
    description: 'a test plugin',
    engines: { boardroom: '>=0.1.0' },
    capabilities: ['issues.read'],
    worker: './worker.mjs',
    ...change,
  };
  await writeFile(
    path.join(root, 'package.json'),
    JSON.stringify({
      name: `@test/${id}`,
      version: String(manifest.version),
      boardroom: { plugin: './boardroom.plugin.json' },
    }),
  );
  await writeFile(path.join(root, 'boardroom.plugin.json'), JSON.stringify(manifest));
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), content);
  }
  return root;
}

async function installed(dir: string): Promise<any> {
  const res = await install({ packageName: dir });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

/** Every file under `dir`, relative path → sha256. */
async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    out[path.relative(dir, full)] = sha(await readFile(full));
  }
  return out;
}

describe('plugins: access', () => {
  it('is board only; changing the registry is the instance owner’s; agents are refused everywhere', async () => {
    assert.equal((await t.request('GET', '/api/plugins')).status, 401);
    const { token: agent } = await newAgent(t, owner, companyA);
    for (const [method, url] of [
      ['GET', '/api/plugins'],
      ['GET', '/api/plugins/examples'],
      ['GET', `/api/plugins/${crypto.randomUUID()}`],
      ['DELETE', `/api/plugins/${crypto.randomUUID()}`],
      ['POST', `/api/plugins/${crypto.randomUUID()}/enable`],
      ['GET', `/api/companies/${companyA}/plugins`],
      ['POST', `/api/companies/${companyA}/plugins/${crypto.randomUUID()}/disable`],
    ] as const) {
      const res = await t.request(method, url, { token: agent });
      assert.equal(res.status, 403, `${method} ${url}`);
      assert.equal(res.body.error, 'board access required');
    }
    const example = path.join(PLUGIN_EXAMPLES_DIR, 'kitchen-sink');
    assert.equal((await install({ packageName: example }, agent)).status, 403);
    assert.equal((await consent(companyA, crypto.randomUUID(), [], agent)).status, 403);
    // A board user who is not the instance owner reads, and is refused every change.
    assert.equal((await t.request('GET', '/api/plugins', { token: boardB })).status, 200);
    const refused = await install({ packageName: example }, boardB);
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error, 'only the instance owner manages plugins');
    assert.equal(await count('plugins'), 0);
  });
});

describe('plugins: the shipped examples', () => {
  it('lists each example with its path, and each installs from that path', async () => {
    const res = await t.request('GET', '/api/plugins/examples', { token: owner });
    assert.equal(res.status, 200);
    const examples = res.body as any[];
    assert.deepEqual(
      examples.map((e) => e.id),
      [
        'boardroom.budget-radar',
        'boardroom.chat-notify',
        'boardroom.inbound-hook',
        'boardroom.kitchen-sink',
        'boardroom.run-digest',
      ],
    );
    for (const example of examples) {
      assert.ok(path.isAbsolute(example.localPath) && existsSync(path.join(example.localPath, 'package.json')));
      assert.ok(example.displayName && example.description);
      const plugin = await installed(example.localPath);
      assert.equal(plugin.pluginKey, example.id);
      assert.equal(plugin.status, 'ready');
      assert.equal(plugin.lastError, null);
      assert.equal(plugin.source.localPath, example.localPath);
      assert.equal(plugin.manifest.id, example.id);
      assert.deepEqual(
        await tree(await materialisePlugin(t.database.db, t.config.dataDir, plugin.id)),
        await tree(example.localPath),
      );
      assert.equal((await uninstall(plugin.id)).status, 200);
    }
    assert.deepEqual(await stagingLeft(), []);
  });

  it('kitchen-sink declares every surface, and its worker answers initialize, health, an invoke and shutdown over JSON-RPC', async () => {
    const plugin = await installed(path.join(PLUGIN_EXAMPLES_DIR, 'kitchen-sink'));
    const m = plugin.manifest;
    assert.ok(
      m.tools.length && m.jobs.length && m.data.length && m.actions.length && m.streams.length && m.events.length,
    );
    assert.deepEqual(m.webhooks.map((w: any) => w.signing).sort(), ['hmac_sha256', 'none']);
    assert.deepEqual([...new Set(m.ui.slots.map((s: any) => s.kind))].sort(), ['blocks', 'frame']);
    // The worker runs from the cache the runtime will use, written from the database.
    const dir = await materialisePlugin(t.database.db, t.config.dataDir, plugin.id);
    const child = spawn(process.execPath, [path.join(dir, m.worker)], { stdio: ['pipe', 'pipe', 'inherit'], env: {} });
    const answers = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const call = async (id: number, method: string, params: unknown = { pluginId: plugin.id }) => {
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      const { value } = await answers.next();
      return JSON.parse(value);
    };
    assert.deepEqual((await call(1, 'initialize')).result.ok, true);
    assert.equal((await call(2, 'health')).result.status, 'ok');
    const echo = { invocationId: 'i1', kind: 'tool', key: 'echo', input: { text: 'hi' }, context: {} };
    assert.deepEqual((await call(3, 'invoke', echo)).result, { text: 'Hello: hi' });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    assert.deepEqual((await call(4, 'shutdown')).result, { ok: true });
    assert.equal(await exited, 0);
    assert.equal((await uninstall(plugin.id)).status, 200);
  });
});

describe('plugins: install', () => {
  it('a plugin key installed twice is 409 naming the installed one', async () => {
    const first = await installed(await writePlugin('acme.twice'));
    const again = await install({ packageName: await writePlugin('acme.twice', { version: '2.0.0' }) });
    assert.equal(again.status, 409);
    assert.match(again.body.error, /already installed/);
    assert.equal(again.body.details.pluginId, first.id);
    assert.equal((await sql("select version from plugins where plugin_key = 'acme.twice'"))[0].version, '1.0.0');
    assert.equal((await uninstall(first.id)).status, 200);
  });

  it('refuses a package it cannot store or run, with 422 naming why, and leaves nothing behind', async () => {
    const cases: [string, () => Promise<string>, RegExp][] = [
      [
        'no manifest pointer',
        async () => {
          const dir = await writePlugin('acme.nopointer');
          await writeFile(path.join(dir, 'package.json'), JSON.stringify({ name: 'x', version: '1.0.0' }));
          return dir;
        },
        /no `boardroom.plugin` field/,
      ],
      [
        'manifest not JSON',
        async () => {
          const dir = await writePlugin('acme.notjson');
          await writeFile(path.join(dir, 'boardroom.plugin.json'), '{ id: nope');
          return dir;
        },
        /is not valid JSON/,
      ],
      [
        'invalid manifest',
        () => writePlugin('acme.sql', { capabilities: ['sql'] }),
        /capabilities\[0\]: "sql" is never grantable/,
      ],
      [
        'missing worker',
        () => writePlugin('acme.noworker', {}, {}),
        /^worker: \.\/worker\.mjs does not exist in the package/,
      ],
      [
        '.js worker in a CommonJS package',
        () => writePlugin('acme.cjs', { worker: './worker.js' }, { 'worker.js': WORKER }),
        /worker: \.\/worker\.js is read as CommonJS/,
      ],
      [
        'a frame page that is missing',
        () =>
          writePlugin('acme.noframe', {
            capabilities: ['ui.frame'],
            ui: { slots: [{ key: 'p', slot: 'companyPage', title: 'P', kind: 'frame', entry: './ui/index.html' }] },
          }),
        /ui\.slots\[0\]\.entry: \.\/ui\/index\.html does not exist/,
      ],
      [
        'a symbolic link',
        async () => {
          const dir = await writePlugin('acme.link');
          await symlink('/etc/hostname', path.join(dir, 'host'));
          return dir;
        },
        /host is not a regular file/,
      ],
      ['a relative local path', async () => 'relative/dir', /must be absolute/],
      [
        'a folder holding the data directory',
        async () => path.dirname(t.config.dataDir),
        /contains the server's data directory/,
      ],
    ];
    for (const [name, make, says] of cases) {
      const dir = await make();
      const res = await install({ packageName: dir, isLocalPath: true });
      assert.equal(res.status, 422, `${name}: ${JSON.stringify(res.body)}`);
      assert.match(res.body.error, says, name);
    }
    const invalid = await install({ packageName: await writePlugin('acme.multi', { capabilities: ['sql', 'files'] }) });
    assert.deepEqual(
      invalid.body.details.issues.map((i: any) => i.field),
      ['capabilities[0]', 'capabilities[1]'],
    );
    assert.equal(await count('plugins'), 0);
    assert.equal(await count('plugin_blobs'), 0);
    assert.deepEqual(await stagingLeft(), []);
  });
});

describe('plugins: files in the database', () => {
  it('materialises the bytes from the database alone into an empty data dir, hash-checked and idempotent', async () => {
    const dir = await writePlugin(
      'acme.bytes',
      {},
      {
        'worker.mjs': WORKER,
        'assets/logo.bin': Buffer.from([0, 1, 2, 255, 254]).toString('latin1'),
        'README.md': '# bytes\n',
      },
    );
    const plugin = await installed(dir);
    assert.equal(plugin.files, 5);
    // Every file is a blob keyed by its hash.
    const source = await tree(dir);
    const blobs = await sql('select sha256, bytes from plugin_blobs');
    for (const blob of blobs) assert.equal(sha(blob.bytes), blob.sha256);
    assert.deepEqual(new Set(Object.values(source)), new Set(blobs.map((b) => b.sha256)));
    // The package source is gone: only the database has the bytes now.
    await rm(dir, { recursive: true, force: true });
    const emptyDataDir = await mkdtemp(path.join(scratch, 'replica-'));
    const target = await materialisePlugin(t.database.db, emptyDataDir, plugin.id);
    assert.ok(target.startsWith(pluginCacheDir(emptyDataDir, plugin.id)));
    assert.deepEqual(await tree(target), source);
    // Again: the same folder, untouched; a damaged file is written again from its blob.
    assert.equal(await materialisePlugin(t.database.db, emptyDataDir, plugin.id), target);
    await writeFile(path.join(target, 'README.md'), 'tampered');
    await rm(path.join(target, 'assets', 'logo.bin'));
    assert.equal(await materialisePlugin(t.database.db, emptyDataDir, plugin.id), target);
    assert.deepEqual(await tree(target), source);
    assert.equal((await uninstall(plugin.id)).status, 200);
    await assert.rejects(materialisePlugin(t.database.db, emptyDataDir, plugin.id), /plugin not found/);
  });

  it('uninstall removes the record, the enablements, the blobs no other plugin shares and the cache folder', async () => {
    const shared = { 'worker.mjs': WORKER, 'shared.txt': 'same bytes in both' };
    const one = await installed(await writePlugin('acme.one', {}, { ...shared, 'one.txt': 'only one' }));
    const two = await installed(await writePlugin('acme.two', {}, shared));
    assert.equal((await consent(companyA, one.id, ['issues.read'])).status, 200);
    const cache = await materialisePlugin(t.database.db, t.config.dataDir, one.id);
    assert.ok(existsSync(cache));
    const before = (await sql('select sha256 from plugin_blobs')).map((r) => r.sha256);

    assert.equal((await uninstall(one.id)).status, 200);
    assert.equal((await t.request('GET', `/api/plugins/${one.id}`, { token: owner })).status, 404);
    assert.equal((await uninstall(one.id)).status, 404);
    assert.equal(
      (await sql('select count(*)::int as n from plugin_company_enablements where plugin_id = $1', [one.id]))[0].n,
      0,
    );
    assert.ok(!existsSync(pluginCacheDir(t.config.dataDir, one.id)));
    const left = (await sql('select sha256 from plugin_blobs')).map((r) => r.sha256);
    // The files both listed stay for the other; the one only it had is gone.
    assert.deepEqual(
      new Set(left),
      new Set(Object.values(await tree(await materialisePlugin(t.database.db, t.config.dataDir, two.id)))),
    );
    // Gone: the three only it had (its package.json and manifest name it, and one.txt).
    assert.equal(before.length, left.length + 3);

    assert.equal((await uninstall(two.id)).status, 200);
    assert.equal(await count('plugin_blobs'), 0);
    assert.equal(await count('plugins'), 0);
  });
});

describe('plugins: upgrade, instance status and company consent', () => {
  it('a failed upgrade leaves the previous version and status; one that adds capabilities waits for consent', async () => {
    const dir = await writePlugin('acme.grow', {}, { 'worker.mjs': WORKER });
    const plugin = await installed(dir);
    assert.equal((await consent(companyA, plugin.id, ['issues.read'])).status, 200);
    assert.equal(
      (await t.request('POST', `/api/plugins/${plugin.id}/disable`, { token: owner })).body.status,
      'disabled',
    );
    const before = (await sql('select * from plugins where id = $1', [plugin.id]))[0];
    const blobsBefore = await count('plugin_blobs');

    // Each of these fails, and nothing changes: another plugin's package, an invalid manifest, a missing worker.
    for (const [source, says] of [
      [await writePlugin('acme.other', { version: '2.0.0' }), /is plugin acme\.other, not acme\.grow/],
      [
        await writePlugin('acme.grow', { version: '2.0.0', capabilities: ['issues.read', 'budgets.override'] }),
        /never grantable/,
      ],
      [await writePlugin('acme.grow', { version: '2.0.0' }, {}), /worker: \.\/worker\.mjs does not exist/],
    ] as const) {
      const res = await upgrade(plugin.id, { packageName: source });
      assert.equal(res.status, 422, JSON.stringify(res.body));
      assert.match(res.body.error, says);
      assert.deepEqual((await sql('select * from plugins where id = $1', [plugin.id]))[0], before);
      assert.equal(await count('plugin_blobs'), blobsBefore);
    }
    assert.equal((await companyPlugins(companyA))[0].status, 'enabled');
    assert.deepEqual(await stagingLeft(), []);

    // The recorded source, changed in place, fetched again by an empty upgrade: v2 asks for comments.write.
    await writePlugin(
      'acme.grow',
      { version: '2.0.0', capabilities: ['issues.read', 'comments.write'] },
      { 'worker.mjs': `${WORKER}// v2\n` },
      dir,
    );
    const upgraded = await upgrade(plugin.id);
    assert.equal(upgraded.status, 200, JSON.stringify(upgraded.body));
    assert.equal(upgraded.body.version, '2.0.0');
    assert.equal(upgraded.body.status, 'disabled', 'an upgrade keeps the instance status');
    // The old worker's blob went with the old version.
    assert.equal(await count('plugin_blobs'), blobsBefore);
    const cache = await materialisePlugin(t.database.db, t.config.dataDir, plugin.id);
    assert.match(await readFile(path.join(cache, 'worker.mjs'), 'utf8'), /v2/);

    const [viewA] = await companyPlugins(companyA);
    assert.equal(viewA.status, 'upgrade_pending');
    assert.deepEqual(viewA.capabilities, ['issues.read']);
    assert.deepEqual(viewA.requestedCapabilities, ['issues.read', 'comments.write']);
    const [viewB] = await companyPlugins(companyB, boardB);
    assert.equal(viewB.status, 'disabled');
    assert.deepEqual(viewB.capabilities, []);

    // Consent while the owner holds it off: 409; then explicit consent, equal to the manifest's list.
    const held = await consent(companyA, plugin.id, ['issues.read', 'comments.write']);
    assert.equal(held.status, 409);
    assert.match(held.body.error, /disabled on this instance/);
    assert.equal((await t.request('POST', `/api/plugins/${plugin.id}/enable`, { token: owner })).body.status, 'ready');
    const short = await consent(companyA, plugin.id, ['issues.read']);
    assert.equal(short.status, 422);
    assert.match(short.body.error, /missing comments\.write/);
    assert.deepEqual(short.body.details, { missing: ['comments.write'], extra: [] });
    const extra = await consent(companyA, plugin.id, ['comments.write', 'issues.read', 'agents.wake']);
    assert.equal(extra.status, 422);
    assert.match(extra.body.error, /not declared agents\.wake/);
    assert.equal((await companyPlugins(companyA))[0].status, 'upgrade_pending');
    const ok = await consent(companyA, plugin.id, ['comments.write', 'issues.read']);
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.status, 'enabled');
    assert.deepEqual(ok.body.capabilities, ['issues.read', 'comments.write']);
    assert.ok(ok.body.consentedAt);

    // An upgrade that asks for less keeps the company enabled, with its consent narrowed.
    await writePlugin('acme.grow', { version: '3.0.0', capabilities: ['comments.write'] }, {}, dir);
    assert.equal((await upgrade(plugin.id)).status, 200);
    const [narrowed] = await companyPlugins(companyA);
    assert.equal(narrowed.status, 'enabled');
    assert.deepEqual(narrowed.capabilities, ['comments.write']);

    // Off again for A: consent withdrawn, and both changes are in A's activity.
    const off = await t.request('POST', `/api/companies/${companyA}/plugins/${plugin.id}/disable`, { token: owner });
    assert.equal(off.status, 200);
    assert.equal(off.body.status, 'disabled');
    assert.deepEqual(off.body.capabilities, []);
    const actions = (
      await sql(
        "select action from activity_log where company_id = $1 and entity_type = 'plugin' and entity_id = $2 order by created_at",
        [companyA, plugin.id],
      )
    ).map((r) => r.action);
    assert.deepEqual(actions, ['plugin.enabled', 'plugin.enabled', 'plugin.disabled']);
    assert.equal((await uninstall(plugin.id)).status, 200);
  });

  it("keeps each company to its own plugins: another company's board is refused, unknown ids are 404", async () => {
    const plugin = await installed(await writePlugin('acme.bounds'));
    assert.equal((await t.request('GET', `/api/companies/${companyA}/plugins`, { token: boardB })).status, 403);
    assert.equal((await consent(companyA, plugin.id, ['issues.read'], boardB)).status, 403);
    assert.equal(
      (await t.request('POST', `/api/companies/${companyA}/plugins/${plugin.id}/disable`, { token: boardB })).status,
      403,
    );
    // B's board turns it on for B only.
    assert.equal((await consent(companyB, plugin.id, ['issues.read'], boardB)).status, 200);
    assert.equal((await companyPlugins(companyB, boardB))[0].status, 'enabled');
    assert.equal((await companyPlugins(companyA))[0].status, 'disabled');
    assert.equal(
      (await t.request('GET', `/api/companies/${crypto.randomUUID()}/plugins`, { token: owner })).status,
      404,
    );
    assert.equal((await consent(companyA, crypto.randomUUID(), [])).status, 404);
    assert.equal((await t.request('GET', `/api/plugins/${crypto.randomUUID()}`, { token: owner })).status, 404);
    assert.equal((await upgrade(crypto.randomUUID())).status, 404);
    assert.equal((await uninstall(plugin.id)).status, 200);
  });
});
