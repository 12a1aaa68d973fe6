// Cost summaries (SPEC Costs and budgets: summary, by-*, window-spend, quota-windows): exact sums of
// a known set of events over ranges that use every source (day and hour rollups, edge events),
// from/to validation, breakdown keys and order, rolling windows, who may read.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { rebuildRollups } from '../src/modules/costs/rollup.ts';
import { useTestApp } from './helpers/app.ts';
import { newAgent } from './helpers/factories.ts';

const t = await useTestApp();
const MISSING = '00000000-0000-4000-8000-000000000000';

interface Ev {
  agent: 'ada' | 'bob';
  at: string;
  cents: number;
  provider?: string;
  model?: string;
  biller?: string;
  billingType?: string;
  project?: boolean;
  input?: number;
  cached?: number;
  output?: number;
}

// 5 October 2026 onwards, well before the server clock (23 November 2026 or later when this runs).
const EVENTS: Ev[] = [
  { agent: 'ada', at: '2026-10-05T10:15:00Z', cents: 1, input: 100, cached: 10, output: 5, project: true },
  { agent: 'ada', at: '2026-10-05T10:45:00Z', cents: 2, input: 200, cached: 20, output: 10, project: true },
  {
    agent: 'bob',
    at: '2026-10-05T11:30:00Z',
    cents: 0,
    provider: 'zeta',
    model: 'z1',
    biller: 'router',
    billingType: 'subscription_included',
    input: 5000,
    output: 700,
  },
  { agent: 'bob', at: '2026-10-05T23:59:59.999Z', cents: 8, model: 'm2' },
  { agent: 'ada', at: '2026-10-06T00:00:00Z', cents: 16, project: true },
  { agent: 'bob', at: '2026-10-06T13:00:00Z', cents: 32, provider: 'zeta', model: 'z1', biller: 'router' },
  { agent: 'ada', at: '2026-10-07T11:59:59.999Z', cents: 64 },
  { agent: 'bob', at: '2026-10-07T12:10:00Z', cents: 128, model: 'm2', project: true },
  { agent: 'ada', at: '2026-10-07T12:19:59.999Z', cents: 256 },
  { agent: 'ada', at: '2026-10-07T12:20:00Z', cents: 512 },
  { agent: 'bob', at: '2026-10-09T08:00:00Z', cents: 1024, output: 9 },
];

