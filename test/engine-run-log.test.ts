// The run log writer: secret masking (including a secret split across chunks at every position, and
// one split on a stream around a write of the other, in the log and in each stream's own text),
// the per-run size cap, NUL replacement, batching into the chunk table with its NOTIFY, and bounded
// reads from an offset. Real runs in a real database.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import {
  CHUNK_BYTES,
  createLogMasker,
  createMasker,
  FLUSH_BYTES,
  MAX_READ_BYTES,
  type LogPiece,
  type LogStreamName,
  openRunLog,
  readRunLog,
  type RunLogOptions,
} from '../src/modules/runs/run-log.ts';
import { startTestApp } from './helpers/app.ts';
import { newAgent } from './helpers/factories.ts';

const t = await startTestApp();
const { company, token } = await t.newCompany();
const { agent } = await newAgent(t, token, company.id);
const db = t.database.db;
const sql = async (text: string, params: unknown[] = []) => (await t.database.pool.query(text, params)).rows;

async function newRun(): Promise<string> {
  const [row] = await sql(
    `insert into heartbeat_runs (company_id, agent_id, status, invocation_source, adapter_type, started_at) values ($1, $2, 'running', 'on_demand', 'process', now()) returning id`,
    [company.id, agent.id],
  );
  return row.id;
}

const open = (runId: string, options: Partial<RunLogOptions> = {}) =>
  openRunLog({ db, runId, companyId: company.id, ...options });

/** The stored log, every row in order; checks that the rows' byte offsets follow each other. */
async function storedLog(runId: string): Promise<string> {
  const rows = await sql(
    'select seq, byte_offset, content from heartbeat_run_log_chunks where run_id = $1 order by seq',
    [runId],
  );
  let offset = 0;
  rows.forEach((row, i) => {
    assert.equal(row.seq, i);
    assert.equal(row.byte_offset, offset);
    offset += Buffer.byteLength(row.content, 'utf8');
  });
  return rows.map((r) => r.content).join('');
}

const joined = (pieces: LogPiece[]) => pieces.map((p) => p.text).join('');

/** Chunks to write: text (stdout) or [stream, text]. */
type Chunk = string | [LogStreamName, string];

async function writeAll(chunks: Chunk[], options: { secrets?: string[]; maxBytes?: number } = {}) {
  const runId = await newRun();
  const log = open(runId, options);
  for (const chunk of chunks) {
    if (typeof chunk === 'string') log.write(chunk);
    else log.write(chunk[1], chunk[0]);
  }
  const summary = await log.close();
  return { runId, summary, text: await storedLog(runId) };
}

// What the writers announce on boardroom_run_log, heard through a LISTEN of our own.
const notices: { runId: string; companyId: string; offset: number; lastLine: string | null }[] = [];
let listener: pg.Client;
before(async () => {
  listener = new pg.Client({ connectionString: t.databaseUrl });
  await listener.connect();
  listener.on('notification', (msg) => notices.push(JSON.parse(msg.payload ?? '{}')));
  await listener.query('LISTEN boardroom_run_log');
});
after(async () => {
  await listener.end();
  await t.close();
});

const noticesOf = (runId: string) => notices.filter((n) => n.runId === runId);

/**
 * The run's notices once every one committed so far has arrived: a marker sent now comes after them
 * (the server delivers notifications in commit order), so once it is heard nothing earlier is on its way.
 */
