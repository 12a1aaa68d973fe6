// `node --import tsx bench/profile.ts <scenario> [seconds] [--server-root <dir>] [--out <dir>]`: runs
// one scenario at 10 connections against a server started under `node --cpu-prof`, then stops the
// server so it writes its .cpuprofile (open it in Chrome DevTools, or summarize it). Scenarios:
// health, agent (GET /api/agents/{id}), list (status=todo,blocked), search (q=invoice), create.
import { mkdir, readdir } from 'node:fs/promises';
import { freePort } from '../src/db/embedded.ts';
import { Client } from './lib/load.ts';
import { CONCURRENCY } from './lib/measure.ts';
import { startBenchServer } from './lib/server.ts';
import { seedIssues } from './work.ts';

const SCENARIOS = ['health', 'agent', 'list', 'search', 'create'] as const;
type Scenario = (typeof SCENARIOS)[number];

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

const scenario = process.argv[2] as Scenario;
if (!SCENARIOS.includes(scenario)) throw new Error(`scenario: one of ${SCENARIOS.join(', ')}`);
const seconds = Number(process.argv[3] && !process.argv[3].startsWith('--') ? process.argv[3] : 10);
const out = option('--out') ?? `/tmp/boardroom-prof-${scenario}-${Date.now()}`;
await mkdir(out, { recursive: true });

const server = await startBenchServer(await freePort(3900), {
  root: option('--server-root'),
  nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${out}`],
});
const client = new Client(server.base, server.token);
// The health probe carries no credential (as in the bench).
const anonymous = new Client(server.base, '');
try {
  const company = (await client.request({ method: 'POST', path: '/api/companies', body: { name: 'Profile Works' } }))
    .body;
  const agent = (
    await client.request({
      method: 'POST',
      path: `/api/companies/${company.id}/agents`,
      body: { name: 'Profiled', role: 'engineer', adapterType: 'process' },
    })
  ).body;
  if (scenario === 'list' || scenario === 'search')
    await seedIssues(server.databaseUrl, company.id, company.issuePrefix, [agent.id]);
  const paths: Record<Exclude<Scenario, 'create'>, string> = {
    health: '/api/health',
    agent: `/api/agents/${agent.id}`,
    list: `/api/companies/${company.id}/issues?limit=50&status=todo,blocked`,
    search: `/api/companies/${company.id}/issues?limit=50&q=invoice`,
  };
  const r = await (scenario === 'health' ? anonymous : client).load(
    (i) =>
      scenario === 'create'
        ? {
            method: 'POST',
            path: `/api/companies/${company.id}/issues`,
            body: { title: `Created issue ${i}`, description: 'created by the benchmark', priority: 'high' },
          }
        : { method: 'GET', path: paths[scenario] },
    { concurrency: CONCURRENCY, durationMs: seconds * 1000 },
  );
  process.stdout.write(
    `${scenario}: ${r.requests} requests, ${r.errors} errors, ${r.rps.toFixed(0)} req/s (under the profiler), p50 ${r.p50Ms.toFixed(2)} ms, p99 ${r.p99Ms.toFixed(2)} ms\n`,
  );
} finally {
  client.close();
  anonymous.close();
  await server.stop();
}
process.stdout.write(`profile: ${out}/${(await readdir(out)).find((f) => f.endsWith('.cpuprofile'))}\n`);
