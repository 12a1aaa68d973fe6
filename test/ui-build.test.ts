// bin/ui-build.js and src/server/board-ui.ts: a rebuild keeps the previous build's files beside the
// new ones for a day, and a running server goes on serving the build it started with, so neither
// its pages nor the pages loaded before the rebuild lose their scripts.
import assert from 'node:assert/strict';
import { mkdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import type { App } from '../src/http/deps.ts';
import { installBoardUi } from '../src/server/board-ui.ts';
// @ts-expect-error bin/ is plain JavaScript with no declarations
import { carryOverAssets } from '../bin/ui-build.js';
import { tempDir } from './helpers/server-process.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('ui build: files of the previous build', () => {
  it('are carried over for a day with their age, never over a file of the new build', async () => {
    const root = await tempDir('ui-build-');
    const previous = path.join(root, 'old');
    const next = path.join(root, 'new');
    await mkdir(previous);
    await mkdir(next);
    await writeFile(path.join(previous, 'IssuesPage-old.js'), 'old chunk');
    await writeFile(path.join(previous, 'shared-same.js'), 'old bytes');
    await writeFile(path.join(previous, 'Ancient-old.js'), 'two days old');
    const twoDaysAgo = new Date(Date.now() - 2 * DAY_MS);
    await utimes(path.join(previous, 'Ancient-old.js'), twoDaysAgo, twoDaysAgo);
    const anHourAgo = new Date(Date.now() - 60 * 60 * 1000);
    await utimes(path.join(previous, 'IssuesPage-old.js'), anHourAgo, anHourAgo);
    await writeFile(path.join(next, 'shared-same.js'), 'new bytes');

    carryOverAssets(previous, next);

    assert.equal(await readFile(path.join(next, 'IssuesPage-old.js'), 'utf8'), 'old chunk');
    const carriedAge = Date.now() - (await stat(path.join(next, 'IssuesPage-old.js'))).mtimeMs;
    assert.ok(
      Math.abs(carriedAge - 60 * 60 * 1000) < 60_000,
      `a carried file keeps its age, so it goes a day after its own build (${carriedAge} ms)`,
    );
    assert.equal(await readFile(path.join(next, 'shared-same.js'), 'utf8'), 'new bytes');
    await assert.rejects(stat(path.join(next, 'Ancient-old.js')), { code: 'ENOENT' });
  });

  it('does nothing without a previous build', async () => {
    const root = await tempDir('ui-build-');
    carryOverAssets(path.join(root, 'missing'), root);
  });
});

describe('a server under a rebuild', () => {
  it('serves the page it started with, whose scripts are still there', async () => {
    const dist = await tempDir('ui-dist-');
    await mkdir(path.join(dist, 'assets'));
    await writeFile(path.join(dist, 'index.html'), '<div id="root"></div><script src="/assets/app-1.js"></script>');
    await writeFile(path.join(dist, 'assets', 'app-1.js'), 'console.log(1)');
    const app = Fastify() as unknown as App;
    await installBoardUi(app, dist);
    try {
      // The rebuild: a new page naming a new script (this server has no route for it), the old
      // script carried over beside it.
      await writeFile(path.join(dist, 'index.html'), '<div id="root"></div><script src="/assets/app-2.js"></script>');
      await writeFile(path.join(dist, 'assets', 'app-2.js'), 'console.log(2)');
      for (const url of ['/', '/c/x/issues']) {
        const page = await app.inject({ method: 'GET', url });
        assert.equal(page.statusCode, 200);
        assert.match(page.headers['content-type'] as string, /text\/html/);
        assert.match(page.body, /app-1\.js/, `${url}: the page this server started with`);
      }
      const script = await app.inject({ method: 'GET', url: '/assets/app-1.js' });
      assert.equal(script.statusCode, 200);
      assert.equal(script.body, 'console.log(1)');
    } finally {
      await app.close();
    }
  });
});
