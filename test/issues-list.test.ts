import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestApp } from './helpers/app.ts';
import { companyWithAgent, newAgent, newIssue } from './helpers/factories.ts';

const t = await useTestApp();

const main = await companyWithAgent(t);
const { company, boardToken } = main;
const other = await companyWithAgent(t);
const url = `/api/companies/${company.id}/issues`;
const list = (query: string, token = boardToken) => t.request('GET', `${url}?${query}`, { token });
const ids = async (query: string, token = boardToken) => {
  const res = await list(query, token);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.map((i: any) => i.id) as string[];
};
const sameSet = (a: string[], b: string[]) => assert.deepEqual([...a].sort(), [...b].sort());
const sql = (text: string, params: unknown[]) => t.database.pool.query(text, params);

describe('issue list filters', () => {
  it('filters by status (one or a comma list) and validates each value', async () => {
    const { company: c, token } = await t.newCompany();
    const todo = await newIssue(t, token, c.id, { status: 'todo' });
    const blocked = await newIssue(t, token, c.id, { status: 'blocked' });
    await newIssue(t, token, c.id, { status: 'done' });
    const l = (q: string) => t.request('GET', `/api/companies/${c.id}/issues?${q}`, { token });
    sameSet(
      (await l('status=todo')).body.map((i: any) => i.id),
      [todo.id],
    );
    sameSet(
      (await l('status=todo,blocked')).body.map((i: any) => i.id),
      [todo.id, blocked.id],
    );
    sameSet(
      (await l('status=todo,%20blocked')).body.map((i: any) => i.id),
      [todo.id, blocked.id],
    );
    assert.equal((await l('status=todo,bogus')).status, 400);
    assert.equal((await l('status=')).status, 400);
    assert.equal((await l('')).body.length, 3);
  });

  it('filters by assignee, participant, project, workspace, parent, label, origin', async () => {
    const worker = await newAgent(t, boardToken, company.id);
    const project = (
      await t.request('POST', `/api/companies/${company.id}/projects`, { token: boardToken, body: { name: 'Filters' } })
    ).body;
    const ws = (
      await t.request('POST', `/api/projects/${project.id}/workspaces`, {
        token: boardToken,
        body: { name: 'w', cwd: '/tmp/f' },
      })
    ).body;
    const label = (
      await t.request('POST', `/api/companies/${company.id}/labels`, { token: boardToken, body: { name: 'Filters' } })
    ).body.id;
    const assigned = await newIssue(t, boardToken, company.id, {
      assigneeAgentId: worker.agent.id,
      projectId: project.id,
      labelIds: [label],
    });
    const created = await newIssue(t, worker.token, company.id, { executionWorkspaceId: ws.id, parentId: assigned.id });
    const commented = await newIssue(t, boardToken, company.id);
    assert.equal(
      (
        await t.request('POST', `/api/issues/${commented.id}/comments`, {
          token: worker.token,
          body: { body: 'I looked at this' },
        })
      ).status,
      201,
    );
    await newIssue(t, boardToken, company.id);

    sameSet(await ids(`assigneeAgentId=${worker.agent.id}`), [assigned.id]);
    sameSet(await ids(`participantAgentId=${worker.agent.id}`), [assigned.id, created.id, commented.id]);
    sameSet(await ids(`projectId=${project.id}`), [assigned.id]);
    sameSet(await ids(`executionWorkspaceId=${ws.id}`), [created.id]);
    sameSet(await ids(`parentId=${assigned.id}`), [created.id]);
    sameSet(await ids(`labelId=${label}`), [assigned.id]);
    sameSet(await ids(`assigneeAgentId=${worker.agent.id}&projectId=${project.id}&labelId=${label}`), [assigned.id]);
    assert.equal((await list('assigneeAgentId=nope')).status, 400);
    assert.equal((await list('labelId=x')).status, 400);

    await sql(`update issues set origin_kind = 'routine_execution', origin_id = 'routine-1' where id = $1`, [
      created.id,
    ]);
    assert.ok(!(await ids('limit=500')).includes(created.id), 'routine executions excluded by default');
    assert.ok((await ids('limit=500&includeRoutineExecutions=true')).includes(created.id));
    sameSet(await ids('originKind=routine_execution'), [created.id]);
    sameSet(await ids('originId=routine-1'), [created.id]);
    assert.ok(!(await ids('limit=500&includeRoutineExecutions=false')).includes(created.id));
    assert.equal((await list('includeRoutineExecutions=maybe')).status, 400);
  });

  it('user filters: assignee, touched, unread, inbox archive; `me` only for board callers', async () => {
    const { company: c, token } = await t.newCompany();
    const me = (await t.request('GET', '/api/cli-auth/me', { token })).body;
    const userId: string = me.userId ?? me.user?.id;
    assert.ok(userId, JSON.stringify(me));
    const colleague = await newAgent(t, token, c.id, { role: 'ceo' });
    const l = async (q: string, tok = token) => {
      const res = await t.request('GET', `/api/companies/${c.id}/issues?${q}`, { token: tok });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.map((i: any) => i.id) as string[];
    };
    const mine = await newIssue(t, token, c.id, { title: 'created by me' });
    const assignedToMe = await newIssue(t, colleague.token, c.id, { assigneeUserId: userId });
    const commentedByMe = await newIssue(t, colleague.token, c.id);
    await t.request('POST', `/api/issues/${commentedByMe.id}/comments`, { token, body: { body: 'my two cents' } });
    const untouched = await newIssue(t, colleague.token, c.id);

    sameSet(await l('assigneeUserId=me'), [assignedToMe.id]);
    sameSet(await l(`assigneeUserId=${userId}`, colleague.token), [assignedToMe.id]);
    sameSet(await l('touchedByUserId=me'), [mine.id, assignedToMe.id, commentedByMe.id]);
    assert.ok(!(await l('touchedByUserId=me')).includes(untouched.id));
    for (const param of ['assigneeUserId', 'touchedByUserId', 'inboxArchivedByUserId', 'unreadForUserId']) {
      assert.equal(
        (await t.request('GET', `/api/companies/${c.id}/issues?${param}=me`, { token: colleague.token })).status,
        403,
        param,
      );
      assert.equal(
        (await t.request('GET', `/api/companies/${c.id}/issues?${param}=someone`, { token })).status,
        400,
        param,
      );
    }

    // Unread: touched issues changed by someone else since the user last touched them.
    sameSet(await l('unreadForUserId=me'), [assignedToMe.id]);
    await t.request('PATCH', `/api/issues/${mine.id}`, { token: colleague.token, body: { priority: 'high' } });
    sameSet(await l('unreadForUserId=me'), [assignedToMe.id, mine.id]);
    await sql(
      `insert into issue_user_states (company_id, issue_id, user_id, last_read_at) values ($1, $2, $3, now())`,
      [c.id, assignedToMe.id, userId],
    );
    sameSet(await l('unreadForUserId=me'), [mine.id]);

    // Inbox archive hides an issue until it changes again.
    await sql(`update issue_user_states set archived_at = now() where issue_id = $1 and user_id = $2`, [
      mine.id,
      userId,
    ]);
    const inbox = await l('touchedByUserId=me&inboxArchivedByUserId=me');
    assert.ok(!inbox.includes(mine.id) && inbox.includes(assignedToMe.id));
    await t.request('PATCH', `/api/issues/${mine.id}`, { token: colleague.token, body: { priority: 'low' } });
    assert.ok((await l('touchedByUserId=me&inboxArchivedByUserId=me')).includes(mine.id), 'resurfaces after a change');
  });

  it('orders by priority, then most recently updated; limit defaults to 50 and is clamped to 500', async () => {
    const { company: c, token } = await t.newCompany();
    const low = await newIssue(t, token, c.id, { priority: 'low' });
    const high = await newIssue(t, token, c.id, { priority: 'high' });
    const critical = await newIssue(t, token, c.id, { priority: 'critical' });
    const medium1 = await newIssue(t, token, c.id);
    const medium2 = await newIssue(t, token, c.id);
    await t.request('PATCH', `/api/issues/${medium1.id}`, { token, body: { title: 'touched last' } });
    const l = (q: string) => t.request('GET', `/api/companies/${c.id}/issues?${q}`, { token });
    assert.deepEqual(
      (await l('')).body.map((i: any) => i.id),
      [critical.id, high.id, medium1.id, medium2.id, low.id],
    );
    assert.deepEqual(
      (await l('limit=2')).body.map((i: any) => i.id),
      [critical.id, high.id],
    );
    for (const bad of ['limit=0', 'limit=-1', 'limit=1.5', 'limit=abc']) assert.equal((await l(bad)).status, 400, bad);
    await sql(
      `insert into issues (company_id, number, identifier, title) select $1, 1000 + g, $2 || '-' || (1000 + g), 'bulk ' || g from generate_series(1, 520) g`,
      [c.id, c.issuePrefix],
    );
    assert.equal((await l('')).body.length, 50);
    assert.equal((await l('limit=10000')).body.length, 500);
  });

  it('checks the company boundary', async () => {
    assert.equal((await list('', other.boardToken)).status, 403);
    assert.equal((await list('', other.agent.token)).status, 403);
    assert.equal(
      (await t.request('GET', '/api/companies/00000000-0000-4000-8000-000000000000/issues', { token: boardToken }))
        .status,
      404,
    );
    assert.equal((await list('', main.agent.token)).status, 200);
  });
});

