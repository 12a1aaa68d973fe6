// The CLI against an external PostgreSQL (DATABASE_URL), doctor's failures, configuration rules,
// and migrations under the advisory lock.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { describe, it } from 'node:test';
import pg from 'pg';
import { freePort } from '../src/db/embedded.ts';
import { migrateDatabase } from '../src/db/migrate.ts';
import { isLoopback, loadConfig } from '../src/server/config.ts';
import { freshDatabase, runCli, spawnServer, tempDir, waitForHealth } from './helpers/server-process.ts';

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
      assert.equal(await count(databaseUrl, 'select count(*) as n from users where is_instance_owner'), 1, 'the first start creates the instance owner');

      const migrate = await runCli(['db', 'migrate', '--data-dir', dataDir], { DATABASE_URL: databaseUrl });
      assert.equal(migrate.code, 0, migrate.stderr);
      const key = await runCli(['board-key', 'create', '--data-dir', dataDir, '--name', 'ops'], { DATABASE_URL: databaseUrl });
      assert.equal(key.code, 0, key.stderr);
      const token = key.stdout.trim();
      assert.match(token, /^svc_board_/);
      const me = await fetch(`${base}/api/cli-auth/me`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(me.status, 200);
      assert.equal((await me.json()).user.isInstanceOwner, true);
      assert.equal(await count(databaseUrl, `select count(*) as n from board_api_keys where name = 'ops'`), 1);
      assert.equal(await count(databaseUrl, 'select count(*) as n from users where is_instance_owner'), 1, 'restarts and the CLI reuse the owner');

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
    assert.equal(await count(url, 'select count(*) as n from drizzle.__drizzle_migrations'), applied, 'a third run applies nothing');
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
    assert.deepEqual(lines.map((l) => l.replace(/:.*$/, '')), ['ok   node', 'FAIL data dir', 'FAIL config', 'FAIL database', 'FAIL port']);
  });

  it('fails the database check when DATABASE_URL does not connect, and the port check when another program holds it', async () => {
    const dir = await tempDir('boardroom-doctor-');
    const closedPort = await freePort(0);
    const res = await runCli(['doctor', '--data-dir', dir, '--port', String(closedPort)], { DATABASE_URL: `postgres://nobody:x@127.0.0.1:${closedPort}/nothing` });
    assert.equal(res.code, 1);
    const lines = res.stdout.trim().split('\n');
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
});

describe('configuration', () => {
  it('local_trusted is refused on a non-loopback bind, by loadConfig and by the CLI', async () => {
    const dataDir = await tempDir('boardroom-config-');
    await assert.rejects(loadConfig({ dataDir, deploymentMode: 'local_trusted', host: '0.0.0.0' }, {}), /only on a loopback bind/);
    await assert.rejects(loadConfig({ dataDir }, { BOARDROOM_DEPLOYMENT_MODE: 'local_trusted', BOARDROOM_HOST: '192.168.1.5' }), /only on a loopback bind/);
    const ok = await loadConfig({ dataDir }, { BOARDROOM_DEPLOYMENT_MODE: 'local_trusted', BOARDROOM_HOST: '127.0.0.1' });
    assert.equal(ok.deploymentMode, 'local_trusted');
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1']) assert.equal(isLoopback(host), true, host);
    for (const host of ['0.0.0.0', '::', '10.0.0.1', '127.example.com']) assert.equal(isLoopback(host), false, host);

    const cli = await runCli(['run', '--data-dir', dataDir, '--mode', 'local_trusted', '--host', '0.0.0.0', '--port', '0']);
    assert.equal(cli.code, 1);
    assert.match(cli.stderr, /local_trusted mode is allowed only on a loopback bind, not 0\.0\.0\.0/);
  });

  it('reads flags over environment over defaults, and rejects bad values', async () => {
    const dataDir = await tempDir('boardroom-config-');
    const fromEnv = await loadConfig({}, { BOARDROOM_HOME: dataDir, BOARDROOM_PORT: '4100', BOARDROOM_HOST: '127.0.0.2', BOARDROOM_LOG_LEVEL: 'warn', BOARDROOM_MAX_UPLOAD_BYTES: '1000' });
    assert.deepEqual([fromEnv.dataDir, fromEnv.port, fromEnv.host, fromEnv.logLevel, fromEnv.maxUploadBytes, fromEnv.deploymentMode], [dataDir, 4100, '127.0.0.2', 'warn', 1000, 'authenticated']);
    const fromFlags = await loadConfig({ dataDir, port: 4200, host: '127.0.0.3' }, { BOARDROOM_PORT: '4100' });
    assert.deepEqual([fromFlags.port, fromFlags.host], [4200, '127.0.0.3']);
    // Keys are generated once into the data dir and reused.
    assert.deepEqual(fromFlags.masterKey, fromEnv.masterKey);
    assert.equal(fromEnv.masterKey.length, 32);
    const explicit = Buffer.alloc(32, 7).toString('base64');
    assert.deepEqual((await loadConfig({ dataDir }, { BOARDROOM_SECRETS_MASTER_KEY: explicit })).masterKey, Buffer.alloc(32, 7));
    await assert.rejects(loadConfig({ dataDir }, { BOARDROOM_SECRETS_MASTER_KEY: 'c2hvcnQ=' }), /32 bytes/);
    await assert.rejects(loadConfig({ dataDir }, { BOARDROOM_PORT: 'eighty' }), /invalid port/);
    await assert.rejects(loadConfig({ dataDir, deploymentMode: 'open' }, {}), /unknown deployment mode/);
    await assert.rejects(loadConfig({ dataDir }, { BOARDROOM_LOG_LEVEL: 'loud' }), /BOARDROOM_LOG_LEVEL/);
    await assert.rejects(loadConfig({ dataDir }, { BOARDROOM_MAX_UPLOAD_BYTES: '-1' }), /BOARDROOM_MAX_UPLOAD_BYTES/);
  });
});
