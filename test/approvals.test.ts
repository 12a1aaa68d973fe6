import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { activityLog, agentWakeupRequests } from '../src/db/schema/index.ts';
import { useTestApp } from './helpers/app.ts';
import { companyWithAgent, newAgent } from './helpers/factories.ts';

const t = await useTestApp();

// Company A: board, requesting agent, a second agent. Company B: its own board and agent.
const a = await companyWithAgent(t);
const a2 = await newAgent(t, a.boardToken, a.company.id);
const b = await companyWithAgent(t);
const A = a.company.id;
const MISSING = '00000000-0000-4000-8000-000000000000';

async function approval(token: string, body: Record<string, unknown> = {}, companyId = A) {
  const res = await t.request('POST', `/api/companies/${companyId}/approvals`, {
    token,
    body: { type: 'request_board_approval', payload: { title: 'Buy a GPU' }, ...body },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

async function issue(token: string, companyId: string) {
  const res = await t.request('POST', `/api/companies/${companyId}/issues`, { token, body: { title: 'Linked work' } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

/** Every approval, issue link and approval.created entry there is: what a refused create must leave as it was. */
async function approvalRows() {
  const count = async (text: string) => (await t.database.pool.query(text)).rows[0].n as number;
  return {
    approvals: await count('select count(*)::int as n from approvals'),
    links: await count('select count(*)::int as n from approval_issues'),
    created: await count("select count(*)::int as n from activity_log where action = 'approval.created'"),
  };
}

const decide = (id: string, action: string, token: string, body?: unknown) =>
  t.request('POST', `/api/approvals/${id}/${action}`, { token, body });
const wakeupsFor = (agentId: string) =>
  t.database.db.select().from(agentWakeupRequests).where(eq(agentWakeupRequests.agentId, agentId));
const activityFor = (entityId: string, action: string) =>
  t.database.db
    .select()
    .from(activityLog)
    .where(and(eq(activityLog.entityId, entityId), eq(activityLog.action, action)));

describe('approvals: create', () => {
  it('creates a pending approval as the board, with an optional requesting agent of the company', async () => {
    const plain = await approval(a.boardToken);
    assert.equal(plain.status, 'pending');
    assert.equal(plain.requestedByAgentId, null);
    assert.equal(typeof plain.requestedByUserId, 'string');
    assert.equal(plain.decidedAt, null);
    assert.equal((await activityFor(plain.id, 'approval.created')).length, 1);
    const named = await approval(a.boardToken, { requestedByAgentId: a.agent.agent.id });
    assert.equal(named.requestedByAgentId, a.agent.agent.id);
  });

  it('defaults an agent caller to itself as requester and refuses naming another agent', async () => {
    const own = await approval(a.agent.token);
    assert.equal(own.requestedByAgentId, a.agent.agent.id);
    assert.equal(own.requestedByUserId, null);
    const explicit = await approval(a.agent.token, { requestedByAgentId: a.agent.agent.id });
    assert.equal(explicit.requestedByAgentId, a.agent.agent.id);
    const other = await t.request('POST', `/api/companies/${A}/approvals`, {
      token: a.agent.token,
      body: { type: 'request_board_approval', payload: {}, requestedByAgentId: a2.agent.id },
    });
    assert.equal(other.status, 403);
  });

  it('refuses a requesting agent outside the company or missing (422), creating nothing', async () => {
    const before = await approvalRows();
    for (const requestedByAgentId of [b.agent.agent.id, MISSING]) {
      const res = await t.request('POST', `/api/companies/${A}/approvals`, {
        token: a.boardToken,
        body: { type: 'request_board_approval', payload: {}, requestedByAgentId },
      });
      assert.equal(res.status, 422, requestedByAgentId);
    }
    assert.deepEqual(await approvalRows(), before);
  });

  it('validates type, payload and issue ids (400)', async () => {
    const bodies = [
      { payload: {} },
      { type: 'hire_ceo', payload: {} },
      { type: 'request_board_approval' },
      { type: 'request_board_approval', payload: [1, 2] },
      { type: 'request_board_approval', payload: 'text' },
      { type: 'request_board_approval', payload: {}, issueIds: ['not-a-uuid'] },
      { type: 'request_board_approval', payload: { blob: 'x'.repeat(300 * 1024) } },
    ];
    for (const body of bodies)
      assert.equal(
        (await t.request('POST', `/api/companies/${A}/approvals`, { token: a.boardToken, body })).status,
        400,
        JSON.stringify(body).slice(0, 80),
      );
  });

  it('links issues once each; a missing issue is 404 and another company issue 422', async () => {
    const i1 = await issue(a.boardToken, A);
    const i2 = await issue(a.boardToken, A);
    const linked = await approval(a.agent.token, { issueIds: [i1.id, i2.id, i1.id] });
    const issues = await t.request('GET', `/api/approvals/${linked.id}/issues`, { token: a.agent.token });
    assert.equal(issues.status, 200);
    assert.deepEqual(
      issues.body.map((i: any) => i.id),
      [i1.id, i2.id],
    );
    assert.equal(issues.body[0].identifier, i1.identifier);
    assert.equal(issues.body[0].title, 'Linked work');
    const before = await approvalRows();
    const missing = await t.request('POST', `/api/companies/${A}/approvals`, {
      token: a.boardToken,
      body: { type: 'request_board_approval', payload: {}, issueIds: [i1.id, MISSING] },
    });
    assert.equal(missing.status, 404);
    const foreign = await issue(b.boardToken, b.company.id);
    const cross = await t.request('POST', `/api/companies/${A}/approvals`, {
      token: a.boardToken,
      body: { type: 'request_board_approval', payload: {}, issueIds: [i1.id, foreign.id] },
    });
    assert.equal(cross.status, 422);
    // A refused link creates nothing: no approval, no link of the valid issue named beside the bad one, no entry.
    assert.deepEqual(await approvalRows(), before);
  });

  it('refuses a hire_agent approval whose agentId is not a draft agent of the company (422)', async () => {
    for (const agentId of [a2.agent.id, b.agent.agent.id, MISSING]) {
      const res = await t.request('POST', `/api/companies/${A}/approvals`, {
        token: a.boardToken,
        body: { type: 'hire_agent', payload: { agentId } },
      });
      assert.equal(res.status, 422, agentId);
    }
  });

  it('answers 401 without credentials, 403 for another company and 404 for a missing company', async () => {
    const body = { type: 'request_board_approval', payload: {} };
    assert.equal((await t.request('POST', `/api/companies/${A}/approvals`, { body })).status, 401);
    assert.equal((await t.request('POST', `/api/companies/${A}/approvals`, { token: b.boardToken, body })).status, 403);
    assert.equal(
      (await t.request('POST', `/api/companies/${A}/approvals`, { token: b.agent.token, body })).status,
      403,
    );
    assert.equal(
      (await t.request('POST', `/api/companies/${MISSING}/approvals`, { token: a.boardToken, body })).status,
      404,
    );
  });
});

describe('approvals: read', () => {
  it('lists newest first, filters by status, honours limit and rejects an unknown status', async () => {
    const c = await companyWithAgent(t);
    const first = await approval(c.boardToken, {}, c.company.id);
    const second = await approval(c.agent.token, {}, c.company.id);
    const third = await approval(c.boardToken, {}, c.company.id);
    assert.equal((await decide(second.id, 'approve', c.boardToken)).status, 200);
    const all = await t.request('GET', `/api/companies/${c.company.id}/approvals`, { token: c.agent.token });
    assert.equal(all.status, 200);
    assert.deepEqual(
      all.body.map((x: any) => x.id),
      [third.id, second.id, first.id],
    );
    const pending = await t.request('GET', `/api/companies/${c.company.id}/approvals?status=pending`, {
      token: c.boardToken,
    });
    assert.deepEqual(
      pending.body.map((x: any) => x.id),
      [third.id, first.id],
    );
    const approved = await t.request('GET', `/api/companies/${c.company.id}/approvals?status=approved`, {
      token: c.boardToken,
    });
    assert.deepEqual(
      approved.body.map((x: any) => x.id),
      [second.id],
    );
    const limited = await t.request('GET', `/api/companies/${c.company.id}/approvals?limit=1`, { token: c.boardToken });
    assert.deepEqual(
      limited.body.map((x: any) => x.id),
      [third.id],
    );
    assert.equal(
      (await t.request('GET', `/api/companies/${c.company.id}/approvals?status=maybe`, { token: c.boardToken })).status,
      400,
    );
    assert.equal(
      (await t.request('GET', `/api/companies/${c.company.id}/approvals?limit=0`, { token: c.boardToken })).status,
      400,
    );
    assert.equal(
      (await t.request('GET', `/api/companies/${c.company.id}/approvals?limit=501`, { token: c.boardToken })).status,
      400,
    );
  });

  it('redacts sensitive keys, plain env bindings and credentials for every reader, keeping secret references', async () => {
    const secretRef = { type: 'secret_ref', secretId: '11111111-1111-4111-8111-111111111111', version: 'latest' };
    const payload = {
      role: 'engineer',
      apiKey: 'sk-live-123',
      nested: { password: 'hunter2', note: 'kept', header: 'Bearer abc.def' },
      adapterConfig: { model: 'm1', env: { PLAIN: 'value-123', REF: secretRef } },
    };
    const expected = {
      role: 'engineer',
      apiKey: '[redacted]',
      nested: { password: '[redacted]', note: 'kept', header: '[redacted]' },
      adapterConfig: { model: 'm1', env: { PLAIN: '[redacted]', REF: secretRef } },
    };
    const hire = await approval(a.agent.token, { type: 'hire_agent', payload });
    const strategy = await approval(a.boardToken, { type: 'approve_ceo_strategy', payload });
    assert.deepEqual(hire.payload, expected, 'the create response is redacted too');
    for (const token of [a.boardToken, a.agent.token, a2.token]) {
      for (const id of [hire.id, strategy.id]) {
        const one = await t.request('GET', `/api/approvals/${id}`, { token });
        assert.equal(one.status, 200);
        assert.deepEqual(one.body.payload, expected);
      }
      const list = await t.request('GET', `/api/companies/${A}/approvals`, { token });
      assert.deepEqual(list.body.find((x: any) => x.id === hire.id).payload, expected);
    }
    await decide(hire.id, 'request-revision', a.boardToken);
    const resubmitted = await t.request('POST', `/api/approvals/${hire.id}/resubmit`, {
      token: a.agent.token,
      body: { payload: { token: 'x', ok: 1 } },
    });
    assert.deepEqual(resubmitted.body.payload, { token: '[redacted]', ok: 1 });
  });

  it('answers 404 for a missing approval and for another company, 403/404 on company routes', async () => {
    const mine = await approval(a.boardToken);
    for (const token of [b.boardToken, b.agent.token]) {
      assert.equal((await t.request('GET', `/api/approvals/${mine.id}`, { token })).status, 404);
      assert.equal((await t.request('GET', `/api/approvals/${mine.id}/issues`, { token })).status, 404);
      assert.equal((await t.request('GET', `/api/companies/${A}/approvals`, { token })).status, 403);
    }
    assert.equal((await t.request('GET', `/api/approvals/${MISSING}`, { token: a.boardToken })).status, 404);
    assert.equal((await t.request('GET', `/api/approvals/${MISSING}/issues`, { token: a.boardToken })).status, 404);
    assert.equal((await t.request('GET', `/api/approvals/not-a-uuid`, { token: a.boardToken })).status, 400);
    assert.equal((await t.request('GET', `/api/approvals/${mine.id}`)).status, 401);
    assert.equal((await t.request('GET', `/api/companies/${MISSING}/approvals`, { token: a.boardToken })).status, 404);
  });
});

describe('approvals: decisions', () => {
  it('lets only the board decide; agents 403, other companies 404', async () => {
    const target = await approval(a.agent.token);
    for (const action of ['approve', 'reject', 'request-revision']) {
      assert.equal((await decide(target.id, action, a.agent.token)).status, 403, action);
      assert.equal((await decide(target.id, action, a2.token)).status, 403, action);
      assert.equal((await decide(target.id, action, b.agent.token)).status, 403, action);
      assert.equal((await decide(target.id, action, b.boardToken)).status, 404, action);
      assert.equal((await decide(MISSING, action, a.boardToken)).status, 404, action);
    }
    const still = await t.request('GET', `/api/approvals/${target.id}`, { token: a.boardToken });
    assert.equal(still.body.status, 'pending');
  });

  it('approves from pending with a note, records who and when, and refuses a second decision (422)', async () => {
    const target = await approval(a.agent.token);
    const res = await decide(target.id, 'approve', a.boardToken, { decisionNote: '  go ahead ' });
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'approved');
    assert.equal(res.body.decisionNote, 'go ahead');
    assert.equal(typeof res.body.decidedByUserId, 'string');
    assert.ok(!Number.isNaN(Date.parse(res.body.decidedAt)));
    for (const action of ['approve', 'reject', 'request-revision'])
      assert.equal((await decide(target.id, action, a.boardToken)).status, 422, action);
    assert.equal(
      (await t.request('POST', `/api/approvals/${target.id}/resubmit`, { token: a.boardToken })).status,
      422,
    );
    assert.equal((await activityFor(target.id, 'approval.approved')).length, 1);
  });

  it('rejects from pending without a body; a rejected approval is final', async () => {
    const target = await approval(a.agent.token);
    const res = await decide(target.id, 'reject', a.boardToken);
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'rejected');
    assert.equal(res.body.decisionNote, null);
    for (const action of ['approve', 'reject', 'request-revision'])
      assert.equal((await decide(target.id, action, a.boardToken)).status, 422, action);
    assert.equal((await activityFor(target.id, 'approval.rejected')).length, 1);
  });

  it('requests revision only from pending; approve and reject also work from revision_requested', async () => {
    const target = await approval(a.agent.token);
    const revised = await decide(target.id, 'request-revision', a.boardToken, { decisionNote: 'more detail' });
    assert.equal(revised.status, 200);
    assert.equal(revised.body.status, 'revision_requested');
    assert.equal(revised.body.decisionNote, 'more detail');
    assert.equal((await decide(target.id, 'request-revision', a.boardToken)).status, 422);
    assert.equal((await activityFor(target.id, 'approval.revision_requested')).length, 1);
    assert.equal((await decide(target.id, 'approve', a.boardToken)).body.status, 'approved');

    const other = await approval(a.agent.token);
    await decide(other.id, 'request-revision', a.boardToken);
    assert.equal((await decide(other.id, 'reject', a.boardToken)).body.status, 'rejected');
  });

  it('validates the decision body (400)', async () => {
    const target = await approval(a.boardToken);
    assert.equal((await decide(target.id, 'approve', a.boardToken, { decisionNote: 5 })).status, 400);
    assert.equal((await decide(target.id, 'approve', a.boardToken, { decisionNote: 'x'.repeat(10_001) })).status, 400);
  });

  it('applies exactly one of two concurrent decisions; the loser gets 422', async () => {
    for (let round = 0; round < 5; round++) {
      const target = await approval(a.agent.token);
      const [approve, reject] = await Promise.all([
        decide(target.id, 'approve', a.boardToken),
        decide(target.id, 'reject', a.boardToken),
      ]);
      assert.deepEqual([approve.status, reject.status].sort(), [200, 422]);
      const winner = approve.status === 200 ? 'approved' : 'rejected';
      assert.equal(
        (await t.request('GET', `/api/approvals/${target.id}`, { token: a.boardToken })).body.status,
        winner,
      );
      const decisions =
        (await activityFor(target.id, 'approval.approved')).length +
        (await activityFor(target.id, 'approval.rejected')).length;
      assert.equal(decisions, 1);
      const wakes = (await wakeupsFor(a.agent.agent.id)).filter((w) => (w.payload as any)?.approvalId === target.id);
      assert.equal(wakes.length, 1);
      assert.equal((wakes[0]!.payload as any).status, winner);
    }
  });

  it('wakes the requesting agent on approve, reject and request-revision with SERVICE_APPROVAL_ID/STATUS', async () => {
    const c = await companyWithAgent(t);
    const agentId = c.agent.agent.id;
    const steps: [string, string][] = [
      ['request-revision', 'revision_requested'],
      ['approve', 'approved'],
    ];
    const first = await approval(c.agent.token, {}, c.company.id);
    for (const [action] of steps) assert.equal((await decide(first.id, action, c.boardToken)).status, 200);
    const second = await approval(c.agent.token, {}, c.company.id);
    assert.equal((await decide(second.id, 'reject', c.boardToken)).status, 200);
    const wakes = await wakeupsFor(agentId);
    const seen = wakes.map((w) => ({
      id: (w.payload as any).env.SERVICE_APPROVAL_ID,
      status: (w.payload as any).env.SERVICE_APPROVAL_STATUS,
    }));
    assert.deepEqual(
      seen.sort((x, y) => `${x.id}${x.status}`.localeCompare(`${y.id}${y.status}`)),
      [
        { id: first.id, status: 'approved' },
        { id: first.id, status: 'revision_requested' },
        { id: second.id, status: 'rejected' },
      ].sort((x, y) => `${x.id}${x.status}`.localeCompare(`${y.id}${y.status}`)),
    );
    for (const w of wakes) {
      assert.equal(w.source, 'automation');
      assert.equal(w.triggerDetail, 'callback');
      assert.equal(w.reason, 'approval_resolved');
      assert.equal(w.companyId, c.company.id);
      assert.equal((w.payload as any).approvalId, (w.payload as any).env.SERVICE_APPROVAL_ID);
      assert.equal((w.payload as any).status, (w.payload as any).env.SERVICE_APPROVAL_STATUS);
    }
    // A board-requested approval has no agent to wake.
    const boardOwn = await approval(c.boardToken, {}, c.company.id);
    await decide(boardOwn.id, 'approve', c.boardToken);
    assert.equal((await wakeupsFor(agentId)).length, 3);
  });
});

describe('approvals: resubmit', () => {
  it('resubmits from revision_requested as the requesting agent, replacing the payload', async () => {
    const target = await approval(a.agent.token, { payload: { title: 'v1' } });
    assert.equal(
      (await t.request('POST', `/api/approvals/${target.id}/resubmit`, { token: a.agent.token })).status,
      422,
      'pending cannot be resubmitted',
    );
    await decide(target.id, 'request-revision', a.boardToken, { decisionNote: 'say why' });
    const res = await t.request('POST', `/api/approvals/${target.id}/resubmit`, {
      token: a.agent.token,
      body: { payload: { title: 'v2', why: 'speed' } },
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'pending');
    assert.deepEqual(res.body.payload, { title: 'v2', why: 'speed' });
    assert.equal((await activityFor(target.id, 'approval.resubmitted')).length, 1);
    assert.equal(
      (await t.request('POST', `/api/approvals/${target.id}/resubmit`, { token: a.agent.token })).status,
      422,
      'already pending again',
    );
  });

  it('lets the board resubmit and keeps the payload when none is given', async () => {
    const target = await approval(a.agent.token, { payload: { title: 'keep me' } });
    await decide(target.id, 'request-revision', a.boardToken);
    const res = await t.request('POST', `/api/approvals/${target.id}/resubmit`, { token: a.boardToken, body: {} });
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'pending');
    assert.deepEqual(res.body.payload, { title: 'keep me' });
  });

  it('refuses another agent (403), other companies (404) and bad payloads (400)', async () => {
    const target = await approval(a.agent.token);
    await decide(target.id, 'request-revision', a.boardToken);
    assert.equal((await t.request('POST', `/api/approvals/${target.id}/resubmit`, { token: a2.token })).status, 403);
    assert.equal(
      (await t.request('POST', `/api/approvals/${target.id}/resubmit`, { token: b.agent.token })).status,
      404,
    );
    assert.equal(
      (await t.request('POST', `/api/approvals/${target.id}/resubmit`, { token: b.boardToken })).status,
      404,
    );
    assert.equal(
      (
        await t.request('POST', `/api/approvals/${target.id}/resubmit`, {
          token: a.agent.token,
          body: { payload: 'nope' },
        })
      ).status,
      400,
    );
    // A board-requested approval has no requesting agent: no agent may resubmit it.
    const boardOwn = await approval(a.boardToken);
    await decide(boardOwn.id, 'request-revision', a.boardToken);
    assert.equal(
      (await t.request('POST', `/api/approvals/${boardOwn.id}/resubmit`, { token: a.agent.token })).status,
      403,
    );
    assert.equal(
      (await t.request('GET', `/api/approvals/${target.id}`, { token: a.boardToken })).body.status,
      'revision_requested',
    );
  });
});

describe('approvals: comments', () => {
  it('accepts comments from board and agents of the company, listed oldest first with a cursor', async () => {
    const target = await approval(a.agent.token);
    const posted = [];
    for (const [token, text] of [
      [a.boardToken, 'why now?'],
      [a.agent.token, 'because'],
      [a2.token, '+1'],
    ] as const) {
      const res = await t.request('POST', `/api/approvals/${target.id}/comments`, { token, body: { body: text } });
      assert.equal(res.status, 201);
      assert.equal(res.body.body, text);
      posted.push(res.body);
    }
    assert.equal(posted[0].authorUserId !== null && posted[0].authorAgentId === null, true);
    assert.equal(posted[1].authorAgentId, a.agent.agent.id);
    const list = await t.request('GET', `/api/approvals/${target.id}/comments`, { token: a2.token });
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.map((c: any) => c.id),
      posted.map((c) => c.id),
    );
    const page = await t.request('GET', `/api/approvals/${target.id}/comments?limit=1&afterCommentId=${posted[0].id}`, {
      token: a.boardToken,
    });
    assert.deepEqual(
      page.body.map((c: any) => c.id),
      [posted[1].id],
    );
    assert.equal(
      (
        await t.request('GET', `/api/approvals/${target.id}/comments?afterCommentId=${MISSING}`, {
          token: a.boardToken,
        })
      ).status,
      404,
    );
    assert.equal(
      (await t.request('GET', `/api/approvals/${target.id}/comments?limit=501`, { token: a.boardToken })).status,
      400,
    );
    assert.equal((await activityFor(target.id, 'approval.comment_added')).length, 3);
  });

  it('accepts comments on decided approvals and validates the body', async () => {
    const target = await approval(a.agent.token);
    await decide(target.id, 'reject', a.boardToken);
    assert.equal(
      (
        await t.request('POST', `/api/approvals/${target.id}/comments`, {
          token: a.agent.token,
          body: { body: 'understood' },
        })
      ).status,
      201,
    );
    for (const body of [{}, { body: '' }, { body: '   ' }, { body: 7 }]) {
      assert.equal(
        (await t.request('POST', `/api/approvals/${target.id}/comments`, { token: a.agent.token, body })).status,
        400,
        JSON.stringify(body),
      );
    }
  });

  it('hides comments from other companies (404)', async () => {
    const target = await approval(a.agent.token);
    for (const token of [b.boardToken, b.agent.token]) {
      assert.equal((await t.request('GET', `/api/approvals/${target.id}/comments`, { token })).status, 404);
      assert.equal(
        (await t.request('POST', `/api/approvals/${target.id}/comments`, { token, body: { body: 'hi' } })).status,
        404,
      );
    }
    assert.equal(
      (await t.request('POST', `/api/approvals/${MISSING}/comments`, { token: a.boardToken, body: { body: 'hi' } }))
        .status,
      404,
    );
    assert.equal(
      (await t.request('GET', `/api/approvals/${target.id}/comments`, { token: a.boardToken })).body.length,
      0,
    );
  });
});
