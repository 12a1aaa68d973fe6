// `npm run bench`: starts Boardroom on a fresh database, and beside it the ceiling (a bare Fastify
// route doing SELECT 1 on the same database), and prints figures (not a timed test).
//   --save-baseline       store the figures in bench/baseline.json for later comparison
//   --only <regex>        measure only the scenarios whose name matches (setup and seeding still run)
//   --server-root <dir>   run another checkout's bin/boardroom.js (e.g. a snapshot of the code before a change)
//   --cpu-prof <dir>      run the server under `node --cpu-prof`, writing the profile there at exit
//   --log-level <level>   the server's log level (default info, as shipped)
//   --figures <file>      also write the figures as JSON there (e.g. to keep a before-run beside an after-run)
// Scenario files: foundation.ts (issue 2), work.ts (issue 3), engine.ts (issue 7), costs.ts (issue 9), parsers.ts (issue 10), ui.ts (issue 18: the board in Chromium),
// budget-stops.ts (issue 25: a hard stop in effect at the answer).
// documents.ts, adapters.ts, platform.ts and ui-org.ts (issue 25: figures the tests used to assert).
// plugin-workers.ts (issue 27: a worker's cold start and a call's round trip); plugin-surfaces.ts (issue 27: a data key with a warm worker);
// plugin-webhooks.ts (issue 27: a webhook acknowledged, an event reaching the worker).
// plugin-containment.ts (issue 27: the API's p99 beside a busy or flooding worker, a worker's idle RSS).
// plugin-jobs.ts (issue 27: a job claimed after it is due, taken over after its replica dies).
import { writeFile } from 'node:fs/promises';
import { benchFoundation } from './foundation.ts';
import { startCeiling } from './lib/ceiling.ts';
import { Client } from './lib/load.ts';
import type { Bench } from './lib/measure.ts';
import { freePort } from '../src/db/embedded.ts';
import { report, type Figures } from './lib/report.ts';
import { SERVER_POOL_SIZE, startBenchServer } from './lib/server.ts';
import { benchWork } from './work.ts';
import { benchEngine } from './engine.ts';
import { benchRoutines } from './routines.ts';
import { benchDashboard } from './dashboard.ts';
import { benchCosts } from './costs.ts';
import { benchParsers } from './parsers.ts';
import { benchUi } from './ui.ts';
import { benchBudgetStops } from './budget-stops.ts';
import { benchDocuments } from './documents.ts';
import { benchAdapters } from './adapters.ts';
import { benchPlatform } from './platform.ts';
import { benchPluginWorkers } from './plugin-workers.ts';
import { benchPluginSurfaces } from './plugin-surfaces.ts';
import { benchPluginWebhooks } from './plugin-webhooks.ts';
import { benchPluginContainment } from './plugin-containment.ts';
import { benchPluginJobs } from './plugin-jobs.ts';

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

const only = option('--only');
const cpuProf = option('--cpu-prof');
const server = await startBenchServer(await freePort(3900), {
  root: option('--server-root'),
  logLevel: option('--log-level'),
  nodeArgs: cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${cpuProf}`] : [],
});
const ceiling = await startCeiling(server.databaseUrl, await freePort(3950), SERVER_POOL_SIZE).catch(async (err) => {
  await server.stop();
  throw err;
});
const client = new Client(server.base, server.token);
const anonymous = new Client(server.base, '');
const ceilingClient = new Client(ceiling.base, '');
const figures: Figures = {};
const bench: Bench = {
  server,
  client,
  anonymous,
  ceiling: { client: ceilingClient, path: ceiling.path },
  figures,
  only: only ? new RegExp(only) : null,
};
try {
  process.stdout.write(
    `boardroom bench against ${server.base.href} (pid ${server.pid}), ceiling ${ceiling.base.href} (pid ${ceiling.pid})\n`,
  );
  await benchFoundation(bench);
  await benchWork(bench);
  await benchEngine(bench);
  await benchRoutines(bench);
  await benchDashboard(bench);
  await benchCosts(bench);
  await benchBudgetStops(bench);
  await benchParsers(bench);
  await benchDocuments(bench);
  await benchAdapters(bench);
  await benchPlatform(bench);
  await benchPluginWorkers(bench);
  await benchPluginSurfaces(bench);
  await benchPluginWebhooks(bench);
  await benchPluginContainment(bench);
  await benchPluginJobs(bench);
  await benchUi(bench);
  await report(figures, process.argv.includes('--save-baseline'));
  const figuresFile = option('--figures');
  if (figuresFile) await writeFile(figuresFile, `${JSON.stringify(figures, null, 2)}\n`);
} finally {
  client.close();
  anonymous.close();
  ceilingClient.close();
  await ceiling.stop();
  await server.stop();
}
