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
      const files = (await readdir(SQL_DIR)).filter((f) => f.endsWith('.sql')).sort();
      for (const file of files) await client.query(await readFile(path.join(SQL_DIR, file), 'utf8'));
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await client.end();
  }
}
