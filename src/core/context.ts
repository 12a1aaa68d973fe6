// The one context every use case takes: the database handle to work on (the pool, or the caller's
// transaction) and who is acting. A use case that runs inside another's transaction is handed a
// context whose `db` is that transaction, so both commit or roll back together.
import type { DbOrTx, Tx } from '../db/client.ts';
import type { Actor } from './actor.ts';

export interface Ctx<A extends Actor = Actor> {
  db: DbOrTx;
  actor: A;
}

/**
 * Runs `work` in a transaction of its own, or as a savepoint inside the caller's one. drizzle opens
 * a savepoint when `transaction` is called on a transaction, so nesting is safe.
 */
export function inTransaction<T, A extends Actor>(ctx: Ctx<A>, work: (tx: Tx, ctx: Ctx<A>) => Promise<T>): Promise<T> {
  return ctx.db.transaction((tx) => work(tx, { db: tx, actor: ctx.actor }));
}
