// Where each (plugin, company) that subscribes to events stands in the company's activity stream
// (plugin_event_cursors). The cursor is set when the company turns the plugin on, at that moment of
// the stream, so the plugin gets what happens from then on and nothing from before; the engine
// (src/engine/plugins/events.ts) reads after it and moves it once the worker has answered.
import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { pluginEventCursors } from '../../db/schema/index.ts';
import { liveStart } from '../events/read.ts';

/** Sets the cursor at "now" unless one exists (enabling again after an upgrade resumes where it stood). */
export async function startEventCursor(db: DbOrTx, pluginId: string, companyId: string): Promise<void> {
  const { cursor } = await liveStart(db, companyId, 1);
  await db
    .insert(pluginEventCursors)
    .values({ pluginId, companyId, txId: cursor.txId, entryId: cursor.id })
    .onConflictDoNothing();
}

export async function removeEventCursor(db: DbOrTx, pluginId: string, companyId: string): Promise<void> {
  await db
    .delete(pluginEventCursors)
    .where(and(eq(pluginEventCursors.pluginId, pluginId), eq(pluginEventCursors.companyId, companyId)));
}
