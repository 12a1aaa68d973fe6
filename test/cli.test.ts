// The CLI against an external PostgreSQL (DATABASE_URL), doctor's failures, configuration rules,
// migrations under the advisory lock; --version, help and unknown commands; board-key create on a
// data directory without an instance; db url; login-link's address; `npm start` and SIGTERM;
// dependency engines.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFile, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import pg from 'pg';
import { freePort } from '../src/db/embedded.ts';
import { migrateDatabase } from '../src/db/migrate.ts';
import { isLoopback, loadConfig } from '../src/core/config.ts';
import { availableSandbox } from '../src/modules/plugins/worker/sandbox.ts';
import {
  freshDatabase,
  isAlive,
  runCli,
  sleep,
  spawnServer,
  tempDir,
  waitForHealth,
} from './helpers/server-process.ts';
import { waitFor } from './helpers/wait.ts';

async function count(url: string, sql: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return Number((await client.query<{ n: string }>(sql)).rows[0]!.n);
  } finally {
    await client.end();
  }
}

describe('DATABASE_URL mode', () => {
  it('migrates an empty external database at start, serves, and the CLI works against it', async () => {
    const databaseUrl = await freshDatabase();
    const dataDir = await tempDir('boardroom-external-');
    const server = spawnServer(['--data-dir', dataDir, '--port', '0'], { DATABASE_URL: databaseUrl });
    try {
      const base = await server.baseUrl();
      await waitForHealth(base);
      const health = await (await fetch(`${base}/api/health`)).json();
      assert.equal(health.database.reachable, true);
      assert.equal(existsSync(path.join(dataDir, 'db')), false, 'no embedded cluster is created');
      assert.ok((await count(databaseUrl, 'select count(*) as n from drizzle.__drizzle_migrations')) >= 1);
      assert.equal(
        await count(databaseUrl, 'select count(*) as n from users where is_instance_owner'),
        1,
        'the first start creates the instance owner',
      );

      const migrate = await runCli(['db', 'migrate', '--data-dir', dataDir], { DATABASE_URL: databaseUrl });
      assert.equal(migrate.code, 0, migrate.stderr);
      const key = await runCli(['board-key', 'create', '--data-dir', dataDir, '--name', 'ops'], {
        DATABASE_URL: databaseUrl,
      });
      assert.equal(key.code, 0, key.stderr);
      const token = key.stdout.trim();
      assert.match(token, /^svc_board_/);
      const me = await fetch(`${base}/api/cli-auth/me`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(me.status, 200);
      assert.equal((await me.json()).user.isInstanceOwner, true);
      assert.equal(await count(databaseUrl, `select count(*) as n from board_api_keys where name = 'ops'`), 1);
      assert.equal(
        await count(databaseUrl, 'select count(*) as n from users where is_instance_owner'),
        1,
        'restarts and the CLI reuse the owner',
      );

      server.child.kill('SIGTERM');
      assert.equal((await server.exited).code, 0);
    } finally {
      server.child.kill('SIGKILL');
    }
  });

  it('two migrators at once on a fresh database both succeed (advisory lock)', async () => {
    const url = await freshDatabase();
    await Promise.all([migrateDatabase(url), migrateDatabase(url)]);
    const applied = await count(url, 'select count(*) as n from drizzle.__drizzle_migrations');
    assert.ok(applied >= 1);
    await migrateDatabase(url);
    assert.equal(
      await count(url, 'select count(*) as n from drizzle.__drizzle_migrations'),
      applied,
      'a third run applies nothing',
    );
  });
  it('migrating again beside a running server takes no lock its reads hold (a CLI command deadlocked once)', async () => {
    const url = await freshDatabase();
    await migrateDatabase(url);
    // A server's transaction in the middle of reading the activity log and the issues.
    const reader = new pg.Client({ connectionString: url });
    await reader.connect();
    try {
      await reader.query('begin');
      await reader.query('select count(*) from activity_log');
      await reader.query('select count(*) from issues');
      // Re-creating a trigger on those tables needs an exclusive lock: it would wait for the reader.
      const again = migrateDatabase(url).then(() => 'migrated');
      const outcome = await Promise.race([
        again,
        new Promise<string>((resolve) => setTimeout(() => resolve('still waiting for a lock after 30 s'), 30_000)),
      ]);
      assert.equal(outcome, 'migrated');
    } finally {
      await reader.query('rollback');
      await reader.end();
    }
  });
});

describe('boardroom doctor', () => {
  it('prints one line per check and exits non-zero when the data dir is unusable', async () => {
    const dir = await tempDir('boardroom-doctor-');
    const file = path.join(dir, 'not-a-directory');
    await writeFile(file, 'x');
    // A path under a regular file cannot be created, even by root.
    const res = await runCli(['doctor', '--data-dir', path.join(file, 'data'), '--port', String(await freePort(0))]);
    assert.equal(res.code, 1);
    const lines = res.stdout.trim().split('\n');
    assert.deepEqual(
      lines.map((l) => l.replace(/:.*$/, '')),
      [
        'ok   node',
        'FAIL data dir',
        'ok   config',
        'FAIL database',
        'ok   port',
        'info claude_local',
        'info codex_local',
        'info gemini_local',
        'info opencode_local',
        'info plugin sandbox',
      ],
    );
    // The plugin workers' sandbox on this machine, why, and their caps (docs/plugins.md, "Containment").
    assert.match(
      res.stdout,
      new RegExp(`^info plugin sandbox: ${availableSandbox()}: .+; caps: heap 128 MiB, nice 10, 300 CPU seconds`, 'm'),
    );
  });

  it('creates nothing on a data directory that does not exist (a typo), says no instance is there and exits non-zero', async () => {
    const typo = path.join(await tempDir('boardroom-doctor-'), 'boardrom');
    const res = await runCli(['doctor', '--data-dir', typo, '--port', String(await freePort(0))]);
    assert.equal(res.code, 1, res.stdout);
    assert.ok(
      res.stdout.includes(`FAIL data dir: ${typo} does not exist (a typo in --data-dir or BOARDROOM_HOME?)`),
      res.stdout,
    );
    assert.ok(
      res.stdout.includes(
        `FAIL database: no Boardroom instance at ${typo} (no embedded database in ${typo}/db; DATABASE_URL is not set)`,
      ),
      res.stdout,
    );
    assert.equal(existsSync(typo), false, 'no data directory, key or database was created');

    // Nor does anything that would act on it: no key, no migration, no instance.
    const key = await runCli(['board-key', 'create', '--data-dir', typo]);
    assert.equal(key.code, 1);
    assert.equal(key.stdout, '');
    const migrate = await runCli(['db', 'migrate', '--data-dir', typo]);
    assert.equal(migrate.code, 1);
    assert.ok(migrate.stderr.includes(`no Boardroom instance exists at ${typo}`), migrate.stderr);
    assert.ok(migrate.stderr.includes(`start \`boardroom run --data-dir ${typo}\` to create one`), migrate.stderr);
    assert.equal(existsSync(typo), false);

    // An existing directory that holds no instance: doctor writes nothing into it either.
    const empty = await tempDir('boardroom-doctor-');
    const inEmpty = await runCli(['doctor', '--data-dir', empty, '--port', String(await freePort(0))]);
    assert.equal(inEmpty.code, 1);
    assert.match(inEmpty.stdout, /^ok {3}data dir: .* \(writable\)$/m);
    assert.match(inEmpty.stdout, /^FAIL database: no Boardroom instance at /m);
    assert.deepEqual(readdirSync(empty), []);
  });

  it('fails the database check when DATABASE_URL does not connect, and the port check when another program holds it', async () => {
    const dir = await tempDir('boardroom-doctor-');
    const closedPort = await freePort(0);
    const res = await runCli(['doctor', '--data-dir', dir, '--port', String(closedPort)], {
      DATABASE_URL: `postgres://nobody:x@127.0.0.1:${closedPort}/nothing`,
    });
    assert.equal(res.code, 1);
    const lines = res.stdout
      .trim()
      .split('\n')
      .filter((l) => !l.startsWith('info '));
    assert.equal(lines.length, 5);
    assert.match(lines[3]!, /^FAIL database: .*ECONNREFUSED/);
    assert.match(lines[4]!, /^ok   port: .* free$/);

    const held = await new Promise<net.Server>((resolve) => {
      const s = net.createServer();
      s.listen(0, '127.0.0.1', () => resolve(s));
    });
    const heldPort = (held.address() as { port: number }).port;
    const external = await freshDatabase();
    const busy = await runCli(['doctor', '--data-dir', dir, '--port', String(heldPort)], { DATABASE_URL: external });
    held.close();
    assert.equal(busy.code, 1);
    assert.match(busy.stdout, /^ok {3}database: external PostgreSQL \d+/m);
    assert.match(busy.stdout, /^FAIL port: .* in use by another program/m);
  });

  it('reports each local runtime (binary, version, login as the CLI tells it) without failing on a missing one', async () => {
    const dir = await tempDir('boardroom-doctor-');
    const bin = path.join(dir, 'bin');
    await mkdir(bin);
    await symlink(path.join(import.meta.dirname, 'fixtures', 'clis', 'fake-claude.mjs'), path.join(bin, 'claude'));
    // PATH: the fake claude, and node for its shebang; no codex.
    const doctor = async () =>
      runCli(['doctor', '--data-dir', dir, '--port', String(await freePort(0))], {
        PATH: `${bin}:${path.dirname(process.execPath)}`,
        HOME: dir,
        DATABASE_URL: await freshDatabase(),
      });
    // ~/.claude exists, but the CLI itself says it is not logged in: not ready, and why.
    await mkdir(path.join(dir, '.claude'));
    const out = await doctor();
    assert.match(
      out.stdout,
      new RegExp(
        `^info claude_local: not ready: command found at ${bin}/claude; version 2\\.0\\.0 \\(Claude Code, fake\\); credentials not logged in \\(claude auth status\\): log in with`,
        'm',
      ),
    );
    assert.match(
      out.stdout,
      /^info codex_local: not ready: command codex not found or not executable; credentials login not checked: codex not found$/m,
    );
    assert.equal(out.code, 0, out.stdout);
    await writeFile(path.join(dir, '.claude', '.credentials.json'), '{}');
    const res = await doctor();
    assert.match(
      res.stdout,
      new RegExp(
        `^info claude_local: ready: command found at ${bin}/claude; version 2\\.0\\.0 \\(Claude Code, fake\\); credentials logged in \\(claude auth status: auth method claude\\.ai\\)$`,
        'm',
      ),
    );
    assert.equal(res.code, 0, res.stdout);
  });
});

describe('configuration', () => {
  it('local_trusted is refused on a non-loopback bind, by loadConfig and by the CLI', async () => {
    const dataDir = await tempDir('boardroom-config-');
    await assert.rejects(
      loadConfig({ dataDir, deploymentMode: 'local_trusted', host: '0.0.0.0' }, {}),
      /only on a loopback bind/,
    );
    await assert.rejects(
      loadConfig({ dataDir }, { BOARDROOM_DEPLOYMENT_MODE: 'local_trusted', BOARDROOM_HOST: '192.168.1.5' }),
      /only on a loopback bind/,
    );
    const ok = await loadConfig(
      { dataDir },
      { BOARDROOM_DEPLOYMENT_MODE: 'local_trusted', BOARDROOM_HOST: '127.0.0.1' },
    );
    assert.equal(ok.deploymentMode, 'local_trusted');
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1']) assert.equal(isLoopback(host), true, host);
    for (const host of ['0.0.0.0', '::', '10.0.0.1', '127.example.com']) assert.equal(isLoopback(host), false, host);

    const cli = await runCli([
      'run',
      '--data-dir',
      dataDir,
      '--mode',
      'local_trusted',
      '--host',
      '0.0.0.0',
      '--port',
      '0',
    ]);
    assert.equal(cli.code, 1);
    assert.match(cli.stderr, /local_trusted mode is allowed only on a loopback bind, not 0\.0\.0\.0/);
  });

  it('reads flags over environment over defaults, and rejects bad values', async () => {
    const dataDir = await tempDir('boardroom-config-');
    const fromEnv = await loadConfig(
      {},
      {
        BOARDROOM_HOME: dataDir,
        BOARDROOM_PORT: '4100',
        BOARDROOM_HOST: '127.0.0.2',
        BOARDROOM_LOG_LEVEL: 'warn',
        BOARDROOM_MAX_UPLOAD_BYTES: '1000',
      },
    );
    assert.deepEqual(
      [fromEnv.dataDir, fromEnv.port, fromEnv.host, fromEnv.logLevel, fromEnv.maxUploadBytes, fromEnv.deploymentMode],
      [dataDir, 4100, '127.0.0.2', 'warn', 1000, 'authenticated'],
    );
    const fromFlags = await loadConfig({ dataDir, port: 4200, host: '127.0.0.3' }, { BOARDROOM_PORT: '4100' });
    assert.deepEqual([fromFlags.port, fromFlags.host], [4200, '127.0.0.3']);
    // Keys are generated once into the data dir and reused.
    assert.deepEqual(fromFlags.masterKey, fromEnv.masterKey);
    assert.equal(fromEnv.masterKey.length, 32);
    const explicit = Buffer.alloc(32, 7).toString('base64');
    assert.deepEqual(
      (await loadConfig({ dataDir }, { BOARDROOM_SECRETS_MASTER_KEY: explicit })).masterKey,
      Buffer.alloc(32, 7),
    );
    await assert.rejects(loadConfig({ dataDir }, { BOARDROOM_SECRETS_MASTER_KEY: 'c2hvcnQ=' }), /32 bytes/);
    await assert.rejects(loadConfig({ dataDir }, { BOARDROOM_PORT: 'eighty' }), /invalid port/);
    await assert.rejects(loadConfig({ dataDir, deploymentMode: 'open' }, {}), /unknown deployment mode/);
    await assert.rejects(loadConfig({ dataDir }, { BOARDROOM_LOG_LEVEL: 'loud' }), /BOARDROOM_LOG_LEVEL/);
    await assert.rejects(loadConfig({ dataDir }, { BOARDROOM_MAX_UPLOAD_BYTES: '-1' }), /BOARDROOM_MAX_UPLOAD_BYTES/);
  });
});

const ROOT = fileURLToPath(new URL('..', import.meta.url));

describe('boardroom --version, help and unknown commands', () => {
  it('--version prints the package version and exits 0', async () => {
    const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-v']) {
      const res = await runCli([flag]);
      assert.equal(res.code, 0, res.stderr);
      assert.equal(res.stdout.trim(), version);
    }
  });

  it('`run --help` lists the flags run reads; other commands list only theirs', async () => {
    const run = await runCli(['run', '--help']);
    assert.equal(run.code, 0, run.stderr);
    for (const flag of ['--data-dir <dir>', '--port <port>', '--strict-port', '--host <host>', '--mode <mode>'])
      assert.ok(run.stdout.includes(flag), `${flag} in:\n${run.stdout}`);
    const key = await runCli(['board-key', 'create', '--help']);
    assert.equal(key.code, 0, key.stderr);
    assert.match(key.stdout, /--init/);
    assert.match(key.stdout, /--data-dir <dir>/);
    assert.doesNotMatch(key.stdout, /--strict-port|--port|--mode/, 'server flags do not apply to board-key create');
    const top = await runCli(['--help']);
    assert.match(top.stdout, /--strict-port +run: fail/, 'the top-level help says where a flag applies');
    assert.match(top.stdout, /--port <port> +run, doctor: API port/);
  });

  it('an unknown command is named as such, suggests --help and exits non-zero', async () => {
    const res = await runCli(['frobnicate']);
    assert.notEqual(res.code, 0);
    assert.match(res.stderr, /unknown command 'frobnicate'/);
    assert.match(res.stderr, /--help/);
    assert.doesNotMatch(res.stderr, /too many arguments/);
  });
});

