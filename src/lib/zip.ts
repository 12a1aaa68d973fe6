// A small ZIP writer and reader over node:zlib, enough for company bundles (`boardroom company
// export --out x.zip`, `import x.zip`): deflate or stored entries, no ZIP64, no encryption, no
// multi-disk archives. No package in the tree reads or writes ZIP, and these ~100 lines cost less
// than a dependency. The reader is bounded: entry count and inflated sizes are checked before and
// while inflating, so a ZIP bomb stops at the caller's limit.
import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib';

export interface ZipEntry {
  name: string;
  data: Buffer;
}

export interface ZipLimits {
  maxEntries: number;
  maxEntryBytes: number;
  maxTotalBytes: number;
}

export class ZipError extends Error {}

const LOCAL = 0x04034b50;
const CENTRAL = 0x02014b50;
const END = 0x06054b50;
const UTF8_FLAG = 0x0800;

/** A ZIP archive of the entries, each deflated (or stored when deflate does not help). */
export function writeZip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const deflated = deflateRawSync(entry.data);
    const stored = deflated.length >= entry.data.length;
    const body = stored ? entry.data : deflated;
    const crc = crc32(entry.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(LOCAL, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(UTF8_FLAG, 6);
    local.writeUInt16LE(stored ? 0 : 8, 8);
    local.writeUInt32LE(0x00210000, 10); // 1980-01-01 00:00: bundles are content, not timestamps
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(entry.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(CENTRAL, 0);
    central.writeUInt16LE(20, 4); // made by
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(UTF8_FLAG, 8);
    central.writeUInt16LE(stored ? 0 : 8, 10);
    central.writeUInt32LE(0x00210000, 12);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(entry.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(END, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** The file entries of an archive (folders left out), inflated within `limits`. */
export function readZip(zip: Buffer, limits: ZipLimits): ZipEntry[] {
  let endAt = -1;
  // The end record is the last 22 bytes plus a comment of at most 65535.
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i -= 1) {
    if (zip.readUInt32LE(i) === END) {
      endAt = i;
      break;
    }
  }
  if (endAt < 0) throw new ZipError('not a ZIP archive (no end of central directory)');
  const count = zip.readUInt16LE(endAt + 10);
  if (count > limits.maxEntries) throw new ZipError(`the archive has ${count} entries; at most ${limits.maxEntries}`);
  let at = zip.readUInt32LE(endAt + 16);
  const entries: ZipEntry[] = [];
  let total = 0;
  for (let n = 0; n < count; n += 1) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== CENTRAL) throw new ZipError('corrupt ZIP central directory');
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const compressed = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const localAt = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    at += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith('/')) continue;
    if (size > limits.maxEntryBytes) throw new ZipError(`${name} is ${size} bytes; at most ${limits.maxEntryBytes}`);
    total += size;
    if (total > limits.maxTotalBytes) throw new ZipError(`the archive holds more than ${limits.maxTotalBytes} bytes`);
    if (localAt + 30 > zip.length || zip.readUInt32LE(localAt) !== LOCAL)
      throw new ZipError(`corrupt ZIP entry ${name}`);
    const dataAt = localAt + 30 + zip.readUInt16LE(localAt + 26) + zip.readUInt16LE(localAt + 28);
    const body = zip.subarray(dataAt, dataAt + compressed);
    let data: Buffer;
    if (method === 0) data = Buffer.from(body);
    else if (method === 8) {
      try {
        // The declared size bounds the output: a lying header cannot inflate past it.
        data = inflateRawSync(body, { maxOutputLength: Math.max(1, size) });
      } catch (err) {
        throw new ZipError(`${name}: cannot inflate (${(err as Error).message})`);
      }
    } else throw new ZipError(`${name}: compression method ${method} is not supported (deflate or stored only)`);
    if (data.length !== size || crc32(data) !== crc)
      throw new ZipError(`${name}: size or checksum does not match (corrupt archive)`);
    entries.push({ name, data });
  }
  return entries;
}
