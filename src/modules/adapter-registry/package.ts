// An adapter package on disk, once staged (core/package-staging.ts fetches it): its entry imported
// and checked against the `createServerAdapter` contract. Nothing here touches the database or the
// live registry: the service decides when a staged package becomes the installed one (a rename), so
// a failure never leaves half an install.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { unprocessable } from '../../core/errors.ts';
import { insidePackage as inside, readPackageJson, type PackageJson } from '../../core/package-staging.ts';
import { createAdapterRegistry, type AdapterModule } from '../../adapters/registry.ts';
import type { ServerAdapter } from '../../adapters/types.ts';

export const MAX_UI_PARSER_BYTES = 1024 * 1024;
// Importing foreign code can hang (a top-level await that never settles); the request must not.
const IMPORT_TIMEOUT_MS = 10_000;

export interface LoadedPackage {
  module: AdapterModule & { configSchema?: unknown };
  adapter: ServerAdapter;
  manifest: PackageJson;
  dir: string;
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
  const pkg = manifest ?? (await readPackageJson(dir));
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