async function settledNoticesOf(runId: string) {
  const marker = randomUUID();
  await sql('select pg_notify($1, $2)', ['boardroom_run_log', JSON.stringify({ runId: marker })]);
  await eventually('the marker notice', () => noticesOf(marker).length === 1);
  return noticesOf(runId);
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function eventually<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  timeoutMs = 20_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
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

  it('holds back only a tail that could start a secret, so live text is stored at once', () => {
    const masker = createMasker([secret, 'pw1']);
    assert.equal(joined(masker.push('hello\n')), 'hello\n');
    assert.equal(joined(masker.push('token sk-li')), 'token ');
    assert.equal(joined(masker.push('ve-0123456789abcdef ok p')), '*** ok ');
    assert.equal(joined(masker.push('w')), '');
    assert.equal(joined(masker.push('2')), 'pw2');
    assert.equal(joined(masker.push('skate')), 'skate');
    assert.equal(joined(masker.push(' sk')), ' ');
    assert.equal(joined(masker.flush()), 'sk');
  });

  it('masks a secret that contains another one whole', () => {
    const masker = createMasker(['abc', 'xxabcxx']);
    assert.equal(joined(masker.push('1 xxabcxx 2 abc')) + joined(masker.flush()), '1 *** 2 ***');
  });

  it('stores the text unchanged when there is no secret, and keeps surrogate pairs whole', async () => {
    const { text: plain, summary } = await writeAll(['hello ', 'world\n']);
    assert.equal(plain, 'hello world\n');
    assert.deepEqual(summary, { bytes: 12, truncated: false });
    const emoji = 'ab😀cd😀';
    for (let cut = 0; cut <= emoji.length; cut++) {
      const { text: written } = await writeAll([emoji.slice(0, cut), emoji.slice(cut)], { secrets: ['zz'] });
      assert.equal(written, emoji, `split at ${cut}`);
    }
  });

  it('replaces NUL with U+FFFD before storing, and counts the bytes stored', async () => {
    const { text, summary } = await writeAll(['a\u0000b', '\u0000']);
    assert.equal(text, 'a\uFFFDb\uFFFD');
    assert.deepEqual(summary, { bytes: 8, truncated: false });
  });
});

describe('run log: size cap', () => {
  it('stops at the cap, records truncated and ends with one marker line', async () => {
    const { summary, text } = await writeAll(['0123456789'.repeat(5), 'abcdefghij'.repeat(5), 'more after the cap\n'], {
      maxBytes: 64,
    });
    assert.equal(summary.truncated, true);
    const [kept, marker, ...rest] = text.split('\n');
    assert.equal(kept, ('0123456789'.repeat(5) + 'abcdefghij'.repeat(5)).slice(0, 64));
    assert.match(marker ?? '', /^\[log truncated: reached the 64-byte cap of this run\]$/);
    assert.deepEqual(rest, ['']);
    assert.equal(summary.bytes, Buffer.byteLength(text));
    assert.equal(text.match(/log truncated/g)?.length, 1);
  });

  it('counts bytes, not characters, and never cuts a multi-byte character', async () => {
    const { summary, text } = await writeAll(['é'.repeat(10)], { maxBytes: 7 }); // 2 bytes each
    assert.equal(summary.truncated, true);
    assert.ok(text.startsWith('ééé\n[log truncated'));
    const small = await writeAll(['é'.repeat(3)], { maxBytes: 100 });
    assert.deepEqual([small.summary.bytes, small.summary.truncated], [6, false]);
  });

  it('applies the cap after masking, so a masked secret is never partly stored', async () => {
    const { text } = await writeAll(['ab', 'SECRETVALUE', 'cd'.repeat(10)], { secrets: ['SECRETVALUE'], maxBytes: 8 });
    assert.ok(text.startsWith('ab***cdc\n'));
    assert.equal(text.includes('SECRET'), false);
  });
});

