// The adapter registry routes (SPEC "Adapters", issue 10 section 2): an external package installed
// from a local path through the API, run by an agent on the real engine, configured, overridden,
// reloaded, reinstalled and deleted; broken packages refused with nothing left behind.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { BUILTIN_ADAPTER_MODULES } from '../src/adapters/registry.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { newAgent } from './helpers/factories.ts';
import { waitFor } from './helpers/wait.ts';

const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'adapter-package');
const TYPE = 'fixture_echo';

let t: TestApp;
let owner: string;
let companyId: string;
let scratch: string;

before(async () => {
  t = await startTestApp({ engine: { pollMs: 200, reaperIntervalMs: 200, leaseSec: 3 } });
  owner = t.ownerToken;
  companyId = (await t.newCompany(owner)).company.id;
  scratch = await mkdtemp(path.join(os.tmpdir(), 'boardroom-adapter-src-'));
});
after(async () => {
  await t.close();
  await rm(scratch, { recursive: true, force: true });
});

const sql = async (text: string, params: unknown[] = []) => (await t.database.pool.query(text, params)).rows;
const install = (body: Record<string, unknown>, token = owner) =>
  t.request('POST', '/api/adapters/install', { token, body });
const list = async () => {
  const res = await t.request('GET', '/api/adapters', { token: owner });
  assert.equal(res.status, 200);
  return res.body as any[];
};
const adaptersDir = () => path.join(t.config.dataDir, 'adapters');
const dirEntries = async () => readdir(adaptersDir()).catch(() => [] as string[]);

/** A package directory under the scratch folder with the given files. */
async function writePackage(name: string, files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(scratch, `${name}-`));
  for (const [file, content] of Object.entries(files)) await writeFile(path.join(dir, file), content);
  return dir;
}
const manifest = (name: string) => JSON.stringify({ name, version: '0.0.1', type: 'module', main: 'index.js' });
const adapterSource = (type: string, extra: string) => `export function createServerAdapter() {
  return { type: '${type}', label: '${type}', models: [], agentConfigurationDoc: '', async execute() { return { status: 'succeeded', exitCode: 0, signal: null, error: null }; }, ${extra} };
}`;

/** Wakes a new agent of `adapterType` and waits for its run to end. */
async function runAgent(adapterType: string, adapterConfig: Record<string, unknown> = {}) {
  const { agent } = await newAgent(t, owner, companyId, { adapterType, adapterConfig });
  const wake = await t.request('POST', `/api/agents/${agent.id}/wakeup`, {
    token: owner,
    body: { reason: 'adapter test' },
  });
  assert.equal(wake.status, 202, JSON.stringify(wake.body));
  return waitFor(
    'the run to end',
    async () =>
      (
        await sql("select * from heartbeat_runs where agent_id = $1 and status not in ('queued', 'running')", [
          agent.id,
        ])
      )[0],
  );
}

/** Every route that names an adapter type, called with a type that is neither built in nor installed. */
const UNKNOWN_TYPE_CALLS = [
  ['GET', '/api/adapters/nope/config-schema'],
  ['GET', '/api/adapters/nope/ui-parser.js'],
  ['PATCH', '/api/adapters/nope', { config: {} }],
  ['PATCH', '/api/adapters/nope/override', { disabled: true }],
  ['POST', '/api/adapters/nope/reload'],
  ['POST', '/api/adapters/nope/reinstall'],
  ['DELETE', '/api/adapters/nope'],
] as const;

