// The adapter registry as the operator manages it (SPEC "Adapters", board scope): install, reload,
// reinstall and delete external packages, per-type config and override, the environment checks.
//
// The live registry (src/adapters/registry.ts) is shared with the engine, so a package installed
// here runs the next wake. Installed packages live under <dataDir>/adapters/<type>/ and are recorded
// in adapter_installs, so the server registers them again at start (loadInstalled). An install is
// staged in <dataDir>/adapters/.staging-*, validated there, and becomes the installed one by a single
// rename: a failure at any step leaves neither files nor a row. Mutations commit one at a time in
// this process (they are rare operator actions; serialising them makes install/reload/delete races
// moot), but the slow part of an install or reinstall (npm, the copy, importing foreign code:
// seconds to minutes) runs before its turn, in its own staging directory, and a request about
// a type that does not exist is refused before it waits: a held install delayed such 404s by the
// whole install (10 s with an import that hung), now they answer in milliseconds.
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { conflict, notFound, unprocessable } from '../../core/errors.ts';
import { REDACTED } from '../../lib/redact.ts';
import type { Db } from '../../db/client.ts';
import { adapterInstalls, type AdapterOverride } from '../../db/schema/index.ts';
import type { AdapterRegistry } from '../../adapters/registry.ts';
import type { EnvironmentCheck, ServerAdapter } from '../../adapters/types.ts';
import { localPathOf, readPackageJson, stagePackage, type PackageSource } from '../../core/package-staging.ts';
import { loadPackage, MAX_UI_PARSER_BYTES, uiParserFile, type LoadedPackage } from './package.ts';
import { oneRow } from '../../db/rows.ts';
import type { Actor } from '../../core/actor.ts';
import { assertMayChangeAdapters, assertMayReadAdapters } from './policy.ts';

export type AdapterInstall = typeof adapterInstalls.$inferSelect;

// Each check runs with this bound: GET /api/adapters answers even when a check hangs.
export const ENVIRONMENT_CHECK_TIMEOUT_MS = 5_000;
// The registry is listed whole (no paging): a natural bound on what an operator installs.
export const MAX_EXTERNAL_ADAPTERS = 100;

export interface InstallInput {
  packageName: string;
  version?: string;
  isLocalPath?: boolean;
}

export interface AdapterEntry {
  type: string;
  adapter: ServerAdapter | null;
  builtin: boolean;
  install: AdapterInstall | null;
  /** Why an installed package is not registered (it failed to load at start or reload). */
  loadError: string | null;
  hasUiParser: boolean;
  environment: EnvironmentCheck;
}

interface Logger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface AdapterManager {
  registry: AdapterRegistry;
  /** Registers every installed package again (server start); one that fails is logged and listed with its error. */
  loadInstalled(): Promise<void>;
  // The use cases: each checks its `adapter.*` row (policy.ts) for the acting caller first.
  list(actor: Actor): Promise<AdapterEntry[]>;
  install(actor: Actor, input: InstallInput): Promise<AdapterEntry>;
  reinstall(actor: Actor, type: string): Promise<AdapterEntry>;
  reload(actor: Actor, type: string): Promise<AdapterEntry>;
  remove(actor: Actor, type: string): Promise<void>;
  setConfig(actor: Actor, type: string, config: Record<string, unknown>): Promise<AdapterEntry>;
  setOverride(actor: Actor, type: string, override: AdapterOverride): Promise<AdapterEntry>;
  configSchema(actor: Actor, type: string): Promise<Record<string, unknown>>;
  uiParser(actor: Actor, type: string): Promise<Buffer>;
}

/** A run's adapter type that cannot run now, and why (the executor fails the run with this); null when it can. */
export async function adapterRunRefusal(
  db: Db,
  registry: AdapterRegistry,
  type: string | null,
): Promise<string | null> {
  if (!type) return 'the agent has no adapter type';
  const [row] = await db
    .select({ override: adapterInstalls.override })
    .from(adapterInstalls)
    .where(eq(adapterInstalls.type, type));
  if (row?.override.disabled) return `adapter type ${type} is disabled`;
  if (!registry.get(type)) return `adapter type ${type} is not installed on this server`;
  return null;
}

