// Issue 27 sections 7 and 8: a plugin worker cannot stall the API. The issue list's p99 at
// CONCURRENCY connections without a plugin, against the same while the test-only `evil` worker
// busy-loops (a thread spinning, its main thread still answering: only its niceness and CPU cap hold
// it) and while it floods the host with `log` calls (1,000 at a time, again and again); and a
// worker's resident memory once idle (the kitchen-sink example after `initialize`, its whole process
// tree: bubblewrap's two processes and node). Targets: p99 up by less than 10%, idle RSS <= 60 MiB.
//
// The workers run in this process's PluginWorkers, on the server's database, with the defaults a
// server gives them (this machine's strongest sandbox, its caps): a busy worker competes with the
// server for the cores exactly as it would beside its own host. A flood's host side (reading the
// lines, answering them) lands on this process, which also sends the load: it counts against the
// flood, so the flood's figure is pessimistic.
//
// As in ui-boards.ts, one window's p99 moves more than the effect measured on a shared 2-core VM:
// the states take turns in short windows in mirrored pairs (without, with, with, without, ...) and
// each state's p99 is taken over all its windows' requests pooled.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { connectDatabase } from '../src/db/client.ts';
import { PluginWorkers } from '../src/modules/plugins/worker/host.ts';
import { residentMiB } from '../src/modules/plugins/worker/process.ts';
import { PLUGIN_EXAMPLES_DIR, PROJECT_DIR } from '../src/paths.ts';
import { percentile } from './lib/load.ts';
import { CONCURRENCY, selected, type Bench } from './lib/measure.ts';

const EVIL_DIR = path.join(PROJECT_DIR, 'test', 'fixtures', 'plugins', 'evil');
const ISSUES = 50;
/** Whether the attack runs in each window, in order. */
const WINDOWS = Array.from({ length: 12 }, (_, i) => i % 4 === 1 || i % 4 === 2);
const WINDOW_MS = 3_000;
/** After starting the attack: the worker is up and attacking before a window starts. */
const SETTLE_MS = 1_000;
const IDLE_MS = 2_000;

export async function benchPluginContainment(bench: Bench): Promise<void> {
  const busyName = 'plugin busy worker issue list p99 +%';
  const floodName = 'plugin flooding worker issue list p99 +%';
  const rssName = 'plugin worker idle RSS MiB';
  if (![busyName, floodName, rssName].some((name) => selected(bench, name))) return;
  const { client } = bench;
  const company = await client.request({ method: 'POST', path: '/api/companies', body: { name: 'Plugin bench' } });
  if (company.status !== 201) throw new Error(`company create: ${company.status} ${JSON.stringify(company.body)}`);
  const companyId: string = company.body.id;
  for (let i = 0; i < ISSUES; i++)
    await client.request({ method: 'POST', path: `/api/companies/${companyId}/issues`, body: { title: `Issue ${i}` } });
  const evil = await installFor(bench, companyId, EVIL_DIR);
  const kitchenSink = await installFor(bench, companyId, path.join(PLUGIN_EXAMPLES_DIR, 'kitchen-sink'));

  const database = connectDatabase(bench.server.databaseUrl, 2);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'boardroom-bench-plugins-'));
  const workers = new PluginWorkers({ db: database.db, dataDir });
  const attack = (name: string) =>
    workers.invoke(evil, companyId, { kind: 'tool', key: 'attack', input: { attack: name }, cause: null });
  try {
    if (selected(bench, rssName)) {
      await workers.call(kitchenSink, companyId, 'health', {});
      await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
      const pid = workers.state(kitchenSink, companyId)?.pid;
      if (!pid) throw new Error('the kitchen-sink worker is not running');
      const rss = await residentMiB(pid);
      bench.figures[rssName] = rss.total;
      process.stdout.write(
        `plugin worker idle RSS (${workers.sandbox}): ${rss.total.toFixed(1)} MiB over its ${rss.processes} processes (target <= 60 MiB: ${rss.total <= 60 ? 'met' : 'NOT met'})\n`,
      );
      await workers.stopWorker(kitchenSink, companyId);
    }
    const spec = { method: 'GET' as const, path: `/api/companies/${companyId}/issues` };
    await client.load(() => spec, { concurrency: CONCURRENCY, durationMs: 2_000 }); // warm-up

    if (selected(bench, busyName))
      await againstApi(bench, busyName, 'busy-looping', spec, {
        start: async () => void (await attack('spin-thread')),
        stop: async () => void (await workers.stopWorker(evil, companyId)),
      });
    if (selected(bench, floodName)) {
      let flooding = false;
      let floods = Promise.resolve();
      await againstApi(bench, floodName, 'flooding the host with log calls', spec, {
        start: async () => {
          flooding = true;
          floods = (async () => {
            while (flooding) await attack('flood');
          })();
        },
        stop: async () => {
          flooding = false;
          await floods;
        },
      });
      await workers.stopWorker(evil, companyId);
    }
  } finally {
    await workers.close();
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Installs the plugin from its folder (or finds it installed) and enables it for the company. */
async function installFor(bench: Bench, companyId: string, dir: string): Promise<string> {
  const res = await bench.client.request({
    method: 'POST',
    path: '/api/plugins/install',
    body: { packageName: dir, isLocalPath: true },
  });
  const id: string | undefined = res.status === 201 ? res.body.id : res.body?.details?.pluginId;
  if (!id) throw new Error(`plugin install ${dir}: ${res.status} ${JSON.stringify(res.body)}`);
  const plugin = await bench.client.request({ method: 'GET', path: `/api/plugins/${id}` });
  const consent = await bench.client.request({
    method: 'POST',
    path: `/api/companies/${companyId}/plugins/${id}/enable`,
    body: { capabilities: plugin.body.manifest.capabilities },
  });
  if (consent.status !== 200) throw new Error(`plugin enable: ${consent.status} ${JSON.stringify(consent.body)}`);
  return id;
}

/** The issue list's p99 with and without the attack, in mirrored windows; records the rise in %. */
async function againstApi(
  bench: Bench,
  name: string,
  doing: string,
  spec: { method: 'GET'; path: string },
  attack: { start: () => Promise<void>; stop: () => Promise<void> },
): Promise<void> {
  const latencies = { without: [] as number[], with: [] as number[] };
  let on = false;
  try {
    for (const attacking of WINDOWS) {
      if (attacking !== on) {
        await (attacking ? attack.start() : attack.stop());
        on = attacking;
        if (attacking) await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      }
      const window = await bench.client.load(() => spec, { concurrency: CONCURRENCY, durationMs: WINDOW_MS });
      if (window.errors > 0) throw new Error(`${name}: ${window.errors} requests failed`);
      (attacking ? latencies.with : latencies.without).push(...window.latencies);
    }
  } finally {
    if (on) await attack.stop();
  }
  const p99 = (values: number[]) =>
    percentile(
      values.sort((a, b) => a - b),
      99,
    );
  const [without, withAttack] = [p99(latencies.without), p99(latencies.with)];
  const added = ((withAttack - without) / without) * 100;
  bench.figures[name] = added;
  process.stdout.write(
    `plugin worker ${doing}: issue list p99 ${without.toFixed(1)} ms without (${latencies.without.length} requests), ${withAttack.toFixed(1)} ms with (${latencies.with.length}): ${added >= 0 ? '+' : ''}${added.toFixed(1)}% (target < 10%: ${added < 10 ? 'met' : 'NOT met'})\n`,
  );
}
