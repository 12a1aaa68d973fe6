// The host API (issue 27 sections 2 and 3): what a plugin worker may ask the host for, each call
// answered by the same services and permission table as a route, as a `plugin` actor. The actor is
// built here from the slot (the plugin and company the host started the worker for, never the
// worker's word), the company's consented grant, and the invocation's cause, so a call may do only
// what both the grant and whoever caused it may. A refused call is an error whose message starts
// `CAPABILITY_DENIED:` and an activity entry `plugin.call_denied`; bad params are an error naming
// them; nothing a worker sends crashes the host.
import { and, eq } from 'drizzle-orm';
import type { PluginActor } from '../../core/actor.ts';
import type { Config } from '../../core/config.ts';
import { DomainError } from '../../core/errors.ts';
import type { DbOrTx } from '../../db/client.ts';
import { pluginCompanyEnablements, plugins } from '../../db/schema/index.ts';
import { recordActivity } from '../../modules/activity/record.ts';
import type { PluginManifest } from '../../modules/plugins/manifest.ts';
import type { HostApi, HostCallScope } from '../../modules/plugins/worker/host.ts';
import { MethodNotFound } from '../../modules/plugins/worker/process.ts';

export type { PluginConfigOf } from './call.ts';
import { CAPABILITY_CALLS } from './calls.ts';
import { CallRefused, HostCallError, type CallScope, type HostCall, type Lookup, type PluginConfigOf } from './call.ts';
import { NET_CALLS, systemLookup } from './net.ts';
import { STATE_CALLS } from './state.ts';
import { STREAM_CALLS } from './stream.ts';

export interface PluginHostApiDeps {
  config: Pick<Config, 'masterKey' | 'pluginNetAllow'>;
  configOf: PluginConfigOf;
  /** How http.fetch resolves a name (tests answer names offline); default the system resolver. */
  lookup?: Lookup;
  /** At most one `plugin.call_denied` entry per plugin, company and method in this window (a denial flood writes no flood). */
  deniedEntryMs?: number;
}

const CALLS: Record<string, HostCall> = { ...CAPABILITY_CALLS, ...STATE_CALLS, ...NET_CALLS, ...STREAM_CALLS };

/** The host API a replica's PluginWorkers answers worker calls with. */
export function createPluginHostApi(deps: PluginHostApiDeps): HostApi {
  const lookup = deps.lookup ?? systemLookup;
  const deniedEntryMs = deps.deniedEntryMs ?? 60_000;
  const lastDenied = new Map<string, number>();

  async function recordDenial(scope: CallScope, method: string, reason: string): Promise<void> {
    const key = `${scope.actor.pluginId}/${scope.companyId}/${method}`;
    const now = Date.now();
    if ((lastDenied.get(key) ?? 0) > now - deniedEntryMs) return;
    lastDenied.set(key, now);
    if (lastDenied.size > 10_000) lastDenied.clear();
    await recordActivity(scope.db, scope.actor, {
      companyId: scope.companyId,
      action: 'plugin.call_denied',
      entityType: 'plugin',
      entityId: scope.actor.pluginId,
      details: { pluginKey: scope.actor.pluginKey, method, reason },
    });
  }

  return async (slot, method, params) => {
    const call = Object.hasOwn(CALLS, method) ? CALLS[method] : undefined;
    if (!call) throw new MethodNotFound(method);
    const scope = await scopeOf(slot, deps, lookup);
    try {
      if (call.capability && !scope.actor.capabilities.includes(call.capability))
        throw new CallRefused(`${method} needs the ${call.capability} capability, which this company did not grant`);
      return await call.run(scope, params);
    } catch (err) {
      const refusal =
        err instanceof CallRefused
          ? err.message
          : err instanceof DomainError && err.status === 403
            ? err.message
            : null;
      if (refusal !== null) {
        await recordDenial(scope, method, refusal);
        throw new HostCallError('CAPABILITY_DENIED', refusal);
      }
      if (err instanceof HostCallError) throw err;
      if (err instanceof DomainError) throw new HostCallError(err.code.toUpperCase(), err.message);
      throw new HostCallError('HOST_ERROR', `${method} failed on the host`);
    }
  };
}

/** The call's plugin actor: the slot's plugin and company, the company's grant, the invocation's cause. */
async function scopeOf(slot: HostCallScope, deps: PluginHostApiDeps, lookup: Lookup): Promise<CallScope> {
  const [row] = await slot.db
    .select({
      pluginKey: plugins.pluginKey,
      status: plugins.status,
      manifest: plugins.manifest,
      consent: pluginCompanyEnablements.status,
      capabilities: pluginCompanyEnablements.capabilities,
    })
    .from(plugins)
    .innerJoin(
      pluginCompanyEnablements,
      and(eq(pluginCompanyEnablements.pluginId, plugins.id), eq(pluginCompanyEnablements.companyId, slot.companyId)),
    )
    .where(eq(plugins.id, slot.pluginId));
  if (!row || row.status !== 'ready' || row.consent !== 'enabled')
    throw new HostCallError('PLUGIN_UNAVAILABLE', 'the plugin is not enabled for this company');
  const actor: PluginActor = {
    kind: 'plugin',
    pluginId: slot.pluginId,
    pluginKey: row.pluginKey,
    companyId: slot.companyId,
    capabilities: row.capabilities,
    cause: slot.invocation?.cause ?? null,
  };
  return {
    db: slot.db as DbOrTx,
    actor,
    companyId: slot.companyId,
    manifest: row.manifest as PluginManifest,
    ctx: { db: slot.db, actor },
    net: { allow: deps.config.pluginNetAllow ?? [], lookup },
    secrets: { masterKey: deps.config.masterKey, configOf: deps.configOf },
  };
}
