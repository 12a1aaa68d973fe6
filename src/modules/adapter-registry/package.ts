// An adapter package on disk: fetched into a staging directory (a copy of a local path, or an npm
// install), its package.json read, its entry imported and checked against the `createServerAdapter`
// contract. Nothing here touches the database or the live registry: the service decides when a
// staged package becomes the installed one (a rename), so a failure never leaves half an install.
import { execFile } from 'node:child_process';
import { cp, lstat, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { unprocessable } from '../../core/errors.ts';
import { createAdapterRegistry, type AdapterModule } from '../../adapters/registry.ts';
import type { ServerAdapter } from '../../adapters/types.ts';

// A runtime adapter is a small module plus its dependencies; 50 MiB / 10k files leaves room for a
// few dependencies and stops a path like `/` or a home directory from being copied by mistake.
export const MAX_PACKAGE_BYTES = 50 * 1024 * 1024;
export const MAX_PACKAGE_FILES = 10_000;
const MAX_MANIFEST_BYTES = 1024 * 1024;
export const MAX_UI_PARSER_BYTES = 1024 * 1024;
// npm fetches from the network: long enough for a slow registry, short enough to answer the request.
const NPM_TIMEOUT_MS = 120_000;
// Importing foreign code can hang (a top-level await that never settles); the request must not.
const IMPORT_TIMEOUT_MS = 10_000;

// npm's own naming rules (lowercase, optional scope); never starts with `-`, so it cannot be read as an option.
export const NPM_NAME = /^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;
// A version or range as npm takes it after `@` (1.2.3, ^1.2, latest, 1.x); again never an option.
export const NPM_VERSION = /^[A-Za-z0-9^~<>=*.x+|][A-Za-z0-9^~<>=*.x+| -]*$/;

export interface PackageJson {
  name?: unknown;
  version?: unknown;
  main?: unknown;
  exports?: unknown;
  adapterUiParser?: unknown;
}

export interface StagedPackage {
  /** The package's directory, relative to the staging root ('.' for a local copy, node_modules/<name> for npm). */
  relDir: string;
  manifest: PackageJson;
}

export interface LoadedPackage {
  module: AdapterModule & { configSchema?: unknown };
  adapter: ServerAdapter;
  manifest: PackageJson;
  dir: string;
}

/** Copies a local package directory into `staging` (bounded in size and file count; symlinks copied as links). */
export async function stageLocalPath(source: string, staging: string): Promise<StagedPackage> {
  if (!path.isAbsolute(source)) throw unprocessable('a local adapter path must be absolute');
  const info = await stat(source).catch(() => null);
  if (!info?.isDirectory()) throw unprocessable(`${source} is not a directory`);
  await measure(source);
  await cp(source, staging, { recursive: true, dereference: false, verbatimSymlinks: true, errorOnExist: false });
  return { relDir: '.', manifest: await readManifest(staging) };
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
  await measure(path.join(staging, 'node_modules'));
  return { relDir, manifest: await readManifest(path.join(staging, relDir)) };
}

async function measure(root: string): Promise<void> {
  let bytes = 0;
  let files = 0;
  const pending = [root];
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (++files > MAX_PACKAGE_FILES) throw unprocessable(`the package has more than ${MAX_PACKAGE_FILES} files`);
      if (entry.isDirectory()) pending.push(full);
      else if (entry.isFile()) bytes += (await lstat(full)).size;
      if (bytes > MAX_PACKAGE_BYTES) throw unprocessable(`the package is larger than ${MAX_PACKAGE_BYTES} bytes`);
    }
  }
}

export async function readManifest(dir: string): Promise<PackageJson> {
  const file = path.join(dir, 'package.json');
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) throw unprocessable('the package has no package.json');
  if (info.size > MAX_MANIFEST_BYTES) throw unprocessable('package.json is too large');
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

