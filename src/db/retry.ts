// One transaction, retried when PostgreSQL chose it as the loser of a lock conflict: a deadlock
// (40P01, one of the transactions in a wait cycle is aborted) or a serialization failure (40001).
// Both roll the whole transaction back, so running it again from the start is safe, and the
// second try usually passes at once (the other side has committed by then).
//
// The engine's transactions go through here. Lock order (src/modules/runs/lock-order.ts) makes a
// deadlock between the engine's own transactions impossible; this is the net for the rest (an API
// call of the same agent, a budget stop, a transaction written later without the order in mind).
import type { Db, Tx } from './client.ts';

const RETRYABLE_SQLSTATES: ReadonlySet<string> = new Set(['40P01', '40001']);
/** Tries in all: a cycle that forms again and again after this many is a bug to see, not to hide. */
const MAX_TX_ATTEMPTS = 5;

/** The SQLSTATE of a failed query, on the error or its cause (drizzle wraps the driver's error). */
export function sqlStateOf(err: unknown): string | undefined {
  let e: unknown = err;
  for (let depth = 0; e && depth < 3; depth++) {
    const { code } = e as { code?: unknown };
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

export interface RetryOptions {
  attempts?: number;
  /** Told of each retry (the engine logs it); the error is the one that rolled the try back. */
  onRetry?: (err: unknown, attempt: number) => void;
}

export async function transactionWithRetry<T>(
  db: Db,
  work: (tx: Tx) => Promise<T>,
  options: RetryOptions = {},
): Promise<T> {
  const attempts = options.attempts ?? MAX_TX_ATTEMPTS;
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(work);
    } catch (err) {
      const state = sqlStateOf(err);
      if (attempt >= attempts || !state || !RETRYABLE_SQLSTATES.has(state)) throw err;
      options.onRetry?.(err, attempt);
      // A short random pause, growing with each try, so the two sides of a cycle do not meet again.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
    }
  }
}
