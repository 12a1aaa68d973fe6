// A plugin's config, per company (issue 27 sections 1 and 5): values of the manifest's
// `configSchema` that the company's board saves. Per company because a secret is kept only as a
// reference (`format: "secret-ref"`: the id of one of that company's secrets), never a value; the
// host substitutes the value in `http.fetch` (pluginConfigOf below), the worker never sees it.
// A config is checked in stages, each a 422 naming the field: the schema, the secret references,
// then the worker's own `validateConfig` when its worker can run. A saved config is announced to
// the worker with `configChanged`, best-effort.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { inTransaction, type Ctx } from '../../core/context.ts';
import { unprocessable } from '../../core/errors.ts';
import type { DbOrTx } from '../../db/client.ts';
import { pluginConfigs, plugins, secrets } from '../../db/schema/index.ts';
import { oneRow } from '../../db/rows.ts';
import { recordActivity } from '../activity/record.ts';
import { manifestOf } from './service.ts';
import { causeOf, type CompanyPlugin, companyPluginFor } from './surfaces.ts';
import { assertMatches, secretReferences, withDefaults } from './values.ts';
import { BridgeError } from './worker/errors.ts';
import type { PluginWorkers } from './worker/host.ts';

type Config = Record<string, unknown>;

/** A plugin that declares no configSchema takes no config: only `{}`. */
const NO_CONFIG = { type: 'object', properties: {}, additionalProperties: false };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** `configChanged` is a courtesy to the worker: it must not hold a worker slot for long. */
const CONFIG_CHANGED_TIMEOUT_MS = 10_000;

export interface PluginConfigView {
  pluginId: string;
  companyId: string;
  /** The manifest's configSchema (null: the plugin takes no config). */
  configSchema: Config | null;
  /** The saved config with the schema's defaults filled in; secret references as secret ids. */
  config: Config;
  /** 0 until the first save. */
  revision: number;
  updatedAt: Date | null;
  updatedByUserId: string | null;
}

const schemaOf = (scope: Pick<CompanyPlugin, 'manifest'>) => scope.manifest.configSchema ?? NO_CONFIG;

/**
 * The plugin's config for the company, defaults filled in (`{}` plus defaults when none was saved):
 * what the host reads to substitute a `{ "$secret": "<field>" }` in a worker's `http.fetch`. A
 * secret-ref field holds the secret's id. No permission check: the caller is the host itself.
 */
export async function pluginConfigOf(db: DbOrTx, pluginId: string, companyId: string): Promise<Config> {
  const [plugin] = await db.select().from(plugins).where(eq(plugins.id, pluginId));
  if (!plugin) return {};
  const [row] = await db
    .select({ config: pluginConfigs.config })
    .from(pluginConfigs)
    .where(and(eq(pluginConfigs.pluginId, pluginId), eq(pluginConfigs.companyId, companyId)));
  return withDefaults(manifestOf(plugin).configSchema, row?.config ?? {}) as Config;
}

async function viewOf(db: DbOrTx, scope: CompanyPlugin): Promise<PluginConfigView> {
  const [row] = await db
    .select()
    .from(pluginConfigs)
    .where(and(eq(pluginConfigs.pluginId, scope.plugin.id), eq(pluginConfigs.companyId, scope.companyId)));
  return {
    pluginId: scope.plugin.id,
    companyId: scope.companyId,
    configSchema: scope.manifest.configSchema ?? null,
    config: withDefaults(scope.manifest.configSchema, row?.config ?? {}) as Config,
    revision: row?.revision ?? 0,
    updatedAt: row?.updatedAt ?? null,
    updatedByUserId: row?.updatedByUserId ?? null,
  };
}

/** The company's config of the plugin (board users of the company). */
export async function getPluginConfig(ctx: Ctx, pluginId: string, companyId: string): Promise<PluginConfigView> {
  return viewOf(ctx.db, await companyPluginFor(ctx, 'plugin.readCompany', pluginId, companyId));
}

export interface ConfigCheck {
  /** The candidate with the schema's defaults filled in. */
  config: Config;
  /** The worker's `validateConfig` accepted it; false when the worker could not run (not enabled, failing). */
  checkedByWorker: boolean;
}

