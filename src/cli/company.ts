// `boardroom company export|import`: the portability services (src/modules/portability) run by the
// instance owner straight on the instance's database, with a folder or a .zip on this machine.
import { readFile, writeFile } from 'node:fs/promises';
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import type { BoardActor } from '../core/actor.ts';
import type { Config } from '../core/config.ts';
import type { Database } from '../db/client.ts';
import { readZip, writeZip, ZipError } from '../lib/zip.ts';
import { localStorage } from '../storage/storage.ts';
import { ensureInstanceOwner } from '../modules/auth/service.ts';
import { BUNDLE_LIMITS, fileBytes, type BundleFiles } from '../modules/portability/bundle.ts';
import { parseBundle } from '../modules/portability/parse.ts';
import { INCLUDE_KEYS, type IncludeKey } from '../modules/portability/export.ts';
import { bundleFileOf, readBundleFolder, writeBundleFolder } from '../modules/portability/folder.ts';
import { applyImport } from '../modules/portability/apply.ts';
import { COLLISION_STRATEGIES, planImport, type CollisionStrategy } from '../modules/portability/plan.ts';
import { exportBundle } from '../modules/portability/service.ts';

const ownerActor = async (database: Database): Promise<BoardActor> => ({
  kind: 'board',
  userId: (await ensureInstanceOwner(database.db)).id,
  isInstanceOwner: true,
  via: 'local_trusted',
});
const isZip = (file: string) => file.toLowerCase().endsWith('.zip');

/** `--include company,agents,...` (default: everything). */
export function parseInclude(value: string): Record<IncludeKey, boolean> {
  const wanted = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = wanted.filter((w) => !(INCLUDE_KEYS as readonly string[]).includes(w));
  if (unknown.length > 0)
    throw new Error(`--include: unknown ${unknown.join(', ')} (choose from ${INCLUDE_KEYS.join(', ')})`);
  return Object.fromEntries(INCLUDE_KEYS.map((k) => [k, wanted.includes(k)])) as Record<IncludeKey, boolean>;
}

export async function exportCompanyCommand(
  database: Database,
  config: Config,
  companyId: string,
  out: string,
  include: Record<IncludeKey, boolean>,
): Promise<string> {
  const actor = await ownerActor(database);
  const bundle = await exportBundle(database.db, localStorage(path.join(config.dataDir, 'storage')), actor, {
    companyId,
    body: { include },
    strict: true,
  });
  if (isZip(out)) {
    // Under one folder named after the company, as a zip of a folder usually is.
    await writeFile(
      out,
      writeZip(Object.entries(bundle.files).map(([p, f]) => ({ name: `${bundle.rootPath}/${p}`, data: fileBytes(f) }))),
    );
  } else {
    await writeBundleFolder(out, bundle.files);
  }
  const counts = Object.entries(bundle.manifest.counts)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
  return [
    `exported ${bundle.manifest.company?.name ?? companyId} to ${out}: ${counts}`,
    ...bundle.warnings.map((w) => `warning: ${w}`),
  ].join('\n');
}

/** A bundle from a folder or a .zip; a zip whose files all sit in one folder is read from inside it. */
export async function readBundleSource(source: string): Promise<BundleFiles> {
  const stat = await lstat(source).catch(() => null);
  if (!stat) throw new Error(`${source} does not exist`);
  if (stat.isDirectory()) return readBundleFolder(source);
  if (!isZip(source)) throw new Error(`${source} is neither a folder nor a .zip`);
  let entries;
  try {
    entries = readZip(await readFile(source), {
      maxEntries: BUNDLE_LIMITS.maxFiles,
      maxEntryBytes: BUNDLE_LIMITS.maxFileBytes,
      maxTotalBytes: BUNDLE_LIMITS.maxTotalBytes,
    });
  } catch (err) {
    if (err instanceof ZipError) throw new Error(`${source}: ${err.message}`);
    throw err;
  }
  const tops = new Set(entries.map((e) => (e.name.includes('/') ? e.name.split('/')[0] : '')));
  const prefix = tops.size === 1 && !tops.has('') ? `${[...tops][0]}/` : '';
  return Object.fromEntries(
    entries.map((e) => [e.name.slice(prefix.length), bundleFileOf(e.name.slice(prefix.length), e.data)]),
  );
}

export interface ImportCommandOptions {
  into?: string | undefined;
  dryRun: boolean;
  strategy: string;
  name?: string | undefined;
  secrets: string[];
}

/** Prints the plan (dry run) or the result as JSON; fails when the plan has errors. */
export async function importCompanyCommand(
  database: Database,
  config: Config,
  source: string,
  opts: ImportCommandOptions,
): Promise<string> {
  if (!(COLLISION_STRATEGIES as readonly string[]).includes(opts.strategy))
    throw new Error(`--strategy must be one of ${COLLISION_STRATEGIES.join(', ')}`);
  const secretValues: Record<string, string> = {};
  for (const pair of opts.secrets) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new Error(`--secret ${pair}: expected KEY=VALUE`);
    secretValues[pair.slice(0, at)] = pair.slice(at + 1);
  }
  const { model, warnings } = parseBundle(await readBundleSource(source));
  const actor = await ownerActor(database);
  const importOptions = {
    target: opts.into
      ? { mode: 'existing_company' as const, companyId: opts.into }
      : { mode: 'new_company' as const, newCompanyName: opts.name },
    collisionStrategy: opts.strategy as CollisionStrategy,
    secretValues,
  };
  if (opts.dryRun) {
    const { existing: _existing, ...preview } = await planImport(database.db, model, importOptions, warnings);
    if (preview.errors.length > 0) throw new Error(`the plan has errors:\n${preview.errors.join('\n')}`);
    return JSON.stringify(preview, null, 2);
  }
  const result = await applyImport(
    database.db,
    actor,
    { storage: localStorage(path.join(config.dataDir, 'storage')), masterKey: config.masterKey },
    { model, opts: importOptions, parseWarnings: warnings },
  );
  return JSON.stringify(result, null, 2);
}
