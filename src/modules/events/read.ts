// The activity log read as a stream: where a reader stands (a cursor) and what comes after it.
//
// The order is (txId, id): txId is the id of the transaction that wrote the entry (activity_log.tx_id,
// `pg_current_xact_id()`, 64 bits, never wraps), id breaks ties inside one transaction. createdAt
// cannot be the order: it is the transaction's start time, and a transaction that started earlier
// may commit later, after a reader has moved past its createdAt, so a createdAt cursor skips it
// (an overlap window only narrows that race, and cannot say which re-read entries a reconnecting
// client already has). A transaction id alone has the same race: xid 100 may commit after xid 101.
// What closes it is the reader's snapshot: the oldest transaction in it still running (that has
// written anything) is the horizon, so every transaction below it has ended and no entry with a
// txId below it can appear any more. A reader therefore takes only the entries below the horizon
// ("settled"), in (txId, id) order, and stops at the first one above it: those wait for the next
// read. No entry is ever skipped, every reader sees the same order, and "after entry X" means
// exactly the entries a reader that stopped at X has not had, so `Last-Event-ID` replays exactly
// what was missed.
//
// Transaction ids are the cluster's, but only a transaction in this database can write an entry:
// the horizon passes over the running transactions known to be another database's (a session of
// another database holds that xid in pg_stat_activity; ids are never reused while they run). One
// that cannot be placed (it ended after the snapshot, or its session is hidden from our role)
// still holds the horizon, for that read only. So a neighbour's long batch on a shared PostgreSQL
// server never holds up the board's live events. (The tests have one in each run: every test file
// has its own database in one cluster, and a cost test's writes wait up to 3 s on locks.)
//
// The price: an entry becomes readable only when every transaction of this database older than
// its own (that has written anything) has ended. Transactions here are short (statement timeout
// 15 s, idle in transaction 30 s, src/db/client.ts), so that is usually a matter of milliseconds;
// a long one delays every stream until it ends, and loses nothing. Meanwhile readers poll with a
// back-off (./streams.ts), since the ending of a transaction that wrote no entry raises no
// notification.
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { activityLog } from '../../db/schema/index.ts';
import { type ActivityEntry, oneRow } from '../../db/rows.ts';
import { aboutHiddenIssue } from '../activity/service.ts';

/** A position in the stream: after the entry (txId, id), or before every entry with a larger txId. */
export interface Cursor {
  txId: number;
  id: string;
}

export interface StreamEntry {
  entry: ActivityEntry;
  /** About a hidden issue: the reader moves past it without sending it (the feed leaves it out too). */
  hidden: boolean;
}

export interface StreamBatch {
  /** Settled entries after the cursor, in stream order (at most `limit`). */
  entries: StreamEntry[];
  /** Entries after these exist but wait for an older transaction to end: read again shortly. */
  pending: boolean;
  /** The read was cut by its row limit or byte budget: more settled entries may follow at once. */
  full: boolean;
}

const MAX_UUID = 'ffffffff-ffff-ffff-ffff-ffffffffffff';
/** The oldest running transaction of the statement's snapshot not known to be another database's; else the snapshot's xmax. */
const horizon = sql<string>`(
  select coalesce(
    (select min(running) from pg_snapshot_xip(snap.snapshot) as running
      where running::xid <> all(array(
        select backend_xid from pg_stat_activity
        where backend_xid is not null and datid <> (select oid from pg_database where datname = current_database())))),
    pg_snapshot_xmax(snap.snapshot))::text
  from (select pg_current_snapshot() as snapshot) snap)`;

export function cursorKey(c: Cursor): string {
  return `${c.txId}:${c.id}`;
}

export function cursorAt(entry: ActivityEntry): Cursor {
  return { txId: entry.txId, id: entry.id };
}

export interface LiveStart {
  /** After every settled entry. */
  cursor: Cursor;
  /**
   * Entries after the cursor that had already committed when the stream started (their
   * transactions are younger than one still running): a live-only reader passes over them, so it
   * gets exactly what commits after it started. At most `limit` of them are known; beyond that
   * (a transaction open for long while the company writes a lot) the rest would be sent.
   */
  committed: Set<string>;
}

/** Where a live-only reader of the company starts: "now", in one snapshot. */
export async function liveStart(db: DbOrTx, companyId: string, limit: number): Promise<LiveStart> {
  const result = await db.execute<{ horizon: string; id: string | null }>(sql`
    with now as (select (${horizon})::bigint as horizon)
    select now.horizon::text as horizon, young.id from now left join lateral (
      select ${activityLog.id} as id from ${activityLog}
      where ${activityLog.companyId} = ${companyId} and ${activityLog.txId} >= now.horizon
      order by ${activityLog.txId}, ${activityLog.id}
      limit ${limit}
    ) young on true`);
  const committed = new Set<string>();
  for (const row of result.rows) if (row.id) committed.add(row.id);
  const { horizon: settledBelow } = oneRow(result.rows, 'stream horizon');
  return { cursor: { txId: Number(settledBelow) - 1, id: MAX_UUID }, committed };
}

