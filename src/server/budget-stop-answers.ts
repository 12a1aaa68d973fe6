// A write's answer goes out only once the hard budget stops pending then are in effect: a cost
// event, a finished run or a lowered budget that crossed a hard limit answers after its scope is
// paused and its live runs cancelled (the reason, and why not a refusal in every path that starts
// work: engine/budget-stops.ts). Every write route, not a list of the ones that can cross: a new
// route that moves spend or budgets keeps the promise without remembering it.
import type { App } from '../http/deps.ts';
import type { Db } from '../db/client.ts';
import { settleBudgetStops } from '../engine/budget-stops.ts';

const WRITES: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function installBudgetStopSettling(app: App, db: Db): void {
  app.addHook('onSend', async (request, _reply, payload) => {
    if (!WRITES.has(request.method)) return payload;
    await settleBudgetStops(db, (incidentId, err) =>
      request.log.warn({ err, incidentId }, 'a budget stop failed before the answer; the engine tries it again'),
    );
    return payload;
  });
}
