// Health (and 503 when the database is unreachable), the OpenAPI document and docs, request ids,
// and the error format of SPEC section 7.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { mkdtemp, readFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { databaseErrorOf } from '../src/core/errors.ts';
import { useTestApp } from './helpers/app.ts';
import { companyWithAgent } from './helpers/factories.ts';

const t = await useTestApp();
const dbName = new URL(t.database.pool.options.connectionString!).pathname.slice(1);

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: process.env.BOARDROOM_TEST_DATABASE_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

describe('GET /api/instance/doctor', () => {
  it("runs the doctor's node, data dir and database checks for a board caller", async () => {
    const res = await t.request('GET', '/api/instance/doctor', { token: t.ownerToken });
    assert.equal(res.status, 200);
    assert.equal(res.body.ok, true);
    assert.deepEqual(
      res.body.checks.map((c: { name: string }) => c.name),
      ['node', 'data dir', 'database'],
    );
    const [node, dataDir, database] = res.body.checks;
    assert.equal(node.detail, `v${process.versions.node} (needs 20.19+)`);
    assert.equal(dataDir.detail, `${t.config.dataDir} (writable)`);
    assert.match(database.detail, /^(external|embedded) PostgreSQL \d+.* reachable$/);
  });

  it('reports an unusable data directory as a failed check, not an error', async () => {
    const { dataDir } = t.config;
    t.config.dataDir = path.join(dataDir, 'missing-dir');
    try {
      const res = await t.request('GET', '/api/instance/doctor', { token: t.ownerToken });
      assert.equal(res.status, 200);
      assert.equal(res.body.ok, false);
      const check = res.body.checks.find((c: { name: string }) => c.name === 'data dir');
      assert.equal(check.ok, false);
      assert.match(check.detail, /does not exist/);
    } finally {
      t.config.dataDir = dataDir;
    }
  });

  it('is for board callers only', async () => {
    const { agent } = await companyWithAgent(t);
    assert.equal((await t.request('GET', '/api/instance/doctor', { token: agent.token })).status, 403);
    assert.equal((await t.request('GET', '/api/instance/doctor')).status, 401);
  });
});

describe('GET /api/health', () => {
  it('reports status, database reachability and runtime metadata without credentials', async () => {
    const res = await t.request('GET', '/api/health');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      status: 'ok',
      database: { reachable: true, embedded: null },
      version: '0.1.0',
      deploymentMode: 'authenticated',
      authReady: true,
      features: { companyDeletion: true },
    });
    // Health is public: even a wrong bearer does not turn it into a 401.
    assert.equal((await t.request('GET', '/api/health', { token: 'svc_board_nope' })).status, 200);
  });

  it('answers 503 while the database refuses connections, and 200 again once it is back', async () => {
    after(() => admin((c) => c.query(`alter database ${dbName} allow_connections true`)));
    await admin(async (c) => {
      await c.query(`alter database ${dbName} allow_connections false`);
      await c.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [dbName],
      );
    });
    const down = await t.request('GET', '/api/health');
    assert.equal(down.status, 503);
    assert.equal(down.body.status, 'unavailable');
    assert.equal(down.body.database.reachable, false);
    await admin((c) => c.query(`alter database ${dbName} allow_connections true`));
    assert.equal((await t.request('GET', '/api/health')).status, 200);
  });

  it('survives the database ending a connection that a transaction holds between two queries', async () => {
    // The case of a database stopped under a busy server: the client is checked out (no idle
    // listener) and has no query in flight, so the server's goodbye arrives as an 'error' event.
    // Unlistened, it is an uncaught exception that ends the process.
    const client = await t.database.pool.connect();
    const backendPid = (await client.query('select pg_backend_pid() as pid')).rows[0].pid;
    const ended = new Promise((resolve) => client.once('end', resolve));
    await admin((c) => c.query('select pg_terminate_backend($1)', [backendPid]));
    const timeout = new Promise((_, reject) =>
      setTimeout(() => reject(new Error('the client never ended: its error was thrown')), 5000).unref(),
    );
    await Promise.race([ended, timeout]);
    client.release(true);
    assert.equal(
      (await t.request('GET', '/api/health')).status,
      200,
      'the process lives on, the pool opens a new connection',
    );
  });
});

