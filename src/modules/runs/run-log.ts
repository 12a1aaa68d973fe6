// The run log: what a run printed, stored in `heartbeat_run_log_chunks` as it arrives, with every
// secret value masked and a size cap per run. The log is the raw interleaved transcript (stdout
// and stderr in arrival order); every chunk records the UTF-8 byte offset of its first byte, so a
// reader on any replica resumes from any offset (the log route, the live stream), and the stream
// its bytes came from: a row never holds both, so a page says which of its byte ranges were stderr.
//
// Masking across chunks: a secret may arrive split over two chunks, so the writer holds back the
// tail of the text that could be the start of a secret (the longest suffix that is a proper prefix
// of one) until the next chunk or close. Any secret not wholly in the text starts
// in that tail, so it is either seen whole or not there; text that cannot start a secret (a line
// ending in a newline, usually) is stored at once, so a live run's log is never held back.
// There is one masker over the interleaved text (the content is exactly what a single stream
// masker would make of it), and it carries each character's stream through: a secret whose start
// came on stdout and its end on stderr (or the reverse) is still one match, and its mask is
// recorded in the stream its first character came from. Each stream's own text (what a
// stdout-only or stderr-only view shows) is masked too: a secret written on stdout in two parts
// around a stderr write is no secret in the interleaved text, so a guard over each stream's text
// masks it (createLogMasker); a stream's tail that may start a secret holds the other stream's
// text behind it (bounded), and close stores it all.
//
// Batching: what was written is stored at most FLUSH_INTERVAL_MS after it arrived, or at once when
// FLUSH_BYTES are pending; one INSERT per flush (rows of at most CHUNK_BYTES, cut on character
// boundaries, a new row where the stream changes: a log that switches streams often has more,
// smaller rows), and in the same statement the run's logBytes (so a live run shows its log's size)
// and a `runLog` notification (src/db/channels.ts: { runId, companyId, offset: the log's size
// after it, lastLine: the last non-blank line of the text stored }) so live readers on every
// replica hear of it. Flushes never overlap, so
// rows arrive in order. PostgreSQL text refuses U+0000: NUL becomes U+FFFD before it is counted.
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { notifyCall } from '../../db/channels.ts';
import type { DbOrTx } from '../../db/client.ts';
import { lastLine } from './last-line.ts';

export const DEFAULT_MAX_LOG_BYTES = 5 * 1024 * 1024;
/** Bound of one read from the log route: a client pages through a large log, it never gets it whole. */
export const MAX_READ_BYTES = 256 * 1024;
export const MASK = '***';
export const FLUSH_INTERVAL_MS = 250;
export const FLUSH_BYTES = 64 * 1024;
/** The end of a flush looked at for the notice's last line: every flush of every run pays for it, so not all 64 KiB. */
const NOTICE_LINE_SCAN_CHARS = 4096;
/** Bound of one stored row, so a read at any offset touches a few rows, never the whole log. */
export const CHUNK_BYTES = 64 * 1024;
/** A flush that failed is retried on the next tick; after this many failures in a row the log stops. */
const MAX_FLUSH_FAILURES = 5;

export type LogStreamName = 'stdout' | 'stderr';

/** Text of one stream, in arrival order; pieces of a list alternate streams. */
export interface LogPiece {
  stream: LogStreamName;
  text: string;
}

export interface RunLogOptions {
  db: DbOrTx;
  runId: string;
  companyId: string;
  secrets?: string[];
  maxBytes?: number;
  flushIntervalMs?: number;
  flushBytes?: number;
  logger?: Logger;
}

export interface RunLogSummary {
  /** Bytes stored, the truncation marker included. */
  bytes: number;
  /** The cap was reached (the marker ends the log), or storing failed and the rest was dropped. */
  truncated: boolean;
}

export interface RunLogWriter {
  write(chunk: string, stream?: LogStreamName): void;
  /** Stores what is pending now (close does it too). */
  flush(): Promise<void>;
  /** Stores the held tail, the marker and everything pending. Idempotent; never throws. */
  close(): Promise<RunLogSummary>;
  summary(): RunLogSummary;
}

