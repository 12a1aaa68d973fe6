// Issue 3 benchmark: list with filters and with q in a company of 100,000 issues; issue create
// rate in that company; checkout race throughput; comment create.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { measure, selected, type Bench } from './lib/measure.ts';

const SEEDED_ISSUES = 100_000;
const SEEDED_COMMENTS = 50_000;
const RACE_ISSUES = 50;
const RACERS = 10;

// Words the seeded titles and descriptions are built from; "quasar" is rare on purpose.
const WORDS = [
  'deploy',
  'billing',
  'crash',
  'login',
  'invoice',
  'latency',
  'report',
  'refactor',
  'docs',
  'onboarding',
  'search',
  'export',
  'cache',
  'timeout',
  'payment',
  'webhook',
  'queue',
  'memory',
  'upgrade',
  'review',
];

export async function seedIssues(
  databaseUrl: string,
  companyId: string,
  prefix: string,
  agentIds: string[],
): Promise<void> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const words = `(array[${WORDS.map((w) => `'${w}'`).join(',')}])`;
    const { rows } = await db.query<{ next: number }>('select issue_counter as next from companies where id = $1', [
      companyId,
    ]);
    const first = rows[0]!.next;
    await db.query(
      `insert into issues (company_id, number, identifier, title, description, status, priority, assignee_agent_id, created_at, updated_at)
       select $1, $5::int + i, $2 || '-' || ($5::int + i),
              initcap(${words}[1 + (i * 7) % 20]) || ' ' || ${words}[1 + (i * 13) % 20] || ' task ' || i,
              'We need to ' || ${words}[1 + (i * 3) % 20] || ' the ' || ${words}[1 + (i * 11) % 20] || ' flow' || case when i % 5000 = 0 then ' near the quasar module' else '' end,
              (array['backlog','todo','in_review','blocked','done','cancelled'])[1 + i % 6],
              (array['critical','high','medium','low'])[1 + (i * 17) % 4],
              ($3::uuid[])[1 + i % array_length($3::uuid[], 1)],
              now() - (i || ' seconds')::interval, now() - (i || ' seconds')::interval
       from generate_series(1, $4) as i`,
      [companyId, prefix, agentIds, SEEDED_ISSUES, first - 1],
    );
    await db.query(
      `insert into issue_comments (company_id, issue_id, body, author_user_id)
       select $1, id, 'Looked into the ' || ${words}[1 + (number * 19) % 20] || ' part' || case when number % 7000 = 0 then ' with zephyr logs' else '' end, null
       from issues where company_id = $1 order by number limit $2`,
      [companyId, SEEDED_COMMENTS],
    );
    await db.query('update companies set issue_counter = $2 where id = $1', [companyId, first + SEEDED_ISSUES]);
    await db.query('analyze issues; analyze issue_comments;');
  } finally {
    await db.end();
  }
}

/**
 * Another tenant of the same size whose every issue and comment uses the words that are rare in the
 * measured company: search must not pay for other companies' matches.
 */
export async function seedNoiseTenant(databaseUrl: string, companyId: string, prefix: string): Promise<void> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query(
      `insert into issues (company_id, number, identifier, title, description, status, priority)
       select $1, i, $2 || '-' || i, 'Quasar calibration ' || i, 'zephyr quasar invoice billing', 'todo', 'high'
       from generate_series(1, $3) as i`,
      [companyId, prefix, SEEDED_ISSUES],
    );
    await db.query(
      `insert into issue_comments (company_id, issue_id, body) select $1, id, 'zephyr quasar logs' from issues where company_id = $1 limit $2`,
      [companyId, SEEDED_COMMENTS],
    );
    await db.query('update companies set issue_counter = $2 where id = $1', [companyId, SEEDED_ISSUES + 1]);
    await db.query('analyze issues; analyze issue_comments;');
  } finally {
    await db.end();
  }
}