describe('database errors', () => {
  it('maps real connection failures to unavailable (503), SQLSTATEs to their status, and nothing else', async () => {
    // While the embedded database is down its socket file does not exist: connect fails with ENOENT.
    const client = new pg.Client({
      host: '/nonexistent-boardroom-socket-dir',
      port: 5432,
      user: 'boardroom',
      database: 'boardroom',
      password: 'x',
    });
    client.on('error', () => undefined);
    const socketGone = await client.connect().then(
      () => null,
      (err: unknown) => err,
    );
    assert.equal((socketGone as { code?: string }).code, 'ENOENT');
    assert.equal(databaseErrorOf(socketGone)?.code, 'unavailable');
    // A query written on a connection the database closed: EPIPE, five capitals like a SQLSTATE,
    // which once made it a 500.
    const dir = await mkdtemp(path.join(os.tmpdir(), 'boardroom-epipe-'));
    const server = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(path.join(dir, 's'), resolve));
    const brokenPipe = await new Promise<unknown>((resolve) => {
      const socket = net.connect(path.join(dir, 's'));
      socket.on('error', resolve);
      socket.on('end', () => socket.write('select 1'));
    });
    server.close();
    assert.equal((brokenPipe as { code?: string }).code, 'EPIPE');
    assert.equal(databaseErrorOf(new Error('Failed query', { cause: brokenPipe }))?.code, 'unavailable');
    // A query (a transaction's rollback) on a client whose connection the database ended: pg refuses
    // it without a code; a 500 under a database restart until it was known.
    const dropped = new pg.Client({ connectionString: t.database.pool.options.connectionString });
    const broken = new Promise((resolve) => dropped.on('error', resolve));
    await dropped.connect();
    const { rows } = await dropped.query<{ pid: number }>('select pg_backend_pid() as pid');
    await admin((c) => c.query('select pg_terminate_backend($1)', [rows[0]!.pid]));
    await broken;
    const notQueryable = await dropped.query('rollback').catch((err: unknown) => err);
    assert.match((notQueryable as Error).message, /Client has encountered a connection error/);
    assert.equal(databaseErrorOf(new Error('Failed query: rollback', { cause: notQueryable }))?.code, 'unavailable');
    await dropped.end().catch(() => undefined);
    // A SQLSTATE the API knows keeps its meaning; a missing file is not the database.
    const duplicate = await admin((c) =>
      c
        .query('create temporary table t (id int primary key); insert into t values (1), (1)')
        .catch((err: unknown) => err),
    );
    assert.equal(databaseErrorOf(duplicate)?.code, 'conflict');
    const fileGone = await readFile('/nonexistent-boardroom-file').catch((err: unknown) => err);
    assert.equal(databaseErrorOf(fileGone), undefined);
  });
});

describe('OpenAPI document and docs', () => {
  it('generates /api/openapi.json from the registered route schemas', async () => {
    const res = await t.request('GET', '/api/openapi.json');
    assert.equal(res.status, 200);
    assert.match(res.body.openapi, /^3\./);
    const paths = Object.keys(res.body.paths);
    for (const p of [
      '/api/health',
      '/api/board-keys',
      '/api/board-keys/{keyId}',
      '/api/cli-auth/me',
      '/api/companies',
      '/api/companies/{companyId}',
    ]) {
      assert.ok(paths.includes(p), `${p} documented`);
    }
    // Every registered /api route shows up, except the document itself and the docs UI.
    const registered = new Set<string>();
    const stack: string[] = [];
    for (const line of t.app.printRoutes({ commonPrefix: false }).split('\n')) {
      const m = /^([│ ]*)[├└]── (\S+)(?: \(([^)]+)\))?$/.exec(line);
      if (!m) continue;
      const depth = m[1]!.length / 4;
      stack[depth] = (depth > 0 ? stack[depth - 1]! : '') + m[2]!;
      const url = stack[depth]!;
      if (!m[3] || !url.startsWith('/api/') || url.startsWith('/api/docs') || url === '/api/openapi.json') continue;
      registered.add(url.replace(/:(\w+)/g, '{$1}'));
    }
    assert.ok(registered.size >= 20, `found ${registered.size} registered routes`);
    for (const p of registered) assert.ok(paths.includes(p), `${p} missing from the OpenAPI document`);
    const keyBody = res.body.paths['/api/board-keys'].post.requestBody.content['application/json'].schema;
    assert.equal(keyBody.properties.name.type, 'string');
    assert.equal(keyBody.properties.name.maxLength, 200);
  });

  it('serves the interactive docs as HTML without credentials', async () => {
    const res = await t.request('GET', '/api/docs/');
    assert.equal(res.status, 200);
    assert.match(String(res.headers['content-type']), /text\/html/);
    assert.match(res.body, /swagger/i);
    assert.equal((await t.request('GET', '/api/docs')).status < 400, true);
  });
});

