// A bundle as a folder on disk: read (an import's `path` source, the CLI) and written (the CLI's
// export). Reading stops at the bundle limits, follows no symlink and never leaves the folder.
import { lstat, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { badRequest } from '../../core/errors.ts';
import { BUNDLE_LIMITS, fileBytes, tooLarge, type BundleFile, type BundleFiles } from './bundle.ts';
import { assertSafePath } from './parse.ts';

const MAX_FOLDERS = 10_000;
const IMAGE_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
};

/** Bytes as a bundle file: text as is when it is UTF-8 (outside images/ and blobs/), else base64. */
export function bundleFileOf(relPath: string, bytes: Buffer): BundleFile {
  const binaryPlace = relPath.startsWith('images/') || relPath.startsWith('blobs/');
  const text = bytes.toString('utf8');
  if (!binaryPlace && Buffer.from(text, 'utf8').equals(bytes) && !text.includes('\0')) return text;
  const contentType = IMAGE_TYPES[path.extname(relPath).toLowerCase()];
  return { encoding: 'base64', data: bytes.toString('base64'), ...(contentType && { contentType }) };
}

/** Every file under `root` (a `.git` folder left out), bounded like an inline bundle. */
export async function readBundleFolder(root: string): Promise<BundleFiles> {
  const files: BundleFiles = {};
  let count = 0;
  let total = 0;
  let folders = 0;
  const walk = async (dir: string, rel: string): Promise<void> => {
    // Folders count too: a tree of empty folders is no bundle, and walking it must still end.
    folders += 1;
    if (folders > MAX_FOLDERS)
      throw tooLarge(`the folder has more than ${MAX_FOLDERS} subfolders; a bundle has far fewer`);
    for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
      const relPath = rel ? `${rel}/${entry.name}` : entry.name;
      const full = path.join(dir, entry.name);
      const stat = await lstat(full);
      if (stat.isSymbolicLink()) continue;
      if (stat.isDirectory()) {
        if (entry.name !== '.git') await walk(full, relPath);
        continue;
      }
      if (!stat.isFile()) continue;
      assertSafePath(relPath);
      count += 1;
      total += stat.size;
      if (count > BUNDLE_LIMITS.maxFiles) throw tooLarge(`the folder has more than ${BUNDLE_LIMITS.maxFiles} files`);
      if (stat.size > BUNDLE_LIMITS.maxFileBytes)
        throw tooLarge(`${relPath} is ${stat.size} bytes; a file may have at most ${BUNDLE_LIMITS.maxFileBytes}`, {
          path: relPath,
        });
      if (total > BUNDLE_LIMITS.maxTotalBytes)
        throw tooLarge(`the folder holds more than ${BUNDLE_LIMITS.maxTotalBytes} bytes`);
      files[relPath] = bundleFileOf(relPath, await readFile(full));
    }
  };
  const stat = await lstat(root).catch(() => null);
  if (!stat?.isDirectory()) throw badRequest(`${root} is not a folder`);
  await walk(root, '');
  return files;
}

/** Writes the files under `dir` (created when missing). Paths are checked again: nothing lands outside. */
export async function writeBundleFolder(dir: string, files: BundleFiles): Promise<number> {
  let written = 0;
  for (const [relPath, file] of Object.entries(files)) {
    assertSafePath(relPath);
    const target = path.join(dir, ...relPath.split('/'));
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, fileBytes(file));
    written += 1;
  }
  return written;
}
