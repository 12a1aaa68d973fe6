import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { and, eq, sql } from 'drizzle-orm';
import { activityLog, agentWakeupRequests, heartbeatRuns, issueComments, issues } from '../src/db/schema/index.ts';
import { createComment } from '../src/modules/comments/service.ts';
import { useTestApp } from './helpers/app.ts';
import { newAgent, newIssue } from './helpers/factories.ts';

const t = await useTestApp();
const db = t.database.db;

// Company A: board, and agents whose names overlap ("Bob", "Bob Smith") or contain a space.
const a = await t.newCompany();
const ada = await newAgent(t, a.token, a.company.id, { name: 'Ada Lovelace' });
const bob = await newAgent(t, a.token, a.company.id, { name: 'Bob' });
const bobSmith = await newAgent(t, a.token, a.company.id, { name: 'Bob Smith' });
const zed = await newAgent(t, a.token, a.company.id, { name: 'Zed' });
assert.equal((await t.request('POST', `/api/agents/${zed.agent.id}/terminate`, { token: a.token })).status, 200);
// Company B: another tenant, with an agent that shares a name with one in A.
const b = await t.newCompany();
const bBob = await newAgent(t, b.token, b.company.id, { name: 'Bob' });

const post = (issueId: string, body: Record<string, unknown>, token = a.token, headers?: Record<string, string>) =>
  t.request('POST', `/api/issues/${issueId}/comments`, { token, body, headers });

async function wakeupsOf(commentId: string) {
  return db.select().from(agentWakeupRequests).where(sql`${agentWakeupRequests.payload}->>'commentId' = ${commentId}`);
}

async function issueRow(id: string) {
  const [row] = await db.select().from(issues).where(eq(issues.id, id));
  return row!;
}

async function activityActions(issueId: string) {
  const rows = await db
    .select({ action: activityLog.action, details: activityLog.details })
    .from(activityLog)
    .where(eq(activityLog.entityId, issueId));
  return rows;
}

describe('POST /api/issues/{issueId}/comments', () => {
  it('stores the comment with its author and run id, bumps updatedAt and records activity', async () => {
    const issue = await newIssue(t, a.token, a.company.id);
    const before = await issueRow(issue.id);
    const res = await post(issue.id, { body: 'Looks good to me' }, a.token, { 'x-service-run-id': 'run-123' });
    assert.equal(res.status, 201);
    assert.equal(res.body.body, 'Looks good to me');
    assert.equal(res.body.issueId, issue.id);
    assert.equal(res.body.companyId, a.company.id);
    assert.equal(res.body.authorAgentId, null);
    assert.equal(typeof res.body.authorUserId, 'string');
    assert.equal(res.body.runId, 'run-123');
    assert.ok((await issueRow(issue.id)).updatedAt > before.updatedAt);
    const added = (await activityActions(issue.id)).filter((r) => r.action === 'issue.comment_added');
    assert.equal(added.length, 1);
    assert.equal((added[0]!.details as any).commentId, res.body.id);

    const byAgent = await post(issue.identifier, { body: 'on it' }, ada.token);
    assert.equal(byAgent.status, 201);
    assert.equal(byAgent.body.authorAgentId, ada.agent.id);
    assert.equal(byAgent.body.authorUserId, null);
  });

  it('rejects a missing, empty, whitespace-only or oversized body and wrong flag types', async () => {
    const issue = await newIssue(t, a.token, a.company.id);
    assert.equal((await post(issue.id, {})).status, 400);
    assert.equal((await post(issue.id, { body: '' })).status, 400);
    assert.equal((await post(issue.id, { body: ' \n\t ' })).status, 400);
    assert.equal((await post(issue.id, { body: 'x'.repeat(100 * 1024 + 1) })).status, 400);
    // The limit is in UTF-8 bytes: 51,201 two-byte characters are over 100 KiB.
    assert.equal((await post(issue.id, { body: 'é'.repeat(51_201) })).status, 400);
    assert.equal((await post(issue.id, { body: 'x'.repeat(100 * 1024) })).status, 201);
    assert.equal((await post(issue.id, { body: 'ok', reopen: 'yes' })).status, 400);
    assert.equal((await post(issue.id, { body: 'ok', interrupt: 1 })).status, 400);
    const stored = await db
      .select({ id: issueComments.id })
      .from(issueComments)
      .where(eq(issueComments.issueId, issue.id));
    assert.equal(stored.length, 1);
  });

  it('answers 404 for a missing issue, 401 without credentials and 403 across companies', async () => {
    const issue = await newIssue(t, a.token, a.company.id);
    assert.equal((await post(randomUUID(), { body: 'hi' })).status, 404);
    assert.equal((await post('ZZZ-999', { body: 'hi' })).status, 404);
    assert.equal((await t.request('POST', `/api/issues/${issue.id}/comments`, { body: { body: 'hi' } })).status, 401);
    assert.equal((await post(issue.id, { body: 'hi' }, b.token)).status, 403);
    assert.equal((await post(issue.id, { body: 'hi' }, bBob.token)).status, 403);
    assert.equal((await t.request('GET', `/api/issues/${issue.id}/comments`, { token: b.token })).status, 403);
    assert.equal((await t.request('GET', `/api/issues/${issue.id}/comments`, { token: bBob.token })).status, 403);
    const own = await post(issue.id, { body: 'mine' });
    assert.equal(
      (await t.request('GET', `/api/issues/${issue.id}/comments/${own.body.id}`, { token: b.token })).status,
      403,
    );
    assert.equal(
      (await t.request('GET', `/api/issues/${issue.id}/comments/${own.body.id}`, { token: bBob.token })).status,
      403,
    );
  });
});

