// Keyset paging of GET /api/companies/{companyId}/issues: `cursor` and the x-next-cursor header.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestApp } from './helpers/app.ts';
import { newAgent, newIssue } from './helpers/factories.ts';

const t = await useTestApp();
const sql = (text: string, params: unknown[]) => t.database.pool.query(text, params);

const LABEL = '44444444-4444-4444-8444-444444444444';

/**
 * 90 issues in every way a keyset can trip: four priorities, three statuses, 30 sharing one
 * updated_at to the microsecond (a tie only the id breaks), and 12 a microsecond apart (within one
 * millisecond, finer than a JS Date).
 */
async function crowdedCompany() {
  const { company, token } = await t.newCompany();
  await sql(
    `insert into issues (company_id, number, identifier, title, status, priority, label_ids, updated_at)
     select $1, 1000 + g, $2 || '-' || (1000 + g), 'Issue ' || g,
       (array['todo', 'blocked', 'backlog'])[1 + g % 3],
       (array['critical', 'high', 'medium', 'low'])[1 + g % 4],
       case when g % 2 = 0 then $3::jsonb else '[]'::jsonb end,
       case when g <= 30 then timestamptz '2026-01-01 10:00:00.123456+00'
            when g <= 42 then timestamptz '2026-01-01 09:00:00.500000+00' + (g - 30) * interval '1 microsecond'
            else now() - g * interval '1 minute' end
     from generate_series(1, 90) g`,
    [company.id, company.issuePrefix, JSON.stringify([LABEL])],
  );
  return { company, token };
}

/** Every page of a walk with `limit`, checking each page's size and header. */
async function walk(token: string, companyId: string, query: string, limit: number): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 200; pages++) {
    const url = `/api/companies/${companyId}/issues?${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const res = await t.request('GET', url, { token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.ok(res.body.length <= limit, 'a page never exceeds its limit');
    seen.push(...res.body.map((issue: any) => issue.id));
    const next = res.headers['x-next-cursor'];
    if (res.body.length < limit) assert.equal(next, undefined, 'a short page is the last');
    if (!next) return seen;
    cursor = String(next);
  }
  throw new Error('the walk did not end');
}

async function wholeList(token: string, companyId: string, query: string): Promise<string[]> {
  const res = await t.request('GET', `/api/companies/${companyId}/issues?${query}&limit=500`, { token });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.headers['x-next-cursor'], undefined);
  return res.body.map((issue: any) => issue.id);
}

describe('issue list keyset pages', () => {
  it('walks every issue exactly once, in list order, through ties and sub-millisecond updates', async () => {
    const { company, token } = await crowdedCompany();
    const all = await wholeList(token, company.id, '');
    assert.equal(all.length, 90);
    for (const limit of [1, 7, 30]) {
      const walked = await walk(token, company.id, '', limit);
      assert.deepEqual(walked, all, `limit ${limit}: the pages together are the list`);
    }
  });

  it('pages with each kind of filter: one status, several statuses, a label, a participant agent', async () => {
    const { company, token } = await crowdedCompany();
    const { agent } = await newAgent(t, token, company.id);
    for (let i = 0; i < 12; i++)
      await newIssue(t, token, company.id, { assigneeAgentId: agent.id, priority: i % 2 ? 'high' : 'low' });
    for (const query of [
      'status=todo',
      'status=todo,blocked',
      `labelId=${LABEL}`,
      `status=backlog&labelId=${LABEL}`,
      `participantAgentId=${agent.id}`,
    ]) {
      const all = await wholeList(token, company.id, query);
      assert.ok(all.length > 5, `${query} has issues to page`);
      assert.deepEqual(await walk(token, company.id, query, 5), all, query);
    }
  });

  it("filters by goal (the issue's own goalId) and pages through it", async () => {
    const { company, token } = await t.newCompany();
    const goal = (await t.request('POST', `/api/companies/${company.id}/goals`, { token, body: { title: 'Ship v1' } }))
      .body;
    const mine = [];
    for (let i = 0; i < 5; i++)
      mine.push((await newIssue(t, token, company.id, { goalId: goal.id, priority: i % 2 ? 'low' : 'high' })).id);
    await newIssue(t, token, company.id);
    const all = await wholeList(token, company.id, `goalId=${goal.id}`);
    assert.deepEqual([...all].sort(), [...mine].sort());
    assert.deepEqual(await walk(token, company.id, `goalId=${goal.id}`, 2), all);
    assert.equal((await t.request('GET', `/api/companies/${company.id}/issues?goalId=nope`, { token })).status, 400);
  });

  it('a full last page has a cursor whose next page is empty', async () => {
    const { company, token } = await t.newCompany();
    for (let i = 0; i < 4; i++) await newIssue(t, token, company.id);
    const first = await t.request('GET', `/api/companies/${company.id}/issues?limit=4`, { token });
    assert.equal(first.body.length, 4);
    const next = await t.request(
      'GET',
      `/api/companies/${company.id}/issues?limit=4&cursor=${first.headers['x-next-cursor']}`,
      { token },
    );
    assert.equal(next.status, 200);
    assert.deepEqual(next.body, []);
    assert.equal(next.headers['x-next-cursor'], undefined);
  });

  it('refuses a cursor it did not issue, and a cursor with a search, as 400', async () => {
    const { company, token } = await t.newCompany();
    for (let i = 0; i < 3; i++) await newIssue(t, token, company.id, { title: `Searchable ${i}` });
    const url = `/api/companies/${company.id}/issues`;
    const forged = [
      'not-base64-json',
      Buffer.from('[1,2]').toString('base64url'),
      Buffer.from(JSON.stringify([1, '2026-01-01T00:00:00Z', '11111111-1111-4111-8111-111111111111'])).toString(
        'base64url',
      ),
      Buffer.from(JSON.stringify([1, '2026-01-01T00:00:00.000000Z', 'nope'])).toString('base64url'),
      'x'.repeat(300),
    ];
    for (const cursor of forged) {
      const res = await t.request('GET', `${url}?cursor=${encodeURIComponent(cursor)}`, { token });
      assert.equal(res.status, 400, `${cursor}: ${JSON.stringify(res.body)}`);
      assert.match(res.body.error, /cursor|Invalid|invalid/);
    }
    const page = await t.request('GET', `${url}?limit=1`, { token });
    const cursor = String(page.headers['x-next-cursor']);
    const search = await t.request('GET', `${url}?q=searchable&cursor=${cursor}`, { token });
    assert.equal(search.status, 400);
    assert.match(search.body.error, /search/);
    const searchPage = await t.request('GET', `${url}?q=searchable&limit=1`, { token });
    assert.equal(searchPage.headers['x-next-cursor'], undefined, 'a search has no next page');
  });
});
