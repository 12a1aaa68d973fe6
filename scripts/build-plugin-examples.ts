// Builds the shipped examples (plugins/examples/<name>/worker.mjs) from their sources: each example's
// src/worker.mjs and boardroom/plugin-sdk bundled by esbuild into one ES module. A worker runs
// sandboxed and reads only its own package folder, so it cannot import the SDK from Boardroom: it
// ships it inside. The examples are committed prebuilt (an install from a registry or a read-only
// checkout never builds anything); test/plugin-sdk.test.ts checks every shipped bundle equals a fresh
// build, so a change to the SDK or an example's source without a rebuild fails there.
//
//   npm run plugins:build              rebuild every example
//   npm run plugins:build -- --check   exit 1 naming the examples whose worker.mjs is out of date
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { PLUGIN_EXAMPLES_DIR, PLUGIN_SDK_DIR, PROJECT_DIR } from '../src/paths.ts';

const SOURCE = path.join('src', 'worker.mjs');
const OUTPUT = 'worker.mjs';

/** The examples built from sources: folders of plugins/examples/ with a src/worker.mjs. */
export async function buildableExamples(): Promise<string[]> {
  const entries = await readdir(PLUGIN_EXAMPLES_DIR, { withFileTypes: true });
  return entries
    .filter((e) => e.isDirectory() && existsSync(path.join(PLUGIN_EXAMPLES_DIR, e.name, SOURCE)))
    .map((e) => e.name)
    .sort();
}

/** The bundle of one example (its source and the SDK), as text; the same bytes for the same inputs. */
export async function bundleExample(name: string): Promise<string> {
  const dir = path.join(PLUGIN_EXAMPLES_DIR, name);
  const result = await esbuild.build({
    entryPoints: [path.join(dir, SOURCE)],
    bundle: true,
    write: false,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    charset: 'utf8',
    // Paths in the bundle's comments are relative to the project, whoever builds it where.
    absWorkingDir: PROJECT_DIR,
    alias: { 'boardroom/plugin-sdk': path.join(PLUGIN_SDK_DIR, 'index.mjs') },
    banner: {
      js: `// Built by scripts/build-plugin-examples.ts from plugins/examples/${name}/src and boardroom/plugin-sdk: edit those and run \`npm run plugins:build\`, never this file.`,
    },
    logLevel: 'silent',
  });
  const [file] = result.outputFiles;
  if (!file) throw new Error(`esbuild wrote nothing for ${name}`);
  return file.text;
}

/** The examples whose shipped worker.mjs differs from a fresh build. */
export async function staleExamples(): Promise<string[]> {
  const stale: string[] = [];
  for (const name of await buildableExamples()) {
    const shipped = await readFile(path.join(PLUGIN_EXAMPLES_DIR, name, OUTPUT), 'utf8').catch(() => null);
    if (shipped !== (await bundleExample(name))) stale.push(name);
  }
  return stale;
}

async function main(): Promise<void> {
  if (process.argv.includes('--check')) {
    const stale = await staleExamples();
    if (stale.length === 0) return void process.stdout.write('every example worker is up to date\n');
    process.stderr.write(`out of date (run npm run plugins:build): ${stale.join(', ')}\n`);
    process.exitCode = 1;
    return;
  }
  for (const name of await buildableExamples()) {
    await writeFile(path.join(PLUGIN_EXAMPLES_DIR, name, OUTPUT), await bundleExample(name));
    process.stdout.write(`built plugins/examples/${name}/${OUTPUT}\n`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
