// Finance events (SPEC Costs and budgets: finance-events and the finance reads): board only, the
// required fields and their 400s, totals per currency, biller and kind, the list and its limit.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestApp } from './helpers/app.ts';
import { newAgent } from './helpers/factories.ts';

const t = await useTestApp();
const MISSING = '00000000-0000-4000-8000-000000000000';

const valid = (fields: Record<string, unknown> = {}) => ({
  kind: 'platform_fee',
  direction: 'debit',
  amountCents: 1500,
  currency: 'USD',
  occurredAt: '2026-10-05T10:00:00Z',
  ...fields,
});
const record = (companyId: string, token: string, body: unknown) =>
  t.request('POST', `/api/companies/${companyId}/finance-events`, { token, body });
const read = (companyId: string, token: string, path: string, query = '') =>
  t.request('GET', `/api/companies/${companyId}/costs/${path}${query}`, { token });

describe('POST /api/companies/{companyId}/finance-events', () => {
  it('stores the event with its defaults and writes finance.recorded in the activity log', async () => {
    const { company, token } = await t.newCompany();
    const res = await record(
      company.id,
      token,
      valid({ biller: 'openrouter', description: 'October platform fee', metadata: { invoice: 'INV-7' } }),
    );
    assert.equal(res.status, 201);
    const { id, createdAt, ...rest } = res.body;
    assert.match(id, /^[0-9a-f-]{36}$/);
    assert.ok(createdAt);
    assert.deepEqual(rest, {
      companyId: company.id,
      kind: 'platform_fee',
      direction: 'debit',
      amountCents: 1500,
      currency: 'USD',
      estimated: false,
      biller: 'openrouter',
      description: 'October platform fee',
      metadata: { invoice: 'INV-7' },
      occurredAt: '2026-10-05T10:00:00.000Z',
    });
    const minimal = await record(
      company.id,
      token,
      valid({ amountCents: 0, estimated: true, kind: 'a kind of our own' }),
    );
    assert.equal(minimal.status, 201);
    assert.deepEqual(
      [minimal.body.amountCents, minimal.body.estimated, minimal.body.biller, minimal.body.metadata],
      [0, true, null, null],
    );
    const activity = (
      await t.request('GET', `/api/companies/${company.id}/activity?action=finance.recorded`, { token })
    ).body.filter((a: any) => a.action === 'finance.recorded');
    assert.equal(activity.length, 2);
    const entry = activity.find((a: any) => a.entityId === id);
    assert.equal(entry.entityType, 'finance_event');
    assert.deepEqual(entry.details, {
      kind: 'platform_fee',
      direction: 'debit',
      amountCents: 1500,
      currency: 'USD',
      estimated: false,
      biller: 'openrouter',
    });
  });

  it('refuses missing and malformed fields with 400, storing nothing', async () => {
    const { company, token } = await t.newCompany();
    const bad: Record<string, unknown>[] = [
      { kind: undefined },
      { direction: undefined },
      { amountCents: undefined },
      { currency: undefined },
      { occurredAt: undefined },
      { kind: '' },
      { kind: '   ' },
      { direction: 'sideways' },
      { direction: 'DEBIT' },
      { amountCents: -1 },
      { amountCents: 1.5 },
      { amountCents: '100' },
      { amountCents: 100_000_000_001 },
      { currency: 'usd' },
      { currency: 'US' },
      { currency: 'USDT' },
      { currency: 'XYZ' },
      { currency: 'ABC' },
      { occurredAt: 'last tuesday' },
      { occurredAt: '2026-10-05T10:00:00' },
      { estimated: 'yes' },
      { metadata: ['not', 'an', 'object'] },
      { metadata: 'text' },
    ];
    for (const fields of bad) {
      const res = await record(company.id, token, valid(fields));
      assert.equal(res.status, 400, JSON.stringify(fields));
      assert.equal(typeof res.body.error, 'string');
    }
    assert.equal((await record(company.id, token, undefined)).status, 400, 'no body');
    assert.deepEqual((await read(company.id, token, 'finance-events')).body, []);
    // Codes the runtime knows are accepted, whatever their region.
    for (const currency of ['EUR', 'JPY', 'CHF', 'BRL'])
      assert.equal((await record(company.id, token, valid({ currency }))).status, 201, currency);
  });

  it('a retried idempotencyKey returns the first event (200) and records the money once, also when the retries race', async () => {
    const { company, token } = await t.newCompany();
    const first = await record(company.id, token, valid({ amountCents: 50_000, idempotencyKey: 'INV-1042' }));
    assert.equal(first.status, 201);
    const again = await record(company.id, token, valid({ amountCents: 50_000, idempotencyKey: 'INV-1042' }));
    assert.equal(again.status, 200);
    assert.equal(again.body.id, first.body.id);
    const racing = await Promise.all(
      Array.from({ length: 10 }, () =>
        record(company.id, token, valid({ amountCents: 700, idempotencyKey: 'INV-2000' })),
      ),
    );
    assert.deepEqual(racing.map((r) => r.status).sort(), [200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    assert.equal(new Set(racing.map((r) => r.body.id)).size, 1);
    const summary = await read(company.id, token, 'finance-summary');
    assert.deepEqual(
      summary.body.currencies.map((c: any) => [c.currency, c.debitCents, c.eventCount]),
      [['USD', 50_700, 2]],
    );
    // Keys are per company; a key is not a field of the event, and may not be empty.
    const other = await t.newCompany();
    assert.equal((await record(other.company.id, other.token, valid({ idempotencyKey: 'INV-1042' }))).status, 201);
    assert.equal((await record(company.id, token, valid({ idempotencyKey: '' }))).status, 400);
    const activity = await t.request('GET', `/api/companies/${company.id}/activity?entityType=finance_event`, {
      token,
    });
    assert.equal(activity.body.length, 2, 'one finance.recorded entry per event');
  });

  it('is board only: an agent of the company gets 403; another company 403; a missing company 404', async () => {
    const { company, token } = await t.newCompany();
    const agent = await newAgent(t, token, company.id);
    const denied = await record(company.id, agent.token, valid());
    assert.equal(denied.status, 403);
    assert.match(denied.body.error, /board/);
    const other = await t.newCompany();
    assert.equal((await record(company.id, other.token, valid())).status, 403);
    assert.equal((await record(MISSING, t.ownerToken, valid())).status, 404);
    assert.equal((await record(company.id, '', valid())).status, 401);
    assert.deepEqual((await read(company.id, token, 'finance-events')).body, [], 'nothing refused was stored');
  });
});

describe('finance reads', () => {
  const seed = async () => {
    const { company, token } = await t.newCompany();
    const events = [
      valid({ kind: 'credit_purchase', amountCents: 10_000, biller: 'openrouter', occurredAt: '2026-10-01T00:00:00Z' }),
      valid({
        kind: 'credit_refund',
        direction: 'credit',
        amountCents: 2_500,
        biller: 'openrouter',
        occurredAt: '2026-10-02T00:00:00Z',
      }),
      valid({ kind: 'platform_fee', amountCents: 700, occurredAt: '2026-10-03T00:00:00Z' }),
      valid({ kind: 'platform_fee', amountCents: 300, biller: 'vercel', occurredAt: '2026-10-04T00:00:00Z' }),
      valid({
        kind: 'inference_charge',
        amountCents: 4_000,
        currency: 'EUR',
        biller: 'mistral',
        occurredAt: '2026-10-05T00:00:00Z',
      }),
      valid({
        kind: 'manual_adjustment',
        direction: 'credit',
        amountCents: 1_000,
        currency: 'EUR',
        occurredAt: '2026-10-06T00:00:00Z',
      }),
    ];
    const ids: string[] = [];
    for (const body of events) {
      const res = await record(company.id, token, body);
      assert.equal(res.status, 201);
      ids.push(res.body.id);
    }
    return { company, token, ids };
  };

  it('finance-summary: debits, credits and net (debits minus credits) per currency, over a range too', async () => {
    const { company, token } = await seed();
    const all = await read(company.id, token, 'finance-summary');
    assert.equal(all.status, 200);
    assert.deepEqual(all.body, {
      from: null,
      to: null,
      currencies: [
        { currency: 'EUR', debitCents: 4_000, creditCents: 1_000, netCents: 3_000, eventCount: 2 },
        { currency: 'USD', debitCents: 11_000, creditCents: 2_500, netCents: 8_500, eventCount: 4 },
      ],
    });
    const range = await read(
      company.id,
      token,
      'finance-summary',
      '?from=2026-10-02T00:00:00Z&to=2026-10-05T00:00:00Z',
    );
    assert.deepEqual(range.body.currencies, [
      { currency: 'USD', debitCents: 1_000, creditCents: 2_500, netCents: -1_500, eventCount: 3 },
    ]);
  });

  it('finance-by-biller and finance-by-kind: per key and currency, largest first', async () => {
    const { company, token } = await seed();
    const billers = (await read(company.id, token, 'finance-by-biller')).body;
    assert.deepEqual(
      billers.map((r: any) => [r.biller, r.currency, r.debitCents, r.creditCents, r.netCents, r.eventCount]),
      [
        ['openrouter', 'USD', 10_000, 2_500, 7_500, 2],
        ['mistral', 'EUR', 4_000, 0, 4_000, 1],
        [null, 'EUR', 0, 1_000, -1_000, 1],
        [null, 'USD', 700, 0, 700, 1],
        ['vercel', 'USD', 300, 0, 300, 1],
      ],
    );
    const kinds = (await read(company.id, token, 'finance-by-kind')).body;
    assert.deepEqual(
      kinds.map((r: any) => [r.kind, r.currency, r.netCents, r.eventCount]),
      [
        ['credit_purchase', 'USD', 10_000, 1],
        ['inference_charge', 'EUR', 4_000, 1],
        ['credit_refund', 'USD', -2_500, 1],
        ['manual_adjustment', 'EUR', -1_000, 1],
        ['platform_fee', 'USD', 1_000, 2],
      ],
    );
    assert.deepEqual((await read(company.id, token, 'finance-by-kind', '?from=2030-01-01T00:00:00Z')).body, []);
  });

  it('finance-events: newest first, from inclusive and to exclusive, limit 1 to 500', async () => {
    const { company, token, ids } = await seed();
    const all = await read(company.id, token, 'finance-events');
    assert.equal(all.status, 200);
    assert.deepEqual(
      all.body.map((e: any) => e.id),
      [...ids].reverse(),
    );
    assert.deepEqual(
      (await read(company.id, token, 'finance-events', '?limit=2')).body.map((e: any) => e.id),
      [ids[5], ids[4]],
    );
    const range = await read(company.id, token, 'finance-events', '?from=2026-10-02T00:00:00Z&to=2026-10-04T00:00:00Z');
    assert.deepEqual(
      range.body.map((e: any) => e.id),
      [ids[2], ids[1]],
    );
    for (const query of [
      '?limit=0',
      '?limit=501',
      '?limit=-1',
      '?limit=2.5',
      '?limit=ten',
      '?from=soon',
      '?from=2026-10-04T00:00:00Z&to=2026-10-02T00:00:00Z',
    ]) {
      const res = await read(company.id, token, 'finance-events', query);
      assert.equal(res.status, 400, query);
    }
    assert.equal((await read(company.id, token, 'finance-events', '?limit=1')).body.length, 1);
    assert.equal((await read(company.id, token, 'finance-events', '?limit=500')).body.length, 6);
  });

  it('reads are board only too, and the company must exist', async () => {
    const { company, token } = await seed();
    const agent = await newAgent(t, token, company.id);
    const other = await t.newCompany();
    for (const path of ['finance-summary', 'finance-by-biller', 'finance-by-kind', 'finance-events']) {
      assert.equal((await read(company.id, token, path)).status, 200, path);
      assert.equal((await read(company.id, agent.token, path)).status, 403, `${path} agent`);
      assert.equal((await read(company.id, other.token, path)).status, 403, `${path} other company`);
      assert.equal((await read(MISSING, t.ownerToken, path)).status, 404, `${path} missing company`);
    }
  });

  it('keeps finance events out of the cost summary', async () => {
    const { company, token } = await seed();
    assert.equal((await read(company.id, token, 'summary')).body.spendCents, 0);
  });
});