export function openRunLog(options: RunLogOptions): RunLogWriter {
  const { db, runId, companyId } = options;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_LOG_BYTES;
  const flushIntervalMs = options.flushIntervalMs ?? FLUSH_INTERVAL_MS;
  const flushBytes = options.flushBytes ?? FLUSH_BYTES;
  const masker = createLogMasker(options.secrets ?? []);
  // accepted: bytes taken into the log (counted against the cap); stored: bytes in the table.
  let accepted = 0;
  let stored = 0;
  let seq = 0;
  let truncated = false;
  let failed = false;
  let failures = 0;
  let pending: LogPiece[] = [];
  let pendingBytes = 0;
  let timer: NodeJS.Timeout | null = null;
  let flushing: Promise<void> | null = null;
  let closing: Promise<RunLogSummary> | null = null;

  const summary = (): RunLogSummary => ({ bytes: stored, truncated: truncated || failed });

  function emit(masked: LogPiece[]): void {
    for (const piece of masked) {
      if (truncated || failed || piece.text.length === 0) return;
      const text = piece.text.replaceAll('\u0000', '\uFFFD');
      const length = Buffer.byteLength(text, 'utf8');
      const room = maxBytes - accepted;
      if (length <= room) {
        enqueue({ stream: piece.stream, text }, length);
        continue;
      }
      const buf = Buffer.from(text, 'utf8');
      const head = buf.subarray(0, utf8Boundary(buf, room)).toString('utf8');
      const marker = `\n[log truncated: reached the ${maxBytes}-byte cap of this run]\n`;
      truncated = true;
      enqueue({ stream: piece.stream, text: head + marker }, Buffer.byteLength(head + marker, 'utf8'));
    }
  }

  function enqueue(piece: LogPiece, length: number): void {
    appendPiece(pending, piece.stream, piece.text);
    pendingBytes += length;
    accepted += length;
    if (pendingBytes >= flushBytes) void flush();
    else timer ??= setTimeout(() => void flush(), flushIntervalMs).unref();
  }

  async function store(pieces: LogPiece[]): Promise<void> {
    const rows: { seq: number; offset: number; stream: LogStreamName; content: string }[] = [];
    let end = stored;
    for (const piece of pieces) {
      const buf = Buffer.from(piece.text, 'utf8');
      for (let at = 0; at < buf.length; ) {
        const cut =
          at + CHUNK_BYTES >= buf.length ? buf.length : at + Math.max(1, utf8Boundary(buf, at + CHUNK_BYTES) - at);
        const content = buf.subarray(at, cut).toString('utf8');
        rows.push({ seq: seq + rows.length, offset: end + at, stream: piece.stream, content });
        at = cut;
      }
      end += buf.length;
    }
    const text = pieces.map((p) => p.text).join('');
    const values = sql.join(
      rows.map((r) => sql`(${runId}::uuid, ${r.seq}::int, ${r.offset}::int, ${r.stream}::text, ${r.content}::text)`),
      sql`, `,
    );
    // One statement: the rows, the run's logBytes and the notice commit together (data-modifying
    // CTEs always run). logBytes follows the flushes, not the bytes: one row update per flush. It
    // leaves updatedAt alone: that one says when the owner recorded the whole log (runLogMayGrow).
    await db.execute(sql`with stored as (
      insert into heartbeat_run_log_chunks (run_id, seq, byte_offset, stream, content) values ${values} returning 1
    ), sized as (
      update heartbeat_runs set log_bytes = ${end} where id = ${runId} returning 1
    ) select ${notifyCall('runLog', { runId, companyId, offset: end, lastLine: lastLine(text.slice(-NOTICE_LINE_SCAN_CHARS)) })}`);
    seq += rows.length;
    stored = end;
  }

  function flush(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = null;
    flushing ??= (async () => {
      while (pending.length > 0 && !failed) {
        const pieces = pending;
        const length = pendingBytes;
        pending = [];
        pendingBytes = 0;
        try {
          await store(pieces);
          failures = 0;
        } catch (err) {
          // Kept for the next attempt, in front of whatever arrived meanwhile.
          const arrived = pending;
          pending = [...pieces];
          for (const piece of arrived) appendPiece(pending, piece.stream, piece.text);
          pendingBytes += length;
          if (++failures >= MAX_FLUSH_FAILURES) {
            failed = true;
            pending = [];
            pendingBytes = 0;
            options.logger?.warn({ err, runId }, 'engine: could not store the run log; the rest of it is dropped');
          } else {
            options.logger?.warn({ err, runId }, 'engine: could not store a run log chunk; retrying');
          }
          break;
        }
      }
    })().finally(() => {
      flushing = null;
      if (pending.length > 0 && !failed && !closing) timer ??= setTimeout(() => void flush(), flushIntervalMs).unref();
    });
    return flushing;
  }

  return {
    summary,
    flush,
    write(chunk, stream = 'stdout') {
      if (closing !== null) return;
      emit(masker.push(chunk, stream));
    },
    close() {
      closing ??= (async () => {
        emit(masker.flush());
        // Each round stores what it can; a failing database gets its retries, then the log stops.
        while ((pending.length > 0 || flushing) && !failed) {
          if (flushing !== null) await flushing;
          else {
            if (failures > 0) await new Promise((resolve) => setTimeout(resolve, 100 * failures));
            await flush();
          }
        }
        if (timer) clearTimeout(timer);
        timer = null;
        return summary();
      })();
      return closing;
    },
  };
}

