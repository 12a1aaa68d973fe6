// kill -9 of the server that owns a run: the run ends failed with a reason, the issue is free for
// the next run, and no agent process survives; whether the same server restarts (it reaps its
// previous life at once) or another replica reaps the run when its lease lapses.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { newAgent, newIssue } from './helpers/factories.ts';
import { waitFor as waitForBounded } from './helpers/wait.ts';
import { spawnServer, type ServerProcess } from './helpers/server-process.ts';

const SLEEPER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'agents', 'sleeper.mjs');
const LEASE_SEC = 2;

let t: TestApp;
let board: string;
let companyId: string;
const dataDirs: string[] = [];

before(async () => {
  t = await startTestApp();
  const c = await t.newCompany();
  board = c.token;
  companyId = c.company.id;
});
after(async () => {
  await t.close();
  for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
});

const waitFor = <T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 20_000) =>
  waitForBounded(what, probe, timeoutMs);
const sql = async (text: string, params: unknown[] = []) => (await t.database.pool.query(text, params)).rows;

/** The environment of a server process on the test's database, sharing its keys, with a short run lease. */
const serverEnv = () => ({
  DATABASE_URL: t.databaseUrl,
  BOARDROOM_RUN_LEASE_SEC: String(LEASE_SEC),
  BOARDROOM_SECRETS_MASTER_KEY: t.config.masterKey.toString('base64'),
  BOARDROOM_JWT_SECRET: Buffer.from(t.config.jwtSecret).toString('base64'),
});

async function startServer(dataDir?: string): Promise<{ server: ServerProcess; dataDir: string }> {
  const dir = dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'boardroom-crash-')));
  if (!dataDir) dataDirs.push(dir);
  const server = spawnServer(['--data-dir', dir, '--port', '0'], serverEnv());
  await server.baseUrl();
  return { server, dataDir: dir };
}

/** Live (non-zombie) processes of a process group, from /proc. */
async function groupMembers(pgid: number): Promise<number[]> {
  const { readdir, readFile } = await import('node:fs/promises');
  const members: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[2] === String(pgid) && fields[0] !== 'Z') members.push(Number(entry));
  }
  return members;
}

/** An agent whose run starts a grandchild `sleep` and waits forever, woken about a new issue; returns once it runs. */
async function runningSleeper(): Promise<{ agentId: string; issueId: string; run: any }> {
  const { agent } = await newAgent(t, board, companyId, {
    adapterConfig: { command: process.execPath, args: [SLEEPER], graceSec: 1 },
  });
  const issue = await newIssue(t, board, companyId, { status: 'todo' });
  assert.equal(
    (
      await t.request('POST', `/api/agents/${agent.id}/wakeup`, {
        token: board,
        body: { payload: { issueId: issue.id } },
      })
    ).status,
    202,
  );
  const run = await waitFor(
    'the run to have its process',
    async () =>
      (
        await sql("select * from heartbeat_runs where agent_id = $1 and status = 'running' and pid is not null", [
          agent.id,
        ])
      )[0],
  );
  await waitFor('the grandchild to start', async () => (await groupMembers(run.pid)).length >= 2);
  return { agentId: agent.id, issueId: issue.id, run };
}