describe('run log: batching', () => {
  it('stores what was written within the flush interval as one row with one NOTIFY of the new end and its last line', async () => {
    const runId = await newRun();
    // An interval far above what a loaded machine takes between the writes and the count below.
    const log = open(runId, { flushIntervalMs: 2_000 });
    for (let i = 0; i < 20; i++) log.write(`line ${i}\n`);
    await sleep(100);
    assert.equal(
      (await sql('select count(*)::int as n from heartbeat_run_log_chunks where run_id = $1', [runId]))[0].n,
      0,
      'nothing stored before the interval',
    );
    const rows = await eventually('the flush', async () => {
      const r = await sql('select * from heartbeat_run_log_chunks where run_id = $1', [runId]);
      return r.length > 0 ? r : null;
    });
    assert.equal(rows.length, 1);
    const body = Array.from({ length: 20 }, (_, i) => `line ${i}\n`).join('');
    assert.equal(rows[0].content, body);
    await eventually('the notice', () => noticesOf(runId).length === 1);
    assert.deepEqual(noticesOf(runId), [
      { runId, companyId: company.id, offset: Buffer.byteLength(body), lastLine: 'line 19' },
    ]);
    assert.deepEqual(await log.close(), { bytes: Buffer.byteLength(body), truncated: false });
    assert.equal((await settledNoticesOf(runId)).length, 1, 'close had nothing more to store');
  });

  it('flushes at once when 64 KiB are pending, in rows of at most 64 KiB cut on character boundaries', async () => {
    const runId = await newRun();
    const log = open(runId, { flushIntervalMs: 60_000 });
    const big = 'é😀x'.repeat(Math.ceil((FLUSH_BYTES * 2.5) / 7)); // 7 bytes per repeat
    log.write(big);
    const stored = await eventually('the 64 KiB flush', async () => {
      const text = await storedLog(runId);
      return text.length > 0 ? text : null;
    });
    assert.equal(stored, big);
    const rows = await sql(
      'select octet_length(content) as bytes from heartbeat_run_log_chunks where run_id = $1 order by seq',
      [runId],
    );
    assert.equal(rows.length, 3);
    assert.ok(rows.every((r) => r.bytes <= CHUNK_BYTES));
    await eventually('the notice', () => noticesOf(runId).length === 1);
    assert.equal(
      noticesOf(runId)[0]!.offset,
      Buffer.byteLength(big),
      'one notice for the one INSERT, with the end offset',
    );
    const summary = await log.close();
    assert.equal(summary.bytes, Buffer.byteLength(big));
  });

  it('a log that cannot be stored stops without failing the close', async () => {
    const log = open(randomUUID(), { flushIntervalMs: 10 }); // no such run: every insert fails
    log.write('lost');
    assert.deepEqual(await log.close(), { bytes: 0, truncated: true });
  });
});

describe('run log: reads', () => {
  it('reads from an offset, pages to the end, and bounds a page at 256 KiB', async () => {
    const body = Array.from({ length: 30000 }, (_, i) => `line ${i}\n`).join('');
    const { runId } = await writeAll([body]);
    const first = await readRunLog(db, runId, 0, 16);
    assert.deepEqual(
      [first.content, first.offset, first.nextOffset, first.eof, first.size],
      ['line 0\nline 1\nli', 0, 16, false, body.length],
    );
    const second = await readRunLog(db, runId, first.nextOffset, 12);
    assert.equal(second.content, 'ne 2\nline 3\n');
    const huge = await readRunLog(db, runId, 0, 10 * 1024 * 1024);
    assert.equal(huge.content.length, MAX_READ_BYTES);
    // A page across row boundaries (rows are 64 KiB at most).
    const across = await readRunLog(db, runId, CHUNK_BYTES - 10, 20);
    assert.equal(across.content, body.slice(CHUNK_BYTES - 10, CHUNK_BYTES + 10));
    let all = '';
    for (let offset = 0, eof = false; !eof; ) {
      const page = await readRunLog(db, runId, offset);
      all += page.content;
      offset = page.nextOffset;
      eof = page.eof;
    }
    assert.equal(all, body);
    const past = await readRunLog(db, runId, body.length + 10);
    assert.deepEqual([past.content, past.eof, past.nextOffset], ['', true, body.length + 10]);
  });

  it('ends a page on a character boundary, starts one at the character an offset cuts, and reads a missing log as empty', async () => {
    const { runId } = await writeAll(['aé€😀b']); // 1 + 2 + 3 + 4 + 1 bytes
    const pages: string[] = [];
    for (let offset = 0, eof = false; !eof; ) {
      const page = await readRunLog(db, runId, offset, 4);
      pages.push(page.content);
      offset = page.nextOffset;
      eof = page.eof;
    }
    assert.deepEqual(pages, ['aé', '€', '😀', 'b']);
    const inside = await readRunLog(db, runId, 8, 100); // the third byte of 😀 (bytes 6 to 9)
    assert.deepEqual([inside.offset, inside.content, inside.nextOffset], [6, '😀b', 11]);
    assert.deepEqual(await readRunLog(db, randomUUID(), 0), {
      content: '',
      offset: 0,
      nextOffset: 0,
      stderr: [],
      size: 0,
      eof: true,
    });
  });
});

