import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { activityLog, issueDocumentRevisions, issueDocuments } from '../src/db/schema/index.ts';
import { useTestApp } from './helpers/app.ts';
import { newAgent, newIssue } from './helpers/factories.ts';

const t = await useTestApp();
const db = t.database.db;

const a = await t.newCompany();
const agentA = await newAgent(t, a.token, a.company.id);
const b = await t.newCompany();
const agentB = await newAgent(t, b.token, b.company.id);

const KIB = 1024;
const docUrl = (issueId: string, key: string) => `/api/issues/${issueId}/documents/${encodeURIComponent(key)}`;
const put = (issueId: string, key: string, body: Record<string, unknown>, token = a.token) =>
  t.request('PUT', docUrl(issueId, key), { token, body });

async function actions(issueId: string) {
  const rows = await db
    .select({ action: activityLog.action })
    .from(activityLog)
    .where(eq(activityLog.entityId, issueId));
  return rows.map((r) => r.action).filter((x) => x.startsWith('issue.document_'));
}

describe('PUT /api/issues/{issueId}/documents/{key}', () => {
  it('creates a document without baseRevisionId, then appends revisions with the current one', async () => {
    const issue = await newIssue(t, a.token, a.company.id);
    const created = await put(issue.id, 'plan', {
      title: 'Plan',
      body: '# Plan\n\nStep one.',
      changeSummary: 'first draft',
    });
    assert.equal(created.status, 201);
    assert.equal(created.body.key, 'plan');
    assert.equal(created.body.title, 'Plan');
    assert.equal(created.body.format, 'markdown');
    assert.equal(created.body.body, '# Plan\n\nStep one.');
    assert.equal(created.body.latestRevisionNumber, 1);
    assert.equal(created.body.issueId, issue.id);
    assert.equal(typeof created.body.latestRevisionId, 'string');

    const updated = await put(
      issue.identifier,
      'plan',
      { body: '# Plan\n\nStep two.', baseRevisionId: created.body.latestRevisionId },
      agentA.token,
    );
    assert.equal(updated.status, 200);
    assert.equal(updated.body.id, created.body.id);
    assert.equal(updated.body.latestRevisionNumber, 2);
    assert.notEqual(updated.body.latestRevisionId, created.body.latestRevisionId);
    assert.equal(updated.body.title, 'Plan', 'an omitted title keeps the current one');
    assert.equal(updated.body.body, '# Plan\n\nStep two.');

    const cleared = await put(issue.id, 'plan', {
      title: null,
      body: 'three',
      baseRevisionId: updated.body.latestRevisionId,
    });
    assert.equal(cleared.status, 200);
    assert.equal(cleared.body.title, null);

    const got = await t.request('GET', docUrl(issue.id, 'plan'), { token: agentA.token });
    assert.equal(got.status, 200);
    assert.deepEqual(got.body, cleared.body);
    assert.deepEqual(await actions(issue.id), [
      'issue.document_created',
      'issue.document_updated',
      'issue.document_updated',
    ]);
  });

  it('answers 409 for a create over an existing document and for a stale or unknown base, naming the current revision', async () => {
    const issue = await newIssue(t, a.token, a.company.id);
    const first = await put(issue.id, 'notes', { body: 'v1' });
    const second = await put(issue.id, 'notes', { body: 'v2', baseRevisionId: first.body.latestRevisionId });
    const again = await put(issue.id, 'notes', { body: 'v1 again' });
    assert.equal(again.status, 409);
    assert.equal(again.body.details.currentRevisionId, second.body.latestRevisionId);
    const stale = await put(issue.id, 'notes', {
      body: 'from an old copy',
      baseRevisionId: first.body.latestRevisionId,
    });
    assert.equal(stale.status, 409);
    assert.equal(stale.body.details.currentRevisionId, second.body.latestRevisionId);
    assert.equal(stale.body.details.currentRevisionNumber, 2);
    const unknown = await put(issue.id, 'notes', { body: 'x', baseRevisionId: randomUUID() });
    assert.equal(unknown.status, 409);
    const missing = await put(issue.id, 'never-created', { body: 'x', baseRevisionId: randomUUID() });
    assert.equal(missing.status, 409);
    assert.equal(missing.body.details.currentRevisionId, null);
    const current = await t.request('GET', docUrl(issue.id, 'notes'), { token: a.token });
    assert.equal(current.body.body, 'v2');
    assert.equal(current.body.latestRevisionNumber, 2);
    assert.equal((await t.request('GET', docUrl(issue.id, 'never-created'), { token: a.token })).status, 404);
  });

  it('lets exactly one of many concurrent writers with the same base win', async () => {
    const issue = await newIssue(t, a.token, a.company.id);
    const base = await put(issue.id, 'race', { body: 'base' });
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        put(issue.id, 'race', { body: `writer ${i}`, baseRevisionId: base.body.latestRevisionId }),
      ),
    );
    assert.deepEqual(results.map((r) => r.status).sort(), [200, ...Array(9).fill(409)]);
    const revisions = await t.request('GET', `${docUrl(issue.id, 'race')}/revisions`, { token: a.token });
    assert.deepEqual(
      revisions.body.map((r: any) => r.revisionNumber),
      [2, 1],
    );
    const creators = await Promise.all(Array.from({ length: 5 }, () => put(issue.id, 'race-create', { body: 'mine' })));
    assert.deepEqual(creators.map((r) => r.status).sort(), [201, 409, 409, 409, 409]);
  });

  it('validates key, format and body, with 413 above 512 KiB of UTF-8', async () => {
    const issue = await newIssue(t, a.token, a.company.id);
    for (const key of ['Plan', 'has%20space', 'dot.md', 'x'.repeat(65), 'ümlaut']) {
      assert.equal((await put(issue.id, key, { body: 'x' })).status, 400, key);
    }
    assert.equal((await put(issue.id, 'a_b-1', { body: 'x' })).status, 201);
    assert.equal((await put(issue.id, 'x'.repeat(64), { body: 'x' })).status, 201);
    assert.equal((await put(issue.id, 'html', { body: '<p>x</p>', format: 'html' })).status, 400);
    assert.equal((await put(issue.id, 'fmt', { body: 'x', format: 'markdown' })).status, 201);
    assert.equal((await put(issue.id, 'nobody', {})).status, 400);
    assert.equal((await put(issue.id, 'badbase', { body: 'x', baseRevisionId: 'r1' })).status, 400);
    assert.equal((await put(issue.id, 'exact', { body: 'a'.repeat(512 * KIB) })).status, 201);
    const tooBig = await put(issue.id, 'big', { body: 'a'.repeat(512 * KIB + 1) });
    assert.equal(tooBig.status, 413);
    assert.match(tooBig.body.error, /512 KiB/);
    // Under 512 Ki characters but over 512 KiB of bytes.
    assert.equal((await put(issue.id, 'wide', { body: 'é'.repeat(256 * KIB + 1) })).status, 413);
    assert.equal((await t.request('GET', docUrl(issue.id, 'big'), { token: a.token })).status, 404);
  });

  it('refuses a new document beyond 100 per issue with 422', async () => {
    const issue = await newIssue(t, a.token, a.company.id);
    await db.insert(issueDocuments).values(
      Array.from({ length: 100 }, (_, i) => ({
        companyId: a.company.id,
        issueId: issue.id,
        key: `k${i}`,
        latestRevisionId: randomUUID(),
        latestRevisionNumber: 1,
      })),
    );
    assert.equal((await put(issue.id, 'one-more', { body: 'x' })).status, 422);
  });
});