/** A path the package names, resolved inside its directory (a `../` escape is refused). */
function inside(dir: string, relative: string, what: string): string {
  const full = path.resolve(dir, relative);
  if (full !== dir && !full.startsWith(dir + path.sep)) throw unprocessable(`${what} points outside the package`);
  return full;
}

/** A conditional export target: a string, or the first of import/default/browser/require that is one. */
function exportTarget(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object') {
    for (const condition of ['import', 'browser', 'default', 'require']) {
      const target = exportTarget((value as Record<string, unknown>)[condition]);
      if (target) return target;
    }
  }
  return null;
}

function subpathExport(manifest: PackageJson, subpath: '.' | './ui-parser'): string | null {
  const { exports } = manifest;
  if (typeof exports === 'string') return subpath === '.' ? exports : null;
  if (!exports || typeof exports !== 'object') return null;
  const map = exports as Record<string, unknown>;
  // `exports` is either a subpath map (keys start with '.') or the conditions of '.' itself.
  if (Object.keys(map).some((key) => key.startsWith('.'))) return exportTarget(map[subpath]);
  return subpath === '.' ? exportTarget(map) : null;
}

/** The server entry: exports['.'], else main, else index.js (what Node would import). */
export function entryFile(dir: string, manifest: PackageJson): string {
  const target = subpathExport(manifest, '.') ?? (typeof manifest.main === 'string' ? manifest.main : 'index.js');
  return inside(dir, target, 'the package entry');
}

/** The browser-safe parser: the `adapterUiParser` field, else the `./ui-parser` export; null when neither. */
export function uiParserFile(dir: string, manifest: PackageJson): string | null {
  const target =
    typeof manifest.adapterUiParser === 'string' ? manifest.adapterUiParser : subpathExport(manifest, './ui-parser');
  return target ? inside(dir, target, 'the UI parser') : null;
}

let generation = 0;

/**
 * Imports the package's entry and checks what `createServerAdapter()` returns with the registry's
 * own shape check (a scratch registry, so the live one is untouched). Every import gets a new query
 * string on its file URL: Node caches ES modules by URL, and a reload must evaluate the file again.
 * Only the entry file is re-evaluated: modules it imports stay cached until the server restarts.
 */
export async function loadPackage(dir: string, manifest?: PackageJson): Promise<LoadedPackage> {
  const pkg = manifest ?? (await readManifest(dir));
  const entry = entryFile(dir, pkg);
  if (!(await stat(entry).catch(() => null))?.isFile())
    throw unprocessable(`the package entry ${path.relative(dir, entry)} does not exist`);
  const url = `${pathToFileURL(entry).href}?v=${Date.now()}-${++generation}`;
  let timer: NodeJS.Timeout | undefined;
  let imported: Record<string, unknown>;
  try {
    imported = await Promise.race([
      import(url) as Promise<Record<string, unknown>>,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`import did not finish within ${IMPORT_TIMEOUT_MS} ms`)),
          IMPORT_TIMEOUT_MS,
        );
      }),
    ]);
  } catch (err) {
    throw unprocessable(`could not import the package entry: ${(err as Error).message}`.slice(0, 1000));
  } finally {
    clearTimeout(timer);
  }
  // A CommonJS package arrives as its module.exports under `default`.
  const fallback =
    imported.default && typeof imported.default === 'object' ? (imported.default as Record<string, unknown>) : {};
  const createServerAdapter = imported.createServerAdapter ?? fallback.createServerAdapter;
  if (typeof createServerAdapter !== 'function')
    throw unprocessable('the package does not export a createServerAdapter function');
  const module = {
    createServerAdapter: createServerAdapter as () => ServerAdapter,
    configSchema: imported.configSchema ?? fallback.configSchema,
  };
  let adapter: ServerAdapter;
  try {
    adapter = createAdapterRegistry([]).register(module);
  } catch (err) {
    throw unprocessable((err as Error).message.slice(0, 1000));
  }
  return { module, adapter, manifest: pkg, dir };
}
