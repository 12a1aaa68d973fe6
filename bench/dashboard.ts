// Dashboard benchmark (issue 9): GET /api/companies/{id}/dashboard in a company with 100,000 issues
// and 1,000,000 cost events. Issues are seeded by SQL (the issue-count trigger counts them as it
// would for API creates); cost events by SQL too, with the scope usage counters they would have
// produced written in one aggregate statement, so what is timed is the read, as shipped.
import pg from 'pg';
import { selected, sequential, type Bench } from './lib/measure.ts';
import { seedIssues } from './work.ts';

const COST_EVENTS = 1_000_000;
const NAME = 'GET dashboard (100k issues, 1M cost events)';
const TARGET_P99_MS = 10;

export async function benchDashboard(bench: Bench): Promise<void> {
  if (!selected(bench, NAME)) return;
  const { client } = bench;
  const company = (
    await client.request({
      method: 'POST',
      path: '/api/companies',
      body: { name: 'Dashboard bench', budgetMonthlyCents: 5_000_000 },
    })
  ).body;
  const agents: string[] = [];
  for (let i = 0; i < 10; i++) {
    const res = await client.request({
      method: 'POST',
      path: `/api/companies/${company.id}/agents`,
      body: { name: `Spender ${i}`, adapterType: 'process' },
    });
    agents.push(res.body.id);
  }
  const started = performance.now();
  await seedIssues(bench.server.databaseUrl, company.id, company.issuePrefix, agents);
  const db = new pg.Client({ connectionString: bench.server.databaseUrl });
  await db.connect();
  try {
    await db.query(
      `insert into cost_events (company_id, agent_id, provider, model, biller, billing_type, input_tokens, output_tokens, cost_cents, occurred_at, reported_by_actor_type, reported_by_actor_id)
       select $1, ($2::uuid[])[1 + i % 10], 'acme', 'm' || (i % 3), 'acme', 'metered_api', 1000, 100, 1 + i % 5, now() - ((i % 2000000) || ' seconds')::interval, 'system', 'bench'
       from generate_series(1, $3) as i`,
      [company.id, agents, COST_EVENTS],
    );
    await db.query(
      `insert into budget_scope_usage (company_id, scope_type, scope_id, window_key, billed_cents, tokens)
       select company_id, s.scope_type, s.scope_id, w.window_key, sum(cost_cents), sum(input_tokens + output_tokens)
       from cost_events e
       cross join lateral (values ('company', e.company_id), ('agent', e.agent_id)) as s(scope_type, scope_id)
       cross join lateral (values (to_char(e.occurred_at at time zone 'UTC', 'YYYY-MM')), ('lifetime')) as w(window_key)
       where e.company_id = $1
       group by company_id, s.scope_type, s.scope_id, w.window_key
       on conflict (scope_type, scope_id, window_key) do update set billed_cents = excluded.billed_cents, tokens = excluded.tokens`,
      [company.id],
    );
    await db.query('analyze cost_events; analyze budget_scope_usage; analyze company_issue_counts;');
  } finally {
    await db.end();
  }
  process.stdout.write(
    `dashboard bench: seeded 100000 issues and ${COST_EVENTS} cost events in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
  );
  await sequential(bench, NAME, { method: 'GET', path: `/api/companies/${company.id}/dashboard` }, TARGET_P99_MS);
}
