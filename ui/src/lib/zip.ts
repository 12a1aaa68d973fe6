// Company bundles as .zip in the browser (the portability page's download and import). fflate reads
// and writes the format; this file is the bound fflate leaves to its caller, so that a ZIP bomb
// stops at the caller's limits: the entry count, each entry's declared size and their sum are
// checked on the central directory before anything is inflated, then each entry is inflated as a
// stream, a few kilobytes of input at a time, with a running byte count that stops at the size the
// directory declared (a header that understates its size cannot make the reader inflate past it).
// The server's CLI (`boardroom company export --out x.zip`) has the same layer over the same library,
// src/lib/zip.ts, returning Buffers. It is a copy, not an import: ui/ is a project of its own that
// imports nothing from src/, and test/portability-bundle.test.ts holds both to the same cases.
import { type UnzipFileInfo, Unzip, UnzipInflate, unzipSync, zipSync } from 'fflate';

export interface ZipEntry {
  name: string;
  data: Uint8Array;
}

export interface ZipLimits {
  maxEntries: number;
  maxEntryBytes: number;
  maxTotalBytes: number;
}

/** An archive the reader refuses; the message says why, fit to show a person. */
export class ZipError extends Error {}

/** Compressed bytes handed to the inflater at a time: one step inflates to at most ~1,000 times this. */
const STEP_BYTES = 4096;
/** The methods fflate inflates; the format knows others (bzip2, LZMA) that a bundle never needs. */
const STORED = 0;
const DEFLATED = 8;

const isFolder = (name: string) => name.endsWith('/');

/** A ZIP archive of the entries, deflated, dated `modified`. */
export function writeZip(entries: ZipEntry[], modified = new Date()): Blob {
  const zip = zipSync(Object.fromEntries(entries.map((entry) => [entry.name, entry.data])), { mtime: modified });
  return new Blob([zip], { type: 'application/zip' });
}

/** The file entries of an archive (folders left out), inflated within `limits`. */
export function readZip(zip: Uint8Array, limits: ZipLimits): ZipEntry[] {
  return inflateEntries(zip, centralDirectory(zip, limits));
}

/** The archive's entries as its central directory lists them, refused beyond `limits`; nothing inflated. */
function centralDirectory(zip: Uint8Array, limits: ZipLimits): UnzipFileInfo[] {
  const listed: UnzipFileInfo[] = [];
  let total = 0;
  const check = (entry: UnzipFileInfo): false => {
    // Thrown at the first entry too many: a forged count can claim billions.
    if (listed.length === limits.maxEntries)
      throw new ZipError(`the archive has more than ${limits.maxEntries} entries`);
    listed.push(entry);
    if (isFolder(entry.name)) return false;
    if (entry.compression !== STORED && entry.compression !== DEFLATED)
      throw new ZipError(
        `${entry.name} uses compression method ${entry.compression}; only stored and deflated entries are supported`,
      );
    if (entry.originalSize > limits.maxEntryBytes)
      throw new ZipError(`${entry.name} is ${entry.originalSize} bytes; at most ${limits.maxEntryBytes}`);
    total += entry.originalSize;
    if (total > limits.maxTotalBytes) throw new ZipError(`the archive holds more than ${limits.maxTotalBytes} bytes`);
    return false;
  };
  try {
    unzipSync(zip, { filter: check });
  } catch (error) {
    if (error instanceof ZipError) throw error;
    // fflate's code 13: no end of central directory record.
    if ((error as { code?: unknown }).code === 13) throw new ZipError('this is not a ZIP archive');
    throw new ZipError(`the archive is damaged (${(error as Error).message})`);
  }
  return listed;
}

/** Each listed file, inflated step by step; an entry that outgrows its listed size stops the read. */
function inflateEntries(zip: Uint8Array, listed: UnzipFileInfo[]): ZipEntry[] {
  const entries: ZipEntry[] = [];
  let failure: ZipError | null = null;
  let seen = 0;
  const unzip = new Unzip((file) => {
    const expected = listed[seen];
    seen += 1;
    if (expected?.name !== file.name) {
      failure ??= new ZipError('the archive is damaged (its entries do not match its central directory)');
      return;
    }
    if (isFolder(file.name)) return;
    const chunks: Uint8Array[] = [];
    let size = 0;
    file.ondata = (error, chunk, final) => {
      if (failure) return;
      if (error) {
        failure = new ZipError(`${file.name}: cannot inflate (${error.message})`);
        return;
      }
      size += chunk.length;
      if (size > expected.originalSize || (final && size !== expected.originalSize)) {
        failure = new ZipError(`${file.name}: its size does not match its header (corrupt archive)`);
        return;
      }
      chunks.push(chunk);
      if (final) entries.push({ name: file.name, data: concat(chunks, size) });
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  try {
    for (let at = 0; at < zip.length && !failure; at += STEP_BYTES) {
      unzip.push(zip.subarray(at, at + STEP_BYTES), at + STEP_BYTES >= zip.length);
    }
  } catch (error) {
    failure ??= new ZipError(`the archive is damaged (${(error as Error).message})`);
  }
  if (failure) throw failure;
  if (seen !== listed.length || entries.length !== listed.filter((entry) => !isFolder(entry.name)).length)
    throw new ZipError('the archive is damaged (its entries do not match its central directory)');
  return entries;
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}