describe('run log: streams', () => {
  /** The stored rows as [stream, content]; each row is one stream's text. */
  const storedRows = async (runId: string) =>
    (await sql('select stream, content from heartbeat_run_log_chunks where run_id = $1 order by seq', [runId])).map(
      (r) => [r.stream, r.content],
    );

  it('stores each stream in rows of its own, in one INSERT per flush, and a page says which bytes were stderr', async () => {
    const runId = await newRun();
    const log = open(runId, { flushIntervalMs: 2_000 });
    log.write('out 1\n', 'stdout');
    log.write('err é\n', 'stderr');
    log.write('err 2\n', 'stderr');
    log.write('out 2\n', 'stdout');
    await log.close();
    assert.deepEqual(await storedRows(runId), [
      ['stdout', 'out 1\n'],
      ['stderr', 'err é\nerr 2\n'],
      ['stdout', 'out 2\n'],
    ]);
    assert.equal((await settledNoticesOf(runId)).length, 1, 'the three rows went in one statement');
    const page = await readRunLog(db, runId);
    assert.equal(page.content, 'out 1\nerr é\nerr 2\nout 2\n');
    assert.deepEqual(page.stderr, [{ from: 6, to: 19 }]); // 'err é\n' is 7 bytes
    // Clipped to a page, absolute offsets.
    assert.deepEqual((await readRunLog(db, runId, 8, 4)).stderr, [{ from: 8, to: 12 }]);
    assert.deepEqual((await readRunLog(db, runId, 0, 4)).stderr, []);
    assert.deepEqual((await readRunLog(db, runId, 17, 100)).stderr, [{ from: 17, to: 19 }]);
  });

  it('masks a secret that straddles a switch of streams, at every split position, in the stream it started in', async () => {
    const secret = 'sk-live-0123456789abcdef';
    const text = `token=${secret}\n`;
    for (let cut = 0; cut <= text.length; cut++) {
      const { runId, text: written } = await writeAll(
        [
          ['stdout', text.slice(0, cut)],
          ['stderr', text.slice(cut)],
        ],
        { secrets: [secret] },
      );
      assert.equal(written, 'token=***\n', `split at ${cut}`);
      const rows = await storedRows(runId);
      assert.equal(rows.map((r) => r[1]).join(''), 'token=***\n');
      const maskStream = cut <= 6 ? 'stderr' : 'stdout';
      const page = await readRunLog(db, runId);
      assert.ok(
        page.stderr.some((r) => r.from <= 6 && r.to >= 9) === (maskStream === 'stderr'),
        `split at ${cut}: the mask is in ${maskStream}`,
      );
    }
  });

  it('masks a secret split across chunks of one stream, and keeps each piece in its stream', () => {
    const masker = createMasker(['hunter2']);
    assert.deepEqual(masker.push('pw hun', 'stderr'), [{ stream: 'stderr', text: 'pw ' }]);
    assert.deepEqual(masker.push('ter2 ok\n', 'stderr'), [{ stream: 'stderr', text: '*** ok\n' }]);
    assert.deepEqual(masker.push('a\n', 'stdout'), [{ stream: 'stdout', text: 'a\n' }]);
    // A held tail keeps its stream when the other stream continues it.
    assert.deepEqual(masker.push('x hu', 'stdout'), [{ stream: 'stdout', text: 'x ' }]);
    assert.deepEqual(masker.push('gs\n', 'stderr'), [
      { stream: 'stdout', text: 'hu' },
      { stream: 'stderr', text: 'gs\n' },
    ]);
    assert.deepEqual(masker.flush(), []);
  });

  it('a row stored before streams were recorded reads as stdout', async () => {
    const runId = await newRun();
    await sql(`insert into heartbeat_run_log_chunks (run_id, seq, byte_offset, content) values ($1, 0, 0, 'old\n')`, [
      runId,
    ]);
    const page = await readRunLog(db, runId);
    assert.deepEqual([page.content, page.stderr], ['old\n', []]);
  });
});