describe('kill -9 of the server that owns a run', () => {
  it('a restart of that server ends the run at once and kills its process group', async () => {
    const { server, dataDir } = await startServer();
    const { issueId, run } = await runningSleeper();
    server.child.kill('SIGKILL');
    await server.exited;
    assert.ok((await groupMembers(run.pid)).length >= 2, 'the agent outlived its server');

    const restarted = Date.now();
    const { server: again } = await startServer(dataDir);
    const [ended] = await waitFor('the run to be ended', async () => {
      const rows = await sql("select * from heartbeat_runs where id = $1 and status <> 'running'", [run.id]);
      return rows.length ? rows : null;
    });
    assert.equal(ended.status, 'failed');
    assert.match(ended.error, /restarted/);
    const shown = (await t.request('GET', `/api/heartbeat-runs/${run.id}`, { token: board })).body;
    assert.equal(shown.errorCode, 'server_restart');
    assert.match(shown.errorHelp.meaning, /restarted/);
    await waitFor('the process group to be gone', async () => (await groupMembers(run.pid)).length === 0, 30_000);
    assert.ok(Date.now() - restarted < 30_000);
    // The issue is free for the next run.
    const [live] = await sql(
      "select count(*)::int as n from heartbeat_runs where issue_id = $1 and status in ('queued', 'running')",
      [issueId],
    );
    assert.equal(live.n, 0);
    again.child.kill('SIGTERM');
    await again.exited;
  });

  it('another replica reaps the run when its lease lapses, kills the process group, and the issue runs again', async () => {
    const { server } = await startServer();
    const { agentId, issueId, run } = await runningSleeper();
    server.child.kill('SIGKILL');
    await server.exited;
    const killedAt = Date.now();

    const other = await startTestApp({
      replicaOf: t,
      engine: { pollMs: 200, reaperIntervalMs: 200, leaseSec: LEASE_SEC },
    });
    try {
      const [ended] = await waitFor('the lease to lapse and the run to be reaped', async () => {
        const rows = await sql("select * from heartbeat_runs where id = $1 and status <> 'running'", [run.id]);
        return rows.length ? rows : null;
      });
      const reapedAfterMs = Date.now() - killedAt;
      assert.equal(ended.status, 'failed');
      assert.match(ended.error, /lease expired/);
      assert.equal(
        (await t.request('GET', `/api/heartbeat-runs/${run.id}`, { token: board })).body.errorCode,
        'lease_lost',
      );
      assert.ok(
        reapedAfterMs < (LEASE_SEC + 1 + 5) * 1000,
        `reaped ${reapedAfterMs} ms after the kill (lease ${LEASE_SEC} s)`,
      );
      await waitFor('the process group to be gone', async () => (await groupMembers(run.pid)).length === 0, 30_000);
      assert.notEqual((await t.request('GET', `/api/agents/${agentId}`, { token: board })).body.status, 'running');

      // The issue's execution lock is free: a new wake about it becomes a new run.
      await t.request('PATCH', `/api/agents/${agentId}`, {
        token: board,
        body: { adapterConfig: { command: 'true' } },
      });
      await t.request('POST', `/api/agents/${agentId}/wakeup`, { token: board, body: { payload: { issueId } } });
      await waitFor(
        'a new run on the issue',
        async () =>
          (
            await sql("select 1 from heartbeat_runs where issue_id = $1 and id <> $2 and status = 'succeeded'", [
              issueId,
              run.id,
            ])
          ).length > 0,
      );
    } finally {
      await other.close();
    }
  });

  // Replicas on one host that both default to ~/.boardroom: the second would share the first's
  // replica id, take its live runs for leftovers of its own previous start and kill them.
  it('a second server on the same data directory refuses before touching anything; once the first is killed, a start succeeds', async () => {
    const { server, dataDir } = await startServer();
    const { run } = await runningSleeper();
    const pidFile = path.join(dataDir, 'boardroom.pid');
    const before = {
      pid: await readFile(pidFile, 'utf8'),
      replica: await readFile(path.join(dataDir, 'replica-id'), 'utf8'),
    };

    // Bounded: a twin that is not refused runs on (and is killed by the helper's clean-up).
    const twin = spawnServer(['--data-dir', dataDir, '--port', '0'], serverEnv());
    const twinExit = await Promise.race([twin.exited, new Promise<null>((r) => setTimeout(() => r(null), 60_000))]);
    twin.child.kill('SIGKILL');
    assert.equal(twinExit?.code, 1, twin.output());
    assert.match(
      twin.output(),
      new RegExp(
        `Boardroom is already running for .* \\(pid ${server.child.pid}\\)\\. A data directory belongs to one running server`,
      ),
    );
    // The first server's run, its process and its files are as they were.
    const [still] = await sql('select status from heartbeat_runs where id = $1', [run.id]);
    assert.equal(still.status, 'running');
    assert.ok((await groupMembers(run.pid)).length >= 2, 'the agent process was left alone');
    assert.equal(await readFile(pidFile, 'utf8'), before.pid);
    assert.equal(await readFile(path.join(dataDir, 'replica-id'), 'utf8'), before.replica);
    assert.ok(existsSync(path.join(dataDir, 'login-url')));

    // The kernel releases the lock with its dead holder: no stale file blocks the next start.
    server.child.kill('SIGKILL');
    await server.exited;
    const { server: again } = await startServer(dataDir);
    await waitFor(
      'the run of the killed server to be ended',
      async () =>
        (await sql("select 1 from heartbeat_runs where id = $1 and status <> 'running'", [run.id])).length > 0,
    );
    await waitFor('the process group to be gone', async () => (await groupMembers(run.pid)).length === 0, 30_000);
    again.child.kill('SIGTERM');
    assert.equal((await again.exited).code, 0);
  });
});