describe('request ids', () => {
  it('echoes a well-formed x-request-id and replaces a malformed one', async () => {
    const mine = await t.request('GET', '/api/health', { headers: { 'x-request-id': 'trace-42.a_b' } });
    assert.equal(mine.headers['x-request-id'], 'trace-42.a_b');
    const bad = await t.request('GET', '/api/health', { headers: { 'x-request-id': 'no spaces <allowed>' } });
    assert.match(String(bad.headers['x-request-id']), /^[0-9a-f-]{36}$/);
    const errorReply = await t.request('GET', '/api/companies', { headers: { 'x-request-id': 'unauth-1' } });
    assert.equal(errorReply.status, 401);
    assert.equal(errorReply.headers['x-request-id'], 'unauth-1');
  });
});

describe('errors (SPEC section 7)', () => {
  it('answers malformed JSON, wrong types, unknown enum values and unknown fields with 400 {error, details?}', async () => {
    const malformed = await t.request('POST', '/api/board-keys', {
      token: t.ownerToken,
      payload: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(malformed.status, 400);
    assert.deepEqual(Object.keys(malformed.body), ['error']);
    const wrongType = await t.request('POST', '/api/board-keys', { token: t.ownerToken, body: { name: 5 } });
    assert.equal(wrongType.status, 400);
    assert.equal(typeof wrongType.body.error, 'string');
    assert.ok(Array.isArray(wrongType.body.details) && wrongType.body.details.length > 0);
    const tooLong = await t.request('POST', '/api/board-keys', {
      token: t.ownerToken,
      body: { name: 'x'.repeat(201) },
    });
    assert.equal(tooLong.status, 400);
    const { company } = await t.newCompany(t.ownerToken);
    const badEnum = await t.request('PATCH', `/api/companies/${company.id}`, {
      token: t.ownerToken,
      body: { status: 'exploded' },
    });
    assert.equal(badEnum.status, 400);
    assert.equal(typeof badEnum.body.error, 'string');
    const badUuid = await t.request('DELETE', '/api/board-keys/not-a-uuid', { token: t.ownerToken });
    assert.equal(badUuid.status, 400);
    const wrongMedia = await t.request('POST', '/api/board-keys', {
      token: t.ownerToken,
      payload: '<name>x</name>',
      headers: { 'content-type': 'application/xml' },
    });
    assert.equal(wrongMedia.status, 415);
    assert.equal(typeof wrongMedia.body.error, 'string');
  });

  it('answers an unknown route with 404 JSON', async () => {
    const res = await t.request('GET', '/api/no-such-thing', { token: t.ownerToken });
    assert.equal(res.status, 404);
    assert.equal(res.body.error, 'route GET /api/no-such-thing not found');
    assert.equal((await t.request('DELETE', '/api/health', { token: t.ownerToken })).status, 404);
  });

  it('answers an unexpected database failure with a generic 500 that carries no SQL or stack', async () => {
    // An undefined table (42P01) is a server fault no mapping turns into a client error.
    await t.database.pool.query('alter table companies rename to companies_gone');
    try {
      const res = await t.request('GET', '/api/companies', { token: t.ownerToken });
      assert.equal(res.status, 500);
      assert.deepEqual(res.body, { error: 'internal server error' });
      assert.doesNotMatch(res.raw.toString(), /select|companies|relation|at /i);
    } finally {
      await t.database.pool.query('alter table companies_gone rename to companies');
    }
  });
});
