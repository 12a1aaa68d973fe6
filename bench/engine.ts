// Engine benchmark (issue 7): wake-to-spawn latency, runs per second through the process adapter
// with `true`, time to drain 1,000 queued wakes, server memory with 100 concurrent runs. All
// through the real server process: wakes over its API (or queued straight into its database for
// the drain), runs of real child processes.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { selected, type Bench } from './lib/measure.ts';
import { memoryMiB } from './lib/server.ts';
import { percentile } from './lib/load.ts';

const LATENCY_SAMPLES = 100;
const THROUGHPUT_RUNS = 300;
const DRAIN_WAKES = 1_000;
const CONCURRENT_RUNS = 100;
// No wake budget or concurrency cap in the way of the measurement.
const UNCAPPED = { maxRunsPerHour: 100_000, maxConcurrentRuns: 50 };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, probe: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`engine bench: timed out waiting for ${what}`);
    await sleep(20);
  }
}

export async function benchEngine(bench: Bench): Promise<void> {
  if (!selected(bench, 'engine')) return;
  const { client, figures } = bench;
  const db = new pg.Client({ connectionString: bench.server.databaseUrl });
  await db.connect();
  const marks = await mkdtemp(path.join(os.tmpdir(), 'boardroom-bench-engine-'));
  try {
    const company = await client.request({ method: 'POST', path: '/api/companies', body: { name: 'Engine bench' } });
    const companyId: string = company.body.id;
    const newAgent = async (
      name: string,
      adapterConfig: Record<string, unknown>,
      runtimeConfig: Record<string, unknown> = UNCAPPED,
    ) => {
      const res = await client.request({
        method: 'POST',
        path: `/api/companies/${companyId}/agents`,
        body: { name, adapterType: 'process', adapterConfig, runtimeConfig },
      });
      if (res.status !== 201) throw new Error(`engine bench agent: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.id as string;
    };
    const finishedRuns = async (agentIds: string[]) =>
      Number(
        (
          await db.query(
            "select count(*) as n from heartbeat_runs where agent_id = any($1) and status not in ('queued', 'running')",
            [agentIds],
          )
        ).rows[0].n,
      );

    // 1. Wake-to-spawn: from the wake's row (database clock) to the first instruction of the process
    // (it writes the system clock): queue, notify, claim, decide, start, env, spawn. One at a time.
    const marker = await newAgent('Latency', { command: 'sh', args: ['-c', `date +%s%N > ${marks}/$SERVICE_RUN_ID`] });
    const latencies: number[] = [];
    for (let i = 0; i < LATENCY_SAMPLES; i++) {
      const wake = await client.request({
        method: 'POST',
        path: `/api/agents/${marker}/wakeup`,
        body: { reason: `sample ${i}` },
      });
      await until('the sample run', async () => (await finishedRuns([marker])) === i + 1, 10_000);
      const { rows } = await db.query(
        'select r.id, extract(epoch from w.created_at) * 1000 as queued_ms from heartbeat_runs r join agent_wakeup_requests w on w.id = r.wakeup_request_id where w.id = $1',
        [wake.body.id],
      );
      const spawnedMs = Number(BigInt((await readFile(path.join(marks, rows[0].id), 'utf8')).trim()) / 1_000_000n);
      latencies.push(spawnedMs - Number(rows[0].queued_ms));
    }
    latencies.sort((a, b) => a - b);
    figures['engine wake-to-spawn p50 ms'] = percentile(latencies, 50);
    figures['engine wake-to-spawn p99 ms'] = percentile(latencies, 99);
    process.stdout.write(
      `engine wake-to-spawn: ${LATENCY_SAMPLES} wakes one at a time, p50 ${figures['engine wake-to-spawn p50 ms']!.toFixed(1)} ms, p99 ${figures['engine wake-to-spawn p99 ms']!.toFixed(1)} ms (target p50 < 100 ms)\n`,
    );

    // 2. Runs per second with `true`: wakes about distinct issues (no coalescing) over 10 agents.
    const seedIssues = async (count: number) =>
      (
        await db.query(
          `insert into issues (company_id, number, identifier, title) select $1, 1000000 + n, 'ENG-' || (1000000 + n), 'engine bench ' || n from generate_series($2::int, $3::int) n returning id`,
          [companyId, offset, offset + count - 1],
        )
      ).rows.map((r) => r.id as string);
    let offset = 0;
    const throughputAgents = await Promise.all(
      Array.from({ length: 10 }, (_, i) => newAgent(`True ${i}`, { command: 'true' })),
    );
    const issueIds = await seedIssues(THROUGHPUT_RUNS);
    offset += THROUGHPUT_RUNS;
    const started = performance.now();
    await client.load(
      (i) => ({
        method: 'POST',
        path: `/api/agents/${throughputAgents[i % 10]}/wakeup`,
        body: { payload: { issueId: issueIds[i] } },
      }),
      { concurrency: 10, total: THROUGHPUT_RUNS, okStatus: [202] },
    );
    await until('the throughput runs', async () => (await finishedRuns(throughputAgents)) === THROUGHPUT_RUNS, 120_000);
    figures['engine runs/s (process adapter, true)'] = THROUGHPUT_RUNS / ((performance.now() - started) / 1000);
    process.stdout.write(
      `engine throughput: ${THROUGHPUT_RUNS} runs of \`true\` over 10 agents in ${((performance.now() - started) / 1000).toFixed(1)} s = ${figures['engine runs/s (process adapter, true)']!.toFixed(1)} runs/s\n`,
    );

    // 3. Drain: 1,000 wakes already queued (inserted in one statement, one NOTIFY), each about its own issue.
    const drainAgents = await Promise.all(
      Array.from({ length: 20 }, (_, i) => newAgent(`Drain ${i}`, { command: 'true' })),
    );
    const drainIssues = await seedIssues(DRAIN_WAKES);
    const drainStart = performance.now();
    await db.query(
      `insert into agent_wakeup_requests (company_id, agent_id, source, reason, issue_id, payload, requested_by_actor_type, requested_by_actor_id)
       select $1, ($2::uuid[])[1 + (n - 1) % 20], 'on_demand', 'drain', ($3::uuid[])[n], jsonb_build_object('issueId', ($3::uuid[])[n]), 'system', 'bench'
       from generate_series(1, $4::int) n`,
      [companyId, drainAgents, drainIssues, DRAIN_WAKES],
    );
    await until('the queue to drain', async () => (await finishedRuns(drainAgents)) === DRAIN_WAKES, 300_000);
    figures['engine drain 1000 queued wakes s'] = (performance.now() - drainStart) / 1000;
    process.stdout.write(
      `engine drain: ${DRAIN_WAKES} queued wakes to finished runs in ${figures['engine drain 1000 queued wakes s']!.toFixed(1)} s\n`,
    );

    // 4. Memory with 100 concurrent runs: 100 agents, each running `sleep` for a while.
    const before = await memoryMiB(bench.server);
    const sleepers = await Promise.all(
      Array.from({ length: CONCURRENT_RUNS }, (_, i) => newAgent(`Sleeper ${i}`, { command: 'sleep', args: ['20'] })),
    );
    await Promise.all(
      sleepers.map((id) => client.request({ method: 'POST', path: `/api/agents/${id}/wakeup`, body: {} })),
    );
    await until(
      '100 concurrent runs',
      async () =>
        Number(
          (
            await db.query("select count(*) as n from heartbeat_runs where agent_id = any($1) and status = 'running'", [
              sleepers,
            ])
          ).rows[0].n,
        ) === CONCURRENT_RUNS,
      60_000,
    );
    const during = await memoryMiB(bench.server);
    figures['engine server RSS with 100 runs MiB'] = during.serverRss;
    process.stdout.write(
      `engine memory: server RSS ${before.serverRss.toFixed(1)} MiB before, ${during.serverRss.toFixed(1)} MiB with ${CONCURRENT_RUNS} concurrent runs\n`,
    );
    await Promise.all(
      sleepers.map((id) => client.request({ method: 'POST', path: `/api/agents/${id}/pause`, body: {} })),
    );
  } finally {
    await db.end();
    await rm(marks, { recursive: true, force: true });
  }
}