/** The largest prefix length <= limit that does not cut a UTF-8 sequence. */
function utf8Boundary(buf: Buffer, limit: number): number {
  let end = Math.max(0, Math.min(limit, buf.length));
  // 0b10xxxxxx is a continuation byte: the cut would land inside a character.
  while (end > 0 && end < buf.length && ((buf[end] ?? 0) & 0xc0) === 0x80) end--;
  return end;
}

/** The start of the character that holds byte `at`. */
function utf8Start(buf: Buffer, at: number): number {
  let start = Math.max(0, Math.min(at, buf.length));
  while (start > 0 && start < buf.length && ((buf[start] ?? 0) & 0xc0) === 0x80) start--;
  return start;
}

/** Appends text of a stream to a list of pieces, extending the last one when it is the same stream. */
function appendPiece(pieces: LogPiece[], stream: LogStreamName, text: string): void {
  if (text.length === 0) return;
  const last = pieces.at(-1);
  if (last?.stream === stream) last.text += text;
  else pieces.push({ stream, text });
}

export interface Masker {
  /** Masked text that is safe to write now, by stream; a tail may be held for the next push. */
  push(chunk: string, stream?: LogStreamName): LogPiece[];
  flush(): LogPiece[];
}

/** Where each stream's text starts in a string: runs in order, the first at 0. */
type StreamRuns = { at: number; stream: LogStreamName }[];

/** The secrets to mask, longest first, with how to find them and how much of a text's end to hold back. */
interface SecretMatcher {
  /** Longest first so a secret that contains another is masked whole. */
  pattern: RegExp;
  longest: number;
  /**
   * Where the held tail starts: the first position from `from` whose rest of the text is a proper
   * prefix of a secret (the secret may complete with more text); text.length when none is. Any
   * secret not wholly in the text starts there or later, so everything before can be written.
   */
  holdFrom(text: string, from: number): number;
}

function secretMatcher(secrets: string[]): SecretMatcher | null {
  const list = [...new Set(secrets.filter((s) => s.length > 0))].sort((a, b) => b.length - a.length);
  const [longestSecret] = list;
  if (longestSecret === undefined) return null;
  const longest = longestSecret.length;
  const firstChars = new Set(list.map((s) => s[0]));
  return {
    pattern: new RegExp(list.map(escapeRegExp).join('|'), 'g'),
    longest,
    holdFrom(text, from) {
      for (let p = Math.max(from, text.length - (longest - 1)); p < text.length; p++) {
        if (!firstChars.has(text[p])) continue;
        const rest = text.slice(p);
        if (list.some((secret) => secret.length > rest.length && secret.startsWith(rest))) return p;
      }
      return text.length;
    },
  };
}

/**
 * The masker over the interleaved text alone: what it writes never holds a secret, but the text of
 * one of its streams may (a secret written in two parts around a write of the other stream):
 * createLogMasker guards each stream's text as well.
 */
