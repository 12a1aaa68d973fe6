// A small ZIP writer and reader for the browser, enough for company bundles: stored or deflated
// entries, UTF-8 names, CRC-32 checked, no ZIP64, no encryption, no multi-disk archives. The server's
// src/lib/zip.ts (the CLI's `--out x.zip`) follows the same ZIP subset over node:zlib, which cannot
// run here; this one deflates with the browser's CompressionStream('deflate-raw'). No installed
// package reads or writes ZIP. The format: APPNOTE.TXT (PKWARE), sections 4.3.7, 4.3.12 and 4.3.16.

export interface ZipEntry {
  name: string;
  data: Uint8Array;
}

export interface ZipLimits {
  maxEntries: number;
  maxEntryBytes: number;
  maxTotalBytes: number;
}

/** An archive this reader refuses; the message says why, fit to show a person. */
export class ZipError extends Error {}

const LOCAL = 0x04034b50;
const CENTRAL = 0x02014b50;
const END = 0x06054b50;
const UTF8_FLAG = 0x0800;
const ENCRYPTED_FLAG = 0x0001;
const STORED = 0;
const DEFLATED = 8;
const VERSION = 20; // 2.0: deflate, folders

// CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320), one table built on first use.
let crcTable: Uint32Array | null = null;
export function crc32(bytes: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n += 1) {
      let c = n;
      for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const byte of bytes) crc = crcTable[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

async function deflate(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(
    await new Response(
      new Blob([bytes as BlobPart]).stream().pipeThrough(new CompressionStream('deflate-raw')),
    ).arrayBuffer(),
  );
}

/** The DOS date and time fields (2-second precision, local time, from 1980). */
function dosDateTime(date: Date): { time: number; date: number } {
  return {
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | Math.floor(date.getSeconds() / 2),
    date: ((Math.max(date.getFullYear(), 1980) - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}

/** A ZIP archive of the entries, each deflated, or stored when deflate does not make it smaller. */
export async function writeZip(entries: ZipEntry[], modified = new Date()): Promise<Blob> {
  const encoder = new TextEncoder();
  const stamp = dosDateTime(modified);
  const parts: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = encoder.encode(entry.name);
    const deflated = await deflate(entry.data);
    const method = deflated.length < entry.data.length ? DEFLATED : STORED;
    const body = method === DEFLATED ? deflated : entry.data;
    const crc = crc32(entry.data);
    if (body.length > 0xfffffffe || offset > 0xfffffffe)
      throw new ZipError('the bundle is too large for a ZIP without ZIP64');

    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, LOCAL, true);
    local.setUint16(4, VERSION, true);
    local.setUint16(6, UTF8_FLAG, true);
    local.setUint16(8, method, true);
    local.setUint16(10, stamp.time, true);
    local.setUint16(12, stamp.date, true);
    local.setUint32(14, crc, true);
    local.setUint32(18, body.length, true);
    local.setUint32(22, entry.data.length, true);
    local.setUint16(26, name.length, true);
    // 28: extra field length 0
    parts.push(new Uint8Array(local.buffer), name, body);

    const central = new DataView(new ArrayBuffer(46));
    central.setUint32(0, CENTRAL, true);
    central.setUint16(4, VERSION, true); // made by: MS-DOS, 2.0
    central.setUint16(6, VERSION, true);
    central.setUint16(8, UTF8_FLAG, true);
    central.setUint16(10, method, true);
    central.setUint16(12, stamp.time, true);
    central.setUint16(14, stamp.date, true);
    central.setUint32(16, crc, true);
    central.setUint32(20, body.length, true);
    central.setUint32(24, entry.data.length, true);
    central.setUint16(28, name.length, true);
    // 30 extra, 32 comment, 34 disk, 36 internal and 38 external attributes: all 0
    central.setUint32(42, offset, true);
    centrals.push(new Uint8Array(central.buffer), name);
    offset += 30 + name.length + body.length;
  }
  const directorySize = centrals.reduce((sum, part) => sum + part.length, 0);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, END, true);
  end.setUint16(8, entries.length, true);
  end.setUint16(10, entries.length, true);
  end.setUint32(12, directorySize, true);
  end.setUint32(16, offset, true);
  return new Blob([...parts, ...centrals, new Uint8Array(end.buffer)] as BlobPart[], { type: 'application/zip' });
}

/** Inflates at most `limit` bytes: a header that understates the size cannot make the reader inflate a bomb. */
async function inflate(body: Uint8Array, limit: number, name: string): Promise<Uint8Array> {
  const reader = new Blob([body as BlobPart]).stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > limit) {
        void reader.cancel();
        throw new ZipError(`${name} inflates to more than its header says`);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof ZipError) throw error;
    throw new ZipError(`${name} is not valid deflate data: the archive is damaged`);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** The file entries of an archive (folders left out), inflated within `limits` and CRC-checked. */
export async function readZip(zip: Uint8Array, limits: ZipLimits): Promise<ZipEntry[]> {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const u16 = (at: number) => view.getUint16(at, true);
  const u32 = (at: number) => view.getUint32(at, true);
  let endAt = -1;
  // The end record is the last 22 bytes plus a comment of at most 65535.
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i -= 1) {
    if (u32(i) === END) {
      endAt = i;
      break;
    }
  }
  if (endAt < 0) throw new ZipError('this is not a ZIP archive');
  const count = u16(endAt + 10);
  if (count === 0xffff || u32(endAt + 16) === 0xffffffff)
    throw new ZipError('ZIP64 archives are not supported: zip the bundle with a standard tool (zip -r) and try again');
  if (count > limits.maxEntries)
    throw new ZipError(`the archive has ${count} entries; a bundle has at most ${limits.maxEntries}`);
  const decoder = new TextDecoder();
  const entries: ZipEntry[] = [];
  let at = u32(endAt + 16);
  let total = 0;
  for (let n = 0; n < count; n += 1) {
    if (at + 46 > zip.length || u32(at) !== CENTRAL)
      throw new ZipError('the archive is damaged (its central directory is corrupt)');
    const flags = u16(at + 8);
    const method = u16(at + 10);
    const crc = u32(at + 16);
    const compressedSize = u32(at + 20);
    const size = u32(at + 24);
    const nameLength = u16(at + 28);
    const localAt = u32(at + 42);
    // Names are UTF-8 when flagged; bundle names are ASCII otherwise, the same in CP437.
    const name = decoder.decode(zip.subarray(at + 46, at + 46 + nameLength));
    at += 46 + nameLength + u16(at + 30) + u16(at + 32);
    if (name.endsWith('/')) continue;
    if (flags & ENCRYPTED_FLAG) throw new ZipError(`${name} is encrypted; export the bundle without a password`);
    if (method !== STORED && method !== DEFLATED)
      throw new ZipError(`${name} uses compression method ${method}; only stored and deflated entries are supported`);
    if (compressedSize === 0xffffffff || size === 0xffffffff) throw new ZipError('ZIP64 archives are not supported');
    if (size > limits.maxEntryBytes)
      throw new ZipError(`${name} is ${size} bytes; a bundle file may have at most ${limits.maxEntryBytes}`);
    total += size;
    if (total > limits.maxTotalBytes)
      throw new ZipError(`the archive holds more than ${limits.maxTotalBytes} bytes; a bundle may hold at most that`);
    if (localAt + 30 > zip.length || u32(localAt) !== LOCAL)
      throw new ZipError('the archive is damaged (a local header is missing)');
    const dataAt = localAt + 30 + u16(localAt + 26) + u16(localAt + 28);
    if (dataAt + compressedSize > zip.length) throw new ZipError(`the archive is truncated (${name})`);
    const body = zip.subarray(dataAt, dataAt + compressedSize);
    const data = method === STORED ? body : await inflate(body, size, name);
    if (data.length !== size || crc32(data) !== crc)
      throw new ZipError(`${name} fails its CRC check: the archive is damaged`);
    entries.push({ name, data });
  }
  return entries;
}
