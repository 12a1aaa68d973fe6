import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema/index.ts';

export type Db = NodePgDatabase<typeof schema>;
/** A transaction handle; services take `Db | Tx` so callers decide who owns the transaction. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  pool: pg.Pool;
  close(): Promise<void>;
}

// Bounded so one slow query or a forgotten transaction can never hold a connection for long.
const STATEMENT_TIMEOUT_MS = 15_000;
const CONNECT_TIMEOUT_MS = 10_000;
const IDLE_IN_TRANSACTION_TIMEOUT_MS = 30_000;
/** The server's pool; the bench's ceiling process gets a pool of the same size. */
export const POOL_SIZE = 10;
/**
 * Parallel query is off: every statement here is small and many run at once, so a worker process
 * launched per query (measured on search: a Gather on the comment branch) costs more than it saves
 * on a machine whose cores the connections already share.
 */
const SESSION_SETTINGS = {
  statement_timeout: STATEMENT_TIMEOUT_MS,
  idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_TIMEOUT_MS,
  max_parallel_workers_per_gather: 0,
};

export function connectDatabase(url: string, poolSize = POOL_SIZE): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    // A request never waits forever for a connection (a database that stopped answering, or a
    // saturated pool): it fails, and the API answers 503.
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    options: Object.entries(SESSION_SETTINGS)
      .map(([name, value]) => `-c ${name}=${value}`)
      .join(' '),
  });
  // A client losing its server (database stopped or restarting) must not crash the process. The
  // pool listens on idle clients only; a checked-out client between two queries of a transaction
  // gets the server's goodbye as an 'error' event, which unlistened is an uncaught exception. Its
  // queries fail on their own, and the pool discards it on release.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = drizzle(pool, { schema });
  return { db, pool, close: () => pool.end() };
}

// A health probe must answer even when the database hangs instead of refusing connections.
const REACHABLE_TIMEOUT_MS = 3_000;

export async function isDatabaseReachable(pool: pg.Pool): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), REACHABLE_TIMEOUT_MS);
  });
  try {
    return await Promise.race([pool.query('select 1').then(() => true), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