export function createMasker(secrets: string[]): Masker {
  const matcher = secretMatcher(secrets);
  if (matcher === null) {
    return { push: (chunk, stream = 'stdout') => (chunk ? [{ stream, text: chunk }] : []), flush: () => [] };
  }
  const { pattern, holdFrom } = matcher;
  let pending = '';
  let pendingRuns: StreamRuns = [];

  function mask(text: string, runs: StreamRuns, final: boolean): LogPiece[] {
    const out: LogPiece[] = [];
    const streamAt = (index: number) => runs.findLast((run) => run.at <= index)?.stream ?? 'stdout';
    /** Copies text[from, to) with the stream of each of its characters. */
    const copy = (from: number, to: number) => {
      runs.forEach((run, i) => {
        const end = runs[i + 1]?.at ?? text.length;
        if (end > from && run.at < to)
          appendPiece(out, run.stream, text.slice(Math.max(from, run.at), Math.min(to, end)));
      });
    };
    let pos = 0;
    for (;;) {
      const hold = final ? text.length : holdFrom(text, pos);
      pattern.lastIndex = pos;
      const m = pattern.exec(text);
      // A match that starts in the held tail may be the start of a longer secret: wait for more.
      if (m && m.index < hold) {
        copy(pos, m.index);
        appendPiece(out, streamAt(m.index), MASK);
        pos = m.index + m[0].length;
        continue;
      }
      let end = hold;
      // Never split a surrogate pair between what is written and what is held.
      if (!final && end > pos && isHighSurrogate(text.charCodeAt(end - 1))) end--;
      copy(pos, end);
      pending = text.slice(end);
      pendingRuns = runs
        .filter((run, i) => (runs[i + 1]?.at ?? text.length) > end)
        .map((run) => ({ at: Math.max(0, run.at - end), stream: run.stream }));
      return out;
    }
  }

  return {
    push(chunk, stream = 'stdout') {
      const runs =
        pendingRuns.at(-1)?.stream === stream ? pendingRuns : [...pendingRuns, { at: pending.length, stream }];
      return mask(pending + chunk, runs, false);
    },
    flush() {
      return mask(pending, pendingRuns, true);
    },
  };
}

/**
 * The writer's masker: the interleaved masker, then a guard over the text of each stream on its own
 * (what a stdout-only or stderr-only view shows), so a secret is masked wherever a reader could
 * see it whole. The guard keeps the interleaved order: a stream's held tail (a proper prefix of a
 * secret, at most the longest secret's length) holds back the other stream's text behind it, up to
 * `maxHeldChars`; past that the tail is masked as if it were the secret's start, and what that
 * stream writes next is masked as far as it completes a secret begun in that tail.
 */
export function createLogMasker(secrets: string[], maxHeldChars = FLUSH_BYTES): Masker {
  const interleaved = createMasker(secrets);
  const matcher = secretMatcher(secrets);
  if (matcher === null) return interleaved;
  const guard = createStreamGuard(matcher, maxHeldChars);
  return {
    push: (chunk, stream) => guard(interleaved.push(chunk, stream), false),
    flush: () => guard(interleaved.flush(), true),
  };
}

const STREAMS: readonly LogStreamName[] = ['stdout', 'stderr'];

/**
 * Masks every secret in each stream's own text of what the interleaved masker wrote. A character it
 * masks stays in its place and stream: each run of masked characters of one stream, adjacent in
 * the interleaved text, becomes one `***` there. So neither the interleaved text (only characters
 * became stars) nor the other stream's text changes otherwise, and each stream's text is what a
 * single masker over it alone would leave unmasked. Text is written in arrival order, up to the
 * first character of either stream that could still start a secret.
 */
