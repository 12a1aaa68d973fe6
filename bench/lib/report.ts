// Prints figures as a table, compares them with bench/baseline.json when it exists, and checks the
// issue 4 targets.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

export type Figures = Record<string, number>;

const BASELINE = path.join(import.meta.dirname, '..', 'baseline.json');

/**
 * Issue 4 ("the request pipeline costs more than the work"), at 10 connections. "x baseline"
 * targets compare the share of the ceiling (stable on a noisy machine) and show raw req/s beside it.
 */
const TARGETS: Array<{ key: string; atLeast?: number; below?: number; timesBaseline?: number }> = [
  { key: 'GET /api/health / ceiling', atLeast: 0.8 },
  { key: 'GET /api/agents/{id} / ceiling', atLeast: 0.5 },
  { key: 'list status=todo,blocked / ceiling', timesBaseline: 3 },
  { key: 'list status=todo,blocked p99 ms', below: 50 },
  { key: 'search q=invoice / ceiling', timesBaseline: 3 },
  { key: 'search q=invoice p99 ms', below: 50 },
  { key: 'POST /api/companies/{id}/issues / ceiling', timesBaseline: 3 },
  { key: 'POST /api/companies/{id}/issues p99 ms', below: 100 },
  // Issue 18: the board in the browser (bench/ui.ts).
  { key: 'ui first screen JS KB gzip', below: 250.01 },
  { key: 'ui event to visible p95 ms', below: 1000 },
  { key: 'ui 1000-row list scripting ms', below: 100 },
  { key: 'ui 10 boards API p99 +%', below: 10 },
  // Issue 19: the costs page at 100k cost events.
  { key: 'ui costs first render ms', below: 1000 },
  // Issue 25: a hard stop in effect when the crossing cost event answers.
  { key: 'budget stop at the answer reads not paused', below: 0.5 },
  { key: 'budget stop at the answer wakes accepted', below: 0.5 },
  // Issue 25: the bounds the tests used to assert, now figures.
  { key: 'GET document revisions page (30 x 512 KiB) p99 ms', below: 500 },
  { key: 'adapter 404 during a held install p99 ms', below: 200 },
  { key: 'ui org chart render ms', below: 3000 },
  { key: 'second start to healthy max ms', below: 2000 },
  { key: 'embedded database back after SIGINT max ms', below: 5000 },
  { key: 'embedded database back after SIGKILL max ms', below: 5000 },
  // Issue 27 section 8.
  { key: 'plugin webhook acknowledged p95 ms', below: 50 },
  { key: 'plugin event to worker p95 ms', below: 2000 },
  // Issue 27: a plugin worker cannot stall the API (bench/plugin-containment.ts).
  { key: 'plugin busy worker issue list p99 +%', below: 10 },
  { key: 'plugin flooding worker issue list p99 +%', below: 10 },
  { key: 'plugin worker idle RSS MiB', below: 60.01 },
  // Issue 27 section 8: plugin jobs (bench/plugin-jobs.ts).
  { key: 'plugin job claim delay max ms', below: 1000.01 },
  { key: 'plugin job takeover ms', below: 45000.01 },
];

function delta(now: number, before: number | undefined): string {
  if (before === undefined || before === 0) return '';
  const pct = ((now - before) / before) * 100;
  return `${pct >= 0 ? '+' : ''}${pct.toFixed(1)}% vs baseline ${before.toFixed(2)}`;
}

function targets(figures: Figures, baseline: Figures): void {
  process.stdout.write(
    '\n== targets (issue 4 at 10 connections; issue 18 in the browser; issue 25 from the tests) ==\n',
  );
  for (const t of TARGETS) {
    const value = figures[t.key];
    if (value === undefined) continue;
    let goal: string;
    let met: boolean | undefined;
    if (t.atLeast !== undefined) {
      goal = `>= ${t.atLeast}`;
      met = value >= t.atLeast;
    } else if (t.below !== undefined) {
      goal = `< ${t.below}`;
      met = value < t.below;
    } else {
      const before = baseline[t.key];
      const rpsKey = t.key.replace(/ \/ ceiling$/, ' req/s');
      const rpsFactor = baseline[rpsKey]
        ? ` (req/s ${(figures[rpsKey]! / baseline[rpsKey]!).toFixed(2)}x baseline)`
        : '';
      goal = before
        ? `>= ${t.timesBaseline}x baseline ${before.toFixed(3)}: ${(value / before).toFixed(2)}x${rpsFactor}`
        : `>= ${t.timesBaseline}x baseline (no baseline)`;
      met = before ? value >= t.timesBaseline! * before : undefined;
    }
    const verdict = met === undefined ? '' : met ? 'met' : 'NOT met';
    process.stdout.write(`${t.key}  ${value.toFixed(3)}  ${goal}  ${verdict}\n`);
  }
}

export async function report(figures: Figures, save: boolean): Promise<void> {
  const baseline: Figures = existsSync(BASELINE) ? JSON.parse(await readFile(BASELINE, 'utf8')) : {};
  const width = Math.max(...Object.keys(figures).map((k) => k.length));
  process.stdout.write('\n== results ==\n');
  for (const [name, value] of Object.entries(figures)) {
    process.stdout.write(`${name.padEnd(width)}  ${value.toFixed(2).padStart(10)}  ${delta(value, baseline[name])}\n`);
  }
  targets(figures, baseline);
  if (save) {
    await writeFile(BASELINE, `${JSON.stringify(figures, null, 2)}\n`);
    process.stdout.write(`saved as the new baseline (${BASELINE})\n`);
  } else if (Object.keys(baseline).length === 0) {
    process.stdout.write(
      'no baseline yet: `npm run bench -- --save-baseline` stores these figures for later comparison\n',
    );
  }
}
