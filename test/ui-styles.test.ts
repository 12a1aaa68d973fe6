// The board's stylesheet is one file that every page adds a section to. A section left without its
// closing brace (a merge once dropped one after an @media block) swallows every rule after it
// into that block: the desktop layout silently vanished and nothing failed. This guards that.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { PROJECT_DIR } from '../src/paths.ts';

test('ui/src/styles.css closes every block it opens, and each page section starts at the top level', async () => {
  const css = (await readFile(`${PROJECT_DIR}/ui/src/styles.css`, 'utf8')).replace(/\/\*[\s\S]*?\*\//g, (comment) =>
    comment.startsWith('/* ---') ? '@section' : '',
  );
  let depth = 0;
  const lines = css.split('\n');
  lines.forEach((line, index) => {
    if (line.startsWith('@section'))
      assert.equal(depth, 0, `a page section starts inside an open block (line ${index + 1})`);
    for (const char of line) {
      if (char === '{') depth++;
      if (char === '}') depth--;
      assert.ok(depth >= 0, `a closing brace with nothing open (line ${index + 1})`);
    }
  });
  assert.equal(depth, 0, 'a block is never closed');
});