describe('GET documents and revisions', () => {
  it('lists every document with its latest body, ordered by key', async () => {
    const issue = await newIssue(t, a.token, a.company.id);
    const plan = await put(issue.id, 'plan', { body: 'p1' });
    await put(issue.id, 'plan', { body: 'p2', baseRevisionId: plan.body.latestRevisionId });
    await put(issue.id, 'design', { body: 'd1', title: 'Design' });
    const list = await t.request('GET', `/api/issues/${issue.id}/documents`, { token: agentA.token });
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.map((d: any) => [d.key, d.body, d.latestRevisionNumber]),
      [
        ['design', 'd1', 1],
        ['plan', 'p2', 2],
      ],
    );
    const empty = await newIssue(t, a.token, a.company.id);
    assert.deepEqual((await t.request('GET', `/api/issues/${empty.id}/documents`, { token: a.token })).body, []);
  });

  const revisionsUrl = (issueId: string, key: string, query = '') => `${docUrl(issueId, key)}/revisions${query}`;
  const NEXT = 'x-next-before-revision-number';

  /** Every page from the newest, following the next-page header; each page's status, size and time. */
  async function walk(issueId: string, key: string, limit?: number) {
    const pages: { revisions: any[]; bytes: number; ms: number }[] = [];
    let before: string | undefined;
    for (;;) {
      const query = new URLSearchParams({
        ...(limit !== undefined && { limit: String(limit) }),
        ...(before && { beforeRevisionNumber: before }),
      });
      const started = performance.now();
      const res = await t.request('GET', revisionsUrl(issueId, key, `?${query}`), { token: agentA.token });
      const ms = performance.now() - started;
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.ok(res.body.length > 0, 'a page is never empty');
      pages.push({ revisions: res.body, bytes: res.raw.length, ms });
      const next = res.headers[NEXT];
      if (next === undefined) return pages;
      assert.equal(Number(next), res.body.at(-1).revisionNumber, 'the cursor is the last revision number of the page');
      assert.ok(pages.length <= 200, 'the walk ends');
      before = String(next);
    }
  }

  it('lists revisions newest first with their bodies, limit and beforeRevisionNumber, and a next-page header while older ones remain', async () => {
    const issue = await newIssue(t, a.token, a.company.id);
    let rev = (await put(issue.id, 'log', { body: 'r1', changeSummary: 'one' })).body.latestRevisionId;
    for (let i = 2; i <= 5; i++) {
      const res = await put(
        issue.id,
        'log',
        { body: `r${i}`, changeSummary: `s${i}`, baseRevisionId: rev },
        i % 2 ? a.token : agentA.token,
      );
      rev = res.body.latestRevisionId;
    }
    const all = await t.request('GET', revisionsUrl(issue.id, 'log'), { token: a.token });
    assert.equal(all.status, 200);
    assert.deepEqual(
      all.body.map((r: any) => [r.revisionNumber, r.body]),
      [
        [5, 'r5'],
        [4, 'r4'],
        [3, 'r3'],
        [2, 'r2'],
        [1, 'r1'],
      ],
    );
    assert.equal(all.headers[NEXT], undefined, 'one page holds them all');
    assert.equal(all.body[0].id, rev);
    assert.equal(all.body[0].bodyBytes, 2);
    assert.equal(all.body[4].changeSummary, 'one');
    assert.equal(all.body[1].createdByAgentId, agentA.agent.id);
    assert.equal(all.body[0].createdByAgentId, null);
    assert.equal(typeof all.body[0].createdByUserId, 'string');
    const page = await t.request('GET', revisionsUrl(issue.id, 'log', '?limit=2&beforeRevisionNumber=4'), {
      token: a.token,
    });
    assert.deepEqual(
      page.body.map((r: any) => [r.revisionNumber, r.body]),
      [
        [3, 'r3'],
        [2, 'r2'],
      ],
    );
    assert.equal(page.headers[NEXT], '2');
    const last = await t.request('GET', revisionsUrl(issue.id, 'log', '?limit=2&beforeRevisionNumber=2'), {
      token: a.token,
    });
    assert.deepEqual(
      last.body.map((r: any) => r.revisionNumber),
      [1],
    );
    assert.equal(last.headers[NEXT], undefined);
    const exact = await t.request('GET', revisionsUrl(issue.id, 'log', '?limit=5'), { token: a.token });
    assert.equal(exact.body.length, 5);
    assert.equal(exact.headers[NEXT], undefined, 'a full page that is also the last has no next page');
    assert.deepEqual(
      (await t.request('GET', revisionsUrl(issue.id, 'log', '?beforeRevisionNumber=1'), { token: a.token })).body,
      [],
    );
    assert.deepEqual(
      (await walk(issue.id, 'log', 2)).map((p) => p.revisions.map((r) => r.revisionNumber)),
      [[5, 4], [3, 2], [1]],
    );
    assert.equal((await t.request('GET', revisionsUrl(issue.id, 'nothing'), { token: a.token })).status, 404);
  });

  it('answers 400 for a limit that is 0, over 100 or not an integer, and for a malformed cursor', async () => {
    const issue = await newIssue(t, a.token, a.company.id);
    await put(issue.id, 'log', { body: 'r1' });
    for (const query of [
      'limit=0',
      'limit=101',
      'limit=abc',
      'limit=1.5',
      'limit=-1',
      'limit=',
      'beforeRevisionNumber=abc',
      'beforeRevisionNumber=0',
      'beforeRevisionNumber=1.5',
    ]) {
      const res = await t.request('GET', revisionsUrl(issue.id, 'log', `?${query}`), { token: a.token });
      assert.equal(res.status, 400, query);
      assert.equal(typeof res.body.error, 'string', query);
    }
    assert.equal((await t.request('GET', revisionsUrl(issue.id, 'log', '?limit=100'), { token: a.token })).status, 200);
    assert.equal((await t.request('GET', revisionsUrl(issue.id, 'log', '?limit=1'), { token: a.token })).status, 200);
  });

  it('bounds a page by 768 KiB of revision text, never below one revision, and the walk gives each revision once', async () => {
    const issue = await newIssue(t, a.token, a.company.id);
    const first = await put(issue.id, 'sized', { body: 'x' });
    // Revisions 2-9 of 300 KiB each (two fit in 768 KiB, three do not), then 10 small ones.
    await t.database.pool.query(
      `insert into issue_document_revisions (company_id, document_id, revision_number, title, body, change_summary)
       select $1, $2, n, null, case when n <= 9 then repeat(chr(64 + n), ${300 * KIB}) else 'small ' || n end, null from generate_series(2, 19) as n`,
      [a.company.id, first.body.id],
    );
    const pages = await walk(issue.id, 'sized', 100);
    assert.deepEqual(
      pages.map((p) => p.revisions.map((r) => r.revisionNumber)),
      [
        [19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8],
        [7, 6],
        [5, 4],
        [3, 2, 1],
      ],
      'small ones fill a page with the first two large ones; then two large per page',
    );
    for (const p of pages) assert.ok(p.revisions.reduce((sum, r) => sum + r.bodyBytes, 0) <= 768 * KIB);
    // A title and change summary count too: a long change summary pushes the second revision out.
    await t.database.pool.query(
      `update issue_document_revisions set change_summary = repeat('s', 2000), title = repeat('t', 500) where document_id = $1 and revision_number in (6, 7)`,
      [first.body.id],
    );
    const crowded = await t.request('GET', revisionsUrl(issue.id, 'sized', '?beforeRevisionNumber=8'), {
      token: a.token,
    });
    assert.deepEqual(
      crowded.body.map((r: any) => r.revisionNumber),
      [7, 6],
      '600 KiB + 5 KiB still fits',
    );
    await t.database.pool.query(
      `update issue_document_revisions set body = repeat('y', ${384 * KIB}) where document_id = $1 and revision_number in (6, 7)`,
      [first.body.id],
    );
    const over = await t.request('GET', revisionsUrl(issue.id, 'sized', '?beforeRevisionNumber=8'), { token: a.token });
    assert.deepEqual(
      over.body.map((r: any) => r.revisionNumber),
      [7],
      '768 KiB of bodies plus titles and summaries is over the budget',
    );
    assert.equal(over.headers[NEXT], '7');
  });

  // How long a page takes is a figure of `npm run bench` (bench/documents.ts), printed here, not a rule.
  it('walks 30 revisions of 512 KiB page by page: each page under 1 MB, every revision once with its body intact', async (ctx) => {
    const issue = await newIssue(t, a.token, a.company.id);
    const first = await put(issue.id, 'big', { body: 'é'.repeat(10), title: 'Big', changeSummary: 'first' });
    // 29 more revisions of 512 KiB each, each of its own letter (letters: JSON escaping would double a backslash), written
    // straight to the table (through the API this is 15 MB of requests).
    await t.database.pool.query(
      `insert into issue_document_revisions (company_id, document_id, revision_number, title, body, change_summary)
       select $1, $2, n, 'Big', repeat(chr(65 + n % 26), ${512 * KIB}), 'rev ' || n from generate_series(2, 30) as n`,
      [a.company.id, first.body.id],
    );
    const pages = await walk(issue.id, 'big');
    const revisions = pages.flatMap((p) => p.revisions);
    assert.deepEqual(
      revisions.map((r) => r.revisionNumber),
      Array.from({ length: 30 }, (_, i) => 30 - i),
      'all 30, newest first, each once',
    );
    for (const r of revisions.slice(0, 29)) {
      assert.equal(r.bodyBytes, 512 * KIB);
      assert.equal(
        r.body,
        String.fromCharCode(65 + (r.revisionNumber % 26)).repeat(512 * KIB),
        `revision ${r.revisionNumber} intact`,
      );
    }
    assert.deepEqual(
      [revisions[29].body, revisions[29].bodyBytes, revisions[29].id],
      ['é'.repeat(10), 20, first.body.latestRevisionId],
    );
    const largest = Math.max(...pages.map((p) => p.bytes));
    const slowest = Math.max(...pages.map((p) => p.ms));
    ctx.diagnostic(
      `30 x 512 KiB revisions: ${pages.length} pages, largest ${largest} bytes, slowest ${slowest.toFixed(1)} ms, all pages ${pages.reduce((s, p) => s + p.ms, 0).toFixed(0)} ms`,
    );
    assert.ok(largest < 1_000_000, `the largest page is ${largest} bytes`);
    // The largest limit changes nothing: the text budget still holds one 512 KiB revision per page.
    const full = await t.request('GET', revisionsUrl(issue.id, 'big', '?limit=100'), { token: agentA.token });
    assert.deepEqual([full.body.length, full.headers[NEXT]], [1, '30']);
    assert.ok(full.raw.length < 1_000_000);
  });

  it('returns one revision with its body', async () => {
    const issue = await newIssue(t, a.token, a.company.id);
    const one = await put(issue.id, 'spec', { body: 'first body', title: 'Spec', changeSummary: 'v1' });
    const two = await put(
      issue.identifier,
      'spec',
      { body: 'second body', baseRevisionId: one.body.latestRevisionId },
      agentA.token,
    );
    const res = await t.request('GET', `${docUrl(issue.identifier, 'spec')}/revisions/${one.body.latestRevisionId}`, {
      token: agentA.token,
    });
    assert.equal(res.status, 200);
    assert.deepEqual(
      { ...res.body, createdAt: undefined, createdByUserId: undefined },
      {
        id: one.body.latestRevisionId,
        documentId: one.body.id,
        revisionNumber: 1,
        title: 'Spec',
        changeSummary: 'v1',
        bodyBytes: 10,
        body: 'first body',
        createdByAgentId: null,
        createdAt: undefined,
        createdByUserId: undefined,
      },
    );
    const latest = await t.request('GET', `${docUrl(issue.id, 'spec')}/revisions/${two.body.latestRevisionId}`, {
      token: a.token,
    });
    assert.equal(latest.body.body, 'second body');
    assert.equal(latest.body.createdByAgentId, agentA.agent.id);
    // The list entry and the single revision agree on everything, the body included.
    const list = await t.request('GET', `${docUrl(issue.id, 'spec')}/revisions`, { token: a.token });
    assert.deepEqual(list.body[0], latest.body);
    assert.deepEqual(list.body[1], res.body);
  });

  it('answers 404 for a revision of another document or issue, and 400 for a malformed id', async () => {
    const issue = await newIssue(t, a.token, a.company.id);
    const other = await newIssue(t, a.token, a.company.id);
    const plan = await put(issue.id, 'plan', { body: 'plan' });
    const notes = await put(issue.id, 'notes', { body: 'notes' });
    const elsewhere = await put(other.id, 'plan', { body: 'other plan' });
    const revisionUrl = (issueId: string, key: string, revisionId: string) =>
      `${docUrl(issueId, key)}/revisions/${revisionId}`;
    assert.equal(
      (await t.request('GET', revisionUrl(issue.id, 'plan', plan.body.latestRevisionId), { token: a.token })).status,
      200,
    );
    assert.equal(
      (await t.request('GET', revisionUrl(issue.id, 'plan', notes.body.latestRevisionId), { token: a.token })).status,
      404,
      'another document of the issue',
    );
    assert.equal(
      (await t.request('GET', revisionUrl(issue.id, 'plan', elsewhere.body.latestRevisionId), { token: a.token }))
        .status,
      404,
      'the same key on another issue',
    );
    assert.equal(
      (await t.request('GET', revisionUrl(other.id, 'plan', plan.body.latestRevisionId), { token: a.token })).status,
      404,
      'asked through the other issue',
    );
    assert.equal((await t.request('GET', revisionUrl(issue.id, 'plan', randomUUID()), { token: a.token })).status, 404);
    assert.equal(
      (await t.request('GET', revisionUrl(randomUUID(), 'plan', plan.body.latestRevisionId), { token: a.token }))
        .status,
      404,
      'unknown issue',
    );
    assert.equal((await t.request('GET', revisionUrl(issue.id, 'plan', 'r1'), { token: a.token })).status, 400);
    assert.equal(
      (await t.request('GET', revisionUrl(issue.id, 'Bad Key', plan.body.latestRevisionId), { token: a.token })).status,
      400,
    );
    const [stored] = await db
      .select({ id: issueDocumentRevisions.id })
      .from(issueDocumentRevisions)
      .where(eq(issueDocumentRevisions.id, plan.body.latestRevisionId));
    assert.ok(stored, 'the revision exists; only the path decides');
  });
});

