// Labels through the HTTP API: a company's own vocabulary (name unique whatever its case, a colour of
// the board's palette, at most 200), read by the board and the company's agents, deleted only by the
// board or the CEO agent; issues may carry only their own company's labels, and deleting a label
// strips it from every issue in the same transaction.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { labels } from '../src/db/schema/index.ts';
import { MAX_LABELS_PER_COMPANY } from '../src/modules/labels/schemas.ts';
import { useTestApp } from './helpers/app.ts';
import { activityActions, companyWithAgent, newAgent, newIssue } from './helpers/factories.ts';

const t = await useTestApp();
const MISSING = '00000000-0000-4000-8000-000000000000';

const a = await companyWithAgent(t);
const b = await companyWithAgent(t);
const outsiders = [
  { who: 'board user of another company', token: b.boardToken },
  { who: 'agent of another company', token: b.agent.token },
];

const labelsUrl = (companyId = a.company.id) => `/api/companies/${companyId}/labels`;

async function label(body: Record<string, unknown>, token = a.boardToken, companyId = a.company.id) {
  const res = await t.request('POST', labelsUrl(companyId), { token, body });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

const getIssue = async (id: string) => (await t.request('GET', `/api/issues/${id}`, { token: a.boardToken })).body;

describe('labels', () => {
  it('creates (trimmed, colour default neutral) by the board or an agent, lists them by name for both', async () => {
    const { company, token } = await t.newCompany();
    const agent = await newAgent(t, token, company.id);
    const bug = await label({ name: '  bug ', color: 'danger' }, token, company.id);
    assert.equal(bug.name, 'bug');
    assert.equal(bug.color, 'danger');
    assert.equal(bug.companyId, company.id);
    assert.deepEqual(await activityActions(t, bug.id), ['label.created']);
    const chore = await label({ name: 'Chore' }, agent.token, company.id);
    assert.equal(chore.color, 'neutral');
    await label({ name: 'Area: API', color: 'violet' }, token, company.id);

    for (const reader of [token, agent.token]) {
      const list = await t.request('GET', labelsUrl(company.id), { token: reader });
      assert.equal(list.status, 200);
      assert.deepEqual(
        list.body.map((l: { name: string }) => l.name),
        ['Area: API', 'bug', 'Chore'],
        'by name, whatever the case',
      );
    }
  });

  it('refuses a duplicate name whatever its case (409 naming the field), on create and on rename', async () => {
    const first = await label({ name: 'Duplicate me' });
    const again = await t.request('POST', labelsUrl(), { token: a.boardToken, body: { name: 'DUPLICATE ME' } });
    assert.equal(again.status, 409);
    assert.equal(again.body.details.field, 'name');
    assert.equal(again.body.details.labelId, first.id);
    assert.match(again.body.error, /name/);
    // Another company may use the same name.
    await label({ name: 'Duplicate me' }, b.boardToken, b.company.id);

    const other = await label({ name: 'Other name' });
    const rename = await t.request('PATCH', `/api/labels/${other.id}`, {
      token: a.boardToken,
      body: { name: 'duplicate ME' },
    });
    assert.equal(rename.status, 409);
    assert.equal(rename.body.details.field, 'name');
    // A label may change its own name's case.
    const recased = await t.request('PATCH', `/api/labels/${first.id}`, {
      token: a.boardToken,
      body: { name: 'DUPLICATE ME' },
    });
    assert.equal(recased.status, 200);
    assert.equal(recased.body.name, 'DUPLICATE ME');
  });

  it('validates the name (1 to 40 characters) and the colour (a palette tone, 422 otherwise)', async () => {
    for (const name of ['', '   ', 'x'.repeat(41)])
      assert.equal((await t.request('POST', labelsUrl(), { token: a.boardToken, body: { name } })).status, 400, name);
    assert.equal((await t.request('POST', labelsUrl(), { token: a.boardToken, body: {} })).status, 400);
    assert.equal((await label({ name: 'x'.repeat(40) })).name.length, 40);

    const pink = await t.request('POST', labelsUrl(), { token: a.boardToken, body: { name: 'Pink', color: 'pink' } });
    assert.equal(pink.status, 422);
    assert.equal(pink.body.details.field, 'color');
    assert.ok(pink.body.details.allowed.includes('violet'));
    const hex = await t.request('POST', labelsUrl(), { token: a.boardToken, body: { name: 'Hex', color: '#ff0000' } });
    assert.equal(hex.status, 422);

    const l = await label({ name: 'Recolour me' });
    const bad = await t.request('PATCH', `/api/labels/${l.id}`, { token: a.boardToken, body: { color: 'red' } });
    assert.equal(bad.status, 422);
    const good = await t.request('PATCH', `/api/labels/${l.id}`, { token: a.boardToken, body: { color: 'success' } });
    assert.equal(good.status, 200);
    assert.equal(good.body.color, 'success');
    assert.equal(good.body.name, 'Recolour me');
    assert.deepEqual(await activityActions(t, l.id), ['label.created', 'label.updated']);
  });

  it(`holds at most ${MAX_LABELS_PER_COMPANY} labels a company (422 past it)`, async () => {
    const { company, token } = await t.newCompany();
    await t.database.db
      .insert(labels)
      .values(
        Array.from({ length: MAX_LABELS_PER_COMPANY - 1 }, (_, i) => ({ companyId: company.id, name: `Label ${i}` })),
      );
    await label({ name: 'The last one' }, token, company.id);
    const over = await t.request('POST', labelsUrl(company.id), { token, body: { name: 'One too many' } });
    assert.equal(over.status, 422);
    assert.match(over.body.error, /at most 200 labels/);
    const list = await t.request('GET', labelsUrl(company.id), { token });
    assert.equal(list.body.length, MAX_LABELS_PER_COMPANY, 'the whole vocabulary in one answer');
  });

  it("keeps to the company: another company's caller gets 403, a missing one 404", async () => {
    const l = await label({ name: 'Private' });
    for (const { who, token } of outsiders) {
      assert.equal((await t.request('GET', labelsUrl(), { token })).status, 403, who);
      assert.equal((await t.request('POST', labelsUrl(), { token, body: { name: 'Intruder' } })).status, 403, who);
      const patch = await t.request('PATCH', `/api/labels/${l.id}`, { token, body: { name: 'Mine' } });
      assert.equal(patch.status, 403, who);
      assert.equal((await t.request('DELETE', `/api/labels/${l.id}`, { token })).status, 403, who);
    }
    assert.equal((await t.request('GET', labelsUrl(MISSING), { token: a.boardToken })).status, 404);
    assert.equal(
      (await t.request('POST', labelsUrl(MISSING), { token: a.boardToken, body: { name: 'x' } })).status,
      404,
    );
    const missing = await t.request('PATCH', `/api/labels/${MISSING}`, { token: a.boardToken, body: { name: 'x' } });
    assert.equal(missing.status, 404);
    assert.equal((await t.request('DELETE', `/api/labels/${MISSING}`, { token: a.boardToken })).status, 404);
    const after = (await t.request('GET', labelsUrl(), { token: a.boardToken })).body;
    assert.ok(after.some((x: { id: string; name: string }) => x.id === l.id && x.name === 'Private'));
  });

  it("issues carry only their company's labels: 422 naming the unknown ids on create and on patch", async () => {
    const mine = await label({ name: 'Mine on issues' });
    const theirs = await label({ name: 'Theirs' }, b.boardToken, b.company.id);
    const url = `/api/companies/${a.company.id}/issues`;

    const created = await t.request('POST', url, {
      token: a.agent.token,
      body: { title: 'Labelled', labelIds: [mine.id] },
    });
    assert.equal(created.status, 201);
    assert.deepEqual(created.body.labelIds, [mine.id]);

    for (const unknown of [theirs.id, MISSING]) {
      const res = await t.request('POST', url, {
        token: a.boardToken,
        body: { title: 'Bad label', labelIds: [mine.id, unknown] },
      });
      assert.equal(res.status, 422, JSON.stringify(res.body));
      assert.deepEqual(res.body.details.labelIds, [unknown]);
      assert.ok(res.body.error.includes(unknown));
    }

    const issue = await newIssue(t, a.boardToken, a.company.id);
    const bad = await t.request('PATCH', `/api/issues/${issue.id}`, {
      token: a.boardToken,
      body: { labelIds: [theirs.id] },
    });
    assert.equal(bad.status, 422);
    assert.deepEqual(bad.body.details.labelIds, [theirs.id]);
    assert.deepEqual((await getIssue(issue.id)).labelIds, [], 'nothing stored');

    const good = await t.request('PATCH', `/api/issues/${issue.id}`, {
      token: a.agent.token,
      body: { labelIds: [mine.id] },
    });
    assert.equal(good.status, 200);
    assert.deepEqual(good.body.labelIds, [mine.id]);
    // Removing: the set replaces the issue's labels.
    const cleared = await t.request('PATCH', `/api/issues/${issue.id}`, {
      token: a.boardToken,
      body: { labelIds: [] },
    });
    assert.deepEqual(cleared.body.labelIds, []);
  });

  it('filters the issue list by label', async () => {
    const { company, token } = await t.newCompany();
    const urgent = await label({ name: 'Urgent' }, token, company.id);
    const later = await label({ name: 'Later' }, token, company.id);
    const both = await newIssue(t, token, company.id, { labelIds: [urgent.id, later.id] });
    const onlyUrgent = await newIssue(t, token, company.id, { labelIds: [urgent.id] });
    await newIssue(t, token, company.id, { labelIds: [later.id] });
    await newIssue(t, token, company.id);
    const ids = async (labelId: string) =>
      (await t.request('GET', `/api/companies/${company.id}/issues?labelId=${labelId}`, { token })).body
        .map((issue: { id: string }) => issue.id)
        .sort();
    assert.deepEqual(await ids(urgent.id), [both.id, onlyUrgent.id].sort());
    assert.equal((await ids(later.id)).length, 2);
  });

  it('deletes (board or CEO agent only), stripping the label from every issue that carried it', async () => {
    const { company, token } = await t.newCompany();
    const plain = await newAgent(t, token, company.id);
    const ceo = await newAgent(t, token, company.id, { role: 'ceo' });
    const gone = await label({ name: 'Going' }, token, company.id);
    const kept = await label({ name: 'Staying' }, token, company.id);
    const carriers = [
      await newIssue(t, token, company.id, { labelIds: [gone.id, kept.id] }),
      await newIssue(t, token, company.id, { labelIds: [gone.id] }),
    ];
    const untouched = await newIssue(t, token, company.id, { labelIds: [kept.id] });

    const refused = await t.request('DELETE', `/api/labels/${gone.id}`, { token: plain.token });
    assert.equal(refused.status, 403);
    assert.match(refused.body.error, /CEO/);

    const deleted = await t.request('DELETE', `/api/labels/${gone.id}`, { token: ceo.token });
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    assert.equal(deleted.body.name, 'Going');
    assert.equal(deleted.body.removedFromIssues, 2);
    const read = async (id: string) => (await t.request('GET', `/api/issues/${id}`, { token })).body.labelIds;
    assert.deepEqual(await read(carriers[0].id), [kept.id]);
    assert.deepEqual(await read(carriers[1].id), []);
    assert.deepEqual(await read(untouched.id), [kept.id]);
    const list = await t.request('GET', `/api/companies/${company.id}/issues?labelId=${gone.id}`, { token });
    assert.deepEqual(list.body, []);
    assert.deepEqual(
      (await t.request('GET', labelsUrl(company.id), { token })).body.map((l: { name: string }) => l.name),
      ['Staying'],
    );
    assert.deepEqual(await activityActions(t, gone.id), ['label.created', 'label.deleted']);
    // The deleted label can no longer be put on an issue; the board may delete too.
    const stale = await t.request('PATCH', `/api/issues/${untouched.id}`, {
      token,
      body: { labelIds: [kept.id, gone.id] },
    });
    assert.equal(stale.status, 422);
    assert.equal((await t.request('DELETE', `/api/labels/${kept.id}`, { token })).status, 200);
    assert.deepEqual(await read(untouched.id), []);
  });
});
