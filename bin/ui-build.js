// The board web UI (ui/) built by Vite into .build/ui, which the server serves at `/`. Like the
// server bundle (bin/bundle.js) it is rebuilt whenever a file under ui/ (or package.json, for a
// changed dependency) is newer than the build, so a board older than its sources is never served.
// `npm run ui:build` builds it by hand; bin/boardroom.js runs `node bin/ui-build.js` before the
// server starts, in a child process so the server never loads Vite.
import {
  copyFileSync,
  existsSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const UI_DIR = path.join(root, 'ui');
export const UI_DIST = path.join(root, '.build', 'ui');
const MARKER = path.join(UI_DIST, 'index.html');
/** How long the files of an earlier build stay beside a new one. */
const CARRY_OVER_MS = 24 * 60 * 60 * 1000;

function newestMtime(target) {
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

/** True when a build exists and nothing it is built from is newer (or there are no UI sources to build). */
export function uiBuildIsFresh() {
  if (!existsSync(UI_DIR)) return true;
  if (!existsSync(MARKER)) return false;
  return statSync(MARKER).mtimeMs >= Math.max(newestMtime(UI_DIR), newestMtime(path.join(root, 'package.json')));
}

/** Builds ui/ into .build/ui; throws Vite's error when it cannot. */
export async function buildUi() {
  // A per-process directory, then renames: a server starting meanwhile never serves half a build.
  const temporary = `${UI_DIST}.${process.pid}.tmp`;
  const previous = `${UI_DIST}.${process.pid}.old`;
  try {
    const { build } = await import('vite');
    await build({
      configFile: path.join(UI_DIR, 'vite.config.ts'),
      root: UI_DIR,
      logLevel: 'warn',
      build: { outDir: temporary, emptyOutDir: true },
    });
    precompress(path.join(temporary, 'assets'));
    carryOverAssets(path.join(UI_DIST, 'assets'), path.join(temporary, 'assets'));
    if (existsSync(UI_DIST)) renameSync(UI_DIST, previous);
    renameSync(temporary, UI_DIST);
  } finally {
    rmSync(temporary, { recursive: true, force: true });
    rmSync(previous, { recursive: true, force: true });
  }
}

// A page loaded from the previous build still asks for its own chunks (each page's code loads when
// first opened), and a rebuild under a running server (ui/ edited while it runs, another instance
// starting) would answer those 404 and leave the page blank. Hashed names never collide, so the
// previous build's files are copied beside the new ones, keeping their age, and dropped a day
// after they were built.
export function carryOverAssets(fromDir, toDir) {
  if (!existsSync(fromDir)) return;
  const now = Date.now();
  for (const name of readdirSync(fromDir)) {
    const source = path.join(fromDir, name);
    const target = path.join(toDir, name);
    const { mtime, atime } = statSync(source);
    if (existsSync(target) || now - mtime.getTime() > CARRY_OVER_MS) continue;
    copyFileSync(source, target);
    utimesSync(target, atime, mtime);
  }
}

// Brotli and gzip copies beside each script and stylesheet, served as they are (@fastify/static's
// preCompressed): compressed once at build, at the highest levels, instead of on every request.
function precompress(dir) {
  for (const name of readdirSync(dir)) {
    if (!/\.(js|css|svg)$/.test(name)) continue;
    const file = path.join(dir, name);
    const content = readFileSync(file);
    writeFileSync(`${file}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
    writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
  }
}

// `node bin/ui-build.js` (npm run ui:build, and bin/boardroom.js when the build is stale): build
// now, fresh or not; exit status 1 with Vite's error when the build fails.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const started = Date.now();
  try {
    await buildUi();
    console.log(`built ${UI_DIST} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } catch (err) {
    process.stderr.write(`ui-build: ${String(err?.message ?? err).trim()}\n`);
    process.exitCode = 1;
  }
}
