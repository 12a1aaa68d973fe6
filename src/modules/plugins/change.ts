// Every replica runs workers of its own, so a change that must stop a plugin (instance disable,
// upgrade, uninstall, a company turning it off) is announced to all of them: a NOTIFY raised in the
// writer's transaction, delivered when it commits, heard by each replica's PluginWorkers
// (worker/host.ts), which stops the workers it concerns. The replica that took the request also stops
// its own at once, so its answer means they are gone here.
import { sql } from 'drizzle-orm';
import { notifyCall } from '../../db/channels.ts';
import type { DbOrTx } from '../../db/client.ts';

/** Tells every replica to stop the plugin's workers: of one company, or (null) of every company. */
export async function announcePluginStop(db: DbOrTx, pluginId: string, companyId: string | null): Promise<void> {
  await db.execute(sql`select ${notifyCall('pluginChange', { pluginId, companyId })}`);
}