describe('adapter registry: access', () => {
  it('is board only: 401 without credentials, 403 for an agent, mutations for the instance owner only', async () => {
    assert.equal((await t.request('GET', '/api/adapters')).status, 401);
    const { token: agentToken } = await newAgent(t, owner, companyId);
    for (const [method, url] of [
      ['GET', '/api/adapters'],
      ['GET', '/api/adapters/process/config-schema'],
      ['POST', '/api/adapters/process/reload'],
      ['DELETE', `/api/adapters/${TYPE}`],
    ] as const) {
      assert.equal((await t.request(method, url, { token: agentToken })).status, 403, `${method} ${url}`);
    }
    assert.equal((await install({ packageName: FIXTURE }, agentToken)).status, 403);
    const member = (await t.newCompany()).token;
    assert.equal((await t.request('GET', '/api/adapters', { token: member })).status, 200);
    const refused = await install({ packageName: FIXTURE }, member);
    assert.equal(refused.status, 403);
    assert.match(refused.body.error, /instance owner/);
    assert.equal((await sql('select count(*)::int as n from adapter_installs'))[0].n, 0);
  });

  it('lists the built-ins with their environment, and refuses to delete one or install over one (409)', async () => {
    const adapters = await list();
    for (const type of ['process', 'http']) {
      const entry = adapters.find((a) => a.type === type);
      assert.ok(entry, `${type} listed`);
      assert.equal(entry.builtin, true);
      assert.equal(entry.source.kind, 'builtin');
      assert.equal(entry.status.enabled, true);
      assert.equal(typeof entry.environment.ok, 'boolean');
    }
    const del = await t.request('DELETE', '/api/adapters/process', { token: owner });
    assert.equal(del.status, 409);
    assert.match(del.body.error, /built in/);
    const over = await install({
      packageName: await writePackage('over', {
        'package.json': manifest('over'),
        'index.js': adapterSource('process', 'async testEnvironment() { return { ok: true, checks: [] }; }'),
      }),
    });
    assert.equal(over.status, 409);
    assert.match(over.body.error, /built in/);
    assert.deepEqual(await dirEntries(), []);
    assert.equal((await t.request('POST', '/api/adapters/http/reload', { token: owner })).status, 409);
    assert.equal((await t.request('GET', '/api/adapters/process/ui-parser.js', { token: owner })).status, 404);
    assert.deepEqual((await t.request('GET', '/api/adapters/process/config-schema', { token: owner })).body.required, [
      'command',
    ]);
  });

  it('answers 404 for a type that is neither built in nor installed', async () => {
    for (const [method, url, body] of UNKNOWN_TYPE_CALLS) {
      assert.equal((await t.request(method, url, { token: owner, body })).status, 404, `${method} ${url}`);
    }
    assert.equal((await sql('select count(*)::int as n from adapter_installs')).length, 1);
    assert.equal((await sql('select count(*)::int as n from adapter_installs'))[0].n, 0);
  });

  // An install can take minutes (npm, a large copy, a slow import): it must not hold the reads and
  // the refusals of other requests. The install below stays in its import until the test writes the
  // hold file, which it does only after every other request answered: a request that waited for the
  // install would never answer (it is bounded here, so that shows as a failure, not a hang). How fast
  // they answer meanwhile is a figure of `npm run bench` (bench/adapters.ts).
  it('answers 404 for an unknown type, and the list, while an install is held in its import', async () => {
    const hold = path.join(scratch, `hold-${Date.now()}`);
    const importing = `${hold}.importing`;
    const dir = await writePackage('held', {
      'package.json': manifest('held'),
      'index.js': `import { existsSync, writeFileSync } from 'node:fs';
writeFileSync(${JSON.stringify(importing)}, '');
while (!existsSync(${JSON.stringify(hold)})) await new Promise((r) => setTimeout(r, 20));
${adapterSource('held_slow', 'async testEnvironment() { return { ok: true, checks: [] }; }')}`,
    });
    let installAnswered = false;
    const installing = install({ packageName: dir }).finally(() => (installAnswered = true));
    await waitFor('the install to reach the import', async () => existsSync(importing));
    const whileHeld = async (method: string, url: string, body?: unknown) => {
      const answer = t.request(method, url, { token: owner, body });
      const waited = new Promise<null>((resolve) => setTimeout(() => resolve(null), 30_000).unref());
      const res = await Promise.race([answer, waited]);
      assert.ok(res, `${method} ${url} did not answer while the install was held: it waits for the install`);
      assert.equal(installAnswered, false, `${method} ${url} answered while the install was still held`);
      return res;
    };
    try {
      for (const [method, url, body] of UNKNOWN_TYPE_CALLS)
        assert.equal((await whileHeld(method, url, body)).status, 404, `${method} ${url}`);
      assert.equal((await whileHeld('GET', '/api/adapters')).status, 200);
    } finally {
      await writeFile(hold, '');
    }
    const res = await installing;
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal((await t.request('DELETE', '/api/adapters/held_slow', { token: owner })).status, 200);
  });
});