/** An environment check that throws, hangs or answers garbage is a failed check, never an error of the list. */
export async function checkEnvironment(
  adapter: ServerAdapter,
  config: Record<string, unknown>,
  timeoutMs = ENVIRONMENT_CHECK_TIMEOUT_MS,
): Promise<EnvironmentCheck> {
  const failed = (detail: string): EnvironmentCheck => ({
    ok: false,
    checks: [{ name: 'testEnvironment', ok: false, detail }],
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    const result = await Promise.race([
      Promise.resolve().then(() => adapter.testEnvironment(config)),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    if (!result || typeof result.ok !== 'boolean' || !Array.isArray(result.checks))
      return failed('testEnvironment() returned an invalid result');
    const checks = result.checks.slice(0, 50).map((c) => ({
      name: String(c?.name ?? '').slice(0, 200),
      ok: c?.ok === true,
      detail: String(c?.detail ?? '').slice(0, 2000),
    }));
    return { ok: result.ok && checks.every((c) => c.ok), checks };
  } catch (err) {
    return failed(`testEnvironment() failed: ${String((err as Error)?.message ?? err).slice(0, 1000)}`);
  } finally {
    clearTimeout(timer);
  }
}

export function createAdapterManager(deps: {
  db: Db;
  registry: AdapterRegistry;
  dataDir: string;
  logger: Logger;
}): AdapterManager {
  const { db, registry, logger } = deps;
  const root = path.join(deps.dataDir, 'adapters');
  const loaded = new Map<string, LoadedPackage>();
  const loadErrors = new Map<string, string>();

  let queue: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  };

  const isBuiltin = (type: string) => registry.list().some((r) => r.builtin && r.adapter.type === type);
  const rowOf = async (type: string) =>
    (await db.select().from(adapterInstalls).where(eq(adapterInstalls.type, type)))[0] ?? null;
  const requireExternal = async (type: string): Promise<AdapterInstall & { installDir: string }> => {
    if (isBuiltin(type))
      throw conflict(
        `adapter type ${type} is built in: only external adapters can be reloaded, reinstalled or deleted`,
      );
    const row = await rowOf(type);
    if (!row?.installDir) throw notFound('adapter');
    return row as AdapterInstall & { installDir: string };
  };

  const activate = (type: string, pkg: LoadedPackage) => {
    // The adapter already created and checked, not a second createServerAdapter() call.
    registry.register({ createServerAdapter: () => pkg.adapter });
    loaded.set(type, pkg);
    loadErrors.delete(type);
  };

  async function entry(type: string, row?: AdapterInstall | null): Promise<AdapterEntry> {
    const install = row === undefined ? await rowOf(type) : row;
    const adapter = registry.get(type) ?? null;
    const pkg = loaded.get(type);
    const environment = adapter
      ? await checkEnvironment(adapter, install?.config ?? {})
      : {
          ok: false,
          checks: [{ name: 'load', ok: false, detail: loadErrors.get(type) ?? 'the package is not loaded' }],
        };
    return {
      type,
      adapter,
      builtin: isBuiltin(type),
      install,
      loadError: adapter ? null : (loadErrors.get(type) ?? 'the package is not loaded'),
      hasUiParser: pkg ? uiParserFile(pkg.dir, pkg.manifest) !== null : false,
      environment,
    };
  }

  /** Fetches the source into a fresh staging directory and validates it there. */
  async function stage(source: PackageSource) {
    await mkdir(root, { recursive: true, mode: 0o700 });
    const staging = await mkdtemp(path.join(root, '.staging-'));
    try {
      const staged = await stagePackage(source, staging);
      const pkg = await loadPackage(path.join(staging, staged.relDir), staged.manifest);
      return { staging, relDir: staged.relDir, pkg };
    } catch (err) {
      await rm(staging, { recursive: true, force: true });
      throw err;
    }
  }

  const versionOf = (pkg: LoadedPackage) =>
    typeof pkg.manifest.version === 'string' ? pkg.manifest.version.slice(0, 100) : null;

  const manager: AdapterManager = {
    registry,

    async loadInstalled() {
      // Staging directories of an install the previous process never finished.
      for (const name of await readdir(root).catch(() => [] as string[])) {
        if (name.startsWith('.staging-') || name.startsWith('.old-'))
          await rm(path.join(root, name), { recursive: true, force: true });
      }
      const rows = await db.select().from(adapterInstalls);
      for (const row of rows) {
        if (!row.installDir) continue;
        try {
          const pkg = await loadPackage(row.installDir);
          if (pkg.adapter.type !== row.type)
            throw unprocessable(`the package now creates adapter type ${pkg.adapter.type}, not ${row.type}`);
          if (isBuiltin(row.type)) throw conflict(`adapter type ${row.type} is now built in`);
          activate(row.type, pkg);
        } catch (err) {
          loadErrors.set(row.type, (err as Error).message);
          logger.warn(
            { type: row.type, err: (err as Error).message },
            'adapters: an installed adapter package failed to load',
          );
        }
      }
    },

    async list(actor) {
      await assertMayReadAdapters({ db, actor });
      const rows = await db.select().from(adapterInstalls);
      const byType = new Map(rows.map((r) => [r.type, r]));
      const types = new Set([
        ...registry.list().map((r) => r.adapter.type),
        ...rows.filter((r) => r.installDir).map((r) => r.type),
      ]);
      // Built-ins first, then externals, each by type: a stable order for a settings screen.
      const ordered = [...types].sort((a, b) => Number(isBuiltin(b)) - Number(isBuiltin(a)) || a.localeCompare(b));
      return Promise.all(ordered.map((type) => entry(type, byType.get(type) ?? null)));
    },

    async install(actor, input) {
      await assertMayChangeAdapters({ db, actor }, 'adapter.install');
      const localPath = localPathOf(input);
      const { staging, relDir, pkg } = await stage({
        localPath,
        packageName: input.packageName,
        version: input.version,
      });
      return exclusive(async () => {
        const type = pkg.adapter.type;
        const final = path.join(root, type);
        try {
          if (isBuiltin(type)) throw conflict(`adapter type ${type} is built in and cannot be installed over`);
          const existing = await rowOf(type);
          if (existing?.installDir || registry.get(type))
            throw conflict(`adapter type ${type} is already installed: reinstall or delete it first`);
          const count = (await db.select({ type: adapterInstalls.type }).from(adapterInstalls)).length;
          if (count >= MAX_EXTERNAL_ADAPTERS)
            throw unprocessable(`at most ${MAX_EXTERNAL_ADAPTERS} adapters can be installed`);
          // A directory left by a crash between rename and insert is not an install (no row): replace it.
          await rm(final, { recursive: true, force: true });
          await rename(staging, final);
        } catch (err) {
          await rm(staging, { recursive: true, force: true });
          throw err;
        }
        try {
          // Imported again from where it now lives, so relative imports resolve inside the install.
          const installed = await loadPackage(path.join(final, relDir));
          const rows = await db
            .insert(adapterInstalls)
            .values({
              type,
              packageName: typeof pkg.manifest.name === 'string' ? pkg.manifest.name.slice(0, 214) : input.packageName,
              version: versionOf(pkg),
              localPath,
              installDir: path.join(final, relDir),
            })
            .returning();
          activate(type, installed);
          logger.info({ type, source: localPath ?? input.packageName }, 'adapters: installed');
          return entry(type, oneRow(rows, 'adapter install'));
        } catch (err) {
          await db
            .delete(adapterInstalls)
            .where(eq(adapterInstalls.type, type))
            .catch(() => undefined);
          await rm(final, { recursive: true, force: true });
          throw err;
        }
      });
    },

    async reinstall(actor, type) {
      await assertMayChangeAdapters({ db, actor }, 'adapter.reinstall');
      const source = await requireExternal(type);
      const pinned = source.override.pinnedVersion ?? undefined;
      const { staging, relDir, pkg } = await stage({
        localPath: source.localPath,
        packageName: source.packageName ?? type,
        version: pinned ?? source.version ?? undefined,
      });
      return exclusive(async () => {
        const final = path.join(root, type);
        const old = path.join(root, `.old-${type}-${randomBytes(4).toString('hex')}`);
        try {
          // Deleted, or pinned elsewhere, while the source was fetched: checked again in turn.
          const row = await requireExternal(type);
          const pinnedNow = row.override.pinnedVersion ?? undefined;
          if (pkg.adapter.type !== type)
            throw unprocessable(`the package now creates adapter type ${pkg.adapter.type}, not ${type}`);
          if (pinnedNow && versionOf(pkg) !== pinnedNow)
            throw unprocessable(
              `adapter type ${type} is pinned to version ${pinnedNow}; the source has ${versionOf(pkg) ?? 'no version'}`,
            );
        } catch (err) {
          await rm(staging, { recursive: true, force: true });
          throw err;
        }
        // Swap directories; on any failure the previous install comes back as it was.
        const hadFiles = (await stat(final).catch(() => null)) !== null;
        if (hadFiles) await rename(final, old);
        try {
          await rename(staging, final);
          const installed = await loadPackage(path.join(final, relDir));
          const [updated] = await db
            .update(adapterInstalls)
            .set({ version: versionOf(pkg), installDir: path.join(final, relDir), updatedAt: new Date() })
            .where(eq(adapterInstalls.type, type))
            .returning();
          // Deleted meanwhile by another replica (this one's deletes wait for exclusive()).
          if (!updated) throw notFound('adapter');
          activate(type, installed);
          await rm(old, { recursive: true, force: true });
          return entry(type, updated);
        } catch (err) {
          await rm(final, { recursive: true, force: true });
          await rm(staging, { recursive: true, force: true });
          if (hadFiles) await rename(old, final);
          throw err;
        }
      });
    },

    async reload(actor, type) {
      await assertMayChangeAdapters({ db, actor }, 'adapter.reload');
      await requireExternal(type);
      return exclusive(async () => {
        const row = await requireExternal(type);
        let pkg: LoadedPackage;
        try {
          pkg = await loadPackage(row.installDir);
          if (pkg.adapter.type !== type)
            throw unprocessable(`the package now creates adapter type ${pkg.adapter.type}, not ${type}`);
        } catch (err) {
          // The previous registration, if any, keeps running: a broken edit does not take it down.
          if (!registry.get(type)) loadErrors.set(type, (err as Error).message);
          throw err;
        }
        activate(type, pkg);
        return entry(type, row);
      });
    },

    async remove(actor, type) {
      await assertMayChangeAdapters({ db, actor }, 'adapter.remove');
      await requireExternal(type);
      return exclusive(async () => {
        const row = await requireExternal(type);
        registry.unregister(type);
        loaded.delete(type);
        loadErrors.delete(type);
        await db.delete(adapterInstalls).where(eq(adapterInstalls.type, type));
        await rm(path.join(root, type), { recursive: true, force: true });
        logger.info({ type, packageName: row.packageName }, 'adapters: deleted');
      });
    },

    async setConfig(actor, type, config) {
      await assertMayChangeAdapters({ db, actor }, 'adapter.configure');
      await requireKnown(type);
      return exclusive(async () => {
        const previous = (await requireKnown(type))?.config ?? {};
        const next = keepRedacted(config, previous) as Record<string, unknown>;
        const rows = await db
          .insert(adapterInstalls)
          .values({ type, config: next })
          .onConflictDoUpdate({ target: adapterInstalls.type, set: { config: next, updatedAt: new Date() } })
          .returning();
        return entry(type, oneRow(rows, 'adapter install'));
      });
    },

    async setOverride(actor, type, change) {
      await assertMayChangeAdapters({ db, actor }, 'adapter.override');
      await requireKnown(type);
      return exclusive(async () => {
        const current = (await requireKnown(type))?.override ?? {};
        const override: AdapterOverride = { ...current };
        if (change.disabled !== undefined) override.disabled = change.disabled;
        if (change.pinnedVersion !== undefined) override.pinnedVersion = change.pinnedVersion;
        const rows = await db
          .insert(adapterInstalls)
          .values({ type, override })
          .onConflictDoUpdate({ target: adapterInstalls.type, set: { override, updatedAt: new Date() } })
          .returning();
        return entry(type, oneRow(rows, 'adapter install'));
      });
    },

    async configSchema(actor, type) {
      await assertMayReadAdapters({ db, actor });
      await requireKnown(type);
      const adapter = registry.get(type) as (ServerAdapter & { configSchema?: unknown }) | undefined;
      const schema = adapter?.configSchema ?? loaded.get(type)?.module.configSchema;
      return schema && typeof schema === 'object' && !Array.isArray(schema)
        ? (schema as Record<string, unknown>)
        : { type: 'object' };
    },

    async uiParser(actor, type) {
      await assertMayReadAdapters({ db, actor });
      await requireKnown(type);
      const pkg = loaded.get(type);
      const row = pkg ? null : await rowOf(type);
      const dir = pkg?.dir ?? row?.installDir;
      if (!dir) throw notFound('UI parser');
      const file = uiParserFile(dir, pkg?.manifest ?? (await readPackageJson(dir).catch(() => ({}))));
      const info = file ? await stat(file).catch(() => null) : null;
      if (!file || !info?.isFile()) throw notFound('UI parser');
      if (info.size > MAX_UI_PARSER_BYTES)
        throw unprocessable(`the UI parser is larger than ${MAX_UI_PARSER_BYTES} bytes`);
      return readFile(file);
    },
  };

  /** The type is registered or recorded (installed, or a built-in with settings): else 404. */
  async function requireKnown(type: string): Promise<AdapterInstall | null> {
    const row = await rowOf(type);
    if (!registry.get(type) && !row?.installDir) throw notFound('adapter');
    return row;
  }

  return manager;
}

/**
 * A config read from GET /api/adapters comes back with sensitive values as `[redacted]`; saving that
 * form again must not replace the stored secret with the placeholder. A `[redacted]` where the
 * stored config has a value keeps that value (in nested objects too); any other value replaces it.
 */
function keepRedacted(next: unknown, previous: unknown): unknown {
  if (next === REDACTED) return previous === undefined ? next : previous;
  if (!isPlainObject(next)) return next;
  const before = isPlainObject(previous) ? previous : {};
  return Object.fromEntries(Object.entries(next).map(([key, value]) => [key, keepRedacted(value, before[key])]));
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value);
