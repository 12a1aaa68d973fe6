// `npm test` stops at once, with one line saying what to install, when the browser tests' Chromium
// is missing and cannot be installed here (BOARDROOM_CHROMIUM names a binary that does not exist).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { PROJECT_DIR } from '../src/paths.ts';

test('a missing Chromium stops the run with one line naming what to install', () => {
  const out = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '-e',
      "import('./scripts/chromium.ts').then((m) => { m.ensureChromium(); console.log('went on'); })",
    ],
    {
      cwd: PROJECT_DIR,
      env: { ...process.env, BOARDROOM_CHROMIUM: '/nonexistent/chromium' },
      encoding: 'utf8',
    },
  );
  assert.equal(out.status, 1);
  assert.equal(out.stdout, '');
  const lines = out.stderr.trim().split('\n');
  assert.equal(lines.length, 1, out.stderr);
  assert.match(lines[0]!, /Chromium at \/nonexistent\/chromium: install it with `apt-get install -y chromium`/);
});
