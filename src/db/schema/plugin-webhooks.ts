// Plugin webhooks and event cursors (issue 27 section 4). Each company that turned a plugin on has,
// per declared webhook, an endpoint of its own: an unguessable endpoint key in the URL, so a delivery
// reaches that company's worker and no other, and for the signed modes a secret sealed under the
// master key the way routine triggers seal theirs (src/modules/routines/signing.ts). A delivery is
// recorded (without its credential headers) before it is acknowledged, then handed to the worker once
// by the engine (src/engine/plugins/webhook-dispatch.ts). Each (plugin, company) that subscribes to
// events reads the activity log from its own cursor (src/engine/plugins/events.ts).
import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, ts, updatedAt } from './columns.ts';
import { companies } from './companies.ts';
import { plugins } from './plugins.ts';

export const pluginWebhookEndpoints = pgTable(
  'plugin_webhook_endpoints',
  {
    id: id(),
    pluginId: uuid('plugin_id')
      .notNull()
      .references(() => plugins.id, { onDelete: 'cascade' }),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** The manifest's `webhooks[].key`. */
    webhookKey: text('webhook_key').notNull(),
    /** The URL's secret part: 24 random URL-safe characters, new on each rotation. */
    endpointKey: text('endpoint_key').notNull(),
    /** The signing secret (signed modes), sealed with its version bound in; null for signing `none`. */
    secretVersion: integer('secret_version').notNull().default(0),
    secretIv: text('secret_iv'),
    secretAuthTag: text('secret_auth_tag'),
    secretCiphertext: text('secret_ciphertext'),
    createdAt: createdAt(),
    rotatedAt: ts('rotated_at'),
  },
  (t) => [
    uniqueIndex('plugin_webhook_endpoints_endpoint_key_uq').on(t.endpointKey),
    uniqueIndex('plugin_webhook_endpoints_slot_uq').on(t.pluginId, t.companyId, t.webhookKey),
    index('plugin_webhook_endpoints_company_idx').on(t.companyId),
  ],
);

export const pluginWebhookDeliveries = pgTable(
  'plugin_webhook_deliveries',
  {
    id: id(),
    pluginId: uuid('plugin_id')
      .notNull()
      .references(() => plugins.id, { onDelete: 'cascade' }),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    webhookKey: text('webhook_key').notNull(),
    /** `received` (waiting for the engine), `delivering` (claimed by one replica), `delivered` (the worker answered) or `failed`. */
    status: text('status').notNull().default('received'),
    method: text('method').notNull(),
    /** The request's headers without authorization, signature or cookie headers. */
    headers: jsonb('headers').$type<Record<string, string>>().notNull(),
    body: text('body').notNull(),
    receivedAt: createdAt(),
    /** When a replica claimed it (status flipped from `received` in the same transaction). */
    claimedAt: ts('claimed_at'),
    deliveredAt: ts('delivered_at'),
    attempts: integer('attempts').notNull().default(0),
    error: text('error'),
  },
  (t) => [
    index('plugin_webhook_deliveries_received_idx').on(t.receivedAt).where(sql`${t.status} = 'received'`),
    index('plugin_webhook_deliveries_claimed_idx').on(t.claimedAt).where(sql`${t.status} = 'delivering'`),
    index('plugin_webhook_deliveries_plugin_idx').on(t.pluginId, t.companyId, t.receivedAt),
  ],
);

/** Where a (plugin, company) stands in the company's activity stream: after the entry (txId, entryId). */
export const pluginEventCursors = pgTable(
  'plugin_event_cursors',
  {
    pluginId: uuid('plugin_id')
      .notNull()
      .references(() => plugins.id, { onDelete: 'cascade' }),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    txId: bigint('tx_id', { mode: 'number' }).notNull(),
    entryId: uuid('entry_id').notNull(),
    /** The replica delivering this (plugin, company) now, until `leaseUntil`: one at a time across replicas. */
    leaseOwner: text('lease_owner'),
    leaseUntil: ts('lease_until'),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.pluginId, t.companyId] })],
);
