// bin/ui-build.js: a rebuild keeps the previous build's files beside the new ones for a day, so a
// page loaded from it can still load the page chunks it asks for later.
import assert from 'node:assert/strict';
import { mkdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
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
    assert.ok(Math.abs(carriedAge - 60 * 60 * 1000) < 60_000, `a carried file keeps its age, so it goes a day after its own build (${carriedAge} ms)`);
    assert.equal(await readFile(path.join(next, 'shared-same.js'), 'utf8'), 'new bytes');
    await assert.rejects(stat(path.join(next, 'Ancient-old.js')), { code: 'ENOENT' });
  });

  it('does nothing without a previous build', async () => {
    const root = await tempDir('ui-build-');
    carryOverAssets(path.join(root, 'missing'), root);
  });
});
