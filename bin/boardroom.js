#!/usr/bin/env node
// Starts the CLI. The TypeScript sources are bundled once with esbuild into .build/cli.mjs and
// rebuilt whenever a source file is newer (bin/bundle.js): loading the bundle takes ~0.1 s where
// tsx's on-the-fly loader takes ~2 s, which is what keeps a restart under 2 s. Where the bundle
// cannot be built (a read-only install), the sources run through tsx directly, saying so on stderr;
// BOARDROOM_REQUIRE_BUNDLE=1 makes that an error instead (exit status 1), so a test that means to
// run the bundle cannot run the sources unknowingly.
// The board web UI (bin/ui-build.js) is rebuilt the same way, in a child process: Vite and its
// native parts (rolldown, lightningcss) stay out of this process, which goes on to serve. Built in
// here, they kept the server at 400-411 MB RSS for its whole life; built in a child, the server
// holds 126-132 MB, as when the build already existed (test/first-start.test.ts). A server whose UI could not be built still serves the API, and `/`
// says why the board is missing.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BUNDLE, ENTRY, buildBundle, bundleIsFresh } from './bundle.js';
import { UI_DIST, uiBuildIsFresh } from './ui-build.js';

/**
 * Runs `node bin/ui-build.js` and waits for it; its output goes to this process's stderr (stdout
 * carries the server's log). Null when it built the board, else what went wrong (its error is above).
 */
function buildUiInChild() {
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'ui-build.js');
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script], { stdio: ['ignore', 2, 2] });
    child.once('error', (err) => resolve(`could not start ${script}: ${err.message}`));
    child.once('exit', (code, signal) =>
      resolve(code === 0 ? null : `${script} ${signal ? `ended by ${signal}` : `exited with status ${code}`}`),
    );
  });
}

// Only for the server (`run` is the default command); `mcp` and the other commands never wait on it.
const command = process.argv[2];
const startsServer = command === undefined || command === 'run' || command.startsWith('-');
if (startsServer && !uiBuildIsFresh()) {
  process.stderr.write(`boardroom: building the board web UI (ui/ into ${UI_DIST}), never built or older than ui/\n`);
  const failure = await buildUiInChild();
  if (failure !== null) {
    process.stderr.write(`boardroom: could not build the board web UI (ui/); the API still runs: ${failure}\n`);
    if (process.env.BOARDROOM_REQUIRE_BUNDLE === '1') process.exit(1);
  }
}

let failure = null;
if (!bundleIsFresh()) await buildBundle().catch((err) => (failure = err));

if (failure === null) {
  await import(pathToFileURL(BUNDLE).href);
} else {
  const reason = String(failure?.message ?? failure).trim();
  if (process.env.BOARDROOM_REQUIRE_BUNDLE === '1') {
    process.stderr.write(
      `boardroom: could not build ${BUNDLE}, and BOARDROOM_REQUIRE_BUNDLE=1 forbids running the sources instead:\n${reason}\n`,
    );
    process.exit(1);
  }
  process.stderr.write(
    `boardroom: could not build ${BUNDLE}; running the TypeScript sources through tsx instead:\n${reason}\n`,
  );
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(ENTRY).href);
}
