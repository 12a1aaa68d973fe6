// GET /api/companies/{companyId}/feedback-traces: board only, every filter SPEC names.
// Traces are written by SQL here: SPEC shows no route that creates them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestApp } from './helpers/app.ts';
import { companyWithAgent } from './helpers/factories.ts';

const t = await useTestApp();
const a = await companyWithAgent(t);
const b = await companyWithAgent(t);
const ISSUE = '11111111-1111-4111-8111-111111111111';
const PROJECT = '22222222-2222-4222-8222-222222222222';

async function trace(
  companyId: string,
  fields: {
    targetType?: string;
    vote?: string;
    status?: string;
    issueId?: string | null;
    projectId?: string | null;
    shared?: boolean;
    createdAt?: string;
  },
) {
  const { rows } = await t.database.pool.query(
    `insert into feedback_traces (company_id, target_type, target_id, issue_id, project_id, vote, status, shared_at, payload, created_at)
     values ($1, $2, 'x', $3, $4, $5, $6, case when $7 then now() end, '{"excerpt":"the answer"}', coalesce($8::timestamptz, now())) returning id`,
    [
      companyId,
      fields.targetType ?? 'issue_comment',
      fields.issueId ?? null,
      fields.projectId ?? null,
      fields.vote ?? 'up',
      fields.status ?? 'pending',
      fields.shared ?? false,
      fields.createdAt ?? null,
    ],
  );
  return rows[0].id as string;
}

const list = (query: string, token = a.boardToken, companyId = a.company.id) =>
  t.request('GET', `/api/companies/${companyId}/feedback-traces?${query}`, { token });
const ids = async (query: string) => {
  const res = await list(query);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.map((r: any) => r.id);
};

describe('feedback traces', () => {
  it('filters by every SPEC query parameter, newest first, payload only on request', async () => {
    const old = await trace(a.company.id, { createdAt: '2026-01-01T00:00:00Z', vote: 'down', targetType: 'run' });
    const onIssue = await trace(a.company.id, {
      issueId: ISSUE,
      status: 'shared',
      shared: true,
      createdAt: '2026-06-01T00:00:00Z',
    });
    const onProject = await trace(a.company.id, {
      projectId: PROJECT,
      status: 'withheld',
      createdAt: '2026-09-01T00:00:00Z',
    });
    await trace(b.company.id, { issueId: ISSUE });

    assert.deepEqual(await ids(''), [onProject, onIssue, old]);
    assert.deepEqual(await ids('targetType=run'), [old]);
    assert.deepEqual(await ids('vote=down'), [old]);
    assert.deepEqual(await ids('status=withheld'), [onProject]);
    assert.deepEqual(await ids(`issueId=${ISSUE}`), [onIssue]);
    assert.deepEqual(await ids(`projectId=${PROJECT}`), [onProject]);
    assert.deepEqual(await ids('from=2026-05-01T00:00:00Z&to=2026-07-01T00:00:00Z'), [onIssue]);
    assert.deepEqual(await ids('sharedOnly=true'), [onIssue]);
    assert.deepEqual(await ids('limit=1'), [onProject]);

    const plain = (await list('')).body[0];
    assert.equal('payload' in plain, false);
    assert.deepEqual((await list('includePayload=true')).body[0].payload, { excerpt: 'the answer' });
  });

  it('validates its query', async () => {
    for (const bad of [
      'vote=sideways',
      'status=lost',
      'issueId=nope',
      'from=yesterday',
      'limit=0',
      'limit=501',
      'sharedOnly=maybe',
    ]) {
      assert.equal((await list(bad)).status, 400, bad);
    }
  });

  it('is board only and scoped to the company', async () => {
    assert.equal((await list('', a.agent.token)).status, 403);
    assert.equal((await list('', b.boardToken)).status, 403);
    assert.equal((await list('', b.agent.token)).status, 403);
    assert.equal((await list('', a.boardToken, '00000000-0000-4000-8000-000000000000')).status, 404);
    assert.equal((await t.request('GET', `/api/companies/${a.company.id}/feedback-traces`)).status, 401);
  });
});
