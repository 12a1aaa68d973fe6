// Issue 27 section 8, through the real server process (its engine hands webhooks and events to the
// workers): how long a plugin webhook delivery takes to be acknowledged (202: recorded, worker not
// waited on), and how long an activity entry takes to reach the subscribed worker (from the request
// that writes it being sent to the worker's log line for it, read from GET /api/plugins/{id}/logs).
// The plugin is the tests' `listener` fixture, which logs every delivery and event it is handed.
import path from 'node:path';
import { percentile } from './lib/load.ts';
import { selected, type Bench } from './lib/measure.ts';

const LISTENER = path.resolve(import.meta.dirname, '..', 'test', 'fixtures', 'plugins', 'listener');
const DELIVERIES = 300;
const EVENTS = 60;
const POLL_MS = 10;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function benchPluginWebhooks(bench: Bench): Promise<void> {
  const ack = 'plugin webhook acknowledged';
  const event = 'plugin event to worker';
  if (!selected(bench, ack) && !selected(bench, event)) return;
  const { client, anonymous, figures } = bench;
  const company = await client.request({ method: 'POST', path: '/api/companies', body: { name: 'Plugin bench' } });
  const companyId: string = company.body.id;
  const installed = await client.request({
    method: 'POST',
    path: '/api/plugins/install',
    body: { packageName: LISTENER, isLocalPath: true },
  });
  if (installed.status !== 201)
    throw new Error(`plugin bench install: ${installed.status} ${JSON.stringify(installed.body)}`);
  const pluginId: string = installed.body.id;
  const enabled = await client.request({
    method: 'POST',
    path: `/api/companies/${companyId}/plugins/${pluginId}/enable`,
    body: { capabilities: installed.body.manifest.capabilities },
  });
  if (enabled.status !== 200) throw new Error(`plugin bench enable: ${enabled.status} ${JSON.stringify(enabled.body)}`);
  const open = enabled.body.webhooks.find((w: { key: string }) => w.key === 'open');
  const hookPath = new URL(open.url).pathname;

  try {
    // Acknowledged: one delivery at a time, as a sender would, after a warm-up that starts the worker.
    for (let i = 0; i < 20; i++) await anonymous.request({ method: 'POST', path: hookPath, body: { warm: i } });
    const acks: number[] = [];
    for (let i = 0; i < DELIVERIES; i++) {
      const t0 = performance.now();
      const res = await anonymous.request({ method: 'POST', path: hookPath, body: { n: i } });
      acks.push(performance.now() - t0);
      if (res.status !== 202) throw new Error(`plugin bench delivery: ${res.status} ${JSON.stringify(res.body)}`);
    }
    acks.sort((a, b) => a - b);
    figures[`${ack} p50 ms`] = percentile(acks, 50);
    figures[`${ack} p95 ms`] = percentile(acks, 95);
    process.stdout.write(
      `${ack}: p50 ${percentile(acks, 50).toFixed(2)} ms, p95 ${percentile(acks, 95).toFixed(2)} ms over ${DELIVERIES}\n`,
    );

    // Event to worker: an issue created, then the worker's log line for its issue.created entry.
    const handed = async (title: string) => {
      const logs = await client.request({ method: 'GET', path: `/api/plugins/${pluginId}/logs` });
      return (logs.body as { message: string }[]).some(
        (l) => l.message.startsWith('listener: {"kind":"event"') && l.message.includes(`"title":"${title}"`),
      );
    };
    const delays: number[] = [];
    for (let i = 0; i < EVENTS; i++) {
      const title = `bench-event-${i}-${Date.now()}`;
      const t0 = performance.now();
      const res = await client.request({ method: 'POST', path: `/api/companies/${companyId}/issues`, body: { title } });
      if (res.status !== 201) throw new Error(`plugin bench issue: ${res.status} ${JSON.stringify(res.body)}`);
      const deadline = Date.now() + 30_000;
      while (!(await handed(title))) {
        if (Date.now() > deadline) throw new Error(`plugin bench: the event for ${title} never reached the worker`);
        await sleep(POLL_MS);
      }
      delays.push(performance.now() - t0);
    }
    delays.sort((a, b) => a - b);
    figures[`${event} p50 ms`] = percentile(delays, 50);
    figures[`${event} p95 ms`] = percentile(delays, 95);
    process.stdout.write(
      `${event}: p50 ${percentile(delays, 50).toFixed(1)} ms, p95 ${percentile(delays, 95).toFixed(1)} ms over ${EVENTS}\n`,
    );
  } finally {
    await client.request({ method: 'DELETE', path: `/api/plugins/${pluginId}` });
  }
}