describe('board-key create without an instance', () => {
  it('refuses to create an instance unless --init is given, then uses the one it made', async () => {
    const dataDir = path.join(await tempDir('boardroom-newcomer-'), 'data');
    const refused = await runCli(['board-key', 'create', '--data-dir', dataDir]);
    assert.equal(refused.code, 1);
    assert.equal(refused.stdout, '', 'no key');
    assert.ok(refused.stderr.includes(`no Boardroom instance exists at ${dataDir}`), refused.stderr);
    assert.match(refused.stderr, /--init/);
    assert.equal(existsSync(dataDir), false, 'nothing was created');

    const created = await runCli(['board-key', 'create', '--data-dir', dataDir, '--init']);
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout.trim(), /^svc_board_/);
    assert.ok(created.stderr.includes(`creating a new instance at ${dataDir}`), created.stderr);
    assert.equal(existsSync(path.join(dataDir, 'db', 'PG_VERSION')), true);

    const again = await runCli(['board-key', 'create', '--data-dir', dataDir]);
    assert.equal(again.code, 0, again.stderr);
    assert.doesNotMatch(again.stderr, /creating a new instance/);
  });
});

describe('boardroom db url', () => {
  it('prints the running embedded database (usable with pg), attaches board-key create, and says when there is none', async () => {
    const dataDir = await tempDir('boardroom-dburl-');
    const empty = await runCli(['db', 'url', '--data-dir', dataDir]);
    assert.equal(empty.code, 1);
    assert.match(empty.stderr, /no embedded database in /);
    assert.equal(existsSync(path.join(dataDir, 'secrets')), false, 'db url creates nothing');

    const server = spawnServer(['--data-dir', dataDir, '--port', '0']);
    try {
      const base = await server.baseUrl();
      await waitForHealth(base);
      const res = await runCli(['db', 'url', '--data-dir', dataDir]);
      assert.equal(res.code, 0, res.stderr);
      const url = res.stdout.trim();
      assert.match(url, /^postgres:\/\/boardroom:[^@]+@127\.0\.0\.1:\d+\/boardroom$/);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        assert.equal((await client.query<{ one: number }>('select 1 as one')).rows[0]!.one, 1);
        // The server itself talks to its database over the unix socket (no client address): the only
        // TCP connection is this test's own.
        const { rows } = await client.query<{ socket: number; tcp: number }>(
          `select count(*) filter (where client_addr is null)::int as socket, count(*) filter (where client_addr is not null and pid <> pg_backend_pid())::int as tcp
           from pg_stat_activity where datname = 'boardroom' and backend_type = 'client backend'`,
        );
        assert.ok(rows[0]!.socket > 0, 'the server has connections over the socket');
        assert.equal(rows[0]!.tcp, 0, 'and none over TCP');
      } finally {
        await client.end();
      }

      // A running server on the data dir: board-key create attaches to it, no --init needed.
      const key = await runCli(['board-key', 'create', '--data-dir', dataDir]);
      assert.equal(key.code, 0, key.stderr);
      const me = await fetch(`${base}/api/cli-auth/me`, { headers: { authorization: `Bearer ${key.stdout.trim()}` } });
      assert.equal(me.status, 200);

      server.child.kill('SIGTERM');
      assert.equal((await server.exited).code, 0);
    } finally {
      server.child.kill('SIGKILL');
    }
    const stopped = await runCli(['db', 'url', '--data-dir', dataDir]);
    assert.equal(stopped.code, 1);
    assert.match(stopped.stderr, /is not running/);

    // A data directory too deep for a socket address: the database listens on TCP only, and works.
    const deep = path.join(dataDir, 'x'.repeat(60), 'y'.repeat(40));
    const deepServer = spawnServer(['--data-dir', deep, '--port', '0']);
    try {
      await waitForHealth(await deepServer.baseUrl());
      assert.equal(existsSync(path.join(deep, 'db', 'postmaster.pid')), true);
      deepServer.child.kill('SIGTERM');
      assert.equal((await deepServer.exited).code, 0);
    } finally {
      deepServer.child.kill('SIGKILL');
    }

    const external = 'postgres://someone:pw@db.example:5432/boardroom';
    const fromEnv = await runCli(['db', 'url', '--data-dir', dataDir], { DATABASE_URL: external });
    assert.equal(fromEnv.code, 0, fromEnv.stderr);
    assert.equal(fromEnv.stdout.trim(), external);
  });
});

