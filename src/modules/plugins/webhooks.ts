// Plugin webhooks (issue 27 section 4): each company that turned a plugin on gets, per declared
// webhook, an endpoint of its own: an unguessable endpoint key in the URL (so a delivery reaches that
// company's worker and no other) and, for the signed modes, a secret sealed under the master key.
// The signing modes, the replay window, the secret's form and the constant-time checks are the
// routines' (../routines/signing.ts), reused as they are.
//
// A delivery is checked (404 unknown key, 401 signature, 409 not running for the company), recorded
// without its credential headers, and acknowledged: the worker is not waited on. The engine hands it
// over once (src/engine/plugins/webhook-dispatch.ts), woken by the `pluginWebhook` notification.
import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { inTransaction, type Ctx } from '../../core/context.ts';
import { conflict, notFound, unauthorized } from '../../core/errors.ts';
import { notifyCall } from '../../db/channels.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import {
  pluginCompanyEnablements,
  pluginWebhookDeliveries,
  pluginWebhookEndpoints,
  plugins,
} from '../../db/schema/index.ts';
import { recordActivity } from '../activity/record.ts';
import {
  DEFAULT_REPLAY_WINDOW_SEC,
  newPublicId,
  newWebhookSecret,
  openWebhookSecret,
  sealWebhookSecret,
  type SignedRequest,
  type SigningMode,
  verifyWebhookRequest,
} from '../routines/signing.ts';
import { removeEventCursor, startEventCursor } from './event-cursors.ts';
import type { PluginManifest } from './manifest.ts';
import { pluginCompanyFor } from './policy.ts';
import type { PluginRow } from './present.ts';

/** The largest delivery body (413 beyond). */
export const MAX_WEBHOOK_BODY_BYTES = 256 * 1024;

type EndpointRow = typeof pluginWebhookEndpoints.$inferSelect;

/** A company's endpoint of one declared webhook; `secret` only in the answer that created or rotated it. */
export interface WebhookEndpointView {
  key: string;
  endpointKey: string;
  signing: SigningMode;
  secret?: string;
}

/** Where a delivery is sent, under the server's public base URL. */
export const webhookPath = (pluginId: string, endpointKey: string) =>
  `/api/plugins/${pluginId}/webhooks/${endpointKey}`;

const declaredWebhooks = (plugin: PluginRow) => (plugin.manifest as PluginManifest).webhooks ?? [];

// The seal binds its company, endpoint and version (the routines' AAD), under a name of its own so a
// plugin endpoint's sealed secret never opens as a routine trigger's, or the other way round.
const sealedAs = (row: Pick<EndpointRow, 'id' | 'companyId' | 'secretVersion'>) => ({
  companyId: row.companyId,
  id: `plugin-webhook:${row.id}`,
  secretVersion: row.secretVersion,
});

function newEndpoint(masterKey: Buffer, signing: SigningMode, row: { id: string; companyId: string; version: number }) {
  if (signing === 'none') return { secret: undefined, sealed: {} };
  const secret = newWebhookSecret();
  return {
    secret,
    sealed: sealWebhookSecret(masterKey, sealedAs({ ...row, secretVersion: row.version }), secret),
  };
}

/**
 * What turning a plugin on for a company sets up, in the enable's transaction: an endpoint for each
 * declared webhook the company has none for (with its new secret, returned this once), and the event
 * cursor. Enabling again keeps what exists.
 */
export async function provisionPluginSurfaces(
  tx: DbOrTx,
  masterKey: Buffer,
  plugin: PluginRow,
  companyId: string,
): Promise<WebhookEndpointView[]> {
  const existing = await tx
    .select()
    .from(pluginWebhookEndpoints)
    .where(and(eq(pluginWebhookEndpoints.pluginId, plugin.id), eq(pluginWebhookEndpoints.companyId, companyId)));
  const views: WebhookEndpointView[] = [];
  for (const webhook of declaredWebhooks(plugin)) {
    const have = existing.find((e) => e.webhookKey === webhook.key);
    if (have) {
      views.push({ key: webhook.key, endpointKey: have.endpointKey, signing: webhook.signing });
      continue;
    }
    const id = randomUUID();
    const { secret, sealed } = newEndpoint(masterKey, webhook.signing, { id, companyId, version: 0 });
    const endpointKey = newPublicId();
    await tx
      .insert(pluginWebhookEndpoints)
      .values({ id, pluginId: plugin.id, companyId, webhookKey: webhook.key, endpointKey, ...sealed });
    views.push({ key: webhook.key, endpointKey, signing: webhook.signing, ...(secret && { secret }) });
  }
  if ((plugin.manifest as PluginManifest).events?.length) await startEventCursor(tx, plugin.id, companyId);
  return views;
}

/** What turning a plugin off for a company removes: its endpoints (their URLs answer 404) and its event cursor. */
export async function removePluginSurfaces(tx: DbOrTx, pluginId: string, companyId: string): Promise<void> {
  await tx
    .delete(pluginWebhookEndpoints)
    .where(and(eq(pluginWebhookEndpoints.pluginId, pluginId), eq(pluginWebhookEndpoints.companyId, companyId)));
  await removeEventCursor(tx, pluginId, companyId);
}