/**
 * Where a reader resuming after one entry of the company (a `Last-Event-ID`) starts; null when it
 * is not one. An id the stream sent is settled, and the cursor is right after it. An id read
 * elsewhere (the activity feed) may not be: entries of older transactions could still commit
 * before it in stream order, so the reader starts at the horizon instead. It may then get again an
 * entry it has, never miss one.
 */
export async function resumeAfter(db: DbOrTx, companyId: string, entryId: string): Promise<Cursor | null> {
  const result = await db.execute<{ tx_id: string; id: string; horizon: string }>(sql`
    select ${activityLog.txId}::text as tx_id, ${activityLog.id} as id, ${horizon} as horizon
    from ${activityLog} where ${activityLog.companyId} = ${companyId} and ${activityLog.id} = ${entryId}`);
  const row = result.rows[0];
  if (!row) return null;
  const txId = Number(row.tx_id);
  const settledBelow = Number(row.horizon);
  return txId < settledBelow ? { txId, id: row.id } : { txId: settledBelow - 1, id: MAX_UUID };
}

/** How many entries of the company lie after `cursor`, counting no further than `upTo`. */
export async function countAfter(db: DbOrTx, companyId: string, cursor: Cursor, upTo: number): Promise<number> {
  const result = await db.execute<{ n: number }>(sql`
    select count(*)::int as n from (
      select 1 from ${activityLog}
      where ${activityLog.companyId} = ${companyId} and (${activityLog.txId}, ${activityLog.id}) > (${cursor.txId}::bigint, ${cursor.id}::uuid)
      order by ${activityLog.txId}, ${activityLog.id} -- the stream index, not a scan of the table
      limit ${upTo}
    ) after_cursor`);
  return oneRow(result.rows, 'entry count').n;
}

type Row = {
  id: string;
  company_id: string;
  actor_type: string;
  actor_id: string;
  action: string;
  entity_type: string;
  entity_id: string;
  agent_id: string | null;
  run_id: string | null;
  details: Record<string, unknown> | null;
  created_at: Date;
  tx_id: string;
  hidden: boolean;
  horizon: string;
  bytes: string;
  bytes_before: string;
};

/**
 * Up to `limit` settled entries of the company after `cursor`, in stream order, and no more than
 * about `maxBytes` of details: the entries whose details start within that budget (so always the
 * first one). A read's memory is bounded by both, whatever the entries hold.
 */
export async function readAfter(
  db: DbOrTx,
  companyId: string,
  cursor: Cursor,
  limit: number,
  maxBytes = Number.MAX_SAFE_INTEGER,
): Promise<StreamBatch> {
  const a = activityLog;
  // The running byte count streams over the index order and stops with the LIMIT: a read looks
  // at `limit` rows at most, whatever lies after the cursor.
  const result = await db.execute<Row>(sql`
    select * from (
      select ${a.id} as id, ${a.companyId} as company_id, ${a.actorType} as actor_type, ${a.actorId} as actor_id,
        ${a.action} as action, ${a.entityType} as entity_type, ${a.entityId} as entity_id, ${a.agentId} as agent_id,
        ${a.runId} as run_id, ${a.details} as details, ${a.createdAt} as created_at, ${a.txId}::text as tx_id,
        ${aboutHiddenIssue} as hidden, ${horizon} as horizon,
        ${a.detailsBytes} as bytes, sum(${a.detailsBytes}) over (order by ${a.txId}, ${a.id}) - ${a.detailsBytes} as bytes_before
      from ${a}
      where ${a.companyId} = ${companyId} and (${a.txId}, ${a.id}) > (${cursor.txId}::bigint, ${cursor.id}::uuid)
      order by ${a.txId}, ${a.id}
      limit ${limit}
    ) batch
    where bytes_before < ${maxBytes}
    order by tx_id::bigint, id`);
  const rows = result.rows;
  const entries: StreamEntry[] = [];
  let pending = false;
  for (const row of rows) {
    const txId = Number(row.tx_id);
    if (txId >= Number(row.horizon)) {
      pending = true; // this one and every later one (larger txId) wait
      break;
    }
    entries.push({
      entry: {
        id: row.id,
        companyId: row.company_id,
        actorType: row.actor_type,
        actorId: row.actor_id,
        action: row.action,
        entityType: row.entity_type,
        entityId: row.entity_id,
        agentId: row.agent_id,
        runId: row.run_id,
        details: row.details,
        detailsBytes: Number(row.bytes),
        createdAt: new Date(row.created_at),
        txId,
      },
      hidden: row.hidden === true,
    });
  }
  // Cut by the row limit or (perhaps) by the byte budget: more may follow right away.
  const last = rows.at(-1);
  const cut =
    rows.length === limit || (last !== undefined && Number(last.bytes_before) + Number(last.bytes) >= maxBytes);
  return { entries, pending, full: !pending && cut };
}