describe('reopen', () => {
  it('moves a done or cancelled issue to todo and clears completedAt', async () => {
    for (const status of ['done', 'cancelled']) {
      const issue = await newIssue(t, a.token, a.company.id);
      await db
        .update(issues)
        .set({ status, completedAt: sql`now()`, cancelledAt: status === 'cancelled' ? sql`now()` : null })
        .where(eq(issues.id, issue.id));
      const res = await post(issue.id, { body: 'not finished yet', reopen: true });
      assert.equal(res.status, 201);
      const row = await issueRow(issue.id);
      assert.equal(row.status, 'todo');
      assert.equal(row.completedAt, null);
      assert.equal(row.cancelledAt, null);
      const actions = (await activityActions(issue.id)).map((r) => r.action);
      assert.ok(actions.includes('issue.updated'), `${status}: reopen recorded as a status change`);
    }
  });

  it('accepts comments on a closed issue without reopening, and has no effect on an open issue', async () => {
    const closed = await newIssue(t, a.token, a.company.id);
    await db.update(issues).set({ status: 'done', completedAt: sql`now()` }).where(eq(issues.id, closed.id));
    assert.equal((await post(closed.id, { body: 'post-mortem note' })).status, 201);
    assert.equal((await issueRow(closed.id)).status, 'done');
    assert.equal((await post(closed.id, { body: 'explicitly not reopening', reopen: false })).status, 201);
    assert.equal((await issueRow(closed.id)).status, 'done');

    const open = await newIssue(t, a.token, a.company.id, { status: 'in_review' });
    assert.equal((await post(open.id, { body: 'reopen means nothing here', reopen: true })).status, 201);
    assert.equal((await issueRow(open.id)).status, 'in_review');
    assert.ok(!(await activityActions(open.id)).some((r) => r.action === 'issue.updated'));
  });

  it('leaves the status alone when the caller (PATCH) gave an explicit status', async () => {
    const issue = await newIssue(t, a.token, a.company.id);
    await db.update(issues).set({ status: 'done', completedAt: sql`now()` }).where(eq(issues.id, issue.id));
    const board = { kind: 'board', userId: randomUUID(), isInstanceOwner: true, via: 'board_key' } as const;
    const row = await issueRow(issue.id);
    const comment = await db.transaction((tx) =>
      createComment({ db: tx, actor: board }, row, { body: 'closing note', reopen: true, statusExplicit: true }),
    );
    assert.equal(comment.issueId, issue.id);
    assert.equal((await issueRow(issue.id)).status, 'done');
  });
});

