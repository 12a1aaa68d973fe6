// Issue 9 benchmark, costs: summaries, breakdowns and window-spend in a company of 1,000,000 cost
// events (target p99 < 20 ms), and the ingest rate of POST cost-events at 10 connections.
//
// Loading: the events go straight into cost_events with one generate_series statement, and the
// rollups are then built from them by rebuildRollups (src/modules/costs/rollup.ts), which writes
// exactly the rows recordCostEvent's per-event upserts would have (test/cost-summaries.test.ts
// checks the two agree row for row). Going through the API would take hours at the ingest rate.
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { connectDatabase } from '../src/db/client.ts';
import { rebuildRollups } from '../src/modules/costs/rollup.ts';
import { CONCURRENCY, record, selected, sequential, type Bench } from './lib/measure.ts';

const EVENTS = 1_000_000;
const DAYS = 90;
const AGENTS = 25;
const PROJECTS = 5;
const INGEST_EVENTS = 2_000;
const TARGET_P99_MS = 20;

const PROVIDERS = ['anthropic', 'openai', 'google'];
const MODELS = [
  ['claude-sonnet-4', 'claude-haiku-4'],
  ['gpt-5', 'gpt-5-mini'],
  ['gemini-2.5-pro', 'gemini-2.5-flash'],
];

async function ok(res: { status: number; body: any }, what: string, status = 201): Promise<any> {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/**
 * `events` (1M by default: one every 7.8 s) evenly over the last 90 days. Agent i % the agents
 * (25 here); each agent has one provider and alternates its two models; the project moves every
 * 1,000 events through the projects (five here) and "none", so every agent touches every project each day (a pessimistic rollup
 * cardinality); anthropic usage is subscription-included (0 cents, tokens kept), the rest metered;
 * google is billed through openrouter.
 */
export async function seedEvents(
  databaseUrl: string,
  companyId: string,
  agentIds: string[],
  projectIds: string[],
  events = EVENTS,
): Promise<void> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query('set statement_timeout = 0');
    await db.query(
      `insert into cost_events (company_id, agent_id, project_id, provider, model, biller, billing_type, input_tokens, cached_input_tokens, output_tokens, cost_cents, occurred_at, reported_by_actor_type, reported_by_actor_id, created_at)
       select $1, ($2::uuid[])[1 + i % $5::int], ($3::uuid[])[1 + (i / 1000) % ($6::int + 1)],
              p.provider, p.model, case when p.provider = 'google' then 'openrouter' else p.provider end,
              case when p.provider = 'anthropic' then 'subscription_included' else 'metered_api' end,
              1000 + i % 5000, (i % 3) * 100, 100 + i % 700,
              case when p.provider = 'anthropic' then 0 else (i * 7) % 50 end,
              ts, 'system', 'bench', ts
       from generate_series(1, $4::int) as i,
            lateral (select now() - make_interval(secs => (i::float8 / $4::int) * $7::int * 86400) as ts) t,
            lateral (select (array['anthropic','openai','google'])[1 + (i % $5::int) % 3] as provider,
                            (array[array['claude-sonnet-4','claude-haiku-4'], array['gpt-5','gpt-5-mini'], array['gemini-2.5-pro','gemini-2.5-flash']])[1 + (i % $5::int) % 3][1 + (i / $5::int) % 2] as model) p`,
      [companyId, agentIds, [...projectIds, null], events, agentIds.length, projectIds.length, DAYS],
    );
  } finally {
    await db.end();
  }
  // The rollups, in the shape recordCostEvent keeps them.
  const database = connectDatabase(databaseUrl, 1);
  try {
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`set local statement_timeout = 0`);
      await rebuildRollups(tx, companyId);
    });
    await database.pool.query('analyze cost_events; analyze cost_rollups;');
  } finally {
    await database.close();
  }
}

const SCENARIOS = [
  'costs summary all-time',
  'costs summary 30 days',
  'costs by-agent 30 days',
  'costs by-provider all-time',
  'costs window-spend',
  'costs ingest',
];

