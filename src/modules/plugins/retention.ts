// Retention of plugin history, as for runs (src/modules/runs/retention.ts): finished job runs and
// handed-over webhook deliveries older than the period are deleted in bounded batches, so neither
// table grows with every fire time and delivery ever made. A job's fire time long past is never due
// again (its schedule moved on), so its run row is no longer needed to keep it from running twice.
// One replica prunes at a time (transaction-scoped advisory lock).
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { pluginJobRuns, pluginWebhookDeliveries } from '../../db/schema/index.ts';

const PLUGIN_RETENTION_LOCK_KEY = 7_310_451_025;

export interface PluginPruneResult {
  jobRuns: number;
  deliveries: number;
}

/** One batch of each; null when another replica is pruning. Call until both come back under a batch. */
export async function prunePluginHistory(
  db: Db,
  retentionDays: number,
  batch: number,
): Promise<PluginPruneResult | null> {
  return db.transaction(async (tx) => {
    const lock = await tx.execute<{ ok: boolean }>(
      sql`select pg_try_advisory_xact_lock(${PLUGIN_RETENTION_LOCK_KEY}) as ok`,
    );
    if (!lock.rows[0]?.ok) return null;
    const cutoff = sql`now() - make_interval(days => ${retentionDays})`;
    const jobRuns = await tx.execute(sql`
      delete from ${pluginJobRuns} where id in (
        select id from ${pluginJobRuns}
        where ${pluginJobRuns.finishedAt} is not null and ${pluginJobRuns.finishedAt} < ${cutoff}
        order by ${pluginJobRuns.finishedAt} limit ${batch})`);
    const deliveries = await tx.execute(sql`
      delete from ${pluginWebhookDeliveries} where id in (
        select id from ${pluginWebhookDeliveries}
        where ${pluginWebhookDeliveries.status} in ('delivered', 'failed') and ${pluginWebhookDeliveries.receivedAt} < ${cutoff}
        order by ${pluginWebhookDeliveries.receivedAt} limit ${batch})`);
    return { jobRuns: jobRuns.rowCount ?? 0, deliveries: deliveries.rowCount ?? 0 };
  });
}
