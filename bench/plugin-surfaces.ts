// Issue 27 section 8: `POST /api/plugins/{pluginId}/data/{key}` with a warm worker, against a plain
// authenticated GET of the same server (`GET /api/companies/{companyId}`); target: at most 5 ms more
// at p95. The plugin is the test fixture `surfaces` (its worker answers data keys by hand, no SDK),
// installed from its path and enabled for a company of its own; its `summary` key feeds a blocks
// slot, so the answer also passes the host's blocks check. Rounds alternate (ABBA) so a load that
// comes and goes on the machine weighs on both alike; 4 connections, under the 8 calls a worker
// takes at once.
import path from 'node:path';
import { merge, percentile, type LoadResult, type RequestSpec } from './lib/load.ts';
import { selected, type Bench } from './lib/measure.ts';

const NAME = 'plugin data key, warm worker';
const FIXTURE = path.resolve(import.meta.dirname, '..', 'test', 'fixtures', 'plugins', 'surfaces');
const CONCURRENCY = 4;
const ROUNDS = 6;
const ROUND_MS = 1_000;
const WARMUP_MS = 1_500;
const TARGET_MS = 5;

export async function benchPluginSurfaces(bench: Bench): Promise<void> {
  if (!selected(bench, NAME)) return;
  const { client } = bench;
  const ok = async (spec: RequestSpec) => {
    const res = await client.request(spec);
    if (res.status >= 300)
      throw new Error(`${NAME}: ${spec.method} ${spec.path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const company = await ok({ method: 'POST', path: '/api/companies', body: { name: 'Plugin bench' } });
  const plugin = await ok({ method: 'POST', path: '/api/plugins/install', body: { packageName: FIXTURE } });
  await ok({
    method: 'POST',
    path: `/api/companies/${company.id}/plugins/${plugin.id}/enable`,
    body: { capabilities: plugin.manifest.capabilities },
  });
  const data: RequestSpec = {
    method: 'POST',
    path: `/api/plugins/${plugin.id}/data/summary`,
    body: { companyId: company.id, params: {} },
  };
  const plain: RequestSpec = { method: 'GET', path: `/api/companies/${company.id}` };
  const run = (spec: RequestSpec, durationMs: number) =>
    client.load(() => spec, { concurrency: CONCURRENCY, durationMs });
  try {
    // The first call starts the worker; the warm-up lets both paths settle.
    await ok(data);
    await run(plain, WARMUP_MS);
    await run(data, WARMUP_MS);
    const plains: LoadResult[] = [];
    const datas: LoadResult[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? [plain, data] : [data, plain];
      for (const spec of order) (spec === plain ? plains : datas).push(await run(spec, ROUND_MS));
    }
    const p = merge(plains);
    const d = merge(datas);
    if (p.errors > 0 || d.errors > 0)
      throw new Error(`${NAME}: ${p.errors} plain and ${d.errors} data requests failed`);
    const p95 = (r: LoadResult) =>
      percentile(
        [...r.latencies].sort((x, y) => x - y),
        95,
      );
    const above = p95(d) - p95(p);
    process.stdout.write(
      `${NAME}: p95 ${p95(d).toFixed(2)} ms vs plain GET p95 ${p95(p).toFixed(2)} ms: +${above.toFixed(2)} ms (target <= ${TARGET_MS} ms: ${above <= TARGET_MS ? 'met' : 'NOT met'}), ${d.requests} data requests at ${CONCURRENCY} connections\n`,
    );
    bench.figures[`${NAME} p95 ms`] = p95(d);
    bench.figures[`${NAME} plain GET p95 ms`] = p95(p);
    bench.figures[`${NAME} p95 above plain GET ms`] = above;
  } finally {
    await client.request({ method: 'DELETE', path: `/api/plugins/${plugin.id}` });
  }
}
