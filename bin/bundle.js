// The esbuild bundle of src/ that bin/boardroom.js runs: where it lives, whether it is current, and
// how it is built. Its own module so the bundle-level test (test/user-start.test.ts) rebuilds it
// with exactly these options before starting the server as `npm start` does.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const ENTRY = path.join(root, 'src', 'cli', 'index.ts');
export const BUNDLE = path.join(root, '.build', 'cli.mjs');

function newestSourceMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const mtime = entry.isDirectory()
      ? newestSourceMtime(full)
      : entry.name.endsWith('.ts')
        ? statSync(full).mtimeMs
        : 0;
    if (mtime > newest) newest = mtime;
  }
  return newest;
}

/** True when the bundle exists and no source file is newer. */
export function bundleIsFresh() {
  return existsSync(BUNDLE) && statSync(BUNDLE).mtimeMs >= newestSourceMtime(path.join(root, 'src'));
}

/** Builds the bundle from the sources; throws (esbuild's error, or the file system's) when it cannot. */
export async function buildBundle() {
  // A per-process temporary file and an atomic rename: concurrent starts never see half a bundle.
  const temporary = `${BUNDLE}.${process.pid}.tmp`;
  try {
    mkdirSync(path.dirname(BUNDLE), { recursive: true });
    const esbuild = await import('esbuild');
    // stop(): esbuild's service process would otherwise live as long as the server does.
    await esbuild
      .build({
        entryPoints: [ENTRY],
        outfile: temporary,
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        packages: 'external',
        logLevel: 'silent',
      })
      .finally(() => esbuild.stop());
    renameSync(temporary, BUNDLE);
  } catch (err) {
    rmSync(temporary, { force: true });
    throw err;
  }
}