export async function benchCosts(bench: Bench): Promise<void> {
  if (!SCENARIOS.some((name) => selected(bench, name))) return;
  const { client, server } = bench;
  const company = await ok(
    await client.request({
      method: 'POST',
      path: '/api/companies',
      body: { name: 'Cost Works', budgetMonthlyCents: 5_000_000 },
    }),
    'company',
  );
  const agentIds: string[] = [];
  for (let i = 0; i < AGENTS; i++) {
    agentIds.push(
      (
        await ok(
          await client.request({
            method: 'POST',
            path: `/api/companies/${company.id}/agents`,
            body: { name: `Spender ${i}`, role: 'engineer', adapterType: 'process' },
          }),
          'agent',
        )
      ).id,
    );
  }
  const projectIds: string[] = [];
  for (let i = 0; i < PROJECTS; i++) {
    projectIds.push(
      (
        await ok(
          await client.request({
            method: 'POST',
            path: `/api/companies/${company.id}/projects`,
            body: { name: `Project ${i}` },
          }),
          'project',
        )
      ).id,
    );
  }

  const seedStart = performance.now();
  await seedEvents(server.databaseUrl, company.id, agentIds, projectIds);
  const db = new pg.Client({ connectionString: server.databaseUrl });
  await db.connect();
  const { rows } = await db.query(
    `select (select count(*) from cost_events where company_id = $1)::int as events,
            (select count(*) from cost_rollups where company_id = $1 and grain = 'hour')::int as hours,
            (select count(*) from cost_rollups where company_id = $1 and grain = 'day')::int as days,
            (select count(*) from cost_rollups where company_id = $1 and grain = 'month')::int as months`,
    [company.id],
  );
  await db.end();
  process.stdout.write(
    `seeded ${rows[0].events} cost events over ${DAYS} days (${AGENTS} agents, ${PROJECTS} projects, ${PROVIDERS.length} providers, ${MODELS.flat().length} models) with generate_series straight into cost_events, ` +
      `and their rollups (${rows[0].hours} hour, ${rows[0].days} day and ${rows[0].months} month rows over three key sets) built by rebuildRollups in the shape recordCostEvent writes, in ${((performance.now() - seedStart) / 1000).toFixed(1)} s\n`,
  );

  const base = `/api/companies/${company.id}/costs`;
  // 30 days ending a little over 3 hours ago, neither bound on an hour: both edge hours are read from events.
  const to = new Date(Date.now() - (3 * 3600 + 11 * 60 + 7) * 1000 - 123);
  const from = new Date(to.getTime() - 30 * 86_400_000 - (17 * 60 + 23) * 1000);
  const range = `from=${from.toISOString()}&to=${to.toISOString()}`;
  await sequential(bench, 'costs summary all-time', { method: 'GET', path: `${base}/summary` }, TARGET_P99_MS);
  await sequential(bench, 'costs summary 30 days', { method: 'GET', path: `${base}/summary?${range}` }, TARGET_P99_MS);
  await sequential(
    bench,
    'costs by-agent 30 days',
    { method: 'GET', path: `${base}/by-agent?${range}` },
    TARGET_P99_MS,
  );
  await sequential(bench, 'costs by-provider all-time', { method: 'GET', path: `${base}/by-provider` }, TARGET_P99_MS);
  await sequential(bench, 'costs window-spend', { method: 'GET', path: `${base}/window-spend` }, TARGET_P99_MS);

  if (selected(bench, 'costs ingest')) {
    const before = await ok(
      await client.request({ method: 'GET', path: `${base}/summary` }),
      'summary before ingest',
      200,
    );
    // Distinct events (agents, models and instants within the last minute rotating) at 10 connections.
    const started = Date.now();
    const ingest = await client.load(
      (i) => ({
        method: 'POST',
        path: `/api/companies/${company.id}/cost-events`,
        body: {
          agentId: agentIds[i % AGENTS],
          provider: PROVIDERS[i % 3],
          model: MODELS[i % 3]![i % 2],
          costCents: i % 40,
          occurredAt: new Date(started - (i % 60_000)).toISOString(),
          inputTokens: 1200,
          outputTokens: 300,
          billingType: 'metered_api',
        },
      }),
      { concurrency: CONCURRENCY, total: INGEST_EVENTS },
    );
    record(bench, 'costs ingest POST cost-events', ingest);
    process.stdout.write(
      `costs ingest: ${INGEST_EVENTS} events at ${CONCURRENCY} connections, ${ingest.rps.toFixed(0)} events/s (each: the event, its nine rollup rows, month counters and activity in one transaction)\n`,
    );
    // Every ingested cent shows in the summary at once (sum of i % 40 over the events sent).
    const added = Array.from({ length: INGEST_EVENTS }, (_, i) => i % 40).reduce((a, b) => a + b, 0);
    const after = await ok(
      await client.request({ method: 'GET', path: `${base}/summary` }),
      'summary after ingest',
      200,
    );
    if (after.spendCents - before.spendCents !== added)
      throw new Error(`summary grew by ${after.spendCents - before.spendCents} cents, ${added} were ingested`);
  }
}
