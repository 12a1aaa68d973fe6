// The browser the board's tests and the `ui` benchmark drive: Debian's Chromium through
// playwright-core (which downloads no browser of its own). `ensureChromium()` runs before the suite:
// where the browser is missing it is installed with apt-get when we are root, else the run stops
// at once with one line saying what to install.
import { existsSync } from 'node:fs';
import { aptInstall, canAptInstall } from './apt.ts';

export const CHROMIUM_PATH = process.env.BOARDROOM_CHROMIUM ?? '/usr/bin/chromium';

/** Flags for a quiet, headless, sandbox-less run in a container (the sandbox needs user namespaces). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

const INSTALL_HINT = `the browser tests need Chromium at ${CHROMIUM_PATH}: install it with \`apt-get install -y chromium\` (as root), or point BOARDROOM_CHROMIUM at a Chromium binary`;

export function ensureChromium(): void {
  if (existsSync(CHROMIUM_PATH)) return;
  if (!canAptInstall() || process.env.BOARDROOM_CHROMIUM) {
    console.error(INSTALL_HINT);
    process.exit(1);
  }
  console.log('installing Chromium for the browser tests: apt-get install -y chromium');
  const failed = aptInstall('chromium');
  if (failed) {
    console.error(`${failed}; ${INSTALL_HINT}`);
    process.exit(1);
  }
  if (!existsSync(CHROMIUM_PATH)) {
    console.error(`apt-get installed chromium, but ${CHROMIUM_PATH} is still missing; ${INSTALL_HINT}`);
    process.exit(1);
  }
}
