// A write's answer goes out only once the hard budget stops pending then are in effect: a cost
// event, a finished run or a lowered budget that crossed a hard limit answers after its scope is
// paused and its live runs cancelled (the reason, and why not a refusal in every path that starts
// work: engine/budget-stops.ts). Every write route, not a list of the ones that can cross: a new
// route that moves spend or budgets keeps the promise without remembering it. Successful answers
// only: a refused write rolled back.
import type { App } from '../http/deps.ts';
import type { Db } from '../db/client.ts';
import { settleBudgetStops } from '../engine/budget-stops.ts';

const WRITES: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function installBudgetStopSettling(app: App, db: Db): void {
  app.addHook('onSend', async (request, reply, payload) => {
    // A refused write committed nothing, so it crossed nothing (and its answer is not held up).
    if (!WRITES.has(request.method) || reply.statusCode >= 400) return payload;
    const failed = (incidentId: string | null, err: unknown) =>
      request.log.warn({ err, incidentId }, 'a budget stop failed before the answer; the engine tries it again');
    // The write has committed: its answer goes out even when the database went away meanwhile.
    await settleBudgetStops(db, failed).catch((err: unknown) => failed(null, err));
    return payload;
  });
}