/** The company's endpoints of the given plugins, by plugin id (webhooks the manifest no longer declares left out). */
export async function companyWebhookEndpoints(
  db: DbOrTx,
  companyId: string,
  pluginRows: PluginRow[],
): Promise<Map<string, WebhookEndpointView[]>> {
  const byPlugin = new Map<string, WebhookEndpointView[]>();
  if (pluginRows.length === 0) return byPlugin;
  const rows = await db
    .select()
    .from(pluginWebhookEndpoints)
    .where(
      and(
        eq(pluginWebhookEndpoints.companyId, companyId),
        inArray(
          pluginWebhookEndpoints.pluginId,
          pluginRows.map((p) => p.id),
        ),
      ),
    );
  for (const plugin of pluginRows) {
    const views = declaredWebhooks(plugin).flatMap((webhook) => {
      const row = rows.find((r) => r.pluginId === plugin.id && r.webhookKey === webhook.key);
      return row ? [{ key: webhook.key, endpointKey: row.endpointKey, signing: webhook.signing }] : [];
    });
    byPlugin.set(plugin.id, views);
  }
  return byPlugin;
}

/**
 * A new endpoint key (the old URL answers 404 at once) and, for a signed mode, a new secret, shown in
 * this answer only. The company's board; recorded as `plugin.webhook_rotated` (never the secret).
 */
export async function rotateWebhookEndpoint(
  ctx: Ctx,
  masterKey: Buffer,
  companyId: string,
  pluginId: string,
  webhookKey: string,
): Promise<WebhookEndpointView> {
  const company = await pluginCompanyFor(ctx, 'plugin.consent', companyId);
  return inTransaction(ctx, async (tx, txCtx) => {
    const [plugin] = await tx.select().from(plugins).where(eq(plugins.id, pluginId));
    if (!plugin) throw notFound('plugin');
    const webhook = declaredWebhooks(plugin).find((w) => w.key === webhookKey);
    const [endpoint] = webhook
      ? await tx
          .select()
          .from(pluginWebhookEndpoints)
          .where(
            and(
              eq(pluginWebhookEndpoints.pluginId, pluginId),
              eq(pluginWebhookEndpoints.companyId, company.id),
              eq(pluginWebhookEndpoints.webhookKey, webhookKey),
            ),
          )
          .for('update')
      : [];
    if (!webhook || !endpoint) throw notFound('webhook endpoint');
    const version = endpoint.secretVersion + 1;
    const { secret, sealed } = newEndpoint(masterKey, webhook.signing, { id: endpoint.id, companyId, version });
    const endpointKey = newPublicId();
    await tx
      .update(pluginWebhookEndpoints)
      .set({
        endpointKey,
        secretVersion: version,
        secretIv: null,
        secretAuthTag: null,
        secretCiphertext: null,
        ...sealed,
        rotatedAt: new Date(),
      })
      .where(eq(pluginWebhookEndpoints.id, endpoint.id));
    await recordActivity(tx, txCtx.actor, {
      companyId: company.id,
      action: 'plugin.webhook_rotated',
      entityType: 'plugin',
      entityId: pluginId,
      details: { pluginKey: plugin.pluginKey, webhookKey },
    });
    return { key: webhookKey, endpointKey, signing: webhook.signing, ...(secret && { secret }) };
  });
}

// Credentials never reach the delivery record (and so neither the worker nor the board).
const CREDENTIAL_HEADER = /authorization|cookie|signature|secret|token|api-key|apikey/i;

/** The headers as recorded: credential headers left out, repeated ones joined. */
export function recordedHeaders(headers: SignedRequest['headers']): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || CREDENTIAL_HEADER.test(name)) continue;
    kept[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return kept;
}

export interface IncomingDelivery extends SignedRequest {
  pluginId: string;
  endpointKey: string;
  method: string;
}

/**
 * Records a delivery for the endpoint's company, checked in this order so a caller without the
 * secret learns nothing of the endpoint: 404 unknown endpoint key (or another plugin's), 401
 * signature, 409 the plugin not running for that company. The engine is woken when it commits.
 */
export async function receiveWebhook(db: Db, masterKey: Buffer, delivery: IncomingDelivery): Promise<string> {
  const [found] = await db
    .select({ endpoint: pluginWebhookEndpoints, plugin: plugins, enablement: pluginCompanyEnablements })
    .from(pluginWebhookEndpoints)
    .innerJoin(plugins, eq(plugins.id, pluginWebhookEndpoints.pluginId))
    .leftJoin(
      pluginCompanyEnablements,
      and(
        eq(pluginCompanyEnablements.pluginId, pluginWebhookEndpoints.pluginId),
        eq(pluginCompanyEnablements.companyId, pluginWebhookEndpoints.companyId),
      ),
    )
    .where(eq(pluginWebhookEndpoints.endpointKey, delivery.endpointKey));
  const webhook = found && declaredWebhooks(found.plugin).find((w) => w.key === found.endpoint.webhookKey);
  if (!found || !webhook || found.plugin.id !== delivery.pluginId) throw notFound('webhook endpoint');
  const { endpoint } = found;
  const secret =
    webhook.signing === 'none' ? null : openWebhookSecret(masterKey, { ...endpoint, ...sealedAs(endpoint) });
  const verdict = verifyWebhookRequest(webhook.signing, secret, DEFAULT_REPLAY_WINDOW_SEC, delivery);
  if (!verdict.ok) throw unauthorized(verdict.reason);
  if (found.plugin.status !== 'ready' || found.enablement?.status !== 'enabled')
    throw conflict('the plugin is not running for this company');
  // One statement (a round trip less on the acknowledged path): the row and the engine's wake-up
  // commit together (a data-modifying CTE always runs).
  const id = randomUUID();
  const insert = db
    .insert(pluginWebhookDeliveries)
    .values({
      id,
      pluginId: endpoint.pluginId,
      companyId: endpoint.companyId,
      webhookKey: endpoint.webhookKey,
      method: delivery.method,
      headers: recordedHeaders(delivery.headers),
      body: delivery.rawBody.toString('utf8'),
    })
    .returning({ id: pluginWebhookDeliveries.id });
  await db.execute(sql`with recorded as ${insert} select ${notifyCall('pluginWebhook', { deliveryId: id })}`);
  return id;
}