describe('adapter registry: the config schema of each built-in', () => {
  // What each built-in's parser reads (docs/adapters.md): a field left out of the schema is a defect.
  const RUN = ['timeoutSec', 'graceSec'];
  const LOCAL = ['command', 'args', 'cwd', 'env', ...RUN];
  const CLI = [...LOCAL, 'inactivityTimeoutSec', 'model', 'billingType'];
  const FIELDS: Record<string, string[]> = {
    process: LOCAL,
    http: ['url', 'requestTimeoutSec', 'headers', ...RUN],
    claude_local: [...CLI, 'maxTurns', 'permissionMode', 'skillsDir', 'mcp'],
    codex_local: [...CLI, 'mcp'],
    gemini_local: CLI,
    opencode_local: CLI,
  };
  const schemaOf = async (type: string) => {
    const res = await t.request('GET', `/api/adapters/${type}/config-schema`, { token: owner });
    assert.equal(res.status, 200);
    return res.body;
  };

  it('is a JSON Schema naming every field the parser reads, each typed and described, with the defaults the parser applies', async () => {
    const builtins = (await list()).filter((a) => a.builtin).map((a) => a.type);
    assert.deepEqual(builtins.sort(), Object.keys(FIELDS).sort(), 'every built-in is covered');
    for (const [type, fields] of Object.entries(FIELDS)) {
      const schema = await schemaOf(type);
      assert.equal(schema.type, 'object', type);
      assert.deepEqual(Object.keys(schema.properties).sort(), [...fields].sort(), type);
      for (const [name, field] of Object.entries<any>(schema.properties)) {
        assert.ok(
          ['string', 'number', 'integer', 'boolean', 'array', 'object'].includes(field.type),
          `${type}.${name} has a type`,
        );
        assert.ok(
          typeof field.description === 'string' && field.description.length > 10,
          `${type}.${name} has a description`,
        );
      }
      assert.equal(schema.properties.timeoutSec.default, 1800, type);
      assert.equal(schema.properties.graceSec.default, 15, type);
    }
    const claude = await schemaOf('claude_local');
    assert.deepEqual(
      [
        claude.properties.command.default,
        claude.properties.inactivityTimeoutSec.default,
        claude.properties.mcp.default,
      ],
      ['claude', 300, true],
    );
    assert.equal((await schemaOf('opencode_local')).properties.command.default, 'opencode');
    assert.deepEqual((await schemaOf('http')).required, ['url']);
    assert.equal((await schemaOf('http')).properties.requestTimeoutSec.default, 15);
  });

  it('a config the schema rejects, the adapter refuses too; one it accepts, the adapter takes', async () => {
    const ajv = new Ajv2020({ strict: false });
    const adapters = new Map(
      BUILTIN_ADAPTER_MODULES.map((m) => [m.createServerAdapter().type, m.createServerAdapter()]),
    );
    const spots: [string, Record<string, unknown>, boolean][] = [
      ['process', { command: 'node', args: ['-e', '1'], timeoutSec: 60 }, true],
      ['process', { command: '' }, false],
      ['process', { args: ['x'] }, false],
      ['process', { command: 'node', timeoutSec: 0 }, false],
      ['http', { url: 'http://127.0.0.1:9/hook', requestTimeoutSec: 30, headers: { 'X-Route': 'blue' } }, true],
      ['http', { url: 'http://127.0.0.1:9/hook', requestTimeoutSec: 301 }, false],
      ['http', { url: 'http://127.0.0.1:9/hook', headers: { 'bad header': 'x' } }, false],
      [
        'claude_local',
        {
          command: 'no-such-claude-boardroom',
          maxTurns: 30,
          permissionMode: 'acceptEdits',
          inactivityTimeoutSec: 0,
          mcp: false,
        },
        true,
      ],
      ['claude_local', { maxTurns: 1.5 }, false],
      ['claude_local', { permissionMode: 'rm -rf' }, false],
      ['codex_local', { command: 'no-such-codex-boardroom', inactivityTimeoutSec: -1 }, false],
      ['codex_local', { command: 'no-such-codex-boardroom', mcp: 'no' }, false],
      ['gemini_local', { command: 'no-such-gemini-boardroom', billingType: 'free' }, false],
      [
        'gemini_local',
        { command: 'no-such-gemini-boardroom', billingType: 'subscription_included', model: 'gemini-2.5-pro' },
        true,
      ],
      ['opencode_local', { command: 'no-such-opencode-boardroom', args: [1] }, false],
      ['opencode_local', { command: 'no-such-opencode-boardroom', inactivityTimeoutSec: 2.5 }, false],
    ];
    const validators = new Map<string, ReturnType<typeof ajv.compile>>();
    for (const [type, config, valid] of spots) {
      if (!validators.has(type)) validators.set(type, ajv.compile(await schemaOf(type)));
      assert.equal(
        validators.get(type)!(config),
        valid,
        `${type} ${JSON.stringify(config)}: the schema says ${!valid ? 'valid' : 'invalid'}`,
      );
      const check = await adapters.get(type)!.testEnvironment(config);
      assert.deepEqual(
        [check.checks[0]!.name, check.checks[0]!.ok],
        ['config', valid],
        `${type} ${JSON.stringify(config)}: the adapter says ${JSON.stringify(check.checks[0])}`,
      );
    }
  });
});

