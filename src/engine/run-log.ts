// The run log: what a run printed, appended to `<dir>/<runId>.log` as it arrives, with every
// secret value masked and a size cap per run. The file is the raw interleaved transcript (stdout
// and stderr in arrival order) so byte offsets are stable for the log route's incremental reads.
//
// Masking across chunks: a secret may arrive split over two chunks, so the writer keeps the last
// (longest secret − 1) characters unwritten until the next chunk or close. Any secret that starts
// before that held tail fits entirely in what we hold, so it is either seen whole or not there.
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';

export const DEFAULT_MAX_LOG_BYTES = 5 * 1024 * 1024;
/** Bound of one read from the log route: a client pages through a large log, it never gets it whole. */
export const MAX_READ_BYTES = 256 * 1024;
export const MASK = '***';

export interface RunLogOptions {
  dir: string;
  runId: string;
  secrets?: string[];
  maxBytes?: number;
}

export interface RunLogSummary {
  path: string;
  /** Bytes in the file, the truncation marker included. */
  bytes: number;
  truncated: boolean;
}

export interface RunLogWriter {
  readonly path: string;
  write(chunk: string): void;
  /** Flushes the held tail and the marker, then closes the file. Idempotent. */
  close(): Promise<RunLogSummary>;
  summary(): RunLogSummary;
}

// Run ids are uuids; anything else could walk out of the log directory.
const SAFE_ID = /^[A-Za-z0-9_-]{1,128}$/;

export function runLogPath(dir: string, runId: string): string {
  if (!SAFE_ID.test(runId)) throw new Error(`invalid run id for a log file: ${JSON.stringify(runId)}`);
  return path.join(dir, `${runId}.log`);
}

export async function openRunLog(options: RunLogOptions): Promise<RunLogWriter> {
  const file = runLogPath(options.dir, options.runId);
  await mkdir(options.dir, { recursive: true });
  const stream = createWriteStream(file, { flags: 'a' });
  await new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', reject);
  });
  return createWriter(file, stream, options);
}

function createWriter(file: string, stream: WriteStream, options: RunLogOptions): RunLogWriter {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_LOG_BYTES;
  const masker = createMasker(options.secrets ?? []);
  let bytes = 0;
  let truncated = false;
  let closing: Promise<RunLogSummary> | null = null;
  let failure: Error | null = null;
  // A full disk must not crash the server: the run goes on, the log stops.
  stream.on('error', (err) => {
    failure ??= err;
  });

  const summary = (): RunLogSummary => ({ path: file, bytes, truncated });

  function emit(text: string): void {
    if (truncated || text.length === 0 || failure) return;
    const buf = Buffer.from(text, 'utf8');
    const room = maxBytes - bytes;
    if (buf.length <= room) {
      stream.write(buf);
      bytes += buf.length;
      return;
    }
    const head = buf.subarray(0, utf8Boundary(buf, room));
    const marker = Buffer.from(`\n[log truncated: reached the ${maxBytes}-byte cap of this run]\n`, 'utf8');
    stream.write(head);
    stream.write(marker);
    bytes += head.length + marker.length;
    truncated = true;
  }

  return {
    path: file,
    summary,
    write(chunk) {
      if (closing) return;
      emit(masker.push(chunk));
    },
    close() {
      closing ??= (async () => {
        emit(masker.flush());
        await new Promise<void>((resolve) => stream.end(resolve));
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

export interface Masker {
  /** Masked text that is safe to write now; a tail may be held for the next push. */
  push(chunk: string): string;
  flush(): string;
}

export function createMasker(secrets: string[]): Masker {
  const list = [...new Set(secrets.filter((s) => s.length > 0))].sort((a, b) => b.length - a.length);
  if (list.length === 0) return { push: (chunk) => chunk, flush: () => '' };
  // Longest first so a secret that contains another is masked whole.
  const pattern = new RegExp(list.map(escapeRegExp).join('|'), 'g');
  const hold = (list[0]?.length ?? 1) - 1;
  let pending = '';

  function mask(text: string, safe: number): string {
    let out = '';
    let pos = 0;
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m && m.index < safe; m = pattern.exec(text)) {
      out += text.slice(pos, m.index) + MASK;
      pos = m.index + m[0].length;
    }
    let end = Math.max(pos, safe);
    // Never split a surrogate pair between what is written and what is held.
    if (end > pos && end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end--;
    out += text.slice(pos, end);
    pending = text.slice(end);
    return out;
  }

  return {
    push(chunk) {
      const text = pending + chunk;
      return mask(text, Math.max(0, text.length - hold));
    },
    flush() {
      const text = pending;
      return mask(text, text.length);
    },
  };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export interface RunLogPage {
  content: string;
  offset: number;
  nextOffset: number;
  /** Size of the file when read; a live run's log keeps growing. */
  size: number;
  eof: boolean;
}

/**
 * One bounded page of a run log from a byte offset; a missing log reads as empty. A page ends on
 * a character boundary (we read a few bytes past the limit to see where the next one starts), so
 * limits below 4 bytes are raised to 4: the longest UTF-8 character must fit.
 */
export async function readRunLog(dir: string, runId: string, offset = 0, limit = MAX_READ_BYTES): Promise<RunLogPage> {
  const file = runLogPath(dir, runId);
  const want = Math.max(4, Math.min(Math.floor(limit) || 0, MAX_READ_BYTES));
  const start = Math.max(0, Math.floor(offset) || 0);
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { content: '', offset: start, nextOffset: start, size: 0, eof: true };
    throw err;
  }
  try {
    const { size } = await handle.stat();
    const buf = Buffer.alloc(Math.max(0, Math.min(want + 4, size - start)));
    const { bytesRead } = buf.length > 0 ? await handle.read(buf, 0, buf.length, start) : { bytesRead: 0 };
    const read = buf.subarray(0, bytesRead);
    const slice = read.length > want ? read.subarray(0, utf8Boundary(read, want)) : read;
    const nextOffset = start + slice.length;
    return { content: slice.toString('utf8'), offset: start, nextOffset, size, eof: nextOffset >= size };
  } finally {
    await handle.close();
  }
}
