// Workspace runtime services supervised by the engine: real processes, real HTTP, bounded waits.
import assert from 'node:assert/strict';
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { spawn } from 'node:child_process';
import pino from 'pino';
import { startRuntimeServices } from '../src/engine/runtime-services.ts';
import { nextBackoff } from '../src/engine/runtime-services.ts';
import { startTestApp, useTestApp } from './helpers/app.ts';
import { companyWithAgent } from './helpers/factories.ts';
import { waitFor } from './helpers/wait.ts';

const ENGINE = { runtimeServiceTickMs: 200, runtimeServiceGraceMs: 1_000, runtimeServiceBackoffMs: 500 };
const t = await useTestApp({ engine: ENGINE });
const a = await companyWithAgent(t);
const b = await companyWithAgent(t);
const cwd = await mkdtemp(path.join(os.tmpdir(), 'boardroom-rt-'));

// The leader starts a child shell that starts a grandchild: stop must take all three.
const TREE = `echo "out-line"; echo "err-line" >&2; sh -c 'sleep 300 & echo "grandchild $!"; wait' & echo "child $!"; wait`;

async function alive(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return stat !== '' && stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
}

async function setup(command: string, app = t, company = a) {
  const p = await app.request('POST', `/api/companies/${company.company.id}/projects`, {
    token: company.boardToken,
    body: { name: 'Runtime' },
  });
  assert.equal(p.status, 201, JSON.stringify(p.body));
  const ws = await app.request('POST', `/api/projects/${p.body.id}/workspaces`, {
    token: company.boardToken,
    body: { cwd, runtimeConfig: { command, env: { RT_GREETING: 'hi' } } },
  });
  assert.equal(ws.status, 201, JSON.stringify(ws.body));
  const base = `/api/projects/${p.body.id}/workspaces/${ws.body.id}`;
  return {
    base,
    action: (act: string, app2 = app) =>
      app2.request('POST', `${base}/runtime-services/${act}`, { token: company.boardToken }),
    service: async (app2 = app) => {
      const list = await app2.request('GET', `/api/projects/${p.body.id}/workspaces`, { token: company.boardToken });
      assert.equal(list.status, 200);
      return list.body.find((w: any) => w.id === ws.body.id).runtimeService;
    },
    logs: async (query = '') => {
      const res = await app.request('GET', `${base}/runtime-services/logs${query}`, { token: company.boardToken });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body;
    },
  };
}

