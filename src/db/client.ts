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

/**
 * Distinct statement texts that get a server-side prepared statement. The SQL drizzle builds is a
 * function of a query's shape (values are always parameters), so the set stays small; the cap only
 * bounds what a shape built from data (an IN list of every length) could make each connection keep.
 */
const MAX_PREPARED_STATEMENTS = 2_000;
const statementNames = new Map<string, string>();

function statementName(text: string): string | undefined {
  let name = statementNames.get(text);
  if (name === undefined && statementNames.size < MAX_PREPARED_STATEMENTS) {
    name = `br${statementNames.size}`;
    statementNames.set(text, name);
  }
  return name;
}

/**
 * A pg client that runs every parameterized statement as a named prepared statement: each
 * connection parses (and, once PostgreSQL settles on a generic plan, plans) a statement once instead
 * of on every call. For a 100k-issue list, parse and plan took longer than the execution (2.3 ms of
 * planning for 1.5 ms of execution). Names are global (one text, one name, on every connection),
 * so a name can never stand for two texts. Statements without parameters (BEGIN, COMMIT, SET, and
 * multi-statement scripts, which the extended protocol refuses) keep the simple protocol.
 */
class PreparingClient extends pg.Client {
  override query(config: unknown, values?: unknown, callback?: unknown): never {
    // Plain query configs only: a submittable (cursor, stream) carries its own behaviour.
    if (config !== null && typeof config === 'object' && 'text' in config && !('name' in config && config.name) && !('submit' in config)) {
      const params = Array.isArray(values) ? values : (config as { values?: unknown }).values;
      const name = Array.isArray(params) && params.length > 0 ? statementName((config as { text: string }).text) : undefined;
      if (name) config = { ...config, name };
    }
    return (super.query as (...args: unknown[]) => never)(config, values, callback);
  }
}

export function connectDatabase(url: string, poolSize = POOL_SIZE): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    Client: PreparingClient,
    options: Object.entries(SESSION_SETTINGS)
      .map(([name, value]) => `-c ${name}=${value}`)
      .join(' '),
  });
  // An idle client losing its server (database restart) must not crash the process.
  pool.on('error', () => undefined);
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
