// Retention: finished runs (with their log chunks and issue links, by cascade) and finished
// wakeups older than the retention period are deleted in bounded batches, so neither table grows
// with the number of runs ever made. The activity log is the permanent record and is not pruned.
// One replica prunes at a time (transaction-scoped advisory lock).
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { heartbeatRuns } from '../../db/schema/index.ts';
import { pruneFinishedWakes } from '../wakeups/queue.ts';

const RETENTION_LOCK_KEY = 7_310_451_024;
export const PRUNE_BATCH = 1_000;

export interface PruneResult {
  runs: number;
  wakeups: number;
}

/** One batch of each; null when another replica is pruning. Call until it returns less than a batch. */
export async function pruneRunHistory(db: Db, retentionDays: number, batch = PRUNE_BATCH): Promise<PruneResult | null> {
  return db.transaction(async (tx) => {
    const lock = await tx.execute<{ ok: boolean }>(sql`select pg_try_advisory_xact_lock(${RETENTION_LOCK_KEY}) as ok`);
    if (!lock.rows[0]?.ok) return null;
    const cutoff = sql`now() - make_interval(days => ${retentionDays})`;
    // Both use their partial index on finished_at (only finished rows have one).
    const runs = await tx.execute(sql`
      delete from ${heartbeatRuns} where id in (
        select id from ${heartbeatRuns} where finished_at is not null and finished_at < ${cutoff} order by finished_at limit ${batch})`);
    const wakeups = await pruneFinishedWakes(tx, cutoff, batch);
    return { runs: runs.rowCount ?? 0, wakeups };
  });
}
