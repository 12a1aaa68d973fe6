// The run log writer: secret masking (including a secret split across chunks at every position),
// the per-run size cap, and bounded reads from an offset. Real files in a temporary directory.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createMasker, MAX_READ_BYTES, openRunLog, readRunLog, runLogPath } from '../src/engine/run-log.ts';

let dir = '';
before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'boardroom-runlog-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

let seq = 0;
const nextRunId = () => `run-${++seq}`;

async function writeAll(chunks: string[], options: { secrets?: string[]; maxBytes?: number } = {}) {
  const runId = nextRunId();
  const log = await openRunLog({ dir, runId, ...options });
  for (const chunk of chunks) log.write(chunk);
  const summary = await log.close();
  return { runId, summary, text: await readFile(summary.path, 'utf8') };
}

describe('run log: masking', () => {
  const secret = 'sk-live-0123456789abcdef';
  const text = `token=${secret} and again ${secret}!`;
  const expected = 'token=*** and again ***!';

  it('masks a secret split across two chunks at every split position', async () => {
    for (let cut = 0; cut <= text.length; cut++) {
      const { text: written } = await writeAll([text.slice(0, cut), text.slice(cut)], { secrets: [secret] });
      assert.equal(written, expected, `split at ${cut}`);
    }
  });

  it('masks a secret arriving one character per chunk, and several secrets of different lengths', async () => {
    const short = 'pw1';
    const input = `a ${secret} b ${short} c ${short}${secret}`;
    const { text: written } = await writeAll([...input], { secrets: [short, secret, ''] });
    assert.equal(written, 'a *** b *** c ******');
    assert.equal(written.includes(short), false);
  });

  it('masks a secret that contains another one whole', () => {
    const masker = createMasker(['abc', 'xxabcxx']);
    assert.equal(masker.push('1 xxabcxx 2 abc') + masker.flush(), '1 *** 2 ***');
  });

  it('writes the text through unchanged when there is no secret, and keeps surrogate pairs whole', async () => {
    const { text: plain } = await writeAll(['hello ', 'world\n']);
    assert.equal(plain, 'hello world\n');
    const emoji = 'ab😀cd😀';
    for (let cut = 0; cut <= emoji.length; cut++) {
      const { text: written } = await writeAll([emoji.slice(0, cut), emoji.slice(cut)], { secrets: ['zz'] });
      assert.equal(written, emoji, `split at ${cut}`);
    }
  });
});

describe('run log: size cap', () => {
  it('stops at the cap, records truncated and ends with one marker line', async () => {
    const { summary, text } = await writeAll(['0123456789'.repeat(5), 'abcdefghij'.repeat(5), 'more after the cap\n'], { maxBytes: 64 });
    assert.equal(summary.truncated, true);
    const [kept, marker, ...rest] = text.split('\n');
    assert.equal(kept, ('0123456789'.repeat(5) + 'abcdefghij'.repeat(5)).slice(0, 64));
    assert.match(marker ?? '', /^\[log truncated: reached the 64-byte cap of this run\]$/);
    assert.deepEqual(rest, ['']);
    assert.equal(summary.bytes, (await stat(summary.path)).size);
    assert.equal(text.match(/log truncated/g)?.length, 1);
  });

  it('counts bytes, not characters, and never cuts a multi-byte character', async () => {
    const { summary, text } = await writeAll(['é'.repeat(10)], { maxBytes: 7 }); // 2 bytes each
    assert.equal(summary.truncated, true);
    assert.ok(text.startsWith('ééé\n[log truncated'));
    const small = await writeAll(['é'.repeat(3)], { maxBytes: 100 });
    assert.deepEqual([small.summary.bytes, small.summary.truncated], [6, false]);
  });

  it('applies the cap after masking, so a masked secret is never partly written', async () => {
    const { text } = await writeAll(['ab', 'SECRETVALUE', 'cd'.repeat(10)], { secrets: ['SECRETVALUE'], maxBytes: 8 });
    assert.ok(text.startsWith('ab***cdc\n'));
    assert.equal(text.includes('SECRET'), false);
  });
});

describe('run log: reads', () => {
  it('reads from an offset, pages to the end, and bounds a page at 256 KiB', async () => {
    const body = Array.from({ length: 30000 }, (_, i) => `line ${i}\n`).join('');
    const { runId } = await writeAll([body]);
    const first = await readRunLog(dir, runId, 0, 16);
    assert.deepEqual([first.content, first.offset, first.nextOffset, first.eof], ['line 0\nline 1\nli', 0, 16, false]);
    const second = await readRunLog(dir, runId, first.nextOffset, 12);
    assert.equal(second.content, 'ne 2\nline 3\n');
    const huge = await readRunLog(dir, runId, 0, 10 * 1024 * 1024);
    assert.equal(huge.content.length, MAX_READ_BYTES);
    let all = '';
    for (let offset = 0, eof = false; !eof; ) {
      const page = await readRunLog(dir, runId, offset);
      all += page.content;
      offset = page.nextOffset;
      eof = page.eof;
    }
    assert.equal(all, body);
    const past = await readRunLog(dir, runId, body.length + 10);
    assert.deepEqual([past.content, past.eof], ['', true]);
  });

  it('ends a page on a character boundary and reads a missing log as empty', async () => {
    const { runId } = await writeAll(['aé€😀b']); // 1 + 2 + 3 + 4 + 1 bytes
    const pages: string[] = [];
    for (let offset = 0, eof = false; !eof; ) {
      const page = await readRunLog(dir, runId, offset, 4);
      pages.push(page.content);
      offset = page.nextOffset;
      eof = page.eof;
    }
    assert.deepEqual(pages, ['aé', '€', '😀', 'b']);
    assert.deepEqual(await readRunLog(dir, 'never-ran', 0), { content: '', offset: 0, nextOffset: 0, size: 0, eof: true });
  });

  it('rejects a run id that could escape the log directory', () => {
    assert.throws(() => runLogPath(dir, '../etc/passwd'), /invalid run id/);
  });
});