describe('interrupt', () => {
  async function issueHeldByLiveRun(runStatus: string) {
    const issue = await newIssue(t, a.token, a.company.id);
    const [run] = await db
      .insert(heartbeatRuns)
      .values({ companyId: a.company.id, agentId: bob.agent.id, status: runStatus })
      .returning();
    await db
      .update(issues)
      .set({ status: 'in_progress', assigneeAgentId: bob.agent.id, checkoutRunId: run!.id })
      .where(eq(issues.id, issue.id));
    return { issue, runId: run!.id };
  }

  it('is board-only: an agent gets 403 and no comment is stored', async () => {
    const { issue } = await issueHeldByLiveRun('running');
    const res = await post(issue.id, { body: 'stop', interrupt: true }, ada.token);
    assert.equal(res.status, 403);
    const list = await t.request('GET', `/api/issues/${issue.id}/comments`, { token: a.token });
    assert.deepEqual(list.body, []);
  });

  it('queues an interrupt for the assignee of a live checkout run and records issue.interrupted', async () => {
    const { issue, runId } = await issueHeldByLiveRun('running');
    const res = await post(issue.id, { body: 'please stop and read this', interrupt: true });
    assert.equal(res.status, 201);
    const rows = await wakeupsOf(res.body.id);
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.agentId, bob.agent.id);
    assert.equal(rows[0]!.reason, 'interrupt');
    assert.equal((rows[0]!.payload as any).runId, runId);
    const interrupted = (await activityActions(issue.id)).filter((r) => r.action === 'issue.interrupted');
    assert.equal(interrupted.length, 1);
    assert.equal((interrupted[0]!.details as any).runId, runId);
  });

  it('does nothing beyond the comment when the checkout run is finished', async () => {
    const { issue } = await issueHeldByLiveRun('succeeded');
    const res = await post(issue.id, { body: 'too late', interrupt: true });
    assert.equal(res.status, 201);
    assert.deepEqual(await wakeupsOf(res.body.id), []);
    assert.ok(!(await activityActions(issue.id)).some((r) => r.action === 'issue.interrupted'));
  });
});

describe('mentions', () => {
  const woken = async (commentId: string) => (await wakeupsOf(commentId)).map((w) => w.agentId).sort();

  it('wakes each mentioned agent once, case-insensitively, with the mention payload', async () => {
    const issue = await newIssue(t, a.token, a.company.id);
    const res = await post(issue.id, { body: 'Hey @ada lovelace, please pair with @BOB. Thanks @bob!' });
    assert.equal(res.status, 201);
    const rows = await wakeupsOf(res.body.id);
    assert.deepEqual(rows.map((r) => r.agentId).sort(), [ada.agent.id, bob.agent.id].sort());
    for (const row of rows) {
      assert.equal(row.source, 'automation');
      assert.equal(row.triggerDetail, 'system');
      assert.equal(row.reason, 'mention');
      assert.equal(row.issueId, issue.id);
      assert.equal(row.companyId, a.company.id);
      assert.deepEqual(row.payload, { issueId: issue.id, commentId: res.body.id });
    }
  });

  it('matches whole names only, preferring the longest name at one at-sign', async () => {
    const issue = await newIssue(t, a.token, a.company.id);
    assert.deepEqual(await woken((await post(issue.id, { body: '@Bob Smith can you check?' })).body.id), [
      bobSmith.agent.id,
    ]);
    assert.deepEqual(await woken((await post(issue.id, { body: '@Bobby and @Bob2 are not agents' })).body.id), []);
    assert.deepEqual(await woken((await post(issue.id, { body: 'cc @Bob' })).body.id), [bob.agent.id]);
    assert.deepEqual(
      await woken((await post(issue.id, { body: 'Bob without an at-sign, ada lovelace too' })).body.id),
      [],
    );
  });

  it('never wakes the author, a terminated agent or an agent of another company', async () => {
    const issue = await newIssue(t, a.token, a.company.id);
    const own = await post(issue.id, { body: 'Note to self @Ada Lovelace, and @bob' }, ada.token);
    assert.deepEqual(await woken(own.body.id), [bob.agent.id]);
    const terminated = await post(issue.id, { body: '@Zed are you there?' });
    assert.deepEqual(await woken(terminated.body.id), []);
    const rows = await db.select().from(agentWakeupRequests).where(eq(agentWakeupRequests.agentId, bBob.agent.id));
    assert.deepEqual(rows, []);
  });

  it('records the mentioned agents in the activity entry', async () => {
    const issue = await newIssue(t, a.token, a.company.id);
    const res = await post(issue.id, { body: '@Bob Smith' });
    const [entry] = await db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.entityId, issue.id), eq(activityLog.action, 'issue.comment_added')));
    assert.deepEqual((entry!.details as any).mentionedAgentIds, [bobSmith.agent.id]);
    assert.equal((entry!.details as any).commentId, res.body.id);
  });
});

