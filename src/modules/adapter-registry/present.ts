// What GET /api/adapters shows of an adapter: identity, source, status, redacted instance config and
// its environment check. The adapter object itself (functions, extra fields of a package) never leaves.
import { z } from 'zod';
import { redact } from '../../lib/redact.ts';
import { timestampOut } from '../../http/openapi.ts';
import type { AdapterEntry } from './service.ts';

const check = z.object({ name: z.string(), ok: z.boolean(), detail: z.string() });

export const adapterResponse = z.object({
  type: z.string(),
  label: z.string(),
  models: z.array(z.object({ id: z.string(), label: z.string() })),
  agentConfigurationDoc: z.string().describe('how an agent configures this adapter (adapterConfig fields)'),
  builtin: z.boolean(),
  loaded: z
    .boolean()
    .describe('registered and able to run; false for an installed package that failed to load (see `loadError`)'),
  loadError: z.string().nullable(),
  source: z.object({
    kind: z.enum(['builtin', 'local', 'npm']),
    packageName: z.string().nullable(),
    version: z.string().nullable(),
    localPath: z.string().nullable(),
  }),
  status: z.object({
    enabled: z.boolean().describe('loaded and not disabled: agents of this type can run'),
    disabled: z.boolean(),
    pinnedVersion: z.string().nullable(),
    overridden: z.boolean().describe('an override block is in force (disabled or pinned)'),
  }),
  config: z.record(z.string(), z.unknown()).describe('the instance config; values under sensitive keys are redacted'),
  hasUiParser: z.boolean().describe('GET /api/adapters/{type}/ui-parser.js serves one'),
  environment: z
    .object({ ok: z.boolean(), checks: z.array(check) })
    .describe('testEnvironment() with the instance config, bounded to 5 s; a throw or a hang is a failed check'),
  installedAt: timestampOut().nullable(),
  updatedAt: timestampOut().nullable(),
});

export function presentAdapter(e: AdapterEntry): z.infer<typeof adapterResponse> {
  const override = e.install?.override ?? {};
  const models = Array.isArray(e.adapter?.models)
    ? e.adapter.models.slice(0, 500).map((m) => ({ id: String(m?.id ?? ''), label: String(m?.label ?? m?.id ?? '') }))
    : [];
  const external = !!e.install?.installDir;
  return {
    type: e.type,
    label: e.adapter?.label ?? e.type,
    models,
    agentConfigurationDoc: typeof e.adapter?.agentConfigurationDoc === 'string' ? e.adapter.agentConfigurationDoc : '',
    builtin: e.builtin,
    loaded: e.adapter !== null,
    loadError: e.loadError,
    source: {
      kind: e.builtin ? 'builtin' : external && e.install?.localPath ? 'local' : 'npm',
      packageName: external ? (e.install?.packageName ?? null) : null,
      version: external ? (e.install?.version ?? null) : null,
      localPath: external ? (e.install?.localPath ?? null) : null,
    },
    status: {
      enabled: e.adapter !== null && !override.disabled,
      disabled: override.disabled === true,
      pinnedVersion: override.pinnedVersion ?? null,
      overridden: override.disabled === true || !!override.pinnedVersion,
    },
    config: redact(e.install?.config ?? {}) as Record<string, unknown>,
    hasUiParser: e.hasUiParser,
    environment: e.environment,
    installedAt: external ? (e.install?.createdAt ?? null) : null,
    updatedAt: e.install?.updatedAt ?? null,
  };
}