describe('run log: a secret in the text of one stream', () => {
  const secret = 'sk-live-0123456789abcdef';
  const text = `token=${secret} ok\n`;
  const other = (stream: LogStreamName): LogStreamName => (stream === 'stdout' ? 'stderr' : 'stdout');

  /** A page's text of one stream, cut by its stderr byte ranges as the board does (UTF-8 offsets per character). */
  function streamText(
    page: { content: string; offset: number; stderr: { from: number; to: number }[] },
    wanted: LogStreamName,
  ) {
    let out = '';
    let byte = page.offset;
    for (const char of page.content) {
      const inStderr = page.stderr.some((r) => r.from <= byte && byte < r.to);
      if (inStderr === (wanted === 'stderr')) out += char;
      byte += Buffer.byteLength(char, 'utf8');
    }
    return out;
  }

  /** The three texts a reader can see: the log, its stdout, its stderr. */
  async function views(runId: string) {
    const page = await readRunLog(db, runId);
    return { log: page.content, stdout: streamText(page, 'stdout'), stderr: streamText(page, 'stderr') };
  }
  const piecesViews = (pieces: LogPiece[]) => ({
    log: joined(pieces),
    stdout: joined(pieces.filter((p) => p.stream === 'stdout')),
    stderr: joined(pieces.filter((p) => p.stream === 'stderr')),
  });
  const assertNoSecret = (seen: Record<string, string>, secrets: string[], what: string) => {
    for (const [name, value] of Object.entries(seen))
      for (const s of secrets) assert.equal(value.includes(s), false, `${what}: ${name} ${JSON.stringify(value)}`);
  };

  it('masks a secret written on one stream in two parts around a write of the other, at every split position, either way round', async () => {
    for (const stream of ['stdout', 'stderr'] as const) {
      for (let cut = 0; cut <= text.length; cut++) {
        const { runId, text: written } = await writeAll(
          [
            [stream, text.slice(0, cut)],
            [other(stream), 'X'],
            [stream, text.slice(cut)],
          ],
          { secrets: [secret] },
        );
        const seen = await views(runId);
        assertNoSecret(seen, [secret], `${stream} split at ${cut}`);
        assert.equal(seen.log, written);
        assert.equal(seen[other(stream)], 'X', `${stream} split at ${cut}: the other stream is untouched`);
        assert.match(seen[stream], /^token=\*+ ok\n$/, `${stream} split at ${cut}`);
      }
    }
  });

  it('masks it whatever two writes of the other stream cut it, and when it comes one character per write', () => {
    for (const stream of ['stdout', 'stderr'] as const) {
      for (let a = 0; a <= text.length; a++) {
        for (let b = a; b <= text.length; b++) {
          const masker = createLogMasker([secret]);
          const pieces = [
            ...masker.push(text.slice(0, a), stream),
            ...masker.push('Y\n', other(stream)),
            ...masker.push(text.slice(a, b), stream),
            ...masker.push('Z', other(stream)),
            ...masker.push(text.slice(b), stream),
            ...masker.flush(),
          ];
          const seen = piecesViews(pieces);
          assertNoSecret(seen, [secret], `${stream} cut at ${a} and ${b}`);
          assert.equal(seen[other(stream)], 'Y\nZ');
        }
      }
      const masker = createLogMasker([secret]);
      const pieces = [...text].flatMap((char) => [...masker.push(char, stream), ...masker.push('.', other(stream))]);
      const seen = piecesViews([...pieces, ...masker.flush()]);
      assertNoSecret(seen, [secret], `${stream} one character per write`);
      assert.equal(seen[other(stream)], '.'.repeat(text.length));
    }
  });

  it("masks a stream's text that a mask of the interleaved text joined into a secret", () => {
    // Interleaved 'se' + 'sec' + 'ret' + 'cret': the interleaved masker masks 'sec'+'ret' (begun on
    // stderr), which leaves stdout's 'se' and 'cret' side by side in the stdout-only text.
    const masker = createLogMasker(['secret']);
    const pieces = [
      ...masker.push('se', 'stdout'),
      ...masker.push('sec', 'stderr'),
      ...masker.push('ret', 'stdout'),
      ...masker.push('cret\n', 'stdout'),
      ...masker.flush(),
    ];
    assertNoSecret(piecesViews(pieces), ['secret'], 'spliced');
    assert.equal(piecesViews(pieces).stderr, '***');
  });

  it('writes the normal cases as the interleaved masker alone does', () => {
    const cases: [LogStreamName, string][][] = [
      [
        ['stdout', 'out 1\n'],
        ['stderr', `err ${secret}\n`],
        ['stdout', `a ${secret.slice(0, 5)}`],
        ['stdout', `${secret.slice(5)} b\n`],
        ['stderr', 'pw1 done\n'],
      ],
      [
        ['stdout', 'token=sk-li'],
        ['stderr', 've-0123456789abcdef\n'],
      ],
      [
        ['stderr', 'token='],
        ['stdout', `${secret}\n`],
      ],
      [
        ['stdout', 'pw hun'],
        ['stdout', 'ter2 ok\n'],
        ['stderr', 'plain\n'],
        ['stdout', 'x\n'],
      ],
    ];
    for (const chunks of cases) {
      const plain = createMasker([secret, 'pw1', 'hunter2']);
      const guarded = createLogMasker([secret, 'pw1', 'hunter2']);
      for (const [stream, chunk] of chunks) assert.deepEqual(guarded.push(chunk, stream), plain.push(chunk, stream));
      assert.deepEqual(guarded.flush(), plain.flush());
    }
  });

  it("holds the other stream's text behind a tail that may start a secret, within a bound, and masks the rest of that secret later", () => {
    const masker = createLogMasker(['secret'], 100);
    assert.deepEqual(masker.push('a sec', 'stdout'), [{ stream: 'stdout', text: 'a ' }]);
    assert.deepEqual(masker.push('x'.repeat(60), 'stderr'), [], 'held behind the tail');
    // Past the bound the tail is masked as the start of a secret, and the held text is written.
    assert.deepEqual(masker.push('y'.repeat(60), 'stderr'), [
      { stream: 'stdout', text: '***' },
      { stream: 'stderr', text: 'x'.repeat(60) + 'y'.repeat(60) },
    ]);
    assert.deepEqual(masker.push('ret ok\n', 'stdout'), [{ stream: 'stdout', text: '*** ok\n' }]);
    assert.deepEqual(masker.flush(), []);
  });

  it('a run that ends with a held tail stores all of it', async () => {
    const { runId, text: written } = await writeAll(
      [
        ['stdout', 'a sec'],
        ['stderr', 'X\n'],
      ],
      { secrets: ['secret'] },
    );
    assert.equal(written, 'a secX\n');
    assert.deepEqual(await views(runId), { log: 'a secX\n', stdout: 'a sec', stderr: 'X\n' });
  });
});
