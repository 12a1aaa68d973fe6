// Issue 2 benchmark: 10 companies x 50 agents; health, agent list, agent get, agent create; idle memory.
import type { Client, LoadResult } from './lib/load.ts';
import type { Figures } from './lib/report.ts';
import { memoryMiB, type BenchServer } from './lib/server.ts';

const COMPANIES = 10;
const AGENTS_PER_COMPANY = 50;
const DURATION_MS = 5_000;
const CONCURRENCY = 8;

function record(figures: Figures, name: string, r: LoadResult): void {
  process.stdout.write(`${name}: ${r.requests} requests, ${r.errors} errors, ${r.rps.toFixed(0)} req/s, p50 ${r.p50Ms.toFixed(2)} ms, p99 ${r.p99Ms.toFixed(2)} ms\n`);
  if (r.errors > 0) throw new Error(`${name}: ${r.errors} requests failed`);
  figures[`${name} req/s`] = r.rps;
  figures[`${name} p50 ms`] = r.p50Ms;
  figures[`${name} p99 ms`] = r.p99Ms;
}

export async function benchFoundation(server: BenchServer, client: Client, figures: Figures): Promise<void> {
  await new Promise((r) => setTimeout(r, 2_000));
  const idle = await memoryMiB(server);
  figures['idle server RSS MiB'] = idle.serverRss;
  figures['idle database PSS MiB'] = idle.databasePss;
  process.stdout.write(`idle memory: server RSS ${idle.serverRss.toFixed(1)} MiB, database PSS ${idle.databasePss.toFixed(1)} MiB\n`);

  const companyIds: string[] = [];
  for (let i = 0; i < COMPANIES; i++) {
    const res = await client.request({ method: 'POST', path: '/api/companies', body: { name: `Bench Company ${i}` } });
    if (res.status !== 201) throw new Error(`company create: ${res.status} ${JSON.stringify(res.body)}`);
    companyIds.push(res.body.id);
  }
  // Seeding the 500 agents is itself the agent-create measurement.
  const create = await client.load(
    (i) => ({ method: 'POST', path: `/api/companies/${companyIds[i % COMPANIES]}/agents`, body: { name: `Agent ${i}`, role: 'engineer', adapterType: 'process', adapterConfig: { command: 'echo' } } }),
    { concurrency: CONCURRENCY, total: COMPANIES * AGENTS_PER_COMPANY },
  );
  record(figures, 'POST /api/companies/{id}/agents', create);
  const agents = await client.request({ method: 'GET', path: `/api/companies/${companyIds[0]}/agents` });
  const agentIds: string[] = agents.body.map((a: { id: string }) => a.id);
  if (agentIds.length !== AGENTS_PER_COMPANY) throw new Error(`expected ${AGENTS_PER_COMPANY} agents, got ${agentIds.length}`);

  record(figures, 'GET /api/health', await client.load(() => ({ method: 'GET', path: '/api/health' }), { concurrency: CONCURRENCY, durationMs: DURATION_MS }));
  record(
    figures,
    'GET /api/companies/{id}/agents',
    await client.load((i) => ({ method: 'GET', path: `/api/companies/${companyIds[i % COMPANIES]}/agents` }), { concurrency: CONCURRENCY, durationMs: DURATION_MS }),
  );
  record(
    figures,
    'GET /api/agents/{id}',
    await client.load((i) => ({ method: 'GET', path: `/api/agents/${agentIds[i % agentIds.length]}` }), { concurrency: CONCURRENCY, durationMs: DURATION_MS }),
  );
}

export { record };
