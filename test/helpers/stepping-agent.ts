// A `process` agent whose output the test paces: it prints the first group of lines, then each next
// group when the test says `go(n)` (through a file it watches), and exits at `go(groups.length)`.
// No timing races: a test sees a line appear only after it asked for it.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { tempDir } from './server-process.ts';

export interface SteppingAgent {
  /** adapterConfig for a process agent running the script. */
  adapterConfig: { command: string; args: string[]; timeoutSec: number };
  /** Lets the script print group `step` (or exit, past the last group). */
  go(step: number): Promise<void>;
}

export async function steppingAgent(groups: string[][]): Promise<SteppingAgent> {
  const dir = await tempDir('stepping-agent-');
  const control = path.join(dir, 'step');
  await writeFile(control, '0');
  const script = path.join(dir, 'agent.mjs');
  await writeFile(
    script,
    `import { readFileSync } from 'node:fs';
const groups = ${JSON.stringify(groups)};
const step = () => Number(readFileSync(${JSON.stringify(control)}, 'utf8') || 0);
const reach = (n) => new Promise((resolve) => { const t = setInterval(() => { if (step() >= n) { clearInterval(t); resolve(); } }, 20); });
for (let i = 0; i < groups.length; i++) {
  await reach(i);
  process.stdout.write(groups[i].map((line) => line + '\\n').join(''));
}
await reach(groups.length);
`,
  );
  return {
    adapterConfig: { command: process.execPath, args: [script], timeoutSec: 120 },
    go: (step) => writeFile(control, String(step)),
  };
}