describe('DELETE /api/issues/{issueId}/documents/{key}', () => {
  it('is board-only and removes the document with its revisions', async () => {
    const issue = await newIssue(t, a.token, a.company.id);
    await put(issue.id, 'plan', { body: 'x' });
    assert.equal((await t.request('DELETE', docUrl(issue.id, 'plan'), { token: agentA.token })).status, 403);
    const res = await t.request('DELETE', docUrl(issue.id, 'plan'), { token: a.token });
    assert.equal(res.status, 200);
    assert.equal((await t.request('GET', docUrl(issue.id, 'plan'), { token: a.token })).status, 404);
    assert.equal((await t.request('GET', `${docUrl(issue.id, 'plan')}/revisions`, { token: a.token })).status, 404);
    assert.equal((await t.request('DELETE', docUrl(issue.id, 'plan'), { token: a.token })).status, 404);
    const recreated = await put(issue.id, 'plan', { body: 'fresh' });
    assert.equal(recreated.status, 201);
    assert.equal(recreated.body.latestRevisionNumber, 1);
    assert.deepEqual(await actions(issue.id), [
      'issue.document_created',
      'issue.document_deleted',
      'issue.document_created',
    ]);
    const [deleted] = await db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.entityId, issue.id), eq(activityLog.action, 'issue.document_deleted')));
    assert.equal((deleted!.details as any).key, 'plan');
  });
});

