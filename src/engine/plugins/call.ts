// What every host call shares: the scope it runs in, how it declares its capability and params, and
// the errors a worker sees.
import type { z } from 'zod';
import type { PluginActor } from '../../core/actor.ts';
import type { Ctx } from '../../core/context.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { Capability } from '../../modules/plugins/capabilities.ts';
import type { PluginManifest } from '../../modules/plugins/manifest.ts';

/**
 * The plugin's config for a company (helper 2's `plugin_configs`): what `secrets.use` reads the
 * secret references from. Null when the company has none.
 */
export type PluginConfigOf = (pluginId: string, companyId: string) => Promise<Record<string, unknown> | null>;

/** A name's addresses, as http.fetch resolves it before connecting (dns.lookup with `all`). */
export type Lookup = (hostname: string) => Promise<{ address: string; family: number }[]>;

export interface CallScope {
  db: DbOrTx;
  actor: PluginActor;
  /** The slot's company: every record a call names must be this company's. */
  companyId: string;
  manifest: PluginManifest;
  ctx: Ctx<PluginActor>;
  net: { allow: readonly string[]; lookup: Lookup };
  secrets: { masterKey: Buffer; configOf: PluginConfigOf };
}

export interface HostCall {
  /** The capability the company must have granted; null where the call checks its own right (stream.emit). */
  capability: Capability | null;
  run: (scope: CallScope, params: unknown) => Promise<unknown>;
}

/** An error the worker gets as the JSON-RPC error message `CODE: message`. */
export class HostCallError extends Error {
  constructor(code: string, message: string) {
    super(`${code}: ${message}`);
  }
}

/** The call is outside what the plugin may do: CAPABILITY_DENIED, and a `plugin.call_denied` entry. */
export class CallRefused extends Error {}

/** A host call: its capability, its params (invocationId and anything else unknown are dropped), its work. */
export function hostCall<S extends z.ZodType>(
  capability: Capability | null,
  params: S,
  run: (scope: CallScope, params: z.output<S>) => Promise<unknown>,
): HostCall {
  return {
    capability,
    run: (scope, raw) => {
      const parsed = params.safeParse(raw ?? {});
      if (!parsed.success)
        throw new HostCallError(
          'INVALID_PARAMS',
          parsed.error.issues.map((i) => `${i.path.join('.') || 'params'}: ${i.message}`).join('; '),
        );
      return run(scope, parsed.data);
    },
  };
}
