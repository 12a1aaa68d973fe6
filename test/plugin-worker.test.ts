// The plugin worker host (issue 27 section 3) with real child processes: workers start from the
// plugin's files as materialised from the database, with an environment that is exactly the
// allowlist, in the strongest sandbox the machine has (bubblewrap where installed: `npm test`
// installs it as it installs Chromium; as a user id of its own when the server is root; plain otherwise), and
// each kind of misbehaviour of the test-only `hostile` and `crasher` fixtures is contained: a hang
// (TIMEOUT, cancel, then kill), a crash (restart with backoff, then `error`), a 2 MiB line (killed),
// a flood of calls (busy beyond the limit), a worker ignoring shutdown and SIGTERM (SIGKILL).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { access, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pluginWorkersOf } from '../src/modules/plugins/routes.ts';
import { pluginCacheDir } from '../src/modules/plugins/store.ts';
import { BridgeError } from '../src/modules/plugins/worker/errors.ts';
import { PluginWorkers, type SupervisionLimits } from '../src/modules/plugins/worker/host.ts';
import type { WorkerLimits } from '../src/modules/plugins/worker/process.ts';
import { availableSandbox, type SandboxKind, WORKER_ENV_KEYS } from '../src/modules/plugins/worker/sandbox.ts';
import { PLUGIN_EXAMPLES_DIR } from '../src/paths.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { newAgent } from './helpers/factories.ts';
import { waitFor } from './helpers/wait.ts';

const FIXTURES = path.resolve(import.meta.dirname, 'fixtures/plugins');

let t: TestApp;
let companyA: string;
let companyB: string;
let boardB: string;
let kitchenSink: string;
let hostile: string;
let crasher: string;
let masterKeyFile: string;

