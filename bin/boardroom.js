#!/usr/bin/env node
// Starts the CLI. The TypeScript sources are bundled once with esbuild into .build/cli.mjs and
// rebuilt whenever a source file is newer: loading the bundle takes ~0.1 s where tsx's on-the-fly
// loader takes ~2 s, which is what keeps a restart under 2 s. Where .build cannot be written (a
// read-only install), the sources run through tsx directly.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entry = path.join(root, 'src', 'cli', 'index.ts');
const bundle = path.join(root, '.build', 'cli.mjs');

function newestSourceMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const mtime = entry.isDirectory() ? newestSourceMtime(full) : entry.name.endsWith('.ts') ? statSync(full).mtimeMs : 0;
    if (mtime > newest) newest = mtime;
  }
  return newest;
}

async function ensureBundle() {
  if (existsSync(bundle) && statSync(bundle).mtimeMs >= newestSourceMtime(path.join(root, 'src'))) return true;
  // A per-process temporary file and an atomic rename: concurrent starts never see half a bundle.
  const temporary = `${bundle}.${process.pid}.tmp`;
  try {
    mkdirSync(path.dirname(bundle), { recursive: true });
    const esbuild = await import('esbuild');
    // stop(): esbuild's service process would otherwise live as long as the server does.
    await esbuild.build({ entryPoints: [entry], outfile: temporary, bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', logLevel: 'silent' }).finally(() => esbuild.stop());
    renameSync(temporary, bundle);
    return true;
  } catch {
    rmSync(temporary, { force: true });
    return false;
  }
}

if (await ensureBundle()) {
  await import(pathToFileURL(bundle).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(entry).href);
}
