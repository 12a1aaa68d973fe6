// An npm package fetched into a staging directory, the way the adapter registry and the plugin
// registry both take one: a bounded copy of a local path, or `npm install --ignore-scripts` (no
// install script of the package or its dependencies runs), then its package.json read. Nothing here
// touches the database: the area that staged a package decides what becomes of it.
import { execFile } from 'node:child_process';
import { cp, lstat, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { unprocessable } from './errors.ts';

// A package is a small module plus its dependencies; 50 MiB / 10k files leaves room for a few
// dependencies and stops a path like `/` or a home directory from being copied by mistake.
export const MAX_PACKAGE_BYTES = 50 * 1024 * 1024;
export const MAX_PACKAGE_FILES = 10_000;
const MAX_PACKAGE_JSON_BYTES = 1024 * 1024;
// npm fetches from the network: long enough for a slow registry, short enough to answer the request.
const NPM_TIMEOUT_MS = 120_000;

// npm's own naming rules (lowercase, optional scope); never starts with `-`, so it cannot be read as an option.
export const NPM_NAME = /^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;
// A version or range as npm takes it after `@` (1.2.3, ^1.2, latest, 1.x); again never an option.
export const NPM_VERSION = /^[A-Za-z0-9^~<>=*.x+|][A-Za-z0-9^~<>=*.x+| -]*$/;

/** The fields of a package.json its readers look at; anything else is there but untyped. */
export interface PackageJson {
  name?: unknown;
  version?: unknown;
  type?: unknown;
  main?: unknown;
  exports?: unknown;
  adapterUiParser?: unknown;
  boardroom?: unknown;
}

export interface StagedPackage {
  /** The package's directory, relative to the staging root ('.' for a local copy, node_modules/<name> for npm). */
  relDir: string;
  manifest: PackageJson;
}

/** Where a package comes from: an absolute local path, or an npm name and optional version. */
export interface PackageSource {
  localPath: string | null;
  packageName: string;
  version?: string | undefined;
}

/** The local path an install body names: `isLocalPath` when given, else exactly when it is an absolute path. */
export function localPathOf(input: { packageName: string; isLocalPath?: boolean | undefined }): string | null {
  return (input.isLocalPath ?? path.isAbsolute(input.packageName)) ? input.packageName : null;
}

/** Fetches `source` into the (existing, empty) directory `staging`. */
export function stagePackage(source: PackageSource, staging: string): Promise<StagedPackage> {
  return source.localPath
    ? stageLocalPath(source.localPath, staging)
    : stageNpmPackage(source.packageName, source.version, staging);
}

/** Copies a local package directory into `staging` (bounded in size and file count; symlinks copied as links). */
export async function stageLocalPath(source: string, staging: string): Promise<StagedPackage> {
  if (!path.isAbsolute(source)) throw unprocessable('a local package path must be absolute');
  const info = await stat(source).catch(() => null);
  if (!info?.isDirectory()) throw unprocessable(`${source} is not a directory`);
  const from = path.resolve(source);
  // The staging folder lives in the data directory: a source above it would be copied into itself.
  if (path.resolve(staging).startsWith(from + path.sep))
    throw unprocessable(`${source} contains the server's data directory and cannot be copied`);
  await measurePackage(source);
  await cp(source, staging, { recursive: true, dereference: false, verbatimSymlinks: true, errorOnExist: false });
  return { relDir: '.', manifest: await readPackageJson(staging) };
}

/**
 * `npm install --prefix <staging> --ignore-scripts <name>@<version>`: no install script of the package
 * or its dependencies runs. Needs the npm registry to be reachable from the server.
 */
export async function stageNpmPackage(
  name: string,
  version: string | undefined,
  staging: string,
): Promise<StagedPackage> {
  if (!NPM_NAME.test(name)) throw unprocessable(`${name} is not a valid npm package name`);
  if (version !== undefined && !NPM_VERSION.test(version))
    throw unprocessable(`${version} is not a valid npm version or range`);
  const spec = version ? `${name}@${version}` : name;
  try {
    await promisify(execFile)(
      'npm',
      ['install', '--prefix', staging, '--ignore-scripts', '--no-audit', '--no-fund', '--omit=dev', spec],
      {
        timeout: NPM_TIMEOUT_MS,
        maxBuffer: 4 * 1024 * 1024,
        env: { ...process.env, npm_config_update_notifier: 'false' },
      },
    );
  } catch (err) {
    const stderr = String((err as { stderr?: unknown }).stderr ?? (err as Error).message);
    throw unprocessable(`npm install ${spec} failed: ${stderr.trim().split('\n').slice(-3).join(' ').slice(0, 500)}`);
  }
  const relDir = path.join('node_modules', name);
  await measurePackage(path.join(staging, 'node_modules'));
  return { relDir, manifest: await readPackageJson(path.join(staging, relDir)) };
}

/** 422 when the tree under `root` holds more than `maxFiles` entries or `maxBytes` of regular files. */
export async function measurePackage(
  root: string,
  maxBytes = MAX_PACKAGE_BYTES,
  maxFiles = MAX_PACKAGE_FILES,
): Promise<void> {
  let bytes = 0;
  let files = 0;
  const pending = [root];
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (++files > maxFiles) throw unprocessable(`the package has more than ${maxFiles} files`);
      if (entry.isDirectory()) pending.push(full);
      else if (entry.isFile()) bytes += (await lstat(full)).size;
      if (bytes > maxBytes) throw unprocessable(`the package is larger than ${maxBytes} bytes`);
    }
  }
}

export async function readPackageJson(dir: string): Promise<PackageJson> {
  const file = path.join(dir, 'package.json');
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) throw unprocessable('the package has no package.json');
  if (info.size > MAX_PACKAGE_JSON_BYTES) throw unprocessable('package.json is too large');
  let manifest: unknown;
  try {
    manifest = JSON.parse(await readFile(file, 'utf8'));
  } catch {
    throw unprocessable('package.json is not valid JSON');
  }
  if (!manifest || typeof manifest !== 'object' || Array.isArray(manifest))
    throw unprocessable('package.json is not an object');
  return manifest as PackageJson;
}

/** A path the package names, resolved inside its directory (a `../` escape is refused, naming `what`). */
export function insidePackage(dir: string, relative: string, what: string): string {
  const full = path.resolve(dir, relative);
  if (full !== dir && !full.startsWith(dir + path.sep)) throw unprocessable(`${what} points outside the package`);
  return full;
}