async function ok(res: { status: number; body: any }, what: string, status = 201): Promise<any> {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const LISTS: Array<[string, string]> = [
  ['list default (priority order)', ''],
  ['list status=todo,blocked', 'status=todo,blocked'],
  ['list assigneeAgentId+status', 'assigneeAgentId=AGENT3&status=todo,in_review'],
  ['list participantAgentId', 'participantAgentId=AGENT5'],
  ['search q=invoice', 'q=invoice'],
  ['search q=quasar (rare here, in every issue of the other tenant)', 'q=quasar'],
  ['search q=zephyr (comments)', 'q=zephyr'],
  ['search q=billing timeout', 'q=billing%20timeout'],
];
const CREATE = 'POST /api/companies/{id}/issues';
const RACE = 'checkout race';
const COMMENT = 'POST /api/issues/{id}/comments';

export async function benchWork(bench: Bench): Promise<void> {
  // Seeding takes most of a minute: skip it when --only leaves nothing here to measure.
  if (![...LISTS.map(([name]) => name), CREATE, RACE, COMMENT].some((name) => selected(bench, name))) return;
  const { client, server, figures } = bench;
  const company = await ok(
    await client.request({ method: 'POST', path: '/api/companies', body: { name: 'Scale Works' } }),
    'company',
  );
  const agentIds: string[] = [];
  const agentTokens: string[] = [];
  for (let i = 0; i < RACERS; i++) {
    const agent = await ok(
      await client.request({
        method: 'POST',
        path: `/api/companies/${company.id}/agents`,
        body: { name: `Racer ${i}`, role: 'engineer', adapterType: 'process' },
      }),
      'agent',
    );
    const key = await ok(
      await client.request({ method: 'POST', path: `/api/agents/${agent.id}/keys`, body: { name: 'bench' } }),
      'key',
    );
    agentIds.push(agent.id);
    agentTokens.push(key.token);
  }

  const seedStart = performance.now();
  const noise = await ok(
    await client.request({ method: 'POST', path: '/api/companies', body: { name: 'Noise Tenant' } }),
    'noise company',
  );
  await seedNoiseTenant(server.databaseUrl, noise.id, noise.issuePrefix);
  await seedIssues(server.databaseUrl, company.id, company.issuePrefix, agentIds);
  process.stdout.write(
    `seeded ${SEEDED_ISSUES} issues and ${SEEDED_COMMENTS} comments in each of two companies in ${((performance.now() - seedStart) / 1000).toFixed(1)} s\n`,
  );

  for (const [name, template] of LISTS) {
    const query = template.replace('AGENT3', agentIds[3]!).replace('AGENT5', agentIds[5]!);
    const path = `/api/companies/${company.id}/issues?limit=50${query ? `&${query}` : ''}`;
    await measure(bench, name, () => ({ method: 'GET', path }));
  }

  // In the 100k-issue company: each create takes the next number of its counter.
  await measure(bench, CREATE, (i) => ({
    method: 'POST',
    path: `/api/companies/${company.id}/issues`,
    body: { title: `Created issue ${i}`, description: 'created by the benchmark', priority: 'high' },
  }));

  // Checkout race: RACERS agents race for each of RACE_ISSUES fresh issues; exactly one may win each.
  const raceIssues: string[] = [];
  for (let i = 0; i < RACE_ISSUES; i++) {
    raceIssues.push(
      (
        await ok(
          await client.request({
            method: 'POST',
            path: `/api/companies/${company.id}/issues`,
            body: { title: `Race ${i}`, status: 'todo' },
          }),
          'race issue',
        )
      ).id,
    );
  }
  if (selected(bench, RACE)) {
    const raceStart = performance.now();
    let winners = 0;
    let conflicts = 0;
    const latencies: number[] = [];
    for (const issueId of raceIssues) {
      const results = await Promise.all(
        agentIds.map(async (agentId, a) => {
          const t0 = performance.now();
          const res = await fetch(new URL(`/api/issues/${issueId}/checkout`, server.base), {
            method: 'POST',
            headers: {
              authorization: `Bearer ${agentTokens[a]}`,
              'content-type': 'application/json',
              'x-service-run-id': randomUUID(),
            },
            body: JSON.stringify({ agentId, expectedStatuses: ['todo'] }),
          });
          latencies.push(performance.now() - t0);
          await res.arrayBuffer();
          return res.status;
        }),
      );
      winners += results.filter((s) => s === 200).length;
      conflicts += results.filter((s) => s === 409).length;
    }
    const raceSeconds = (performance.now() - raceStart) / 1000;
    if (winners !== RACE_ISSUES || conflicts !== RACE_ISSUES * (RACERS - 1))
      throw new Error(`checkout race: ${winners} winners, ${conflicts} conflicts`);
    const sorted = latencies.sort((x, y) => x - y);
    figures['checkout race attempts/s'] = (RACE_ISSUES * RACERS) / raceSeconds;
    figures['checkout race p99 ms'] = sorted[Math.ceil(0.99 * sorted.length) - 1]!;
    process.stdout.write(
      `checkout race: ${RACE_ISSUES} issues x ${RACERS} agents, exactly one winner each, ${figures['checkout race attempts/s']!.toFixed(0)} attempts/s, p99 ${figures['checkout race p99 ms']!.toFixed(2)} ms\n`,
    );
  }

  await measure(bench, COMMENT, (i) => ({
    method: 'POST',
    path: `/api/issues/${raceIssues[i % RACE_ISSUES]}/comments`,
    body: { body: `Progress note ${i}` },
  }));
}
