// Issue 27 section 8: a plugin worker's cold start (spawn in this replica's sandbox until its
// `initialize` answer) and a call's round trip over its stdio (the kitchen-sink example's `health`:
// the same framing, deadline and answer path as `invoke`), in this process: no server, no database.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { LogRing } from '../src/modules/plugins/worker/lines.ts';
import { DEFAULT_WORKER_LIMITS, WorkerProcess } from '../src/modules/plugins/worker/process.ts';
import { availableSandbox, planLaunch } from '../src/modules/plugins/worker/sandbox.ts';
import { PLUGIN_EXAMPLES_DIR } from '../src/paths.ts';
import { selected, type Bench } from './lib/measure.ts';

const STARTS = 20;
const CALLS = 2_000;
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

export async function benchPluginWorkers(bench: Bench): Promise<void> {
  const start = 'plugin worker cold start';
  const call = 'plugin worker call round trip';
  if (!selected(bench, start) && !selected(bench, call)) return;
  const sandbox = availableSandbox();
  const home = await mkdtemp(path.join(os.tmpdir(), 'boardroom-bench-worker-'));
  const spec = {
    pluginDir: path.join(PLUGIN_EXAMPLES_DIR, 'kitchen-sink'),
    entry: 'worker.mjs',
    memoryMb: DEFAULT_WORKER_LIMITS.memoryMb,
    tmpMb: DEFAULT_WORKER_LIMITS.tmpMb,
    home,
    folders: new Map<string, string>(),
  };
  const starts: number[] = [];
  const trips: number[] = [];
  try {
    for (let i = 0; i < STARTS; i++) {
      const t0 = performance.now();
      const worker = new WorkerProcess(planLaunch(spec, sandbox), DEFAULT_WORKER_LIMITS, new LogRing(50), async () => {
        throw new Error('no host calls in the bench');
      });
      try {
        await worker.call('initialize', { pluginId: 'bench', companyId: 'bench' }, DEFAULT_WORKER_LIMITS.initializeMs);
        starts.push(performance.now() - t0);
        if (i === 0)
          for (let j = 0; j < CALLS; j++) {
            const c0 = performance.now();
            await worker.call('health', {});
            trips.push(performance.now() - c0);
          }
      } finally {
        await worker.stop();
      }
    }
  } finally {
    await rm(home, { recursive: true, force: true });
  }
  process.stdout.write(
    `${start} (${sandbox}): p50 ${p50(starts).toFixed(1)} ms over ${STARTS}; ${call}: p50 ${p50(trips).toFixed(3)} ms over ${CALLS}\n`,
  );
  bench.figures[`${start} p50 ms`] = p50(starts);
  bench.figures[`${call} p50 ms`] = p50(trips);
}
