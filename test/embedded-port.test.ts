// The embedded database's port belongs to its data directory: chosen at the first start (54329, or
// a free one when another program holds it), kept in <data dir>/db.port and reused at every restart
// while it is free, so a replica given `boardroom db url`'s string keeps its database. When another
// program took it, the database moves, and says so in the server's log (warn) and in `db url`.
import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, it } from 'node:test';
import pg from 'pg';
import { runCli, spawnServer, tempDir, waitForHealth, type ServerProcess } from './helpers/server-process.ts';
import { waitFor } from './helpers/wait.ts';

const DEFAULT_DATABASE_PORT = 54329;

/** Listens on 127.0.0.1:port, as another program would; null when one already does. */
function occupy(port: number): Promise<net.Server | null> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(null));
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

async function startServer(dataDir: string): Promise<ServerProcess> {
  const server = spawnServer(['--data-dir', dataDir, '--port', '0']);
  await waitForHealth(await server.baseUrl());
  return server;
}

async function stop(server: ServerProcess): Promise<void> {
  server.child.kill('SIGTERM');
  assert.equal((await server.exited).code, 0, server.output());
}

/** `boardroom db url`: the URL, its port, and what it said on stderr. */
async function databaseUrl(dataDir: string): Promise<{ url: string; port: number; stderr: string }> {
  const res = await runCli(['db', 'url', '--data-dir', dataDir]);
  assert.equal(res.code, 0, res.stderr);
  const url = res.stdout.trim();
  return { url, port: Number(new URL(url).port), stderr: res.stderr };
}

/** The server's log lines at warn level (40). */
const warnings = (server: ServerProcess) =>
  server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: number; msg: string })
    .filter((entry) => entry.level === 40)
    .map((entry) => entry.msg);

describe('the embedded database port', () => {
  it('is kept across restarts while free; when another program took it, the database moves and says so', async () => {
    const dataDir = await tempDir('boardroom-dbport-');
    // Another instance on the host holds the default port. This test holds it itself: one that another
    // program holds may be let go in the middle (a second suite's server stopping), so it waits a while
    // for it; only one held all that time is taken as held for good.
    const onDefault = await waitFor('the default port to be ours', () => occupy(DEFAULT_DATABASE_PORT), 30_000).catch(
      () => null,
    );
    let blocker: net.Server | null = null;
    try {
      let server = await startServer(dataDir);
      const first = await databaseUrl(dataDir);
      assert.notEqual(first.port, DEFAULT_DATABASE_PORT);
      assert.equal(first.stderr, '');
      await stop(server);

      server = await startServer(dataDir);
      const second = await databaseUrl(dataDir);
      assert.equal(second.port, first.port, 'the restart reuses the port the data directory chose');
      assert.equal(second.url, first.url, 'a replica given the first URL still reaches its database');
      assert.deepEqual(warnings(server), []);
      await stop(server);

      // Another program takes the kept port meanwhile: the database moves, and says so.
      blocker = await occupy(first.port);
      assert.ok(blocker, `port ${first.port} could be taken`);
      server = await startServer(dataDir);
      const moved = await databaseUrl(dataDir);
      assert.notEqual(moved.port, first.port);
      assert.ok(
        warnings(server).some(
          (msg) =>
            msg.includes(`port ${first.port}`) &&
            msg.includes(`is taken by another program: it listens on ${moved.port}`),
        ),
        server.output(),
      );
      assert.match(
        moved.stderr,
        new RegExp(`note: the embedded database moved from port ${first.port} to ${moved.port} at its last start`),
      );
      const client = new pg.Client({ connectionString: moved.url });
      await client.connect();
      try {
        assert.equal((await client.query<{ one: number }>('select 1 as one')).rows[0]?.one, 1);
      } finally {
        await client.end();
      }
      await stop(server);

      // The new port is the kept one from then on, and the move is old news.
      server = await startServer(dataDir);
      const after = await databaseUrl(dataDir);
      assert.equal(after.port, moved.port);
      assert.equal(after.stderr, '');
      assert.deepEqual(warnings(server), []);
      await stop(server);
    } finally {
      onDefault?.close();
      blocker?.close();
    }
  });
});