describe('GET comments', () => {
  const issueP = newIssue(t, a.token, a.company.id);
  const ids: string[] = [];
  const bodies: any[] = [];

  it('lists in ascending order by default, descending on request, limited', async () => {
    const issue = await issueP;
    for (let i = 0; i < 5; i++) {
      const res = await post(issue.id, { body: `comment ${i}` });
      ids.push(res.body.id);
      bodies.push(res.body);
      // Distinct milliseconds, so the `after` timestamp cursor below is unambiguous.
      await sleep(3);
    }
    const asc = await t.request('GET', `/api/issues/${issue.id}/comments`, { token: ada.token });
    assert.equal(asc.status, 200);
    assert.deepEqual(
      asc.body.map((c: any) => c.id),
      ids,
    );
    const desc = await t.request('GET', `/api/issues/${issue.identifier}/comments?order=desc`, { token: a.token });
    assert.deepEqual(
      desc.body.map((c: any) => c.id),
      [...ids].reverse(),
    );
    const limited = await t.request('GET', `/api/issues/${issue.id}/comments?limit=2`, { token: a.token });
    assert.deepEqual(
      limited.body.map((c: any) => c.id),
      ids.slice(0, 2),
    );
    const limitedDesc = await t.request('GET', `/api/issues/${issue.id}/comments?limit=2&order=desc`, {
      token: a.token,
    });
    assert.deepEqual(
      limitedDesc.body.map((c: any) => c.id),
      [ids[4], ids[3]],
    );
  });

  it('pages with afterCommentId and after', async () => {
    const issue = await issueP;
    const afterId = await t.request('GET', `/api/issues/${issue.id}/comments?afterCommentId=${ids[1]}`, {
      token: a.token,
    });
    assert.equal(afterId.status, 200);
    assert.deepEqual(
      afterId.body.map((c: any) => c.id),
      ids.slice(2),
    );
    const afterLast = await t.request('GET', `/api/issues/${issue.id}/comments?afterCommentId=${ids[4]}`, {
      token: a.token,
    });
    assert.deepEqual(afterLast.body, []);
    const afterIdDesc = await t.request(
      'GET',
      `/api/issues/${issue.id}/comments?afterCommentId=${ids[1]}&order=desc&limit=2`,
      { token: a.token },
    );
    assert.deepEqual(
      afterIdDesc.body.map((c: any) => c.id),
      [ids[4], ids[3]],
    );
    const afterTs = await t.request(
      'GET',
      `/api/issues/${issue.id}/comments?after=${encodeURIComponent(bodies[2].createdAt)}`,
      { token: a.token },
    );
    assert.equal(afterTs.status, 200);
    assert.deepEqual(
      afterTs.body.map((c: any) => c.id),
      ids.slice(3),
    );
    const offset = new Date(bodies[0].createdAt).getTime() - 1;
    const withOffset = new Date(offset).toISOString().replace('Z', '+00:00');
    const afterOffset = await t.request(
      'GET',
      `/api/issues/${issue.id}/comments?after=${encodeURIComponent(withOffset)}`,
      { token: a.token },
    );
    assert.deepEqual(
      afterOffset.body.map((c: any) => c.id),
      ids,
    );
  });

  it('after also takes a comment id (the cursor a client holds); an unknown id or one of another issue is 404, never the whole list', async () => {
    const issue = await issueP;
    const byId = await t.request('GET', `/api/issues/${issue.id}/comments?after=${ids[1]}`, { token: a.token });
    assert.equal(byId.status, 200, JSON.stringify(byId.body));
    assert.deepEqual(
      byId.body.map((c: any) => c.id),
      ids.slice(2),
    );
    const byIdDesc = await t.request('GET', `/api/issues/${issue.id}/comments?after=${ids[1]}&order=desc&limit=2`, {
      token: a.token,
    });
    assert.deepEqual(
      byIdDesc.body.map((c: any) => c.id),
      [ids[4], ids[3]],
    );
    const last = await t.request('GET', `/api/issues/${issue.id}/comments?after=${ids[4]}`, { token: a.token });
    assert.deepEqual(last.body, []);
    // Both cursors given: both apply.
    const both = await t.request('GET', `/api/issues/${issue.id}/comments?after=${ids[0]}&afterCommentId=${ids[2]}`, {
      token: a.token,
    });
    assert.deepEqual(
      both.body.map((c: any) => c.id),
      ids.slice(3),
    );

    const other = await newIssue(t, a.token, a.company.id);
    const otherComment = await post(other.id, { body: 'elsewhere too' });
    for (const cursor of [otherComment.body.id, randomUUID()]) {
      const res = await t.request('GET', `/api/issues/${issue.id}/comments?after=${cursor}`, { token: a.token });
      assert.equal(res.status, 404, JSON.stringify(res.body));
      assert.match(res.body.error, /comment/);
    }
    for (const q of ['after=not-a-cursor', `after=${ids[1]!.slice(0, 30)}`]) {
      assert.equal(
        (await t.request('GET', `/api/issues/${issue.id}/comments?${q}`, { token: a.token })).status,
        400,
        q,
      );
    }
  });

  it('orders comments with the same timestamp by id for the afterCommentId cursor', async () => {
    const issue = await newIssue(t, a.token, a.company.id);
    const at = new Date('2030-01-01T00:00:00.000Z');
    const tied = await db
      .insert(issueComments)
      .values(['x', 'y', 'z'].map((body) => ({ companyId: a.company.id, issueId: issue.id, body, createdAt: at })))
      .returning({ id: issueComments.id });
    const sorted = tied.map((r) => r.id).sort();
    const res = await t.request('GET', `/api/issues/${issue.id}/comments?afterCommentId=${sorted[0]}`, {
      token: a.token,
    });
    assert.deepEqual(
      res.body.map((c: any) => c.id),
      sorted.slice(1),
    );
  });

  it('rejects bad query values and an afterCommentId from another issue', async () => {
    const issue = await issueP;
    const other = await newIssue(t, a.token, a.company.id);
    const otherComment = await post(other.id, { body: 'elsewhere' });
    for (const q of [
      'limit=0',
      'limit=-1',
      'limit=abc',
      'limit=1.5',
      'order=sideways',
      'after=yesterday',
      'afterCommentId=nope',
    ]) {
      assert.equal(
        (await t.request('GET', `/api/issues/${issue.id}/comments?${q}`, { token: a.token })).status,
        400,
        q,
      );
    }
    assert.equal(
      (
        await t.request('GET', `/api/issues/${issue.id}/comments?afterCommentId=${otherComment.body.id}`, {
          token: a.token,
        })
      ).status,
      404,
    );
    assert.equal((await t.request('GET', `/api/issues/${randomUUID()}/comments`, { token: a.token })).status, 404);
  });

  it('clamps limit to 500', async () => {
    const issue = await newIssue(t, a.token, a.company.id);
    await db
      .insert(issueComments)
      .values(
        Array.from({ length: 505 }, (_, i) => ({ companyId: a.company.id, issueId: issue.id, body: `bulk ${i}` })),
      );
    const res = await t.request('GET', `/api/issues/${issue.id}/comments?limit=100000`, { token: a.token });
    assert.equal(res.status, 200);
    assert.equal(res.body.length, 500);
    const byDefault = await t.request('GET', `/api/issues/${issue.id}/comments`, { token: a.token });
    assert.equal(byDefault.body.length, 500);
  });

  it('gets one comment only through its own issue', async () => {
    const issue = await issueP;
    const one = await t.request('GET', `/api/issues/${issue.identifier}/comments/${ids[0]}`, { token: ada.token });
    assert.equal(one.status, 200);
    assert.deepEqual(one.body, bodies[0]);
    const other = await newIssue(t, a.token, a.company.id);
    assert.equal(
      (await t.request('GET', `/api/issues/${other.id}/comments/${ids[0]}`, { token: a.token })).status,
      404,
    );
    assert.equal(
      (await t.request('GET', `/api/issues/${issue.id}/comments/${randomUUID()}`, { token: a.token })).status,
      404,
    );
    assert.equal(
      (await t.request('GET', `/api/issues/${issue.id}/comments/not-a-uuid`, { token: a.token })).status,
      400,
    );
  });
});
