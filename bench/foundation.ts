// Issue 2 benchmark: 10 companies x 50 agents; health, agent list, agent get, agent create; idle memory.
import { CONCURRENCY, measure, record, type Bench } from './lib/measure.ts';
import { memoryMiB } from './lib/server.ts';

const COMPANIES = 10;
const AGENTS_PER_COMPANY = 50;

export async function benchFoundation(bench: Bench): Promise<void> {
  const { client, figures } = bench;
  await new Promise((r) => setTimeout(r, 2_000));
  const idle = await memoryMiB(bench.server);
  figures['idle server RSS MiB'] = idle.serverRss;
  figures['idle database PSS MiB'] = idle.databasePss;
  process.stdout.write(
    `idle memory: server RSS ${idle.serverRss.toFixed(1)} MiB, database PSS ${idle.databasePss.toFixed(1)} MiB\n`,
  );

  const companyIds: string[] = [];
  for (let i = 0; i < COMPANIES; i++) {
    const res = await client.request({ method: 'POST', path: '/api/companies', body: { name: `Bench Company ${i}` } });
    if (res.status !== 201) throw new Error(`company create: ${res.status} ${JSON.stringify(res.body)}`);
    companyIds.push(res.body.id);
  }
  // Seeding the 500 agents is itself the agent-create measurement (a fixed count, so no ceiling beside it).
  const create = await client.load(
    (i) => ({
      method: 'POST',
      path: `/api/companies/${companyIds[i % COMPANIES]}/agents`,
      body: { name: `Agent ${i}`, role: 'engineer', adapterType: 'process', adapterConfig: { command: 'echo' } },
    }),
    { concurrency: CONCURRENCY, total: COMPANIES * AGENTS_PER_COMPANY },
  );
  record(bench, 'POST /api/companies/{id}/agents', create);
  const agents = await client.request({ method: 'GET', path: `/api/companies/${companyIds[0]}/agents` });
  const agentIds: string[] = agents.body.map((a: { id: string }) => a.id);
  if (agentIds.length !== AGENTS_PER_COMPANY)
    throw new Error(`expected ${AGENTS_PER_COMPANY} agents, got ${agentIds.length}`);

  // A probe sends no credential, and then the route does one SELECT 1, like the ceiling.
  await measure(bench, 'GET /api/health', () => ({ method: 'GET', path: '/api/health' }), { client: bench.anonymous });
  await measure(bench, 'GET /api/companies/{id}/agents', (i) => ({
    method: 'GET',
    path: `/api/companies/${companyIds[i % COMPANIES]}/agents`,
  }));
  await measure(bench, 'GET /api/agents/{id}', (i) => ({
    method: 'GET',
    path: `/api/agents/${agentIds[i % agentIds.length]}`,
  }));
}
