// Issue 25 (from test/adapters-registry.test.ts, which keeps the rule "an install in progress blocks
// no other request" and no longer times it): how long the registry's refusals take while an adapter
// install is held in its import (a package whose import waits for a file), against the same
// requests with no install running. Target p99 < 200 ms while the install is held.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { percentile } from './lib/load.ts';
import { selected, type Bench } from './lib/measure.ts';

const NAME = 'adapter 404 during a held install';
// Each of the seven calls 30 times, one request at a time.
const ROUNDS = 30;
const TARGET_P99_MS = 200;
/** Every route that names an adapter type, for a type that is neither built in nor installed. */
const UNKNOWN_TYPE_CALLS = [
  { method: 'GET', path: '/api/adapters/nope/config-schema' },
  { method: 'GET', path: '/api/adapters/nope/ui-parser.js' },
  { method: 'PATCH', path: '/api/adapters/nope', body: { config: {} } },
  { method: 'PATCH', path: '/api/adapters/nope/override', body: { disabled: true } },
  { method: 'POST', path: '/api/adapters/nope/reload' },
  { method: 'POST', path: '/api/adapters/nope/reinstall' },
  { method: 'DELETE', path: '/api/adapters/nope' },
];

async function refusalLatencies(bench: Bench): Promise<number[]> {
  const latencies: number[] = [];
  for (let round = 0; round < ROUNDS; round++)
    for (const spec of UNKNOWN_TYPE_CALLS) {
      const t0 = performance.now();
      const res = await bench.client.request(spec);
      latencies.push(performance.now() - t0);
      if (res.status !== 404) throw new Error(`${NAME}: ${spec.method} ${spec.path} answered ${res.status}`);
    }
  return latencies.sort((a, b) => a - b);
}

export async function benchAdapters(bench: Bench): Promise<void> {
  if (!selected(bench, NAME)) return;
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'boardroom-bench-adapter-'));
  try {
    const hold = path.join(scratch, 'hold');
    const importing = path.join(scratch, 'importing');
    const dir = path.join(scratch, 'package');
    await mkdir(dir);
    await writeFile(
      path.join(dir, 'package.json'),
      JSON.stringify({ name: 'held', version: '0.0.1', type: 'module', main: 'index.js' }),
    );
    await writeFile(
      path.join(dir, 'index.js'),
      `import { existsSync, writeFileSync } from 'node:fs';
writeFileSync(${JSON.stringify(importing)}, '');
while (!existsSync(${JSON.stringify(hold)})) await new Promise((r) => setTimeout(r, 20));
export function createServerAdapter() {
  return { type: 'bench_held', label: 'bench_held', models: [], agentConfigurationDoc: '', async execute() { return { status: 'succeeded', exitCode: 0, signal: null, error: null }; }, async testEnvironment() { return { ok: true, checks: [] }; } };
}`,
    );

    const idle = await refusalLatencies(bench);
    const installing = bench.client.request({
      method: 'POST',
      path: '/api/adapters/install',
      body: { packageName: dir },
    });
    for (let i = 0; !existsSync(importing); i++) {
      if (i > 1_200) throw new Error(`${NAME}: the install never reached its import`);
      await new Promise((r) => setTimeout(r, 25));
    }
    const held = await refusalLatencies(bench);
    await writeFile(hold, '');
    const installed = await installing;
    if (installed.status !== 201)
      throw new Error(`${NAME}: install ${installed.status} ${JSON.stringify(installed.body)}`);
    await bench.client.request({ method: 'DELETE', path: '/api/adapters/bench_held' });

    const p99 = percentile(held, 99);
    bench.figures[`${NAME} p50 ms`] = percentile(held, 50);
    bench.figures[`${NAME} p99 ms`] = p99;
    bench.figures['adapter 404 p99 ms'] = percentile(idle, 99);
    process.stdout.write(
      `${NAME}: ${held.length} refusals one at a time p50 ${percentile(held, 50).toFixed(2)} ms, p99 ${p99.toFixed(2)} ms (target p99 < ${TARGET_P99_MS} ms: ${p99 < TARGET_P99_MS ? 'met' : 'NOT met'}) | with no install running p50 ${percentile(idle, 50).toFixed(2)} ms, p99 ${percentile(idle, 99).toFixed(2)} ms\n`,
    );
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