describe('issue search (q)', () => {
  it('finds by title word, identifier, description and comment text, best match first', async () => {
    const { company: c, token } = await t.newCompany();
    const agent = await newAgent(t, token, c.id);
    const s = async (q: string, extra = '') => {
      const res = await t.request('GET', `/api/companies/${c.id}/issues?q=${encodeURIComponent(q)}${extra}`, { token });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.map((i: any) => i.id) as string[];
    };
    const byTitle = await newIssue(t, token, c.id, { title: 'Migrate billing database', priority: 'low' });
    const byDescription = await newIssue(t, token, c.id, {
      title: 'Quarterly cleanup',
      description: 'Also migrating the billing exports',
    });
    const byComment = await newIssue(t, token, c.id, { title: 'Unrelated chores', priority: 'critical' });
    await t.request('POST', `/api/issues/${byComment.id}/comments`, {
      token: agent.token,
      body: { body: 'Blocked on the billing migration window' },
    });
    const noise = await newIssue(t, token, c.id, { title: 'Paint the office' });
    await newIssue(t, other.boardToken, other.company.id, { title: 'Migrate billing database elsewhere' });

    sameSet(await s('Quarterly'), [byDescription.id]);
    sameSet(await s('exports'), [byDescription.id]);
    sameSet(await s('window'), [byComment.id]);
    sameSet(await s(noise.identifier), [noise.id]);
    assert.deepEqual((await s(noise.identifier.toLowerCase()))[0], noise.id);
    // Stemmed: "migrate", "migrating", "migration" all match; the title match ranks first, the
    // comment-only match last, whatever their priorities.
    assert.deepEqual(await s('billing migrate'), [byTitle.id, byDescription.id, byComment.id]);
    assert.deepEqual(await s('"paint the office" OR nothingatall'), [noise.id]);
    assert.deepEqual(await s('zebra'), []);
    // Filters still apply, and hidden issues stay out.
    sameSet(await s('billing', '&status=backlog'), [byTitle.id, byDescription.id, byComment.id]);
    assert.deepEqual(await s('billing', '&status=todo'), []);
    await t.request('PATCH', `/api/issues/${byTitle.id}`, { token, body: { hiddenAt: new Date().toISOString() } });
    assert.ok(!(await s('billing')).includes(byTitle.id));
    assert.equal((await t.request('GET', `/api/companies/${c.id}/issues?q=${'x'.repeat(501)}`, { token })).status, 400);
    assert.equal(
      (await t.request('GET', `/api/companies/${c.id}/issues?q=`, { token })).body.length,
      3,
      'empty q: plain list (the hidden one left out)',
    );
  });

  it('applies filters before the search candidate bound: a match among hundreds of others is found', async () => {
    const { company: c, token } = await t.newCompany();
    const agent = await newAgent(t, token, c.id);
    // More matches of the word than the ranking looks at (200 per source), none assigned...
    await sql(
      `insert into issues (company_id, number, identifier, title, status, priority)
       select $1, 1000 + g, $2 || '-' || (1000 + g), 'Invoice run ' || g, 'todo', 'critical' from generate_series(1, 400) g`,
      [c.id, c.issuePrefix],
    );
    // ...and one low-priority match that is assigned: the filtered search must still find it.
    const target = await newIssue(t, token, c.id, {
      title: 'Invoice corrections',
      priority: 'low',
      assigneeAgentId: agent.agent.id,
    });
    const res = await t.request('GET', `/api/companies/${c.id}/issues?q=invoice&assigneeAgentId=${agent.agent.id}`, {
      token,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(
      res.body.map((i: any) => i.id),
      [target.id],
    );
  });

  it("takes a common word's candidates in list order: the highest-priority, newest matches, not the oldest rows", async () => {
    const { company: c, token } = await t.newCompany();
    // 400 older low-priority matches, written first (they come first in table order)...
    await sql(
      `insert into issues (company_id, number, identifier, title, status, priority, created_at, updated_at)
       select $1, 1000 + g, $2 || '-' || (1000 + g), 'Invoice run ' || (1000 + g), 'todo', 'low', now() - interval '1 day', now() - interval '1 day'
       from generate_series(1, 400) g`,
      [c.id, c.issuePrefix],
    );
    // ...then a critical one that ranks the same on the word: it leads the results.
    const critical = await newIssue(t, token, c.id, { title: 'Invoice run 2000', priority: 'critical' });
    const res = await t.request('GET', `/api/companies/${c.id}/issues?q=invoice&limit=10`, { token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.length, 10);
    assert.equal(res.body[0].id, critical.id);
    // The exact identifier still wins outright when the word is common.
    const named = await t.request('GET', `/api/companies/${c.id}/issues?q=${c.issuePrefix}-1399&limit=10`, { token });
    assert.equal(named.body[0].identifier, `${c.issuePrefix}-1399`);
  });

  it('reads the text index when the first issues in list order hold too few matches', async () => {
    const { company: c, token } = await t.newCompany();
    // 2,500 critical issues lead the list order; 30 of the first 200 mention the word (enough for
    // the walk), then none: the walk finds 30, and the rest must come from the text index.
    await sql(
      `insert into issues (company_id, number, identifier, title, status, priority, updated_at)
       select $1, 1000 + g, $2 || '-' || (1000 + g), case when g <= 30 then 'Ledger sync ' else 'Routine chore ' end || g, 'todo', 'critical', now() - g * interval '1 second'
       from generate_series(1, 2500) g`,
      [c.id, c.issuePrefix],
    );
    const late = await newIssue(t, token, c.id, { title: 'Ledger cleanup', priority: 'low' });
    const res = await t.request('GET', `/api/companies/${c.id}/issues?q=ledger&limit=50`, { token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.length, 31);
    assert.ok(
      res.body.some((i: any) => i.id === late.id),
      'the low-priority match beyond the walk is found',
    );
  });
});
