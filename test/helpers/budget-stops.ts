// Hard budget stops are applied by the engine's consumer as their incident commits, not by the
// request that crossed the limit: a test that reads a stop's effects waits for it first (bounded).
import type { TestApp } from './app.ts';
import { waitFor } from './wait.ts';

/** Until no hard incident of the company awaits its stop; 5 s is the stop's promised bound. */
export async function budgetStopsApplied(t: TestApp, companyId: string): Promise<void> {
  await waitFor(
    `the pending budget stops of company ${companyId} applied`,
    async () => {
      const { rowCount } = await t.database.pool.query(
        'select 1 from budget_incidents where company_id = $1 and stop_pending',
        [companyId],
      );
      return rowCount === 0;
    },
    5_000,
  );
}