/** A company with agents Ada and Bob, a project, and EVENTS recorded through the cost-events API. */
async function seeded(budgetMonthlyCents = 0) {
  const { company, token } = await t.newCompany(undefined, { budgetMonthlyCents });
  const ada = await newAgent(t, token, company.id, { name: 'Ada' });
  const bob = await newAgent(t, token, company.id, { name: 'Bob' });
  const project = await t.request('POST', `/api/companies/${company.id}/projects`, { token, body: { name: 'Apollo' } });
  assert.equal(project.status, 201);
  const agents = { ada, bob };
  for (const e of EVENTS) {
    const res = await t.request('POST', `/api/companies/${company.id}/cost-events`, {
      token,
      body: {
        agentId: agents[e.agent].agent.id,
        provider: e.provider ?? 'acme',
        model: e.model ?? 'm1',
        costCents: e.cents,
        occurredAt: e.at,
        ...(e.biller && { biller: e.biller }),
        ...(e.billingType && { billingType: e.billingType }),
        ...(e.project && { projectId: project.body.id }),
        inputTokens: e.input ?? 0,
        cachedInputTokens: e.cached ?? 0,
        outputTokens: e.output ?? 0,
      },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
  }
  return { company, token, ada, bob, project: project.body };
}

/** What a range should sum to, computed from EVENTS by brute force. */
function expected(from?: string, to?: string) {
  const lo = from ? Date.parse(from) : -Infinity;
  const hi = to ? Date.parse(to) : Infinity;
  return EVENTS.filter((e) => Date.parse(e.at) >= lo && Date.parse(e.at) < hi).reduce((sum, e) => sum + e.cents, 0);
}

const summary = (companyId: string, token: string, query = '') =>
  t.request('GET', `/api/companies/${companyId}/costs/summary${query}`, { token });
const q = (from?: string, to?: string) => `?${new URLSearchParams({ ...(from && { from }), ...(to && { to }) })}`;

const s = await seeded(3000);

describe('GET /api/companies/{companyId}/costs/summary', () => {
  it('sums all time when from and to are omitted, against the monthly budget', async () => {
    const res = await summary(s.company.id, s.token);
    assert.equal(res.status, 200);
    // 1+2+0+8+16+32+64+128+256+512+1024
    assert.deepEqual(res.body, { from: null, to: null, spendCents: 2043, budgetCents: 3000, utilizationPercent: 68.1 });
  });

  it('counts only the events at or after from inside a partial hour (10:15 out, 10:45 in)', async () => {
    const res = await summary(s.company.id, s.token, q('2026-10-05T10:30:00Z', '2026-10-05T11:00:00Z'));
    assert.equal(res.status, 200);
    assert.equal(res.body.spendCents, 2);
    assert.equal(res.body.from, '2026-10-05T10:30:00.000Z');
    assert.equal(res.body.to, '2026-10-05T11:00:00.000Z');
    assert.equal(
      (await summary(s.company.id, s.token, q('2026-10-05T10:30:00Z'))).body.spendCents,
      2042,
      'from 10:30 onwards',
    );
  });

  it('adds edge minutes, whole hours and whole days exactly, to exclusive', async () => {
    // Events [10:30, 11:00), hours 11:00-24:00 of the 5th, the 6th whole, hours 00:00-12:00 of the 7th, events [12:00, 12:20).
    const res = await summary(s.company.id, s.token, q('2026-10-05T10:30:00Z', '2026-10-07T12:20:00Z'));
    assert.equal(res.body.spendCents, 2 + 0 + 8 + 16 + 32 + 64 + 128 + 256);
    assert.equal(res.body.spendCents, 506);
    assert.equal(res.body.utilizationPercent, 16.87, '506 / 3000, two decimals');
    // The same instants written with offsets.
    const offset = await summary(s.company.id, s.token, q('2026-10-05T12:30:00+02:00', '2026-10-07T07:20:00-05:00'));
    assert.equal(offset.body.spendCents, 506);
    assert.equal(offset.body.from, '2026-10-05T10:30:00.000Z');
  });

  it('agrees with a brute-force sum on every range between the interesting instants', async () => {
    const instants = [
      '2026-10-05T00:00:00Z',
      '2026-10-05T10:15:00Z',
      '2026-10-05T10:30:00Z',
      '2026-10-05T11:00:00Z',
      '2026-10-05T23:59:59.999Z',
      '2026-10-06T00:00:00Z',
      '2026-10-06T00:00:00.001Z',
      '2026-10-06T12:59:00Z',
      '2026-10-07T00:00:00Z',
      '2026-10-07T12:00:00Z',
      '2026-10-07T12:20:00Z',
      '2026-10-09T08:00:00Z',
      '2026-10-10T00:00:00Z',
      '2026-11-01T00:00:00Z',
      '2026-09-30T23:00:00Z',
    ];
    const wrong: string[] = [];
    for (const from of [undefined, ...instants]) {
      for (const to of [undefined, ...instants]) {
        if (from && to && Date.parse(from) > Date.parse(to)) continue;
        const res = await summary(s.company.id, s.token, q(from, to));
        if (res.status !== 200 || res.body.spendCents !== expected(from, to))
          wrong.push(`${from} .. ${to}: ${res.status} ${res.body.spendCents}, want ${expected(from, to)}`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  it('answers 0 for an empty range and a company with no events, and 0 percent without a budget', async () => {
    assert.equal(
      (await summary(s.company.id, s.token, q('2026-10-05T10:45:00Z', '2026-10-05T10:45:00Z'))).body.spendCents,
      0,
      'from = to',
    );
    const empty = await t.newCompany();
    assert.deepEqual((await summary(empty.company.id, empty.token)).body, {
      from: null,
      to: null,
      spendCents: 0,
      budgetCents: 0,
      utilizationPercent: 0,
    });
  });

  it('refuses malformed dates and from after to with 400', async () => {
    for (const query of [
      q('yesterday'),
      q(undefined, '2026-13-01T00:00:00Z'),
      q('2026-02-30T00:00:00Z'),
      q('2026-10-05T10:00:00'),
      q('2026-10-05'),
      q('2026-10-06T00:00:00Z', '2026-10-05T00:00:00Z'),
    ]) {
      const res = await summary(s.company.id, s.token, query);
      assert.equal(res.status, 400, query);
      assert.equal(typeof res.body.error, 'string');
    }
    const reversed = await t.request(
      'GET',
      `/api/companies/${s.company.id}/costs/by-agent${q('2026-10-06T00:00:00Z', '2026-10-05T00:00:00Z')}`,
      { token: s.token },
    );
    assert.equal(reversed.status, 400);
    assert.match(JSON.stringify(reversed.body), /must not be after/);
  });
});

describe('breakdowns', () => {
  const get = (path: string, query = '') =>
    t.request('GET', `/api/companies/${s.company.id}/costs/${path}${query}`, { token: s.token });

  it('by-agent: agentId, agentName and sums, largest spend first', async () => {
    const res = await get('by-agent');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, [
      {
        agentId: s.bob.agent.id,
        agentName: 'Bob',
        costCents: 1192,
        inputTokens: 5000,
        cachedInputTokens: 0,
        outputTokens: 709,
        eventCount: 5,
      },
      {
        agentId: s.ada.agent.id,
        agentName: 'Ada',
        costCents: 851,
        inputTokens: 300,
        cachedInputTokens: 30,
        outputTokens: 15,
        eventCount: 6,
      },
    ]);
    // Before 9 October Ada leads.
    const early = await get('by-agent', q(undefined, '2026-10-09T00:00:00Z'));
    assert.deepEqual(
      early.body.map((r: any) => [r.agentName, r.costCents]),
      [
        ['Ada', 851],
        ['Bob', 168],
      ],
    );
  });

  it('by-agent-model, by-provider, by-biller and by-project over a range with partial hours', async () => {
    const range = q('2026-10-05T10:30:00Z', '2026-10-07T12:20:00Z');
    assert.deepEqual(
      (await get('by-agent-model', range)).body.map((r: any) => [
        r.agentName,
        r.provider,
        r.model,
        r.costCents,
        r.eventCount,
      ]),
      [
        ['Ada', 'acme', 'm1', 338, 4],
        ['Bob', 'acme', 'm2', 136, 2],
        ['Bob', 'zeta', 'z1', 32, 2],
      ],
    );
    assert.deepEqual((await get('by-provider', range)).body, [
      { provider: 'acme', costCents: 474, inputTokens: 200, cachedInputTokens: 20, outputTokens: 10, eventCount: 6 },
      { provider: 'zeta', costCents: 32, inputTokens: 5000, cachedInputTokens: 0, outputTokens: 700, eventCount: 2 },
    ]);
    assert.deepEqual(
      (await get('by-biller', range)).body.map((r: any) => [r.biller, r.costCents]),
      [
        ['acme', 474],
        ['router', 32],
      ],
      'biller defaults to the provider',
    );
    assert.deepEqual(
      (await get('by-project', range)).body.map((r: any) => [r.projectId, r.projectName, r.costCents, r.eventCount]),
      [
        [null, null, 360, 5],
        [s.project.id, 'Apollo', 146, 3],
      ],
    );
  });

  it('by-billing-type: subscription-included usage apart from metered spend, with its tokens at 0 cents', async () => {
    assert.deepEqual(
      (await get('by-billing-type', q('2026-10-05T10:30:00Z', '2026-10-07T12:20:00Z'))).body.map((r: any) => [
        r.billingType,
        r.costCents,
        r.inputTokens,
        r.outputTokens,
        r.eventCount,
      ]),
      [
        ['unknown', 506, 200, 10, 7],
        ['subscription_included', 0, 5000, 700, 1],
      ],
    );
  });

  it('every breakdown and the rolling windows name their sum costCents, as the cost event does, and it adds up to the summary', async () => {
    const total = (await summary(s.company.id, s.token)).body.spendCents;
    for (const path of ['by-agent', 'by-agent-model', 'by-provider', 'by-biller', 'by-billing-type', 'by-project']) {
      const rows = (await get(path)).body;
      assert.ok(rows.length > 0, path);
      for (const row of rows)
        assert.deepEqual(
          [typeof row.costCents, 'spendCents' in row],
          ['number', false],
          `${path}: ${JSON.stringify(row)}`,
        );
      assert.equal(
        rows.reduce((sum: number, r: any) => sum + r.costCents, 0),
        total,
        `${path} adds up to the summary`,
      );
    }
    for (const window of (await get('window-spend')).body)
      assert.deepEqual([typeof window.costCents, 'spendCents' in window], ['number', false]);
  });

  it('orders ties by key and answers [] for an empty range', async () => {
    const { company, token } = await t.newCompany();
    const zed = await newAgent(t, token, company.id, { name: 'Zed' });
    const amy = await newAgent(t, token, company.id, { name: 'Amy' });
    for (const a of [zed, amy]) {
      await t.request('POST', `/api/companies/${company.id}/cost-events`, {
        token,
        body: { agentId: a.agent.id, provider: 'p', model: 'm', costCents: 5, occurredAt: '2026-10-01T00:00:00Z' },
      });
    }
    assert.deepEqual(
      (await t.request('GET', `/api/companies/${company.id}/costs/by-agent`, { token })).body.map(
        (r: any) => r.agentName,
      ),
      ['Amy', 'Zed'],
    );
    assert.deepEqual(
      (
        await t.request(
          'GET',
          `/api/companies/${company.id}/costs/by-provider${q('2020-01-01T00:00:00Z', '2020-01-02T00:00:00Z')}`,
          { token },
        )
      ).body,
      [],
    );
  });

  it("reports a deleted agent's spend under null, from rollups and edge events alike, and keeps the totals", async () => {
    const { company, token } = await t.newCompany();
    const gone = await newAgent(t, token, company.id, { name: 'Gone' });
    const stays = await newAgent(t, token, company.id, { name: 'Stays' });
    const post = (agentId: string, costCents: number, occurredAt: string) =>
      t.request('POST', `/api/companies/${company.id}/cost-events`, {
        token,
        body: { agentId, provider: 'p', model: 'm', costCents, occurredAt },
      });
    await post(gone.agent.id, 10, '2026-10-01T05:10:00Z');
    await post(gone.agent.id, 20, '2026-10-02T05:10:00Z');
    await post(stays.agent.id, 7, '2026-10-02T05:20:00Z');
    assert.equal((await t.request('DELETE', `/api/agents/${gone.agent.id}`, { token })).status, 200);
    // The 1st's event comes from the hour rollups, the 2nd's from the events of the partial last hour.
    const rows = (
      await t.request(
        'GET',
        `/api/companies/${company.id}/costs/by-agent${q('2026-10-01T05:00:00Z', '2026-10-02T05:15:00Z')}`,
        { token },
      )
    ).body;
    assert.deepEqual(
      rows.map((r: any) => [r.agentId, r.agentName, r.costCents, r.eventCount]),
      [[null, null, 30, 2]],
    );
    assert.equal((await summary(company.id, token)).body.spendCents, 37);
  });
});

describe('rollups', () => {
  const read = async () =>
    (
      await t.database.pool.query(
        `select breakdown, grain, bucket_start, agent_id, project_id, provider, biller, model, billing_type, cost_cents, input_tokens, cached_input_tokens, output_tokens, event_count
           from cost_rollups where company_id = $1 order by 1, 2, 3, 4, 5, 6, 7, 8, 9`,
        [s.company.id],
      )
    ).rows;

  it('match, row for row, a rebuild from the events (the shape the benchmark loads)', async () => {
    const incremental = await read();
    const count = (breakdown: string, grain: string) =>
      incremental.filter((r) => r.breakdown === breakdown && r.grain === grain).length;
    // Days: the 5th (Ada m1, Bob z1, Bob m2), the 6th (Ada m1, Bob z1), the 7th (Ada m1, Bob m2), the 9th (Bob m1).
    assert.equal(count('agent_model', 'day'), 8);
    assert.equal(count('agent_model', 'month'), 4, 'Ada m1, Bob z1, Bob m2, Bob m1 in October');
    assert.equal(count('provider', 'month'), 3, 'acme, zeta (subscription), zeta (unknown billing type)');
    assert.equal(count('project', 'month'), 2, 'Apollo and no project');
    await t.database.db.transaction((tx) => rebuildRollups(tx, s.company.id));
    assert.deepEqual(await read(), incremental);
  });

  it("match the migration's backfill of events recorded before the table existed", async () => {
    const migration = await readFile(
      new URL('../src/db/migrations/0010_cost_rollups_finance.sql', import.meta.url),
      'utf8',
    );
    const backfill = migration.split('--> statement-breakpoint').at(-1)!;
    assert.match(backfill, /INSERT INTO "cost_rollups"/);
    const incremental = await read();
    // This file's own database: every company's rollups go, and come back from the events.
    await t.database.pool.query('delete from cost_rollups');
    await t.database.pool.query(backfill);
    assert.deepEqual(await read(), incremental);
  });

  it('count every one of 40 concurrent events of the same hour and key', async () => {
    const { company, token } = await t.newCompany();
    const { agent } = await newAgent(t, token, company.id);
    const results = await Promise.all(
      Array.from({ length: 40 }, () =>
        t.request('POST', `/api/companies/${company.id}/cost-events`, {
          token,
          body: {
            agentId: agent.id,
            provider: 'p',
            model: 'm',
            costCents: 3,
            occurredAt: '2026-10-03T04:05:06Z',
            outputTokens: 2,
          },
        }),
      ),
    );
    assert.deepEqual(new Set(results.map((r) => r.status)), new Set([201]));
    const { rows } = await t.database.pool.query(
      'select breakdown, grain, cost_cents, output_tokens, event_count from cost_rollups where company_id = $1 order by 1, 2',
      [company.id],
    );
    assert.equal(rows.length, 9, 'three breakdowns x three grains');
    for (const row of rows)
      assert.deepEqual(
        [row.cost_cents, row.output_tokens, row.event_count],
        ['120', '80', '40'],
        `${row.breakdown} ${row.grain}`,
      );
    assert.equal(
      (await summary(company.id, token, q('2026-10-03T04:05:06Z', '2026-10-03T04:05:06.001Z'))).body.spendCents,
      120,
    );
  });
});

describe('GET /api/companies/{companyId}/costs/window-spend', () => {
  it('sums the rolling 5h, 24h and 7d windows from now', async () => {
    const { company, token } = await t.newCompany();
    const { agent } = await newAgent(t, token, company.id);
    const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
    const cases: [number, number][] = [
      [1, 60], // 1 minute ago
      [5, 4 * 60 + 30], // 4h30 ago: in 5h
      [50, 5 * 60 + 30], // 5h30 ago: 24h only
      [500, 23 * 60], // 23h ago
      [5000, 3 * 24 * 60], // 3 days ago
      [50000, 7 * 24 * 60 - 30], // 6d23h30 ago
      [500000, 7 * 24 * 60 + 30], // 7d and a half hour ago: out of every window
    ];
    for (const [costCents, minutes] of cases) {
      const res = await t.request('POST', `/api/companies/${company.id}/cost-events`, {
        token,
        body: { agentId: agent.id, provider: 'p', model: 'm', costCents, occurredAt: ago(minutes), inputTokens: 1 },
      });
      assert.equal(res.status, 201);
    }
    const before = Date.now();
    const res = await t.request('GET', `/api/companies/${company.id}/costs/window-spend`, { token });
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.map((w: any) => [w.window, w.hours, w.costCents, w.inputTokens, w.eventCount]),
      [
        ['5h', 5, 6, 2, 2],
        ['24h', 24, 556, 4, 4],
        ['7d', 168, 55556, 6, 6],
      ],
    );
    const from5h = Date.parse(res.body[0].from);
    assert.ok(Math.abs(from5h - (before - 5 * 3600_000)) < 60_000, 'the 5h window starts 5 hours before now');
  });

  it('is all zeros for a company without events', async () => {
    const { company, token } = await t.newCompany();
    const res = await t.request('GET', `/api/companies/${company.id}/costs/window-spend`, { token });
    assert.deepEqual(
      res.body.map((w: any) => [w.window, w.costCents, w.eventCount]),
      [
        ['5h', 0, 0],
        ['24h', 0, 0],
        ['7d', 0, 0],
      ],
    );
  });
});

describe('GET /api/companies/{companyId}/costs/quota-windows', () => {
  it('per provider seen in 7 days: 5h and 7d usage and when the oldest 5h event leaves the window', async () => {
    const { company, token } = await t.newCompany();
    const { agent } = await newAgent(t, token, company.id);
    const now = Date.now();
    const at = (minutes: number) => new Date(now - minutes * 60_000).toISOString();
    const post = (
      provider: string,
      minutes: number,
      costCents: number,
      inputTokens: number,
      billingType = 'subscription_included',
    ) =>
      t.request('POST', `/api/companies/${company.id}/cost-events`, {
        token,
        body: {
          agentId: agent.id,
          provider,
          model: 'm',
          costCents,
          occurredAt: at(minutes),
          inputTokens,
          outputTokens: 1,
          billingType,
        },
      });
    await post('anthropic', 4 * 60, 0, 1000); // in 5h: the oldest there
    await post('anthropic', 30, 0, 500);
    await post('anthropic', 6 * 60, 0, 2000); // 7d only
    await post('openai', 2 * 24 * 60, 9, 40, 'metered_api'); // 7d only
    await post('mistral', 8 * 24 * 60, 5, 10, 'metered_api'); // older than 7 days: not listed
    const res = await t.request('GET', `/api/companies/${company.id}/costs/quota-windows`, { token });
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.map((r: any) => r.provider),
      ['anthropic', 'openai'],
    );
    const [anthropic, openai] = res.body;
    assert.deepEqual(
      [anthropic.fiveHour.inputTokens, anthropic.fiveHour.outputTokens, anthropic.fiveHour.eventCount],
      [1500, 2, 2],
    );
    assert.deepEqual(
      [anthropic.sevenDay.inputTokens, anthropic.sevenDay.eventCount, anthropic.sevenDay.costCents],
      [3500, 3, 0],
    );
    assert.equal(anthropic.fiveHour.oldestEventAt, at(4 * 60));
    assert.equal(anthropic.fiveHour.oldestEventLeavesAt, at(4 * 60 - 5 * 60));
    assert.deepEqual(
      [openai.fiveHour.eventCount, openai.fiveHour.oldestEventAt, openai.fiveHour.oldestEventLeavesAt],
      [0, null, null],
    );
    assert.deepEqual([openai.sevenDay.costCents, openai.sevenDay.inputTokens], [9, 40]);
  });

  it('is board only (agents 403), and the company must exist (404)', async () => {
    const agentRes = await t.request('GET', `/api/companies/${s.company.id}/costs/quota-windows`, {
      token: s.ada.token,
    });
    assert.equal(agentRes.status, 403);
    assert.equal(
      (await t.request('GET', `/api/companies/${MISSING}/costs/quota-windows`, { token: t.ownerToken })).status,
      404,
    );
    const other = await t.newCompany();
    assert.equal(
      (await t.request('GET', `/api/companies/${s.company.id}/costs/quota-windows`, { token: other.token })).status,
      403,
    );
    assert.deepEqual(
      (await t.request('GET', `/api/companies/${other.company.id}/costs/quota-windows`, { token: other.token })).body,
      [],
    );
  });
});

describe('who may read summaries', () => {
  const PATHS = [
    'summary',
    'by-agent',
    'by-agent-model',
    'by-provider',
    'by-biller',
    'by-billing-type',
    'by-project',
    'window-spend',
  ];

  it('the board and any agent of the company: 200; another company: 403; a missing company: 404', async () => {
    const other = await t.newCompany();
    const outsider = await newAgent(t, other.token, other.company.id);
    for (const path of PATHS) {
      const url = `/api/companies/${s.company.id}/costs/${path}`;
      assert.equal((await t.request('GET', url, { token: s.token })).status, 200, `${path} board`);
      assert.equal((await t.request('GET', url, { token: s.bob.token })).status, 200, `${path} agent of the company`);
      assert.equal(
        (await t.request('GET', url, { token: other.token })).status,
        403,
        `${path} board of another company`,
      );
      assert.equal(
        (await t.request('GET', url, { token: outsider.token })).status,
        403,
        `${path} agent of another company`,
      );
      assert.equal(
        (await t.request('GET', `/api/companies/${MISSING}/costs/${path}`, { token: t.ownerToken })).status,
        404,
        `${path} missing company`,
      );
      assert.equal((await t.request('GET', url)).status, 401, `${path} no credential`);
    }
    const agentView = await summary(s.company.id, s.ada.token);
    assert.equal(agentView.body.spendCents, 2043, 'an agent sees the whole company');
  });
});