describe('company boundary', () => {
  it('answers 403 on every route to a board user and an agent of another company, 401 without credentials', async () => {
    const issue = await newIssue(t, a.token, a.company.id);
    const doc = await put(issue.id, 'plan', { body: 'secret plan' });
    for (const token of [b.token, agentB.token]) {
      assert.equal((await t.request('GET', `/api/issues/${issue.id}/documents`, { token })).status, 403);
      assert.equal((await t.request('GET', docUrl(issue.id, 'plan'), { token })).status, 403);
      assert.equal((await t.request('GET', `${docUrl(issue.id, 'plan')}/revisions`, { token })).status, 403);
      assert.equal(
        (await t.request('GET', `${docUrl(issue.id, 'plan')}/revisions/${doc.body.latestRevisionId}`, { token }))
          .status,
        403,
      );
      assert.equal(
        (await put(issue.id, 'plan', { body: 'hijack', baseRevisionId: doc.body.latestRevisionId }, token)).status,
        403,
      );
      assert.equal((await put(issue.id, 'other', { body: 'new' }, token)).status, 403);
      assert.equal((await t.request('DELETE', docUrl(issue.id, 'plan'), { token })).status, 403);
    }
    assert.equal((await t.request('GET', `/api/issues/${issue.id}/documents`)).status, 401);
    assert.equal(
      (await t.request('GET', `${docUrl(issue.id, 'plan')}/revisions/${doc.body.latestRevisionId}`)).status,
      401,
    );
    assert.equal((await t.request('GET', `/api/issues/${randomUUID()}/documents`, { token: a.token })).status, 404);
    const unchanged = await t.request('GET', docUrl(issue.id, 'plan'), { token: a.token });
    assert.equal(unchanged.body.body, 'secret plan');
    assert.equal(unchanged.body.latestRevisionNumber, 1);
  });
});
