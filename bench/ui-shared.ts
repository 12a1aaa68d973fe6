// What the UI scenarios share: issues seeded through the API, and the browser's script time over CDP.
import type { CDPSession } from 'playwright-core';
import { CONCURRENCY, type Bench } from './lib/measure.ts';

/** The main thread's script time so far, from a CDP session with the Performance domain enabled. */
export async function scriptSeconds(cdp: CDPSession): Promise<number> {
  const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
  return metrics.find((metric) => metric.name === 'ScriptDuration')!.value;
}

export async function seedIssues(bench: Bench, companyId: string, count: number): Promise<void> {
  const res = await bench.client.load(
    (i) => ({
      method: 'POST',
      path: `/api/companies/${companyId}/issues`,
      body: { title: `Bench issue ${i}: tidy the invoice export`, priority: ['low', 'medium', 'high'][i % 3] },
    }),
    {
      concurrency: CONCURRENCY,
      total: count,
      okStatus: [201],
    },
  );
  if (res.errors > 0) throw new Error(`seeding issues: ${res.errors} failed`);
}