function createStreamGuard(matcher: SecretMatcher, maxHeldChars: number) {
  const { pattern, holdFrom, longest } = matcher;
  // The held text (UTF-16 units) with each unit's stream and whether it is masked.
  let text = '';
  let streams: LogStreamName[] = [];
  let masked: boolean[] = [];
  // Per stream: its text written already and masked for want of room, that a secret may continue.
  const carry: Record<LogStreamName, string> = { stdout: '', stderr: '' };

  return (pieces: LogPiece[], final: boolean): LogPiece[] => {
    for (const piece of pieces) {
      text += piece.text;
      for (let i = 0; i < piece.text.length; i++) {
        streams.push(piece.stream);
        masked.push(false);
      }
    }
    // Per stream: where in the held text its undecided tail starts, and that tail's own text.
    const undecided = STREAMS.map((stream) => {
      const at: number[] = [];
      let own = carry[stream];
      for (let i = 0; i < text.length; i++) {
        if (streams[i] !== stream) continue;
        at.push(i);
        own += text[i];
      }
      const skip = carry[stream].length;
      let pos = 0;
      let hold = own.length;
      for (;;) {
        hold = final ? own.length : holdFrom(own, pos);
        pattern.lastIndex = pos;
        const m = pattern.exec(own);
        if (!m || m.index >= hold) break;
        for (let k = Math.max(m.index, skip); k < m.index + m[0].length; k++) masked[at[k - skip] ?? 0] = true;
        pos = m.index + m[0].length;
      }
      return { stream, own, skip, hold, at, from: at[Math.max(hold, skip) - skip] ?? text.length };
    });
    let cut = Math.min(...undecided.map((u) => u.from));
    if (text.length - cut > maxHeldChars) {
      // Too much of the other stream waits behind a tail that may be a secret's start: mask the tail.
      for (const u of undecided)
        for (let k = Math.max(u.hold, u.skip); k < u.own.length; k++) masked[u.at[k - u.skip] ?? 0] = true;
      cut = text.length;
    } else if (!final && cut > 0 && cut < text.length && isHighSurrogate(text.charCodeAt(cut - 1))) cut--;
    for (const u of undecided) {
      const written = u.at.filter((i) => i < cut).length;
      carry[u.stream] = u.own.slice(Math.max(u.hold, u.own.length - (longest - 1)), u.skip + written);
    }
    const out: LogPiece[] = [];
    for (let i = 0; i < cut; ) {
      const stream = streams[i] ?? 'stdout';
      const isMasked = masked[i] ?? false;
      let end = i + 1;
      while (end < cut && streams[end] === stream && masked[end] === isMasked) end++;
      appendPiece(out, stream, isMasked ? MASK : text.slice(i, end));
      i = end;
    }
    text = text.slice(cut);
    streams = streams.slice(cut);
    masked = masked.slice(cut);
    return out;
  };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A half-open range of absolute byte offsets of the log. */
export interface ByteRange {
  from: number;
  to: number;
}

export interface RunLogPage {
  content: string;
  /** Where `content` starts: the asked offset, moved back to the start of a character it cut. */
  offset: number;
  nextOffset: number;
  /** The byte ranges of `content` (absolute offsets, half-open, adjacent ones merged) that came from stderr. */
  stderr: ByteRange[];
  /** Size of the stored log when read; a live run's log keeps growing. */
  size: number;
  eof: boolean;
}

/**
 * One bounded page of a run log from a byte offset; a log with nothing stored reads as empty. A
 * page ends on a character boundary (we read a few bytes past the limit to see where the next one
 * starts), so limits below 4 bytes are raised to 4: the longest UTF-8 character must fit. An offset
 * inside a character starts the page at that character. Past the end: empty, nextOffset = offset.
 */
export async function readRunLog(db: DbOrTx, runId: string, offset = 0, limit = MAX_READ_BYTES): Promise<RunLogPage> {
  const want = Math.max(4, Math.min(Math.floor(limit) || 0, MAX_READ_BYTES));
  const asked = Math.max(0, Math.floor(offset) || 0);
  // byte_offset grows with seq: the rows from the one holding `asked` up to `asked + want + 4`.
  const result = await db.execute<{
    size: number | null;
    byte_offset: number | null;
    stream: LogStreamName | null;
    content: string | null;
  }>(sql`
    select
      (select l.byte_offset + octet_length(l.content) from heartbeat_run_log_chunks l where l.run_id = ${runId} order by l.seq desc limit 1) as size,
      c.byte_offset, c.stream, c.content
    from (select 1) as one
    left join heartbeat_run_log_chunks c
      on c.run_id = ${runId}
      and c.seq >= coalesce((select max(f.seq) from heartbeat_run_log_chunks f where f.run_id = ${runId} and f.byte_offset <= ${asked}), 0)
      and c.byte_offset < ${asked + want + 4}
    order by c.seq`);
  const size = Number(result.rows[0]?.size ?? 0);
  const rows = result.rows.filter((r) => r.byte_offset !== null && r.content !== null);
  const [first] = rows;
  if (asked >= size || !first) return { content: '', offset: asked, nextOffset: asked, stderr: [], size, eof: true };
  const base = Number(first.byte_offset);
  const buf = Buffer.from(rows.map((r) => r.content).join(''), 'utf8');
  const from = utf8Start(buf, asked - base);
  const read = buf.subarray(from, from + want + 4);
  const slice = read.length > want ? read.subarray(0, utf8Boundary(read, want)) : read;
  const start = base + from;
  const nextOffset = start + slice.length;
  const stderr: ByteRange[] = [];
  for (const row of rows) {
    if (row.stream !== 'stderr') continue;
    const rowStart = Number(row.byte_offset);
    const range = {
      from: Math.max(start, rowStart),
      to: Math.min(nextOffset, rowStart + Buffer.byteLength(row.content ?? '', 'utf8')),
    };
    if (range.from >= range.to) continue;
    const last = stderr.at(-1);
    if (last?.to === range.from) last.to = range.to;
    else stderr.push(range);
  }
  return { content: slice.toString('utf8'), offset: start, nextOffset, stderr, size, eof: nextOffset >= size };
}