describe('boardroom login-link', () => {
  it('links to the port the running server really took, and the link signs in; with no server it says so and makes no link', async () => {
    const dataDir = await tempDir('boardroom-loginlink-');
    // Asked for a port that is taken: the server takes the next free one, which no flag names.
    const asked = await freePort(0);
    const blocker = await new Promise<net.Server>((resolve) => {
      const s = net.createServer();
      s.listen(asked, '127.0.0.1', () => resolve(s));
    });
    const server = spawnServer(['--data-dir', dataDir, '--port', String(asked)]);
    try {
      const base = await server.baseUrl();
      await waitForHealth(base);
      const port = new URL(base).port;
      assert.notEqual(port, String(asked));

      const res = await runCli(['login-link', '--data-dir', dataDir]);
      assert.equal(res.code, 0, res.stderr);
      const link = new URL(res.stdout.trim());
      assert.equal(link.origin, base, "the running server's own address");
      assert.equal(link.pathname, '/api/auth/login');
      assert.match(res.stderr, new RegExp(`listens on ${base}`));
      const login = await fetch(link, { redirect: 'manual' });
      assert.equal(login.status, 302);
      const session = /boardroom_session=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')?.[1];
      assert.ok(session, 'a session cookie');
      const me = await fetch(`${base}/api/cli-auth/me`, { headers: { cookie: `boardroom_session=${session}` } });
      assert.equal(me.status, 200);
      assert.equal((await me.json()).user.isInstanceOwner, true);

      server.child.kill('SIGTERM');
      assert.equal((await server.exited).code, 0);
    } finally {
      server.child.kill('SIGKILL');
      blocker.close();
    }

    const none = await runCli(['login-link', '--data-dir', dataDir]);
    assert.equal(none.code, 1);
    assert.equal(none.stdout, '', 'no link');
    assert.ok(none.stderr.includes(`no Boardroom server is running on ${dataDir}`), none.stderr);
    assert.match(none.stderr, /--url/);

    // The address given: a link is made without a server (through a temporary start of the database).
    const given = await runCli(['login-link', '--data-dir', dataDir, '--url', 'https://board.example/']);
    assert.equal(given.code, 0, given.stderr);
    assert.match(given.stdout.trim(), /^https:\/\/board\.example\/api\/auth\/login\?token=login_/);
  });
});

