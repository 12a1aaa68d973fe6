// bin/boardroom.js when the esbuild bundle cannot be built: it runs the sources through tsx and says
// why on stderr, or, with BOARDROOM_REQUIRE_BUNDLE=1, exits with status 1 (so test/user-start.test.ts
// can trust that it runs the bundle). The build itself is bin/bundle.js.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFile, mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { PROJECT_DIR } from '../src/paths.ts';
import { tempDir } from './helpers/server-process.ts';

describe('bin/boardroom.js when the bundle cannot be built', () => {
  // A checkout of its own: the real bin/, package.json and node_modules, and an entry that esbuild
  // refuses (an import it cannot resolve) while tsx runs it (the import is never reached).
  async function brokenCheckout(): Promise<string> {
    const root = await tempDir('boardroom-broken-bundle-');
    await mkdir(path.join(root, 'bin'));
    await mkdir(path.join(root, 'src', 'cli'), { recursive: true });
    for (const file of ['boardroom.js', 'bundle.js', 'ui-build.js'])
      await copyFile(path.join(PROJECT_DIR, 'bin', file), path.join(root, 'bin', file));
    await copyFile(path.join(PROJECT_DIR, 'package.json'), path.join(root, 'package.json'));
    await symlink(path.join(PROJECT_DIR, 'node_modules'), path.join(root, 'node_modules'));
    await writeFile(
      path.join(root, 'src', 'cli', 'index.ts'),
      "console.log('ran the sources');\nif (process.env.NEVER_SET_ANYWHERE) await import('./missing.ts');\n",
    );
    return root;
  }
  const run = (root: string, env: Record<string, string>) =>
    spawnSync(process.execPath, [path.join(root, 'bin', 'boardroom.js')], {
      env: { PATH: process.env.PATH ?? '', ...env },
      encoding: 'utf8',
    });

  it('runs the sources through tsx, saying why on stderr', async () => {
    const out = run(await brokenCheckout(), {});
    assert.equal(out.status, 0, out.stderr);
    assert.equal(out.stdout, 'ran the sources\n');
    assert.match(
      out.stderr,
      /could not build .*cli\.mjs; running the TypeScript sources through tsx instead:\n.*Could not resolve "\.\/missing\.ts"/s,
    );
  });

  it('with BOARDROOM_REQUIRE_BUNDLE=1, exits with status 1 instead', async () => {
    const out = run(await brokenCheckout(), { BOARDROOM_REQUIRE_BUNDLE: '1' });
    assert.equal(out.status, 1);
    assert.equal(out.stdout, '');
    assert.match(
      out.stderr,
      /BOARDROOM_REQUIRE_BUNDLE=1 forbids running the sources instead:\n.*Could not resolve "\.\/missing\.ts"/s,
    );
  });
});
