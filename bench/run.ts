// `npm run bench`: starts Boardroom on a fresh database and prints figures (not a timed test).
// `npm run bench -- --save-baseline` stores them in bench/baseline.json for later comparison.
import { benchFoundation } from './foundation.ts';
import { Client } from './lib/load.ts';
import { freePort } from '../src/db/embedded.ts';
import { report, type Figures } from './lib/report.ts';
import { startBenchServer } from './lib/server.ts';
import { benchWork } from './work.ts';

const server = await startBenchServer(await freePort(3900));
const client = new Client(server.base, server.token);
const figures: Figures = {};
try {
  process.stdout.write(`boardroom bench against ${server.base.href} (pid ${server.pid})\n`);
  await benchFoundation(server, client, figures);
  await benchWork(server, client, figures);
  await report(figures, process.argv.includes('--save-baseline'));
} finally {
  client.close();
  await server.stop();
}