/** npm itself: the one running this test (npm test), else the one on PATH. */
function npm(args: string[], opts: { cwd: string; detached?: boolean }) {
  const cli = process.env.npm_execpath;
  const env = { ...process.env };
  for (const name of [
    'DATABASE_URL',
    'BOARDROOM_HOME',
    'BOARDROOM_PORT',
    'BOARDROOM_HOST',
    'BOARDROOM_DEPLOYMENT_MODE',
    'BOARDROOM_LOG_LEVEL',
  ])
    delete env[name];
  const [command, argv] = cli ? [process.execPath, [cli, ...args]] : ['npm', args];
  return spawn(command, argv, {
    cwd: opts.cwd,
    env,
    detached: opts.detached ?? false,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

describe('npm start', () => {
  it("gives agents the operator's PATH, not npm's additions; exits 0 on SIGTERM sent to npm, and the server does not outlive it", async () => {
    const dataDir = await tempDir('boardroom-npmstart-');
    const pathFile = path.join(dataDir, 'agent-path');
    // Its own process group, so the finally below can clean up whatever is left.
    const child = npm(['start', '--', '--data-dir', dataDir, '--port', '0'], { cwd: ROOT, detached: true });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('exit', (code, signal) => resolve({ code, signal })),
    );
    try {
      const deadline = Date.now() + 120_000;
      while (!/listening on http/.test(out)) {
        assert.ok(Date.now() < deadline && child.exitCode === null, `npm start did not come up:\n${out}`);
        await sleep(50);
      }
      const base = /listening on (http:\/\/[^\s"]+)/.exec(out)![1]!;
      // A fake agent (the process adapter) that writes down the PATH it was given.
      const key = await runCli(['board-key', 'create', '--data-dir', dataDir]);
      assert.equal(key.code, 0, key.stderr);
      const api = async (url: string, body: unknown) => {
        const res = await fetch(`${base}${url}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key.stdout.trim()}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        assert.ok(res.ok, `${url}: ${res.status}`);
        return res.json();
      };
      const company = await api('/api/companies', { name: 'PATH check' });
      const script = `require('fs').writeFileSync(${JSON.stringify(pathFile)}, process.env.PATH)`;
      const agent = await api(`/api/companies/${company.id}/agents`, {
        name: 'Path printer',
        role: 'engineer',
        adapterType: 'process',
        adapterConfig: { command: process.execPath, args: ['-e', script] },
      });
      await api(`/api/agents/${agent.id}/wakeup`, {});
      const agentPath = await waitFor(
        'the agent to write its PATH',
        async () => (existsSync(pathFile) ? readFile(pathFile, 'utf8') : undefined),
        60_000,
      );
      // npm put <dir>/node_modules/.bin for the checkout and each parent, and its node-gyp-bin, in front.
      const entries = agentPath.split(':');
      for (let dir = ROOT; ; dir = path.dirname(dir)) {
        assert.ok(
          !entries.includes(path.join(dir, 'node_modules', '.bin')),
          `${dir}/node_modules/.bin in the agent's PATH ${agentPath}`,
        );
        if (path.dirname(dir) === dir) break;
      }
      assert.ok(!entries.some((e) => e.endsWith('node-gyp-bin')), agentPath);
      assert.ok(
        agentPath.length > 0 && process.env.PATH!.endsWith(agentPath),
        `the operator's PATH, only npm's leading entries removed: ${agentPath}`,
      );

      const serverPid = Number(await readFile(path.join(dataDir, 'boardroom.pid'), 'utf8'));
      child.kill('SIGTERM');
      assert.deepEqual(await exited, { code: 0, signal: null }, out);
      assert.equal(isAlive(serverPid), false, 'the server stopped with npm');
      assert.match(out, /SIGTERM received, shutting down/);
    } finally {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // the group is gone
      }
    }
  });
});

describe('dependencies', () => {
  // Meaningful on Node 20, the supported floor: npm checks engines against the Node running it.
  it('npm ci installs no package whose engines exclude this Node (no EBADENGINE)', async () => {
    const dir = await tempDir('boardroom-engines-');
    for (const file of ['package.json', 'package-lock.json'])
      await copyFile(path.join(ROOT, file), path.join(dir, file));
    // A dry run from the lockfile fetches nothing; --engine-strict turns EBADENGINE into a failure.
    const child = npm(
      [
        'ci',
        '--dry-run',
        '--offline',
        '--engine-strict',
        '--no-audit',
        '--no-fund',
        '--cache',
        path.join(dir, 'cache'),
      ],
      { cwd: dir },
    );
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    assert.doesNotMatch(out, /EBADENGINE/);
    assert.equal(code, 0, out);
  });
});
