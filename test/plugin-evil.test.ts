// Issue 27 section 7: the test-only `evil` plugin attacks its host from inside its worker, through
// the same `invoke` every surface uses, in the strongest sandbox this machine offers (bubblewrap,
// which `npm test` installs; a user id of its own as root; plain otherwise), and again as a user id
// of its own where the server is root. Each attack must fail or be contained: its environment is the
// allowlist; the data directory's keys, the database's password and files, the server's /proc and
// the database's port and socket are out of reach; a busy loop, a 100 MB line, a flood of host
// calls, an out-of-memory (in V8's heap or outside it) and a fork bomb each end with the worker killed, restarted or refused,
// while the server keeps answering its issue list over real HTTP.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import { pluginWorkersOf } from '../src/modules/plugins/routes.ts';
import { BridgeError } from '../src/modules/plugins/worker/errors.ts';
import { type Invocation, PluginWorkers } from '../src/modules/plugins/worker/host.ts';
import {
  availableSandbox,
  processesOf,
  type SandboxKind,
  WORKER_ENV_KEYS,
} from '../src/modules/plugins/worker/sandbox.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { waitFor } from './helpers/wait.ts';

const EVIL = path.resolve(import.meta.dirname, 'fixtures/plugins/evil');
/** How long the server may take to answer its issue list while an attack runs (a loaded 2-core CI machine). */
const ANSWER_BOUND_MS = 20_000;
const STRONGEST = availableSandbox();
const IS_ROOT = process.getuid?.() === 0;

let t: TestApp;
let companyId: string;
let evil: string;
/** Every secret a worker must never see, by what it is. */
const secrets = new Map<string, string>();
/** Files and sockets it must not reach. */
let keyFiles: string[];
let databaseFiles: string[];
let databasePort: number;
let databaseSocket: string | null;

