import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import { MIGRATIONS_DIR, SQL_DIR } from '../paths.ts';

// Arbitrary constant shared by every replica: whoever holds it migrates, the others wait.
const MIGRATION_LOCK_KEY = 7_310_451_022;

export async function migrateDatabase(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      // Extensions the schema's indexes use; btree_gin is a trusted extension (PostgreSQL 13+), so a
      // database owner may create it without superuser rights.
      await client.query('create extension if not exists btree_gin');
      await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_DIR });
      await applySqlFiles(client);
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await client.end();
  }
}

/**
 * The functions and triggers in src/db/sql, each file applied again only when its text changed.
 * Re-applying one drops and creates triggers, which takes an exclusive lock on busy tables: every
 * CLI command migrates on start, and doing that against a running server (`login-link`, `board-key
 * create`) deadlocked with the server's own transactions and stalled its requests behind the lock.
 */
async function applySqlFiles(client: pg.Client): Promise<void> {
  await client.query(
    'create table if not exists drizzle.boardroom_sql_files (name text primary key, sha256 text not null, applied_at timestamptz not null default now())',
  );
  const applied = new Map(
    (
      await client.query<{ name: string; sha256: string }>('select name, sha256 from drizzle.boardroom_sql_files')
    ).rows.map((row) => [row.name, row.sha256]),
  );
  const files = (await readdir(SQL_DIR)).filter((f) => f.endsWith('.sql')).sort();
  for (const file of files) {
    const text = await readFile(path.join(SQL_DIR, file), 'utf8');
    const sha256 = createHash('sha256').update(text).digest('hex');
    if (applied.get(file) === sha256) continue;
    // The file and its record in one transaction: a file half applied is applied again next time.
    await client.query('begin');
    try {
      await client.query(text);
      await client.query(
        'insert into drizzle.boardroom_sql_files (name, sha256) values ($1, $2) on conflict (name) do update set sha256 = excluded.sha256, applied_at = now()',
        [file, sha256],
      );
      await client.query('commit');
    } catch (err) {
      await client.query('rollback');
      throw err;
    }
  }
}
