// Issue 25 defect 1: a hard stop is in effect when the cost event that crossed it answers. Rounds of
// "a fresh company on a 1,000-cent budget with one idle agent; a cost event of 500 (under the line),
// then one of 700 (crossing it), then at once read the agent and wake it". Prints what the promise
// costs the crossing answer (its latency beside the event under the line, which settles nothing)
// and counts the reads that found the agent not paused and the wakes not refused (target: 0 each).
// test/budget-stop-answer.test.ts holds the same promise over two replicas.
import { percentile } from './lib/load.ts';
import { selected, type Bench } from './lib/measure.ts';

const ROUNDS = 200;
const NAME = 'budget stop at the answer';

async function ok(res: { status: number; body: any }, what: string, status = 201): Promise<any> {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

export async function benchBudgetStops(bench: Bench): Promise<void> {
  if (!selected(bench, NAME)) return;
  const { client } = bench;
  const under: number[] = [];
  const crossing: number[] = [];
  let notPaused = 0;
  let wakesAccepted = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const company = await ok(
      await client.request({
        method: 'POST',
        path: '/api/companies',
        body: { name: `Stop ${round}`, budgetMonthlyCents: 1000 },
      }),
      'company',
    );
    const agent = await ok(
      await client.request({
        method: 'POST',
        path: `/api/companies/${company.id}/agents`,
        body: { name: 'Spender', role: 'engineer', adapterType: 'process' },
      }),
      'agent',
    );
    const cost = (costCents: number) => () =>
      client.request({
        method: 'POST',
        path: `/api/companies/${company.id}/cost-events`,
        body: { agentId: agent.id, provider: 'acme', model: 'm1', costCents, occurredAt: new Date().toISOString() },
      });
    const first = await timed(cost(500));
    await ok(first.value, 'cost under the line');
    under.push(first.ms);
    const second = await timed(cost(700));
    await ok(second.value, 'crossing cost');
    crossing.push(second.ms);
    const read = await ok(await client.request({ method: 'GET', path: `/api/agents/${agent.id}` }), 'agent read', 200);
    if (read.status !== 'paused') notPaused++;
    const woken = await client.request({ method: 'POST', path: `/api/agents/${agent.id}/wakeup`, body: {} });
    if (woken.status === 202) wakesAccepted++;
  }
  under.sort((a, b) => a - b);
  crossing.sort((a, b) => a - b);
  const figure = (key: string, value: number) => (bench.figures[`${NAME} ${key}`] = value);
  figure('under the line p50 ms', percentile(under, 50));
  figure('crossing p50 ms', percentile(crossing, 50));
  figure('crossing p99 ms', percentile(crossing, 99));
  figure('reads not paused', notPaused);
  figure('wakes accepted', wakesAccepted);
  process.stdout.write(
    `${NAME}: ${ROUNDS} rounds; cost event under the line p50 ${percentile(under, 50).toFixed(1)} ms, crossing p50 ${percentile(crossing, 50).toFixed(1)} ms p99 ${percentile(crossing, 99).toFixed(1)} ms; agent read not paused ${notPaused}, wakes accepted ${wakesAccepted} (target 0 and 0)\n`,
  );
}
