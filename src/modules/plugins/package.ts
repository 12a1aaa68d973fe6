// A plugin package on disk, once staged (core/package-staging.ts fetched it): its package.json
// points to the manifest, which is read as JSON and validated (manifest.ts); the files it names must
// exist inside the package; then every file of the package is read and hashed, ready to be stored
// in the database. Nothing here imports or runs the package.
import { createHash } from 'node:crypto';
import { lstat, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { unprocessable } from '../../core/errors.ts';
import { insidePackage, type PackageJson } from '../../core/package-staging.ts';
import {
  MAX_MANIFEST_BYTES,
  MANIFEST_POINTER,
  parseManifest,
  referencedFiles,
  type PluginManifest,
} from './manifest.ts';

// What one plugin may store in the database (every replica holds it in its cache too): a worker is
// one bundled ES module plus its assets, far below this.
export const MAX_PLUGIN_BYTES = 20 * 1024 * 1024;
export const MAX_PLUGIN_FILES = 2_000;

export interface PluginFile {
  /** Relative to the package root, with `/` separators. */
  path: string;
  sha256: string;
  bytes: Buffer;
}

export interface PluginPackage {
  packageName: string;
  manifest: PluginManifest;
  files: PluginFile[];
  totalBytes: number;
}

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The manifest file package.json names (`"boardroom": { "plugin": "./boardroom.plugin.json" }`). */
function manifestPointer(pkg: PackageJson): string {
  const field = pkg.boardroom;
  const pointer = field && typeof field === 'object' ? (field as Record<string, unknown>).plugin : undefined;
  if (typeof pointer !== 'string' || !pointer.endsWith('.json'))
    throw unprocessable(
      `package.json has no \`${MANIFEST_POINTER}\` field naming the manifest file (e.g. "./boardroom.plugin.json")`,
    );
  return pointer;
}

async function readJsonManifest(dir: string, pointer: string): Promise<unknown> {
  const file = insidePackage(dir, pointer, `package.json's ${MANIFEST_POINTER}`);
  const info = await lstat(file).catch(() => null);
  if (!info?.isFile()) throw unprocessable(`the manifest ${pointer} does not exist in the package`);
  if (info.size > MAX_MANIFEST_BYTES) throw unprocessable(`the manifest is larger than ${MAX_MANIFEST_BYTES} bytes`);
  try {
    return JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    throw unprocessable(`the manifest ${pointer} is not valid JSON: ${(err as Error).message.slice(0, 200)}`);
  }
}

/** The package's files, walked from `dir` (bounded; a symbolic link is refused: every byte must be stored). */
async function readFiles(dir: string): Promise<{ files: PluginFile[]; totalBytes: number }> {
  const files: PluginFile[] = [];
  let totalBytes = 0;
  const pending = [dir];
  for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
    for (const entry of await readdir(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      const relative = path.relative(dir, full).split(path.sep).join('/');
      if (entry.isDirectory()) {
        pending.push(full);
        continue;
      }
      if (!entry.isFile()) throw unprocessable(`${relative} is not a regular file (links and devices are refused)`);
      if (files.length >= MAX_PLUGIN_FILES) throw unprocessable(`the plugin has more than ${MAX_PLUGIN_FILES} files`);
      const bytes = await readFile(full);
      totalBytes += bytes.length;
      if (totalBytes > MAX_PLUGIN_BYTES) throw unprocessable(`the plugin is larger than ${MAX_PLUGIN_BYTES} bytes`);
      files.push({ path: relative, sha256: sha256(bytes), bytes });
    }
  }
  files.sort((a, b) => a.path.localeCompare(b.path));
  return { files, totalBytes };
}

/** The validated manifest and every file of the package at `dir`, whose package.json is `pkg`. */
export async function readPluginPackage(dir: string, pkg: PackageJson): Promise<PluginPackage> {
  const manifest = parseManifest(await readJsonManifest(dir, manifestPointer(pkg)));
  for (const { field, file } of referencedFiles(manifest)) {
    const full = insidePackage(dir, file, field);
    if (!(await lstat(full).catch(() => null))?.isFile())
      throw unprocessable(`${field}: ${file} does not exist in the package`, { field });
  }
  if (manifest.worker.endsWith('.js') && pkg.type !== 'module')
    throw unprocessable(
      `worker: ${manifest.worker} is read as CommonJS unless package.json says "type": "module" (or name an .mjs file)`,
      { field: 'worker' },
    );
  const { files, totalBytes } = await readFiles(dir);
  const packageName = typeof pkg.name === 'string' && pkg.name ? pkg.name.slice(0, 214) : manifest.id;
  return { packageName, manifest, files, totalBytes };
}
