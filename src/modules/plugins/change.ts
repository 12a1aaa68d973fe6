// Every replica runs workers of its own, so a change that must stop a plugin's workers (instance
// disable, upgrade, uninstall, a company turning it off or changing its folders) is announced to all
// of them: the plugin's `revision` is bumped and a NOTIFY raised in the writer's transaction,
// delivered when it commits, heard by each replica's PluginWorkers (worker/host.ts). A worker
// remembers the revision it started with, so a replica that hears the change after it already
// restarted the worker (the replica that took the request stops its own at once, and its next call
// starts a new one) stops only workers started before the change.
import { eq, sql } from 'drizzle-orm';
import { notifyCall } from '../../db/channels.ts';
import type { DbOrTx } from '../../db/client.ts';
import { plugins } from '../../db/schema/index.ts';

/** Tells every replica to stop the plugin's workers: of one company, or (null) of every company. */
export async function announcePluginStop(db: DbOrTx, pluginId: string, companyId: string | null): Promise<void> {
  // No row: the plugin was just deleted, and every worker of it stops whatever its revision.
  const [bumped] = await db
    .update(plugins)
    .set({ revision: sql`${plugins.revision} + 1` })
    .where(eq(plugins.id, pluginId))
    .returning({ revision: plugins.revision });
  await db.execute(
    sql`select ${notifyCall('pluginChange', { pluginId, companyId, revision: bumped?.revision ?? null })}`,
  );
}
