// The plugin record and a company's view of a plugin, as the API answers them.
import { z } from 'zod';
import { timestampOut, uuidOut } from '../../http/openapi.ts';
import type { plugins, pluginCompanyEnablements } from '../../db/schema/index.ts';
import { SIGNING_MODES } from '../routines/signing.ts';

export type PluginRow = typeof plugins.$inferSelect;
export type EnablementRow = typeof pluginCompanyEnablements.$inferSelect;

export const PLUGIN_STATUSES = ['ready', 'disabled'] as const;
export const COMPANY_PLUGIN_STATUSES = ['enabled', 'disabled', 'upgrade_pending'] as const;
export type CompanyPluginStatus = (typeof COMPANY_PLUGIN_STATUSES)[number];

export const pluginResponse = z.object({
  id: uuidOut(),
  pluginKey: z.string().describe("the manifest's `id`"),
  packageName: z.string(),
  version: z.string(),
  status: z
    .enum(PLUGIN_STATUSES)
    .describe('instance availability: `ready` (companies may turn it on) or `disabled` (by the instance owner)'),
  manifest: z.record(z.string(), z.unknown()).describe('the validated manifest, with defaults filled in'),
  lastError: z.string().nullable(),
  source: z.object({
    packageName: z.string(),
    version: z.string().nullable(),
    localPath: z.string().nullable().describe('the absolute path it was copied from; null for an npm package'),
  }),
  files: z.number().int().describe('how many files the package stores'),
  totalBytes: z.number().int(),
  createdAt: timestampOut(),
  updatedAt: timestampOut(),
});

export function presentPlugin(row: PluginRow): z.input<typeof pluginResponse> {
  return {
    id: row.id,
    pluginKey: row.pluginKey,
    packageName: row.packageName,
    version: row.version,
    status: row.status as (typeof PLUGIN_STATUSES)[number],
    manifest: row.manifest,
    lastError: row.lastError,
    source: row.source,
    files: Object.keys(row.files).length,
    totalBytes: row.totalBytes,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export const exampleResponse = z.object({
  id: z.string().describe("the example's plugin key"),
  displayName: z.string(),
  description: z.string(),
  localPath: z
    .string()
    .describe('absolute path to install it from (`POST /api/plugins/install` with `isLocalPath: true`)'),
});

export const companyPluginResponse = z.object({
  pluginId: uuidOut(),
  pluginKey: z.string(),
  displayName: z.string(),
  description: z.string(),
  version: z.string(),
  instanceStatus: z.enum(PLUGIN_STATUSES).describe("the plugin's instance availability"),
  status: z
    .enum(COMPANY_PLUGIN_STATUSES)
    .describe(
      '`enabled` for this company, `disabled` (never turned on, or turned off), or `upgrade_pending` (an upgrade asks for capabilities this company has not consented to: the plugin does not run for it until the board consents again)',
    ),
  capabilities: z.array(z.string()).describe('the capabilities this company consented to (empty when disabled)'),
  requestedCapabilities: z.array(z.string()).describe("the manifest's capabilities: what enabling consents to"),
  consentedAt: timestampOut().nullable(),
  webhooks: z
    .array(
      z.object({
        key: z.string().describe("the manifest's webhook key"),
        url: z.string().describe("where to POST deliveries: this company's endpoint (a new one on each rotation)"),
        signing: z.enum(SIGNING_MODES),
        secret: z
          .string()
          .optional()
          .describe('the signing secret: only in the answer that created or rotated the endpoint (signed modes)'),
      }),
    )
    .describe("this company's webhook endpoints (empty while the plugin is off for it)"),
});

export type CompanyPluginWebhook = z.input<typeof companyPluginResponse>['webhooks'][number];

export function presentCompanyPlugin(
  plugin: PluginRow,
  enablement: EnablementRow | undefined,
  webhooks: CompanyPluginWebhook[],
): z.input<typeof companyPluginResponse> {
  const manifest = plugin.manifest as { displayName?: string; description?: string; capabilities?: string[] };
  return {
    pluginId: plugin.id,
    pluginKey: plugin.pluginKey,
    displayName: manifest.displayName ?? plugin.pluginKey,
    description: manifest.description ?? '',
    version: plugin.version,
    instanceStatus: plugin.status as (typeof PLUGIN_STATUSES)[number],
    status: (enablement?.status as CompanyPluginStatus | undefined) ?? 'disabled',
    capabilities: enablement?.capabilities ?? [],
    requestedCapabilities: manifest.capabilities ?? [],
    consentedAt: enablement?.consentedAt ?? null,
    webhooks,
  };
}
