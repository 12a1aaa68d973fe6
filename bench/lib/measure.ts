// One scenario measured beside the ceiling: rounds that alternate ceiling and scenario (ABBA order,
// so a load that comes and goes on the machine weighs on both alike), merged per side.
import type { Client, LoadResult, RequestSpec } from './load.ts';
import { merge, percentile } from './load.ts';
import type { Figures } from './report.ts';
import type { BenchServer } from './server.ts';

/** Every scenario's connections (the issue 4 targets are stated at 10). */
export const CONCURRENCY = 10;
// Short rounds, many of them: a burst of other work on the machine lands on both sides alike.
const ROUNDS = 6;
const ROUND_MS = 1_000;
// Long enough for V8 to have optimized the hot paths of both processes (at 500 ms, ratios drifted up from run to run).
const WARMUP_MS = 1_500;

export interface Bench {
  server: BenchServer;
  client: Client;
  /** No credential: what a load balancer's health probe sends. */
  anonymous: Client;
  ceiling: { client: Client; path: string };
  figures: Figures;
  /** Only scenarios whose name matches are measured (setup and seeding still run). */
  only: RegExp | null;
}

function line(name: string, r: LoadResult): string {
  return `${name}: ${r.requests} requests, ${r.errors} errors, ${r.rps.toFixed(0)} req/s, p50 ${r.p50Ms.toFixed(2)} ms, p99 ${r.p99Ms.toFixed(2)} ms`;
}

/** Records a result measured without the ceiling (fixed-count seeding runs). */
export function record(bench: Bench, name: string, r: LoadResult): void {
  process.stdout.write(`${line(name, r)}\n`);
  if (r.errors > 0) throw new Error(`${name}: ${r.errors} requests failed`);
  bench.figures[`${name} req/s`] = r.rps;
  bench.figures[`${name} p50 ms`] = r.p50Ms;
  bench.figures[`${name} p99 ms`] = r.p99Ms;
}

export function selected(bench: Bench, name: string): boolean {
  return bench.only === null || bench.only.test(name);
}

/** Measures `make` at CONCURRENCY connections beside the ceiling and records both and their ratio. */
export async function measure(
  bench: Bench,
  name: string,
  make: (i: number) => RequestSpec,
  opts: { okStatus?: number[]; client?: Client } = {},
): Promise<void> {
  if (!selected(bench, name)) return;
  const ceilingSpec: RequestSpec = { method: 'GET', path: bench.ceiling.path };
  let sent = 0;
  const runScenario = async (durationMs: number) => {
    const r = await (opts.client ?? bench.client).load(make, {
      concurrency: CONCURRENCY,
      durationMs,
      first: sent,
      okStatus: opts.okStatus,
    });
    sent += r.requests;
    return r;
  };
  const runCeiling = (durationMs: number) =>
    bench.ceiling.client.load(() => ceilingSpec, { concurrency: CONCURRENCY, durationMs });
  await runCeiling(WARMUP_MS);
  await runScenario(WARMUP_MS);
  const scenario: LoadResult[] = [];
  const ceiling: LoadResult[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    if (round % 2 === 0) {
      ceiling.push(await runCeiling(ROUND_MS));
      scenario.push(await runScenario(ROUND_MS));
    } else {
      scenario.push(await runScenario(ROUND_MS));
      ceiling.push(await runCeiling(ROUND_MS));
    }
  }
  const s = merge(scenario);
  const c = merge(ceiling);
  const ratio = s.rps / c.rps;
  process.stdout.write(
    `${line(name, s)} | ceiling ${c.rps.toFixed(0)} req/s | ${(ratio * 100).toFixed(0)}% of the ceiling\n`,
  );
  if (s.errors > 0) throw new Error(`${name}: ${s.errors} requests failed`);
  if (c.errors > 0) throw new Error(`${name} (ceiling): ${c.errors} requests failed`);
  bench.figures[`${name} req/s`] = s.rps;
  bench.figures[`${name} p50 ms`] = s.p50Ms;
  bench.figures[`${name} p99 ms`] = s.p99Ms;
  bench.figures[`${name} ceiling req/s`] = c.rps;
  bench.figures[`${name} / ceiling`] = ratio;
}

const SEQUENTIAL_SAMPLES = 200;
const SEQUENTIAL_WARMUP = 20;

/**
 * A read's own latency: SEQUENTIAL_SAMPLES requests one after another (no queueing), held against
 * `targetP99Ms`; then the same requests from CONCURRENCY connections, for the latency under load.
 */
export async function sequential(bench: Bench, name: string, spec: RequestSpec, targetP99Ms: number): Promise<void> {
  if (!selected(bench, name)) return;
  const expectOk = (res: { status: number; body: unknown }) => {
    if (res.status !== 200) throw new Error(`${name}: ${res.status} ${JSON.stringify(res.body)}`);
  };
  for (let i = 0; i < SEQUENTIAL_WARMUP; i++) expectOk(await bench.client.request(spec));
  const latencies: number[] = [];
  for (let i = 0; i < SEQUENTIAL_SAMPLES; i++) {
    const t0 = performance.now();
    const res = await bench.client.request(spec);
    latencies.push(performance.now() - t0);
    expectOk(res);
  }
  latencies.sort((a, b) => a - b);
  const p50 = percentile(latencies, 50);
  const p99 = percentile(latencies, 99);
  bench.figures[`${name} p50 ms`] = p50;
  bench.figures[`${name} p99 ms`] = p99;
  const loaded = await bench.client.load(() => spec, { concurrency: CONCURRENCY, total: SEQUENTIAL_SAMPLES });
  if (loaded.errors > 0) throw new Error(`${name}: ${loaded.errors} requests failed at ${CONCURRENCY} connections`);
  bench.figures[`${name} @${CONCURRENCY} p99 ms`] = loaded.p99Ms;
  process.stdout.write(
    `${name}: ${SEQUENTIAL_SAMPLES} requests one at a time p50 ${p50.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms (target p99 < ${targetP99Ms} ms: ${p99 < targetP99Ms ? 'met' : 'NOT met'}) | at ${CONCURRENCY} connections p50 ${loaded.p50Ms.toFixed(2)} ms, p99 ${loaded.p99Ms.toFixed(2)} ms, ${loaded.rps.toFixed(0)} req/s\n`,
  );
}
