// Statements prepared once per database handle: built (drizzle's SQL building took more CPU than
// reading the rows on hot lookups) and named on first use, then only bound and executed. Named
// statements are parsed and planned once per connection. A transaction is a handle of its own, so
// a lookup that may run inside one still works there (prepared for that transaction).
import type { DbOrTx } from './client.ts';

export function preparedPerDb<H extends DbOrTx, T>(build: (db: H) => T): (db: H) => T {
  const byDb = new WeakMap<H, T>();
  return (db) => {
    let built = byDb.get(db);
    if (!built) {
      built = build(db);
      byDb.set(db, built);
    }
    return built;
  };
}