async function installAndEnable(dir: string): Promise<string> {
  const res = await t.request('POST', '/api/plugins/install', { token: t.ownerToken, body: { packageName: dir } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  const consent = await t.request('POST', `/api/companies/${companyA}/plugins/${res.body.id}/enable`, {
    token: t.ownerToken,
    body: { capabilities: res.body.manifest.capabilities },
  });
  assert.equal(consent.status, 200, JSON.stringify(consent.body));
  return res.body.id;
}

before(async () => {
  t = await startTestApp();
  companyA = (await t.newCompany(t.ownerToken)).company.id;
  const b = await t.newCompany();
  companyB = b.company.id;
  boardB = b.token;
  kitchenSink = await installAndEnable(path.join(PLUGIN_EXAMPLES_DIR, 'kitchen-sink'));
  hostile = await installAndEnable(path.join(FIXTURES, 'hostile'));
  crasher = await installAndEnable(path.join(FIXTURES, 'crasher'));
  // The server's key file as `boardroom run` keeps it: in the data directory, 0600.
  masterKeyFile = path.join(t.config.dataDir, 'master.key');
  await writeFile(masterKeyFile, 'not-a-real-key', { mode: 0o600 });
});
after(async () => {
  await t.close();
});

const FAST: Partial<WorkerLimits> = {
  initializeMs: 10_000,
  cancelGraceMs: 300,
  shutdownMs: 300,
  termMs: 300,
  maxInFlight: 8,
};
const FAST_SUPERVISION: Partial<SupervisionLimits> = { backoffMs: 50, maxBackoffMs: 200, maxCrashes: 3 };

function host(sandbox: SandboxKind, supervision: Partial<SupervisionLimits> = {}, limits: Partial<WorkerLimits> = {}) {
  return new PluginWorkers({
    db: t.database.db,
    dataDir: t.config.dataDir,
    sandbox,
    limits: { ...FAST, ...limits },
    supervision: { ...FAST_SUPERVISION, ...supervision },
  });
}

async function rejectsWith(promise: Promise<unknown>, code: string, message?: RegExp): Promise<BridgeError> {
  const err = await promise.then(
    (value) => assert.fail(`expected ${code}, got ${JSON.stringify(value)}`),
    (e: unknown) => e,
  );
  assert.ok(err instanceof BridgeError, String(err));
  assert.equal(err.code, code, err.message);
  if (message) assert.match(err.message, message);
  return err;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Processes whose command line mentions `needle` (the hostile fixture names itself after its company). */
async function processesWith(needle: string): Promise<number[]> {
  const pids: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    const cmdline = await readFile(`/proc/${name}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(needle)) pids.push(Number(name));
  }
  return pids;
}

// Every confinement this machine offers, strongest first: bubblewrap when usable, its own user id as root, plain.
const SANDBOXES: SandboxKind[] = [
  ...(availableSandbox() === 'bwrap' ? (['bwrap'] as const) : []),
  ...(process.getuid?.() === 0 ? (['unprivileged-user'] as const) : []),
  'none',
];

const STRONGEST = availableSandbox();

describe('plugin workers: what this machine offers', () => {
  it('names the sandbox it uses (bubblewrap where installed)', () => {
    console.log(`# sandboxes tested here: ${SANDBOXES.join(', ')}`);
    assert.equal(new PluginWorkers({ db: t.database.db, dataDir: t.config.dataDir }).sandbox, STRONGEST);
  });
});

for (const sandbox of SANDBOXES) {
  describe(`plugin workers (${sandbox})`, () => {
    it('kitchen-sink: initialize, then its own health answer, through the host', async () => {
      const workers = host(sandbox);
      try {
        const health = (await workers.call(kitchenSink, companyA, 'health', {})) as any;
        assert.equal(health.status, 'ok');
        const state = workers.state(kitchenSink, companyA);
        assert.equal(state?.status, 'running');
        assert.equal(state?.sandbox, sandbox);
        assert.ok(state?.pid && state.pid > 0);
      } finally {
        await workers.close();
      }
    });

    it("has exactly the allowlisted environment, and cannot read the data directory's key or the server's /proc", async () => {
      const workers = host(sandbox);
      try {
        const env = (await workers.call(hostile, companyA, 'invoke', { do: 'env' })) as any;
        assert.deepEqual(env.keys, [...WORKER_ENV_KEYS].sort());
        if (sandbox === 'unprivileged-user') assert.ok(env.uid >= 1_000_000_000, `uid ${env.uid}`);
        if (sandbox !== 'none') {
          for (const target of [masterKeyFile, `/proc/${process.pid}/environ`, t.config.dataDir]) {
            const read = (await workers.call(hostile, companyA, 'invoke', { do: 'read', path: target })) as any;
            assert.equal(read.read, false, `${target} was readable under ${sandbox}`);
          }
        }
      } finally {
        await workers.close();
      }
    });

    it('a hung call is TIMEOUT at its deadline, then the worker is killed after cancel and restarted', async () => {
      const workers = host(sandbox);
      try {
        await rejectsWith(workers.call(hostile, companyA, 'invoke', { do: 'hang' }, 300), 'TIMEOUT');
        await waitFor('the stuck worker restarted', () => workers.state(hostile, companyA)?.restarts === 1);
        assert.match(workers.state(hostile, companyA)?.lastError ?? '', /did not answer after cancel/);
        const echo = await waitFor('the restarted worker answering', () =>
          workers.call(hostile, companyA, 'invoke', { do: 'echo', value: 42 }).catch(() => null),
        );
        assert.deepEqual(echo, { value: 42 });
      } finally {
        await workers.close();
      }
    });

    it('a 2 MiB line kills the worker as misbehaving, with the reason recorded', async () => {
      const workers = host(sandbox);
      try {
        await rejectsWith(workers.call(hostile, companyA, 'invoke', { do: 'bigline' }), 'WORKER_UNAVAILABLE');
        await waitFor('the restart', () => workers.state(hostile, companyA)?.restarts === 1);
        assert.match(workers.state(hostile, companyA)?.lastError ?? '', /a line over 1048576 bytes/);
      } finally {
        await workers.close();
      }
    });

    it('a flood of calls: those over the in-flight limit fail at once, the others complete', async () => {
      const workers = host(sandbox);
      try {
        await workers.call(hostile, companyA, 'invoke', { do: 'echo', value: 1 });
        const calls = Array.from({ length: 20 }, () =>
          workers.call(hostile, companyA, 'invoke', { do: 'slow', ms: 400 }),
        );
        const results = await Promise.allSettled(calls);
        const done = results.filter((r) => r.status === 'fulfilled');
        const busy = results.filter(
          (r) => r.status === 'rejected' && r.reason.code === 'WORKER_UNAVAILABLE' && /busy/.test(r.reason.message),
        );
        assert.equal(done.length, 8);
        assert.equal(busy.length, 12);
      } finally {
        await workers.close();
      }
    });

    it('a worker ignoring shutdown and SIGTERM is gone after the last stage; nothing of it is left', async () => {
      const workers = host(sandbox);
      await workers.call(hostile, companyA, 'invoke', { do: 'ignore-shutdown' });
      const pid = workers.state(hostile, companyA)?.pid;
      assert.ok(pid);
      assert.equal((await processesWith(`hostile-worker-${companyA}`)).length, 1);
      // bubblewrap ends on SIGTERM and takes the worker with it (--die-with-parent); elsewhere SIGKILL ends it.
      assert.equal(await workers.stopWorker(hostile, companyA), sandbox === 'bwrap' ? 'SIGTERM' : 'SIGKILL');
      assert.throws(() => process.kill(pid, 0), /ESRCH/);
      await waitFor(
        'no process of the worker left',
        async () => (await processesWith(`hostile-worker-${companyA}`)).length === 0,
      );
    });

    it('worker-to-host: `log` is recorded, an unknown method is "method not found"; stderr is captured', async () => {
      const workers = host(sandbox);
      try {
        const answer = (await workers.call(hostile, companyA, 'invoke', { do: 'log', message: 'hello host' })) as any;
        assert.deepEqual(answer.logged, { ok: true });
        assert.equal(answer.unknown.code, -32601);
        const lines = workers.logs(hostile);
        assert.ok(lines.some((l) => l.source === 'log' && l.level === 'warn' && l.message === 'hello host'));
        await waitFor('the stderr line', () =>
          workers.logs(hostile).some((l) => l.source === 'stderr' && l.message === 'stderr: hello host'),
        );
      } finally {
        await workers.close();
      }
    });
  });
}

describe('plugin workers: supervision', () => {
  it('a crash restarts the worker after a backoff; repeated crashes mark it error with the last error', async () => {
    const workers = host(STRONGEST, { backoffMs: 50, maxBackoffMs: 1_000, maxCrashes: 3 });
    try {
      await rejectsWith(workers.call(crasher, companyA, 'invoke', {}), 'WORKER_UNAVAILABLE');
      await waitFor('the error state', () => workers.state(crasher, companyA)?.status === 'error', 60_000);
      const state = workers.state(crasher, companyA);
      assert.equal(state?.restarts, 2);
      assert.match(state?.lastError ?? '', /exited with status 3|initialize/);
      const notes = workers.logs(crasher).map((l) => l.message);
      // The backoff doubles: 50 ms, then 100 ms.
      assert.ok(notes.includes('restarting in 50 ms'), notes.join('\n'));
      assert.ok(notes.includes('restarting in 100 ms'), notes.join('\n'));
      assert.ok(notes.some((m) => m === 'crasher: giving up'));
      await rejectsWith(workers.call(crasher, companyA, 'health', {}), 'WORKER_UNAVAILABLE', /failed repeatedly/);
    } finally {
      await workers.close();
    }
  });

  it('a crash of a running worker is a restart; the next call reaches the new process', async () => {
    const workers = host(STRONGEST);
    try {
      await workers.call(hostile, companyA, 'invoke', { do: 'echo', value: 1 });
      const first = workers.state(hostile, companyA)?.pid;
      await rejectsWith(workers.call(hostile, companyA, 'invoke', { do: 'crash' }), 'WORKER_UNAVAILABLE');
      await waitFor('running again', () => {
        const state = workers.state(hostile, companyA);
        return state?.restarts === 1 && state.status === 'running';
      });
      assert.notEqual(workers.state(hostile, companyA)?.pid, first);
      assert.match(workers.state(hostile, companyA)?.lastError ?? '', /exited with status 7/);
    } finally {
      await workers.close();
    }
  });

  it('an idle worker is stopped; a plugin not enabled for the company never starts', async () => {
    const workers = host(STRONGEST, { idleMs: 300 });
    try {
      await workers.call(kitchenSink, companyA, 'health', {});
      const pid = workers.state(kitchenSink, companyA)?.pid;
      assert.ok(pid);
      await waitFor('the idle stop', () => {
        const state = workers.state(kitchenSink, companyA);
        return state?.status === 'stopped' && state.pid === null;
      });
      await waitFor('the process gone', () => {
        try {
          process.kill(pid, 0);
          return false;
        } catch {
          return true;
        }
      });
      await rejectsWith(workers.call(kitchenSink, companyB, 'health', {}), 'WORKER_UNAVAILABLE', /not enabled/);
    } finally {
      await workers.close();
    }
  });

  it('a worker that stops answering health pings is killed and restarted', async () => {
    const workers = host(STRONGEST, { healthIntervalMs: 200 }, { healthMs: 200 });
    try {
      // A busy loop: the worker's event loop answers nothing any more, health pings included.
      const spinning = workers.call(hostile, companyA, 'invoke', { do: 'spin' }, 60_000);
      await rejectsWith(spinning, 'WORKER_UNAVAILABLE', /health ping failed/);
      await waitFor('the restart', () => workers.state(hostile, companyA)?.restarts === 1);
      assert.match(workers.state(hostile, companyA)?.lastError ?? '', /health ping failed/);
    } finally {
      await workers.close();
    }
  });

  it('a worker over its memory cap dies and is restarted', async () => {
    const workers = host(STRONGEST, {}, { memoryMb: 64 });
    try {
      await rejectsWith(workers.call(hostile, companyA, 'invoke', { do: 'oom' }, 60_000), 'WORKER_UNAVAILABLE');
      await waitFor('the restart', () => workers.state(hostile, companyA)?.restarts === 1, 60_000);
      assert.ok(workers.logs(hostile).some((l) => l.source === 'stderr' && /heap out of memory/i.test(l.message)));
    } finally {
      await workers.close();
    }
  });

  it('a dead pipe counts as a crash: the next write to it kills and restarts the worker', async () => {
    const workers = host(STRONGEST, { healthIntervalMs: 200 }, { healthMs: 1_000 });
    try {
      await workers.call(hostile, companyA, 'invoke', { do: 'close-stdin' });
      await waitFor('the restart', () => workers.state(hostile, companyA)?.restarts === 1);
      assert.match(workers.state(hostile, companyA)?.lastError ?? '', /stdin pipe is closed|health ping failed/);
    } finally {
      await workers.close();
    }
  });
});

describe('plugin workers: routes', () => {
  it('GET health and logs: per company the caller may see, with the worker’s own answer; agents 403', async () => {
    const workers = pluginWorkersOf(t.app);
    await workers.call(kitchenSink, companyA, 'health', {});
    const res = await t.request('GET', `/api/plugins/${kitchenSink}/health`, { token: t.ownerToken });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.length, 1);
    const [entry] = res.body;
    assert.equal(entry.companyId, companyA);
    assert.equal(entry.status, 'running');
    assert.equal(entry.sandbox, STRONGEST);
    assert.equal(entry.restarts, 0);
    assert.equal(entry.lastError, null);
    assert.ok(entry.pid > 0 && entry.uptimeMs >= 0);
    assert.equal(entry.health.status, 'ok');

    const logs = await t.request('GET', `/api/plugins/${kitchenSink}/logs`, { token: t.ownerToken });
    assert.equal(logs.status, 200, JSON.stringify(logs.body));
    assert.ok(logs.body.some((l: any) => l.source === 'host' && /started/.test(l.message) && l.companyId === companyA));

    // Another company's board sees nothing of company A's worker.
    assert.deepEqual((await t.request('GET', `/api/plugins/${kitchenSink}/health`, { token: boardB })).body, []);
    assert.deepEqual((await t.request('GET', `/api/plugins/${kitchenSink}/logs`, { token: boardB })).body, []);
    const { token: agent } = await newAgent(t, t.ownerToken, companyA);
    assert.equal((await t.request('GET', `/api/plugins/${kitchenSink}/health`, { token: agent })).status, 403);
    assert.equal((await t.request('GET', `/api/plugins/${kitchenSink}/logs`, { token: agent })).status, 403);
    assert.equal(
      (await t.request('GET', `/api/plugins/${crypto.randomUUID()}/health`, { token: t.ownerToken })).status,
      404,
    );
  });

  it('disabling the plugin on the instance stops its workers', async () => {
    const workers = pluginWorkersOf(t.app);
    await workers.call(kitchenSink, companyA, 'health', {});
    const pid = workers.state(kitchenSink, companyA)?.pid;
    assert.ok(pid);
    const res = await t.request('POST', `/api/plugins/${kitchenSink}/disable`, { token: t.ownerToken });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.throws(() => process.kill(pid, 0), /ESRCH/);
    const health = await t.request('GET', `/api/plugins/${kitchenSink}/health`, { token: t.ownerToken });
    assert.equal(health.body[0].status, 'stopped');
    assert.equal(health.body[0].pid, null);
    await rejectsWith(workers.call(kitchenSink, companyA, 'health', {}), 'WORKER_UNAVAILABLE', /disabled/);
    assert.equal((await t.request('POST', `/api/plugins/${kitchenSink}/enable`, { token: t.ownerToken })).status, 200);
  });
});