describe('workspace runtime services', () => {
  it('the restart delay doubles per consecutive crash up to its cap, and a run that stayed up starts it over', () => {
    const settings = { backoffMs: 1_000, maxBackoffMs: 60_000, stableMs: 30_000 };
    let crashes = 0;
    const delays: number[] = [];
    for (let i = 0; i < 9; i++) {
      const next = nextBackoff(crashes, 500, settings);
      crashes = next.crashes;
      delays.push(next.delayMs);
    }
    assert.deepEqual(delays, [1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000, 60_000]);
    assert.deepEqual(nextBackoff(crashes, 30_000, settings), { crashes: 1, delayMs: 1_000 });
    assert.equal(nextBackoff(5_000, 0, settings).delayMs, 60_000, 'no overflow however many crashes');
  });

  it('start runs the command in its own group with logs; stop kills child and grandchild; restart gives a new pid', async () => {
    const s = await setup(`echo "greeting=$RT_GREETING"; echo "leak=$BOARDROOM_TEST_DATABASE_URL."; ${TREE}`);
    assert.equal((await s.action('start')).status, 200);
    const running = await waitFor('the service running', async () => {
      const svc = await s.service();
      return svc?.status === 'running' && svc.pid ? svc : null;
    });
    assert.equal(running.desiredState, 'running');
    assert.equal(running.restarts, 0);
    assert.ok(await alive(running.pid));
    const log = await waitFor('the output in the log', async () => {
      const l = await s.logs();
      return /grandchild \d+/.test(l.content) && /child \d+/.test(l.content) ? l : null;
    });
    assert.match(log.content, /greeting=hi/);
    assert.ok(process.env.BOARDROOM_TEST_DATABASE_URL, 'the server has a BOARDROOM_* value to leak');
    assert.match(log.content, /leak=\./, "the server's BOARDROOM_* environment never reaches the service");
    assert.match(log.content, /out-line/);
    assert.match(log.content, /err-line/);
    assert.equal(log.offset, 0);
    assert.equal(log.nextOffset, log.content.length);
    assert.equal(log.truncated, false);
    const beyond = await s.logs(`?offset=${Number.MAX_SAFE_INTEGER}`);
    assert.deepEqual([beyond.content, beyond.offset], ['', log.totalChars]);
    const page = await s.logs('?offset=2&limit=3');
    assert.equal(page.content, log.content.slice(2, 5));
    assert.equal(page.nextOffset, 5);
    // The newest output in one read: the last `limit` characters, and where they start.
    const newest = await s.logs('?at=end&limit=3');
    assert.deepEqual(
      [newest.content, newest.offset, newest.nextOffset, newest.totalChars, newest.truncated],
      [log.content.slice(-3), log.totalChars - 3, log.totalChars, log.totalChars, false],
    );
    const all = await s.logs('?at=end');
    assert.deepEqual([all.content, all.offset], [log.content, 0]);
    const child = Number(/(?:^|\n)child (\d+)/.exec(log.content)![1]);
    const grandchild = Number(/grandchild (\d+)/.exec(log.content)![1]);
    assert.ok(await alive(child));
    assert.ok(await alive(grandchild));

    assert.equal((await s.action('restart')).status, 200);
    const restarted = await waitFor('a new pid after restart', async () => {
      const svc = await s.service();
      return svc?.status === 'running' && svc.pid && svc.pid !== running.pid ? svc : null;
    });
    await waitFor(
      'the old group gone after restart',
      async () => !(await alive(running.pid)) && !(await alive(child)) && !(await alive(grandchild)),
    );
    assert.equal(restarted.restarts, 0, 'a restart is not a crash');

    const fresh = await waitFor('the new tree in the log', async () => {
      const matches = [...(await s.logs()).content.matchAll(/grandchild (\d+)/g)];
      return matches.length >= 2 ? Number(matches[1]![1]) : null;
    });
    assert.equal((await s.action('stop')).status, 200);
    const stopped = await waitFor('the service stopped', async () => {
      const svc = await s.service();
      return svc?.status === 'stopped' ? svc : null;
    });
    assert.equal(stopped.pid, null);
    assert.equal(stopped.desiredState, 'stopped');
    assert.equal(await alive(restarted.pid), false);
    await waitFor('the grandchild gone', async () => !(await alive(fresh)));
  });

  it('a crashing command is restarted with backoff, counted and visible', async () => {
    const s = await setup('echo crashing; sleep 0.2; exit 3');
    assert.equal((await s.action('start')).status, 200);
    const restartsReach = (n: number) =>
      waitFor(
        `${n} restarts`,
        async () => {
          const svc = await s.service();
          return svc && svc.restarts >= n ? svc : null;
        },
        15_000,
      );
    await restartsReach(1);
    const firstAt = Date.now();
    const crashed = await restartsReach(3);
    // Backoff 0.5 s then 1 s (plus two 0.2 s runs) between crash 1 and 3: a constant 0.5 s would be 1.4 s.
    assert.ok(Date.now() - firstAt >= 1_600, `crash 1 to 3 took ${Date.now() - firstAt} ms`);
    assert.equal(crashed.exitCode, 3);
    assert.equal(crashed.lastError, 'exited with code 3');
    await waitFor('the backoff status', async () => (await s.service())?.status === 'backoff');
    const runs = (await s.logs()).content.match(/crashing/g) ?? [];
    assert.ok(runs.length >= 3, `ran ${runs.length} times`);
    assert.equal((await s.action('stop')).status, 200);
    const stopped = await waitFor('stopped', async () =>
      (await s.service())?.status === 'stopped' ? await s.service() : null,
    );
    // Backoff grew: 0.5 s, 1 s, 2 s ... so a few seconds give only a few restarts.
    assert.ok(stopped.restarts < 8, `restarts ${stopped.restarts}`);
  });

  it('a command that cannot start (cwd gone) is in backoff with the reason; a config without command is 422', async () => {
    const p = await t.request('POST', `/api/companies/${a.company.id}/projects`, {
      token: a.boardToken,
      body: { name: 'Gone' },
    });
    const gone = await t.request('POST', `/api/projects/${p.body.id}/workspaces`, {
      token: a.boardToken,
      body: { cwd: path.join(cwd, 'missing'), runtimeConfig: { command: 'sleep 300' } },
    });
    const url = `/api/projects/${p.body.id}/workspaces/${gone.body.id}/runtime-services`;
    assert.equal((await t.request('POST', `${url}/start`, { token: a.boardToken })).status, 200);
    const svc = await waitFor('the backoff', async () => {
      const list = await t.request('GET', `/api/projects/${p.body.id}/workspaces`, { token: a.boardToken });
      const state = list.body[0].runtimeService;
      return state?.status === 'backoff' ? state : null;
    });
    assert.match(svc.lastError, /could not start/);
    assert.equal((await t.request('POST', `${url}/stop`, { token: a.boardToken })).status, 200);
    const noCommand = await t.request('POST', `/api/projects/${p.body.id}/workspaces`, {
      token: a.boardToken,
      body: { cwd, runtimeConfig: { port: 3000 } },
    });
    const refused = await t.request(
      'POST',
      `/api/projects/${p.body.id}/workspaces/${noCommand.body.id}/runtime-services/start`,
      { token: a.boardToken },
    );
    assert.equal(refused.status, 422);
    assert.equal(refused.body.details.hasRuntimeConfig, false);
  });

  it('refuses the logs route to another company (403), a bad action is 400, logs of an unknown workspace 404', async () => {
    const s = await setup('sleep 1');
    for (const token of [b.boardToken, b.agent.token]) {
      const res = await t.request('GET', `${s.base}/runtime-services/logs`, { token });
      assert.equal(res.status, 403);
    }
    const bad = await s.action('explode');
    assert.equal(bad.status, 400);
    const empty = await s.logs();
    assert.deepEqual({ content: empty.content, totalChars: empty.totalChars }, { content: '', totalChars: 0 });
    const limit = await t.request('GET', `${s.base}/runtime-services/logs?limit=100000`, { token: a.boardToken });
    assert.equal(limit.status, 400);
    for (const query of ['at=end&offset=0', 'at=start']) {
      const res = await t.request('GET', `${s.base}/runtime-services/logs?${query}`, { token: a.boardToken });
      assert.equal(res.status, 400, query);
    }
    const missing = await t.request(
      'GET',
      `${s.base.replace(/[^/]+$/, '00000000-0000-4000-8000-000000000000')}/runtime-services/logs`,
      { token: a.boardToken },
    );
    assert.equal(missing.status, 404);
  });

  it('two replicas never both start a service; engine stop kills it and the other replica takes over', async () => {
    const second = await startTestApp({ replicaOf: t, engine: ENGINE });
    after(() => second.close());
    const s = await setup(TREE);
    assert.equal((await s.action('start')).status, 200);
    const first = await waitFor('running on one replica', async () => {
      const svc = await s.service();
      return svc?.status === 'running' && svc.pid ? svc : null;
    });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const started = ((await s.logs()).content.match(/out-line/g) ?? []).length;
    assert.equal(started, 1, 'started once across both replicas');
    const row = await t.database.pool.query('select owner_boot from workspace_runtime_services where pid = $1', [
      first.pid,
    ]);
    const [owner, other] = row.rows[0].owner_boot === second.engine!.identity.boot ? [second, t] : [t, second];
    // The owner's engine stops (its server shutting down): the group dies, the other replica starts it.
    await owner.engine!.stop();
    assert.equal(await alive(first.pid), false, 'engine stop killed the group');
    const taken = await waitFor('the other replica starting it', async () => {
      const svc = await s.service(other);
      return svc?.status === 'running' && svc.pid !== first.pid ? svc : null;
    });
    assert.ok(await alive(taken.pid));
    const claimed = await t.database.pool.query('select owner_boot from workspace_runtime_services where pid = $1', [
      taken.pid,
    ]);
    assert.equal(claimed.rows[0].owner_boot, other.engine!.identity.boot);
    assert.equal((await s.action('stop', other)).status, 200);
    await waitFor('stopped', async () => (await s.service(other))?.status === 'stopped');
    assert.equal(await alive(taken.pid), false);
  });

  it("a replica's start kills the services its previous boot left running and frees their rows", async () => {
    const s = await setup('sleep 300');
    const workspaceId = s.base.split('/').pop()!;
    const leftover = spawn('sh', ['-c', 'sleep 300 & wait'], {
      detached: true,
      stdio: 'ignore',
      env: { ...process.env, BOARDROOM_RUNTIME_SERVICE: workspaceId },
    });
    await waitFor('the leftover started', () => leftover.pid);
    const decoy = spawn('sleep', ['300'], { detached: true, stdio: 'ignore' }); // same machine, not marked: must survive
    after(() => process.kill(-decoy.pid!, 'SIGKILL'));
    await t.database.pool.query(
      `insert into workspace_runtime_services (workspace_id, company_id, owner_replica, owner_boot, lease_expires_at, status, pid)
       values ($1, $2, 'replica-x', 'boot-old', now() + interval '1 hour', 'running', $3)`,
      [workspaceId, a.company.id, leftover.pid],
    );
    const services = await startRuntimeServices(
      t.database.db,
      { replica: 'replica-x', boot: 'boot-new' },
      { leaseSec: 30, graceMs: 500, backoffMs: 500, maxBackoffMs: 1000, stableMs: 1000 },
      pino({ level: 'silent' }),
    );
    await waitFor('the leftover killed', async () => !(await alive(leftover.pid!)));
    assert.ok(await alive(decoy.pid!));
    const svc = await s.service();
    assert.equal(svc.status, 'crashed');
    assert.equal(svc.pid, null);
    await services.stop();
  });
});