before(async () => {
  t = await startTestApp({ listen: true });
  companyId = (await t.newCompany(t.ownerToken)).company.id;
  for (let i = 0; i < 20; i++) {
    const res = await t.request('POST', `/api/companies/${companyId}/issues`, {
      token: t.ownerToken,
      body: { title: `Issue ${i}` },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
  }
  const installed = await t.request('POST', '/api/plugins/install', {
    token: t.ownerToken,
    body: { packageName: EVIL, isLocalPath: true },
  });
  assert.equal(installed.status, 201, JSON.stringify(installed.body));
  evil = installed.body.id;
  const consent = await t.request('POST', `/api/companies/${companyId}/plugins/${evil}/enable`, {
    token: t.ownerToken,
    body: { capabilities: installed.body.manifest.capabilities },
  });
  assert.equal(consent.status, 200, JSON.stringify(consent.body));

  // The key files as `boardroom run` keeps them (src/core/config.ts): <dataDir>/secrets, 0600.
  const secretsDir = path.join(t.config.dataDir, 'secrets');
  await mkdir(secretsDir, { recursive: true, mode: 0o700 });
  keyFiles = [];
  for (const name of ['master.key', 'jwt.key']) {
    const value = randomBytes(32).toString('base64');
    secrets.set(name, value);
    keyFiles.push(path.join(secretsDir, name));
    await writeFile(path.join(secretsDir, name), value, { mode: 0o600 });
  }
  // The database the server uses: the test runner's embedded cluster, whose password file and
  // files sit under its own data directory (src/db/embedded.ts), with a socket in its folder.
  const url = new URL(t.databaseUrl);
  secrets.set('database password', decodeURIComponent(url.password));
  databasePort = Number(url.port);
  databaseSocket = url.searchParams.get('host');
  const pgDir = databaseSocket ?? null;
  databaseFiles = pgDir
    ? [
        path.join(path.dirname(pgDir), 'secrets', 'db.password'),
        path.join(pgDir, 'PG_VERSION'),
        path.join(pgDir, 'postgresql.conf'),
      ]
    : [];
});
after(async () => {
  await t.close();
});
afterEach(async () => {
  // A fresh slot for each attack: the crashes of one never add up to the next one's `error`.
  await pluginWorkersOf(t.app).stopWorker(evil, companyId);
});

const attackOf =
  (workers: PluginWorkers) =>
  (attack: string, input: Record<string, unknown> = {}, timeoutMs?: number): Promise<any> => {
    const invocation: Invocation = { kind: 'tool', key: 'attack', input: { attack, ...input }, cause: null };
    if (timeoutMs) invocation.timeoutMs = timeoutMs;
    return workers.invoke(evil, companyId, invocation);
  };
const attack = (name: string, input?: Record<string, unknown>, timeoutMs?: number) =>
  attackOf(pluginWorkersOf(t.app))(name, input, timeoutMs);

/** The server's issue list over real HTTP, with how long it took; fails past the bound. */
async function issueList(): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(`${t.baseUrl}/api/companies/${companyId}/issues`, {
    headers: { authorization: `Bearer ${t.ownerToken}` },
    signal: AbortSignal.timeout(ANSWER_BOUND_MS),
  });
  assert.equal(res.status, 200);
  assert.equal(((await res.json()) as unknown[]).length, 20);
  return performance.now() - t0;
}

/**
 * Runs an attack while asking the server for its issue list, one request after another, until the
 * attack has settled and `until` holds (the containment is done): every answer must come within the
 * bound. The attack's outcome, settled.
 */
async function whileServerAnswers<T>(
  run: Promise<T>,
  until: () => boolean | Promise<boolean> = () => true,
): Promise<PromiseSettledResult<T>> {
  let outcome: PromiseSettledResult<T> | null = null;
  void run.then(
    (value) => {
      outcome = { status: 'fulfilled', value };
    },
    (reason) => {
      outcome = { status: 'rejected', reason };
    },
  );
  const times: number[] = [];
  const deadline = Date.now() + 120_000;
  while (outcome === null || !(await until()) || times.length < 3) {
    times.push(await issueList());
    if (Date.now() > deadline) assert.fail('the attack was not contained within 2 minutes');
  }
  console.log(`# issue list while attacked: ${times.length} answers, slowest ${Math.max(...times).toFixed(0)} ms`);
  return outcome as PromiseSettledResult<T>;
}

function rejectedWith(outcome: PromiseSettledResult<unknown>, code: string): BridgeError {
  assert.equal(outcome.status, 'rejected', `expected ${code}, got ${JSON.stringify(outcome)}`);
  const err = (outcome as PromiseRejectedResult).reason;
  assert.ok(err instanceof BridgeError, String(err));
  assert.equal(err.code, code, err.message);
  return err;
}

const state = () => pluginWorkersOf(t.app).state(evil, companyId);
const restarted = () => (state()?.restarts ?? 0) >= 1 && state()?.status === 'running';

function assertNoSecret(text: string, where: string): void {
  for (const [name, value] of secrets) assert.ok(!text.includes(value), `${where} exposed the ${name}`);
}

describe(`the evil plugin (${STRONGEST})`, () => {
  it('its environment is exactly the allowlist, and holds no secret', async () => {
    const env = await attack('env');
    assert.deepEqual(env.keys, [...WORKER_ENV_KEYS].sort());
    assertNoSecret(JSON.stringify(env.env), 'the environment');
    if (IS_ROOT && STRONGEST !== 'none') assert.ok(env.uid >= 1_000_000_000, `runs as uid ${env.uid}`);
  });

  it('cannot read the key files, the database password and files, or the server’s /proc', {
    skip: STRONGEST === 'none',
  }, async () => {
    assert.ok(databaseFiles.length > 0, 'the test database has a socket folder (embedded PostgreSQL)');
    for (const file of [...keyFiles, ...databaseFiles, t.config.dataDir, `/proc/${process.pid}/environ`]) {
      const read = await attack('read', { path: file });
      assert.equal(read.read, false, `${file} was readable`);
    }
    // The command line is world-readable outside a pid namespace: it must hold no secret, and under
    // bubblewrap the server's process does not exist at all.
    const cmdline = await attack('read', { path: `/proc/${process.pid}/cmdline` });
    if (STRONGEST === 'bwrap') assert.equal(cmdline.read, false);
    if (cmdline.read) assertNoSecret(cmdline.text, 'the server’s command line');
  });

  it('cannot connect to the database: not its unix socket, and not its TCP port under bubblewrap', {
    skip: STRONGEST === 'none',
  }, async () => {
    assert.ok(databaseSocket, 'the test database listens on a unix socket');
    const unix = await attack('unix', { path: path.join(databaseSocket, `.s.PGSQL.${databasePort}`) });
    assert.equal(unix.connected, false, JSON.stringify(unix));
    const tcp = await attack('tcp', { host: '127.0.0.1', port: databasePort });
    // Without bubblewrap's network namespace, loopback stays reachable (the password is still needed).
    if (STRONGEST === 'bwrap') assert.equal(tcp.connected, false, JSON.stringify(tcp));
    else console.log(`# ${STRONGEST}: TCP to the database port ${tcp.connected ? 'connects' : 'fails'}`);
  });

  it('a busy loop: TIMEOUT at its deadline, then killed after cancel and restarted; the server answers', async () => {
    await attack('env');
    const outcome = await whileServerAnswers(attack('spin', {}, 2_000), restarted);
    rejectedWith(outcome, 'TIMEOUT');
    assert.match(state()?.lastError ?? '', /did not answer after cancel/);
    assert.deepEqual((await attack('env')).keys, [...WORKER_ENV_KEYS].sort());
  });

  it('a 100 MB line on stdout: killed at the first MiB and restarted; the server answers', async () => {
    const outcome = await whileServerAnswers(attack('huge-line'), restarted);
    rejectedWith(outcome, 'WORKER_UNAVAILABLE');
    assert.match(state()?.lastError ?? '', /a line over 1048576 bytes/);
  });

  it('a flood of 1,000 host log calls: all answered, the log stays bounded; the server answers', async () => {
    const outcome = await whileServerAnswers(attack('flood'));
    assert.equal(outcome.status, 'fulfilled', JSON.stringify(outcome));
    assert.deepEqual((outcome as PromiseFulfilledResult<unknown>).value, { sent: 1000, answered: 1000 });
    const lines = pluginWorkersOf(t.app).logs(evil);
    assert.ok(lines.length <= 500, `${lines.length} log lines kept`);
    assert.ok(lines.some((l) => l.source === 'log' && l.message === 'flood 999'));
    assert.equal(state()?.restarts, 0);
  });

  it('an out-of-memory: killed at its heap cap, named as such, and restarted; the server answers', async () => {
    const outcome = await whileServerAnswers(attack('oom', {}, 60_000), restarted);
    rejectedWith(outcome, 'WORKER_UNAVAILABLE');
    assert.match(state()?.lastError ?? '', /over its memory cap \(128 MiB heap\)/);
  });

  it('a fork bomb: held at the process cap; the server answers; nothing of it outlives the worker', {
    skip: !IS_ROOT || STRONGEST === 'none',
  }, async () => {
    const { uid } = await attack('env');
    const outcome = await whileServerAnswers(attack('fork-bomb'));
    assert.equal(outcome.status, 'fulfilled', JSON.stringify(outcome));
    const bomb = (outcome as PromiseFulfilledResult<any>).value;
    console.log(`# fork bomb: ${JSON.stringify(bomb)}`);
    assert.equal(bomb.ran, true, `no process cap: ${JSON.stringify(bomb)}`);
    assert.equal(bomb.cap, 64);
    // Forks were refused, and the worker's processes never went past the cap.
    assert.ok(bomb.refused > 0 && bomb.peak <= bomb.cap, JSON.stringify(bomb));
    await pluginWorkersOf(t.app).stopWorker(evil, companyId);
    await waitFor('no process of the worker left', () => processesOf(uid).length === 0);
    await issueList();
  });
});

describe('the evil plugin: the CPU and resident memory caps', () => {
  it('Buffers outside the heap: killed at its resident memory cap, named as such, and restarted', async () => {
    const workers = new PluginWorkers({
      db: t.database.db,
      dataDir: t.config.dataDir,
      limits: { rssMb: 200, rssCheckMs: 200 },
    });
    try {
      const outcome = await whileServerAnswers(
        attackOf(workers)('oom-buffer', {}, 60_000),
        () => (workers.state(evil, companyId)?.restarts ?? 0) >= 1,
      );
      rejectedWith(outcome, 'WORKER_UNAVAILABLE');
      assert.match(
        workers.state(evil, companyId)?.lastError ?? '',
        /over its memory cap \(200 MiB resident, had \d+ MiB\)/,
      );
    } finally {
      await workers.close();
    }
  });

  it('a thread spinning while the worker answers is killed at its CPU seconds, named as such, and restarted', async () => {
    const workers = new PluginWorkers({ db: t.database.db, dataDir: t.config.dataDir, limits: { cpuSeconds: 2 } });
    try {
      const spinning = await attackOf(workers)('spin-thread');
      assert.deepEqual(spinning, { spinning: true });
      const first = workers.state(evil, companyId)?.pid;
      await whileServerAnswers(Promise.resolve(), () => (workers.state(evil, companyId)?.restarts ?? 0) >= 1);
      assert.match(workers.state(evil, companyId)?.lastError ?? '', /over its CPU cap \(2 CPU seconds\)/);
      assert.ok(workers.logs(evil).some((l) => l.source === 'host' && /over its CPU cap/.test(l.message)));
      await waitFor('the restarted worker', () => workers.state(evil, companyId)?.status === 'running');
      assert.notEqual(workers.state(evil, companyId)?.pid, first);
    } finally {
      await workers.close();
    }
  });
});

// Where bubblewrap is the strongest, the fallback a machine without it gets: a user id of its own.
const FALLBACK: SandboxKind | null = IS_ROOT && STRONGEST === 'bwrap' ? 'unprivileged-user' : null;

describe('the evil plugin (unprivileged-user fallback)', { skip: FALLBACK === null }, () => {
  it('no secret in reach; a fork bomb held at the process cap and gone with the worker', async () => {
    const workers = new PluginWorkers({ db: t.database.db, dataDir: t.config.dataDir, sandbox: 'unprivileged-user' });
    try {
      const run = attackOf(workers);
      const env = await run('env');
      assert.deepEqual(env.keys, [...WORKER_ENV_KEYS].sort());
      assert.ok(env.uid >= 1_000_000_000, `runs as uid ${env.uid}`);
      for (const file of [...keyFiles, ...databaseFiles, `/proc/${process.pid}/environ`]) {
        const read = await run('read', { path: file });
        assert.equal(read.read, false, `${file} was readable`);
      }
      const cmdline = await run('read', { path: `/proc/${process.pid}/cmdline` });
      if (cmdline.read) assertNoSecret(cmdline.text, 'the server’s command line');
      assert.ok(databaseSocket);
      assert.equal(
        (await run('unix', { path: path.join(databaseSocket, `.s.PGSQL.${databasePort}`) })).connected,
        false,
      );

      const outcome = await whileServerAnswers(run('fork-bomb'));
      assert.equal(outcome.status, 'fulfilled', JSON.stringify(outcome));
      const bomb = (outcome as PromiseFulfilledResult<any>).value;
      console.log(`# fork bomb (unprivileged-user): ${JSON.stringify(bomb)}`);
      assert.equal(bomb.ran, true, JSON.stringify(bomb));
      // Forks were refused, and the worker's processes never went past the cap.
      assert.ok(bomb.refused > 0 && bomb.peak <= bomb.cap, JSON.stringify(bomb));
      await workers.stopWorker(evil, companyId);
      await waitFor('no process of the worker left', () => processesOf(env.uid).length === 0);
    } finally {
      await workers.close();
    }
  });
});
