// A bundle (`{ rootPath, files }`, docs/portability.md) to and from a .zip in the browser. The zip
// holds the files under `<rootPath>/`, as the CLI's `boardroom company export --out x.zip` writes it,
// and a zip whose files all sit in one folder is read from inside it, as the CLI reads one.
import type { paths } from '../../api/schema';
import { readZip, writeZip, ZipError, type ZipEntry } from '../../lib/zip';

type ExportAnswer = paths['/api/companies/{companyId}/export']['post']['responses'][200]['content']['application/json'];
export type BundleFiles = ExportAnswer['files'];
type BundleFile = BundleFiles[string];

// The server's bundle limits (the import routes' descriptions); it checks them again, these only
// stop an oversized zip before it is inflated and uploaded.
const LIMITS = { maxEntries: 5000, maxEntryBytes: 10 * 1024 * 1024, maxTotalBytes: 25 * 1024 * 1024 };
const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
};

function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  // In slices: String.fromCharCode over a whole megabyte would overflow the argument limit.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The zip of an exported bundle, its files under `<rootPath>/`. */
export function bundleToZip(rootPath: string, files: BundleFiles): Blob {
  const encoder = new TextEncoder();
  const entries: ZipEntry[] = Object.entries(files).map(([path, file]) => ({
    name: `${rootPath}/${path}`,
    data: typeof file === 'string' ? encoder.encode(file) : fromBase64(file.data),
  }));
  return writeZip(entries);
}

/** Bytes as a bundle file: UTF-8 text as is (outside images/ and blobs/), anything else base64. The server's folder reader decides the same way. */
function bundleFileOf(path: string, bytes: Uint8Array): BundleFile {
  if (!path.startsWith('images/') && !path.startsWith('blobs/')) {
    try {
      const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      if (!text.includes('\0')) return text;
    } catch {
      // not UTF-8: sent as bytes
    }
  }
  const contentType = IMAGE_TYPES[path.split('.').pop()?.toLowerCase() ?? ''];
  return { encoding: 'base64', data: toBase64(bytes), ...(contentType && { contentType }) };
}

/** The bundle in a zip file. Paths are passed on as they are: the server judges them (a `../` is its 400). */
export function zipToBundle(zip: Uint8Array): { rootPath?: string; files: BundleFiles; fileCount: number } {
  const entries = readZip(zip, LIMITS).filter(
    (entry) => !entry.name.startsWith('__MACOSX/') && !entry.name.endsWith('.DS_Store'),
  );
  const [head] = entries;
  if (!head) throw new ZipError('the archive holds no files');
  const first = head.name.split('/')[0] ?? '';
  const oneFolder = entries.every((entry) => entry.name.startsWith(`${first}/`));
  const files: BundleFiles = {};
  for (const entry of entries) {
    const path = oneFolder ? entry.name.slice(first.length + 1) : entry.name;
    files[path] = bundleFileOf(path, entry.data);
  }
  return { ...(oneFolder && { rootPath: first }), files, fileCount: entries.length };
}