describe('plugin workers: lifecycle through the API', () => {
  it('each replica runs its own workers, and stops them when it closes', async () => {
    const replica = await startTestApp({ replicaOf: t });
    let closed = false;
    try {
      await pluginWorkersOf(replica.app).call(hostile, companyA, 'invoke', { do: 'echo', value: 1 });
      const pid = pluginWorkersOf(replica.app).state(hostile, companyA)?.pid;
      assert.ok(pid);
      const there = await replica.request('GET', `/api/plugins/${hostile}/health`, { token: t.ownerToken });
      assert.equal(there.body[0].status, 'running');
      const here = await t.request('GET', `/api/plugins/${hostile}/health`, { token: t.ownerToken });
      assert.equal(here.body[0].status, 'stopped');
      await replica.close();
      closed = true;
      assert.throws(() => process.kill(pid, 0), /ESRCH/);
      await waitFor(
        'no process of the worker left',
        async () => (await processesWith(`hostile-worker-${companyA}`)).length === 0,
      );
    } finally {
      if (!closed) await replica.close();
    }
  });

  it('a stop asked on one replica stops the workers on every replica within 15 s', async () => {
    const replica = await startTestApp({ replicaOf: t });
    const there = pluginWorkersOf(replica.app);
    const { company } = await t.newCompany(t.ownerToken);
    const consent = (body: Record<string, unknown>, verb: 'enable' | 'disable') =>
      t.request('POST', `/api/companies/${company.id}/plugins/${kitchenSink}/${verb}`, { token: t.ownerToken, body });
    const capabilities = (await t.request('GET', `/api/plugins/${kitchenSink}`, { token: t.ownerToken })).body.manifest
      .capabilities;
    const runningThere = async (companyId: string) => {
      await there.call(kitchenSink, companyId, 'health', {});
      const pid = there.state(kitchenSink, companyId)?.pid;
      assert.ok(pid, 'the worker runs on the other replica');
      return pid;
    };
    const gone = (pid: number) => !processAlive(pid);
    try {
      assert.equal((await consent({ capabilities }, 'enable')).status, 200);
      // The company turns it off through this replica: the other one's worker for it stops.
      const companyPid = await runningThere(company.id);
      const otherPid = await runningThere(companyA);
      assert.equal((await consent({}, 'disable')).status, 200);
      await waitFor('the other replica to stop the company’s worker', async () => gone(companyPid), 15_000);
      assert.equal(there.state(kitchenSink, company.id), null);
      assert.ok(!gone(otherPid), 'the worker of a company that did not turn it off still runs');
      // The instance owner disables the plugin: every worker of it, on every replica.
      const res = await t.request('POST', `/api/plugins/${kitchenSink}/disable`, { token: t.ownerToken });
      assert.equal(res.status, 200);
      await waitFor('the other replica to stop every worker of the plugin', async () => gone(otherPid), 15_000);
    } finally {
      await t.request('POST', `/api/plugins/${kitchenSink}/enable`, { token: t.ownerToken });
      await replica.close();
    }
  });

  it('an uninstall on one replica stops the workers on every replica and removes their cached files', async () => {
    const replica = await startTestApp({ replicaOf: t });
    try {
      const installed = await t.request('POST', '/api/plugins/install', {
        token: t.ownerToken,
        body: { packageName: path.join(FIXTURES, 'folders') },
      });
      assert.equal(installed.status, 201, JSON.stringify(installed.body));
      const id = installed.body.id;
      const consent = await t.request('POST', `/api/companies/${companyA}/plugins/${id}/enable`, {
        token: t.ownerToken,
        body: { capabilities: installed.body.manifest.capabilities },
      });
      assert.equal(consent.status, 200, JSON.stringify(consent.body));
      const there = pluginWorkersOf(replica.app);
      await there.call(id, companyA, 'health', {});
      const pid = there.state(id, companyA)?.pid;
      assert.ok(pid, 'the worker runs on the other replica');
      const cache = pluginCacheDir(replica.config.dataDir, id);
      await access(cache);
      assert.equal((await t.request('DELETE', `/api/plugins/${id}`, { token: t.ownerToken })).status, 200);
      await waitFor(
        'the other replica to stop the worker and drop its cached files',
        async () => !existsSync(cache) && !processAlive(pid),
        15_000,
      );
      assert.deepEqual(there.states(id), []);
    } finally {
      await replica.close();
    }
  });

  it('a company turning the plugin off stops its worker; uninstalling stops every worker of the plugin', async () => {
    const workers = pluginWorkersOf(t.app);
    await workers.call(hostile, companyA, 'invoke', { do: 'echo', value: 1 });
    const first = workers.state(hostile, companyA)?.pid;
    assert.ok(first);
    const off = await t.request('POST', `/api/companies/${companyA}/plugins/${hostile}/disable`, {
      token: t.ownerToken,
    });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    assert.throws(() => process.kill(first, 0), /ESRCH/);
    await rejectsWith(
      workers.call(hostile, companyA, 'invoke', { do: 'echo', value: 1 }),
      'WORKER_UNAVAILABLE',
      /not enabled/,
    );

    await workers.call(kitchenSink, companyA, 'health', {});
    const second = workers.state(kitchenSink, companyA)?.pid;
    assert.ok(second);
    assert.equal((await t.request('DELETE', `/api/plugins/${kitchenSink}`, { token: t.ownerToken })).status, 200);
    assert.throws(() => process.kill(second, 0), /ESRCH/);
    assert.deepEqual(workers.states(kitchenSink), []);
  });
});