describe('adapter registry: broken packages', () => {
  it('refuses each with a 4xx and its reason, leaving nothing in the data directory or the table', async () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      [
        'no factory',
        {
          packageName: await writePackage('nofactory', {
            'package.json': manifest('nofactory'),
            'index.js': 'export const x = 1;',
          }),
        },
        /createServerAdapter/,
      ],
      [
        'invalid shape',
        {
          packageName: await writePackage('shape', {
            'package.json': manifest('shape'),
            'index.js':
              'export function createServerAdapter() { return { type: "shape_bad", models: [], agentConfigurationDoc: "" }; }',
          }),
        },
        /execute\(\), testEnvironment\(\)/,
      ],
      [
        'syntax error',
        {
          packageName: await writePackage('syntax', {
            'package.json': manifest('syntax'),
            'index.js': 'export function (',
          }),
        },
        /could not import/,
      ],
      [
        'factory throws',
        {
          packageName: await writePackage('throws', {
            'package.json': manifest('throws'),
            'index.js': 'export function createServerAdapter() { throw new Error("boom"); }',
          }),
        },
        /boom/,
      ],
      [
        'no package.json',
        { packageName: await writePackage('nomanifest', { 'index.js': adapterSource('nomanifest', '') }) },
        /package\.json/,
      ],
      [
        'entry escapes',
        {
          packageName: await writePackage('escape', {
            'package.json': JSON.stringify({ name: 'escape', main: '../../etc/passwd' }),
          }),
        },
        /outside the package/,
      ],
      ['missing path', { packageName: path.join(scratch, 'does-not-exist') }, /not a directory/],
      ['relative path', { packageName: './fixtures/adapter-package', isLocalPath: true }, /absolute/],
      ['bad npm name', { packageName: '--registry=http://evil' }, /not a valid npm package name/],
    ];
    for (const [what, body, reason] of cases) {
      const res = await install(body);
      assert.ok(res.status === 400 || res.status === 422, `${what}: ${res.status} ${JSON.stringify(res.body)}`);
      assert.match(res.body.error, reason, what);
      assert.deepEqual(await dirEntries(), [], `${what}: nothing left in the data directory`);
    }
    assert.equal((await sql('select count(*)::int as n from adapter_installs'))[0].n, 0);
    assert.ok(!(await list()).some((a) => !a.builtin));
  });

  it('reports a testEnvironment() that throws or hangs as failed, without failing the list', async () => {
    const hang = await install({
      packageName: await writePackage('hang', {
        'package.json': manifest('hang'),
        'index.js': adapterSource('fixture_hang', 'testEnvironment() { return new Promise(() => {}); }'),
      }),
    });
    assert.equal(hang.status, 201, JSON.stringify(hang.body));
    const thrower = await install({
      packageName: await writePackage('throw', {
        'package.json': manifest('throw'),
        'index.js': adapterSource('fixture_throw', 'testEnvironment() { throw new Error("no credentials"); }'),
      }),
    });
    assert.equal(thrower.status, 201, JSON.stringify(thrower.body));
    // The list answers: the hung check was given up at its bound, which its detail names.
    const adapters = await list();
    const hung = adapters.find((a) => a.type === 'fixture_hang');
    assert.equal(hung.environment.ok, false);
    assert.match(hung.environment.checks[0].detail, /no answer within 5000 ms/);
    const threw = adapters.find((a) => a.type === 'fixture_throw');
    assert.equal(threw.environment.ok, false);
    assert.match(threw.environment.checks[0].detail, /no credentials/);
    for (const type of ['fixture_hang', 'fixture_throw'])
      assert.equal((await t.request('DELETE', `/api/adapters/${type}`, { token: owner })).status, 200);
    assert.deepEqual(await dirEntries(), []);
  });
});

