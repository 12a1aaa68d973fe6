#!/usr/bin/env node
// Starts the CLI. The TypeScript sources are bundled once with esbuild into .build/cli.mjs and
// rebuilt whenever a source file is newer (bin/bundle.js): loading the bundle takes ~0.1 s where
// tsx's on-the-fly loader takes ~2 s, which is what keeps a restart under 2 s. Where the bundle
// cannot be built (a read-only install), the sources run through tsx directly, saying so on stderr;
// BOARDROOM_REQUIRE_BUNDLE=1 makes that an error instead (exit status 1), so a test that means to
// run the bundle cannot run the sources unknowingly.
import { pathToFileURL } from 'node:url';
import { BUNDLE, ENTRY, buildBundle, bundleIsFresh } from './bundle.js';

let failure = null;
if (!bundleIsFresh()) await buildBundle().catch((err) => (failure = err));

if (failure === null) {
  await import(pathToFileURL(BUNDLE).href);
} else {
  const reason = String(failure?.message ?? failure).trim();
  if (process.env.BOARDROOM_REQUIRE_BUNDLE === '1') {
    process.stderr.write(`boardroom: could not build ${BUNDLE}, and BOARDROOM_REQUIRE_BUNDLE=1 forbids running the sources instead:\n${reason}\n`);
    process.exit(1);
  }
  process.stderr.write(`boardroom: could not build ${BUNDLE}; running the TypeScript sources through tsx instead:\n${reason}\n`);
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(ENTRY).href);
}
