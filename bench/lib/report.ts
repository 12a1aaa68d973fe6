// Prints figures as a table and compares them with bench/baseline.json when it exists.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

export type Figures = Record<string, number>;

const BASELINE = path.join(import.meta.dirname, '..', 'baseline.json');

function delta(now: number, before: number | undefined): string {
  if (before === undefined || before === 0) return '';
  const pct = ((now - before) / before) * 100;
  return `${pct >= 0 ? '+' : ''}${pct.toFixed(1)}% vs baseline ${before.toFixed(2)}`;
}

export async function report(figures: Figures, save: boolean): Promise<void> {
  const baseline: Figures = existsSync(BASELINE) ? JSON.parse(await readFile(BASELINE, 'utf8')) : {};
  const width = Math.max(...Object.keys(figures).map((k) => k.length));
  process.stdout.write('\n== results ==\n');
  for (const [name, value] of Object.entries(figures)) {
    process.stdout.write(`${name.padEnd(width)}  ${value.toFixed(2).padStart(10)}  ${delta(value, baseline[name])}\n`);
  }
  if (save) {
    await writeFile(BASELINE, `${JSON.stringify(figures, null, 2)}\n`);
    process.stdout.write(`saved as the new baseline (${BASELINE})\n`);
  } else if (Object.keys(baseline).length === 0) {
    process.stdout.write('no baseline yet: `npm run bench -- --save-baseline` stores these figures for later comparison\n');
  }
}