describe('adapter registry: an external package from a local path', () => {
  let installDir: string;

  it('installs through the route, validated, copied under the data directory, recorded and listed', async () => {
    const res = await install({ packageName: FIXTURE });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.type, TYPE);
    assert.equal(res.body.label, 'Echo fixture');
    assert.deepEqual(res.body.models, [{ id: 'echo-1', label: 'Echo 1' }]);
    assert.equal(res.body.builtin, false);
    assert.deepEqual(res.body.source, {
      kind: 'local',
      packageName: 'boardroom-adapter-fixture-echo',
      version: '1.2.3',
      localPath: FIXTURE,
    });
    assert.deepEqual(res.body.status, { enabled: true, disabled: false, pinnedVersion: null, overridden: false });
    assert.equal(res.body.hasUiParser, true);
    assert.deepEqual(res.body.environment, {
      ok: true,
      checks: [{ name: 'config', ok: true, detail: 'greeting=(none)' }],
    });
    const [row] = await sql('select * from adapter_installs where type = $1', [TYPE]);
    installDir = row.install_dir;
    assert.equal(installDir, path.join(adaptersDir(), TYPE));
    assert.equal(row.local_path, FIXTURE);
    assert.ok((await stat(path.join(installDir, 'index.js'))).isFile());
    assert.deepEqual(await dirEntries(), [TYPE]);
    assert.ok((await list()).some((a) => a.type === TYPE && a.status.enabled));
    const again = await install({ packageName: FIXTURE });
    assert.equal(again.status, 409);
    assert.match(again.body.error, /already installed/);
  });

  it('runs an agent of that type on the engine', async () => {
    const run = await runAgent(TYPE, { greeting: 'hi there' });
    assert.equal(run.status, 'succeeded', run.error);
    assert.equal(run.result_json.summary, 'echoed hi there');
    const log = await t.request('GET', `/api/heartbeat-runs/${run.id}/log`, { token: owner });
    assert.match(log.body.content, /fixture adapter ran: hi there/);
  });

  it('persists the instance config (redacted in the list), passes it to testEnvironment, and serves config schema and UI parser', async () => {
    const res = await t.request('PATCH', `/api/adapters/${TYPE}`, {
      token: owner,
      body: { config: { greeting: 'bonjour', apiKey: 'sk-live-123' } },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.config, { greeting: 'bonjour', apiKey: '[redacted]' });
    assert.equal(res.body.environment.checks[0].detail, 'greeting=bonjour');
    assert.deepEqual((await sql('select config from adapter_installs where type = $1', [TYPE]))[0].config, {
      greeting: 'bonjour',
      apiKey: 'sk-live-123',
    });
    // The board's form saves what it was shown: a `[redacted]` keeps the stored secret; a new value replaces it.
    const resaved = await t.request('PATCH', `/api/adapters/${TYPE}`, {
      token: owner,
      body: { config: { greeting: 'salut', apiKey: '[redacted]', nested: { token: '[redacted]' } } },
    });
    assert.equal(resaved.status, 200, JSON.stringify(resaved.body));
    assert.deepEqual((await sql('select config from adapter_installs where type = $1', [TYPE]))[0].config, {
      greeting: 'salut',
      apiKey: 'sk-live-123',
      nested: { token: '[redacted]' },
    });
    await t.request('PATCH', `/api/adapters/${TYPE}`, {
      token: owner,
      body: { config: { greeting: 'bonjour', apiKey: 'sk-live-456' } },
    });
    assert.deepEqual((await sql('select config from adapter_installs where type = $1', [TYPE]))[0].config, {
      greeting: 'bonjour',
      apiKey: 'sk-live-456',
    });
    assert.equal(
      (await t.request('PATCH', `/api/adapters/${TYPE}`, { token: owner, body: { config: 'nope' } })).status,
      400,
    );
    assert.equal(
      (
        await t.request('PATCH', `/api/adapters/${TYPE}`, {
          token: owner,
          body: { config: { big: 'x'.repeat(70_000) } },
        })
      ).status,
      400,
    );

    const schema = await t.request('GET', `/api/adapters/${TYPE}/config-schema`, { token: owner });
    assert.equal(schema.status, 200);
    assert.equal(schema.body.properties.greeting.type, 'string');
    const parser = await t.request('GET', `/api/adapters/${TYPE}/ui-parser.js`, { token: owner });
    assert.equal(parser.status, 200);
    assert.match(String(parser.headers['content-type']), /^application\/javascript/);
    assert.equal(parser.body, await readFile(path.join(FIXTURE, 'ui-parser.js'), 'utf8'));

    // A built-in's config is persisted the same way.
    const builtin = await t.request('PATCH', '/api/adapters/process', {
      token: owner,
      body: { config: { note: 'instance default' } },
    });
    assert.equal(builtin.status, 200);
    assert.deepEqual(builtin.body.config, { note: 'instance default' });
    assert.equal(builtin.body.builtin, true);
  });

  it('force-disable: runs of agents of that type fail clearly; enabling again lets them run', async () => {
    const res = await t.request('PATCH', `/api/adapters/${TYPE}/override`, { token: owner, body: { disabled: true } });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.status, { enabled: false, disabled: true, pinnedVersion: null, overridden: true });
    assert.deepEqual((await sql('select override from adapter_installs where type = $1', [TYPE]))[0].override, {
      disabled: true,
    });
    const failed = await runAgent(TYPE);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.error, `adapter type ${TYPE} is disabled`);
    assert.equal(
      (await t.request('PATCH', `/api/adapters/${TYPE}/override`, { token: owner, body: { disabled: false } })).status,
      200,
    );
    assert.equal((await runAgent(TYPE)).status, 'succeeded');
  });

  it('pin: a reinstall that yields another version is refused and the install stays; unpinned it reinstalls', async () => {
    const pinned = await t.request('PATCH', `/api/adapters/${TYPE}/override`, {
      token: owner,
      body: { pinnedVersion: '9.9.9' },
    });
    assert.equal(pinned.body.status.pinnedVersion, '9.9.9');
    const refused = await t.request('POST', `/api/adapters/${TYPE}/reinstall`, { token: owner });
    assert.equal(refused.status, 422);
    assert.match(refused.body.error, /pinned to version 9\.9\.9/);
    assert.deepEqual(await dirEntries(), [TYPE]);
    assert.equal((await runAgent(TYPE)).status, 'succeeded');
    assert.equal(
      (await t.request('PATCH', `/api/adapters/${TYPE}/override`, { token: owner, body: { pinnedVersion: null } })).body
        .status.overridden,
      false,
    );
  });

  it('reload evaluates the installed entry again; a broken edit is 422 and the previous registration keeps running; reinstall restores the source', async () => {
    const entry = path.join(installDir, 'index.js');
    const original = await readFile(entry, 'utf8');
    await writeFile(entry, original.replace('label: LABEL', "label: 'Echo reloaded'"));
    const reloaded = await t.request('POST', `/api/adapters/${TYPE}/reload`, { token: owner });
    assert.equal(reloaded.status, 200, JSON.stringify(reloaded.body));
    assert.equal(reloaded.body.label, 'Echo reloaded');

    await writeFile(entry, 'export function createServerAdapter() { return { type: "fixture_echo" }; }');
    const broken = await t.request('POST', `/api/adapters/${TYPE}/reload`, { token: owner });
    assert.equal(broken.status, 422);
    assert.match(broken.body.error, /execute\(\)/);
    assert.equal((await list()).find((a) => a.type === TYPE).label, 'Echo reloaded');
    assert.equal((await runAgent(TYPE)).status, 'succeeded');

    const reinstalled = await t.request('POST', `/api/adapters/${TYPE}/reinstall`, { token: owner });
    assert.equal(reinstalled.status, 200, JSON.stringify(reinstalled.body));
    assert.equal(reinstalled.body.label, 'Echo fixture');
    assert.equal(await readFile(entry, 'utf8'), original);
    assert.deepEqual(await dirEntries(), [TYPE]);
    assert.deepEqual(
      reinstalled.body.config,
      { greeting: 'bonjour', apiKey: '[redacted]' },
      'config survives a reinstall',
    );
  });

  it('is registered again when a server starts on the same database', async () => {
    const second = await startTestApp({ replicaOf: t });
    try {
      const res = await second.request('GET', '/api/adapters', { token: owner });
      const entry = res.body.find((a: any) => a.type === TYPE);
      assert.ok(entry, 'listed by the new server');
      assert.equal(entry.loaded, true);
      assert.equal(entry.label, 'Echo fixture');
    } finally {
      await second.close();
    }
  });

  it('delete removes files, record and registration; runs of that type then fail clearly', async () => {
    const res = await t.request('DELETE', `/api/adapters/${TYPE}`, { token: owner });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { ok: true, type: TYPE });
    assert.deepEqual(await dirEntries(), []);
    assert.equal((await sql('select count(*)::int as n from adapter_installs where type = $1', [TYPE]))[0].n, 0);
    assert.ok(!(await list()).some((a) => a.type === TYPE));
    const failed = await runAgent(TYPE);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.error, `adapter type ${TYPE} is not installed on this server`);
    assert.equal((await t.request('DELETE', `/api/adapters/${TYPE}`, { token: owner })).status, 404);
    assert.equal((await t.request('POST', `/api/adapters/${TYPE}/reload`, { token: owner })).status, 404);
  });
});

describe('the registry contract check', () => {
  it('keeps the methods of an adapter built as a class instance, with a default label', async () => {
    const { createAdapterRegistry } = await import('../src/adapters/registry.ts');
    class ClassAdapter {
      type = 'class_made';
      models = [];
      agentConfigurationDoc = 'none';
      async execute() {
        return { status: 'succeeded' as const, exitCode: 0, signal: null, error: null };
      }
      async testEnvironment() {
        return { ok: true, checks: [] };
      }
    }
    const registry = createAdapterRegistry([]);
    registry.register({ createServerAdapter: () => new ClassAdapter() as never });
    const adapter = registry.get('class_made')!;
    assert.equal(adapter.label, 'class_made');
    assert.equal(typeof adapter.execute, 'function');
    assert.deepEqual(await adapter.testEnvironment({}), { ok: true, checks: [] });
  });
});
