// A company's board turns an installed plugin on for its company (issue 27 section 2), consenting
// to the capabilities the manifest lists: the list must equal the manifest's, so consent is always
// explicit and never a subset the plugin would then fail on. The plugin runs for a company only
// while its enablement is `enabled`; an upgrade asking for more sets it to `upgrade_pending`
// (service.ts). Each change is an activity entry of the company.
import { and, asc, eq } from 'drizzle-orm';
import { inTransaction, type Ctx } from '../../core/context.ts';
import { conflict, notFound, unprocessable } from '../../core/errors.ts';
import { pluginCompanyEnablements, plugins } from '../../db/schema/index.ts';
import { oneRow } from '../../db/rows.ts';
import { recordActivity } from '../activity/record.ts';
import { announcePluginStop } from './change.ts';
import { syncJobSchedules } from './jobs.ts';
import { pluginCompanyFor } from './policy.ts';
import type { EnablementRow, PluginRow } from './present.ts';
import { manifestOf } from './service.ts';
import {
  companyWebhookEndpoints,
  provisionPluginSurfaces,
  removePluginSurfaces,
  type WebhookEndpointView,
} from './webhooks.ts';

export interface CompanyPlugin {
  plugin: PluginRow;
  enablement: EnablementRow | undefined;
  /** The company's webhook endpoints (webhooks.ts); a secret only in the answer that created it. */
  webhooks: WebhookEndpointView[];
}

/** Every installed plugin with this company's status and consent (`disabled` where it never turned one on). */
export async function listCompanyPlugins(ctx: Ctx, companyId: string): Promise<CompanyPlugin[]> {
  const company = await pluginCompanyFor(ctx, 'plugin.readCompany', companyId);
  const rows = await ctx.db
    .select({ plugin: plugins, enablement: pluginCompanyEnablements })
    .from(plugins)
    .leftJoin(
      pluginCompanyEnablements,
      and(eq(pluginCompanyEnablements.pluginId, plugins.id), eq(pluginCompanyEnablements.companyId, company.id)),
    )
    .orderBy(asc(plugins.pluginKey));
  const webhooks = await companyWebhookEndpoints(
    ctx.db,
    company.id,
    rows.map((r) => r.plugin),
  );
  return rows.map((r) => ({
    plugin: r.plugin,
    enablement: r.enablement ?? undefined,
    webhooks: webhooks.get(r.plugin.id) ?? [],
  }));
}

export async function enableCompanyPlugin(
  ctx: Ctx,
  companyId: string,
  pluginId: string,
  capabilities: string[],
  masterKey: Buffer,
): Promise<CompanyPlugin> {
  const company = await pluginCompanyFor(ctx, 'plugin.consent', companyId);
  return inTransaction(ctx, async (tx, txCtx) => {
    // Shared with an upgrade's update: the manifest consented to is the one that stays.
    const [plugin] = await tx.select().from(plugins).where(eq(plugins.id, pluginId)).for('share');
    if (!plugin) throw notFound('plugin');
    if (plugin.status !== 'ready')
      throw conflict(
        `plugin ${plugin.pluginKey} is ${plugin.status} on this instance: the instance owner enables it first`,
      );
    const wanted = manifestOf(plugin).capabilities;
    const given = new Set(capabilities);
    const missing = wanted.filter((c) => !given.has(c));
    const extra = [...given].filter((c) => !wanted.includes(c));
    if (missing.length || extra.length)
      throw unprocessable(
        `capabilities must equal the manifest's: ${[
          missing.length ? `missing ${missing.join(', ')}` : '',
          extra.length ? `not declared ${extra.join(', ')}` : '',
        ]
          .filter(Boolean)
          .join('; ')}`,
        { missing, extra },
      );
    const now = new Date();
    const values = {
      status: 'enabled',
      capabilities: wanted,
      consentedByUserId: txCtx.actor.kind === 'board' ? txCtx.actor.userId : null,
      consentedAt: now,
      updatedAt: now,
    };
    const rows = await tx
      .insert(pluginCompanyEnablements)
      .values({ pluginId, companyId: company.id, ...values })
      .onConflictDoUpdate({
        target: [pluginCompanyEnablements.pluginId, pluginCompanyEnablements.companyId],
        set: values,
      })
      .returning();
    await syncJobSchedules(tx, pluginId);
    await recordActivity(tx, txCtx.actor, {
      companyId: company.id,
      action: 'plugin.enabled',
      entityType: 'plugin',
      entityId: pluginId,
      details: { pluginKey: plugin.pluginKey, version: plugin.version, capabilities: wanted },
    });
    const webhooks = await provisionPluginSurfaces(tx, masterKey, plugin, company.id);
    return { plugin, enablement: oneRow(rows, 'plugin enablement'), webhooks };
  });
}

/** Turns the plugin off for the company and withdraws its consent (enabling again consents again). */
export async function disableCompanyPlugin(ctx: Ctx, companyId: string, pluginId: string): Promise<CompanyPlugin> {
  const company = await pluginCompanyFor(ctx, 'plugin.consent', companyId);
  return inTransaction(ctx, async (tx, txCtx) => {
    const [plugin] = await tx.select().from(plugins).where(eq(plugins.id, pluginId));
    if (!plugin) throw notFound('plugin');
    const rows = await tx
      .update(pluginCompanyEnablements)
      .set({ status: 'disabled', capabilities: [], updatedAt: new Date() })
      .where(and(eq(pluginCompanyEnablements.pluginId, pluginId), eq(pluginCompanyEnablements.companyId, company.id)))
      .returning();
    const [enablement] = rows;
    await removePluginSurfaces(tx, pluginId, company.id);
    await syncJobSchedules(tx, pluginId);
    if (enablement) {
      await recordActivity(tx, txCtx.actor, {
        companyId: company.id,
        action: 'plugin.disabled',
        entityType: 'plugin',
        entityId: pluginId,
        details: { pluginKey: plugin.pluginKey },
      });
      await announcePluginStop(tx, pluginId, company.id);
    }
    return { plugin, enablement, webhooks: [] };
  });
}