/** Every check a config must pass before it is saved; 422 naming the field, 502 for a worker that answers wrong. */
async function checkConfig(ctx: Ctx, workers: PluginWorkers, scope: CompanyPlugin, candidate: Config) {
  const schema = schemaOf(scope);
  const config = withDefaults(schema, candidate) as Config;
  assertMatches(schema, config, 'config');

  const refs = secretReferences(schema, config);
  for (const ref of refs)
    if (typeof ref.value !== 'string' || !UUID.test(ref.value))
      throw unprocessable(`${ref.field}: a secret reference is the id of a secret of this company`);
  const ids = [...new Set(refs.map((ref) => ref.value as string))];
  const found = ids.length
    ? await ctx.db
        .select({ id: secrets.id })
        .from(secrets)
        .where(and(eq(secrets.companyId, scope.companyId), inArray(secrets.id, ids)))
    : [];
  const known = new Set(found.map((s) => s.id));
  const missing = refs.find((ref) => !known.has(ref.value as string));
  if (missing) throw unprocessable(`${missing.field}: no secret ${String(missing.value)} in this company`);

  return { config, checkedByWorker: await workerAccepts(ctx, workers, scope, config) };
}

/**
 * The worker's `validateConfig`, when its worker can run for the company. A worker that cannot start
 * (not enabled, crashed, restarting) is skipped rather than blocking the config that may fix it.
 */
async function workerAccepts(ctx: Ctx, workers: PluginWorkers, scope: CompanyPlugin, config: Config) {
  if (!scope.runnable) return false;
  let answer: unknown;
  try {
    answer = await workers.invoke(scope.plugin.id, scope.companyId, {
      kind: 'validateConfig',
      key: null,
      input: config,
      cause: causeOf(ctx.actor),
    });
  } catch (err) {
    if (err instanceof BridgeError && err.code === 'WORKER_UNAVAILABLE') return false;
    throw err;
  }
  const { ok, errors } = (answer ?? {}) as { ok?: unknown; errors?: unknown };
  if (typeof ok !== 'boolean' || (errors !== undefined && !Array.isArray(errors)))
    throw new BridgeError('WORKER_ERROR', 'validateConfig must answer { ok: boolean, errors?: string[] }');
  if (!ok) {
    const reasons = (Array.isArray(errors) ? errors : []).map(String).slice(0, 20);
    throw unprocessable(`config: the plugin refused it: ${reasons.join('; ') || 'no reason given'}`, {
      errors: reasons,
    });
  }
  return true;
}

/** `config/test`: every check of a save, nothing saved. */
export async function testPluginConfig(
  ctx: Ctx,
  workers: PluginWorkers,
  pluginId: string,
  input: { companyId: string; config: Config },
): Promise<ConfigCheck> {
  const scope = await companyPluginFor(ctx, 'plugin.configure', pluginId, input.companyId);
  return checkConfig(ctx, workers, scope, input.config);
}

/** Saves the company's config once it passes every check, records it, and tells the worker. */
export async function savePluginConfig(
  ctx: Ctx,
  workers: PluginWorkers,
  pluginId: string,
  input: { companyId: string; config: Config },
): Promise<PluginConfigView> {
  const scope = await companyPluginFor(ctx, 'plugin.configure', pluginId, input.companyId);
  const { config } = await checkConfig(ctx, workers, scope, input.config);
  const view = await inTransaction(ctx, async (tx, txCtx) => {
    const updatedByUserId = txCtx.actor.kind === 'board' ? txCtx.actor.userId : null;
    const rows = await tx
      .insert(pluginConfigs)
      .values({ pluginId, companyId: scope.companyId, config: input.config, revision: 1, updatedByUserId })
      .onConflictDoUpdate({
        target: [pluginConfigs.pluginId, pluginConfigs.companyId],
        set: {
          config: input.config,
          revision: sql`${pluginConfigs.revision} + 1`,
          updatedByUserId,
          updatedAt: new Date(),
        },
      })
      .returning();
    const row = oneRow(rows, 'plugin config');
    await recordActivity(tx, txCtx.actor, {
      companyId: scope.companyId,
      action: 'plugin.config_updated',
      entityType: 'plugin',
      entityId: pluginId,
      // The field names only: values may be long, and references are the board's business.
      details: { pluginKey: scope.plugin.pluginKey, revision: row.revision, fields: Object.keys(input.config).sort() },
    });
    return viewOf(tx, scope);
  });
  if (scope.runnable)
    // Best-effort: the config is saved whatever the worker does with the news.
    void workers
      .invoke(pluginId, scope.companyId, {
        kind: 'configChanged',
        key: null,
        input: config,
        cause: causeOf(ctx.actor),
        timeoutMs: CONFIG_CHANGED_TIMEOUT_MS,
      })
      .catch(() => undefined);
  return view;
}
