// A write that crosses a hard budget limit answers only once the stop is in effect
// (server/budget-stop-answers.ts): right after such an answer no hard incident of the company may
// still await its stop. Tests call this after each write that may cross, so every one of them also
// checks that promise, not only test/budget-stop-answer.test.ts.
import assert from 'node:assert/strict';
import type { TestApp } from './app.ts';

export async function assertBudgetStopsInEffect(t: TestApp, companyId: string): Promise<void> {
  const { rows } = await t.database.pool.query(
    'select id from budget_incidents where company_id = $1 and stop_pending',
    [companyId],
  );
  assert.deepEqual(rows, [], `a hard stop of company ${companyId} still pending after the answer`);
}
