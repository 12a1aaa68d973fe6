import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { activityLog, agentWakeupRequests, budgetPolicies } from '../src/db/schema/index.ts';
import { useTestApp } from './helpers/app.ts';
import { newAgent } from './helpers/factories.ts';

const t = await useTestApp();

// A company that requires board approval for new agents, with an agent allowed to hire.
const { company, token: board } = await t.newCompany();
const C = company.id;
assert.equal(
  (await t.request('PATCH', `/api/companies/${C}`, { token: board, body: { requireBoardApprovalForNewAgents: true } }))
    .status,
  200,
);
const hirer = await newAgent(t, board, C, { permissions: { canCreateAgents: true } });
const other = await t.newCompany();
const otherAgent = await newAgent(t, other.token, other.company.id);

async function hire(token: string, fields: Record<string, unknown> = {}) {
  const res = await t.request('POST', `/api/companies/${C}/agent-hires`, {
    token,
    body: {
      name: `Hire ${Math.random().toString(36).slice(2, 8)}`,
      role: 'engineer',
      adapterType: 'process',
      ...fields,
    },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  assert.equal(res.body.agent.status, 'pending_approval');
  assert.equal(res.body.approval.type, 'hire_agent');
  assert.equal(res.body.approval.status, 'pending');
  assert.equal(res.body.approval.payload.agentId, res.body.agent.id);
  return { agent: res.body.agent, approval: res.body.approval };
}

const agentStatus = async (id: string) => (await t.request('GET', `/api/agents/${id}`, { token: board })).body;
const policiesOf = (agentId: string) =>
  t.database.db
    .select()
    .from(budgetPolicies)
    .where(
      and(
        eq(budgetPolicies.scopeType, 'agent'),
        eq(budgetPolicies.scopeId, agentId),
        eq(budgetPolicies.isActive, true),
      ),
    );
const wakesFor = async (agentId: string, approvalId: string) =>
  (await t.database.db.select().from(agentWakeupRequests).where(eq(agentWakeupRequests.agentId, agentId))).filter(
    (w) => (w.payload as any)?.approvalId === approvalId,
  );
const activity = (entityId: string, action: string) =>
  t.database.db
    .select()
    .from(activityLog)
    .where(and(eq(activityLog.entityId, entityId), eq(activityLog.action, action)));

describe('hire_agent approvals', () => {
  it('approve activates the draft, creates its budget policy and wakes the hiring agent', async () => {
    const { agent, approval } = await hire(hirer.token, {
      budgetMonthlyCents: 4200,
      adapterConfig: { env: { GH_PAT: 'ghp_plain' } },
    });
    assert.equal(approval.requestedByAgentId, hirer.agent.id);
    assert.equal(approval.payload.adapterConfig.env.GH_PAT, '[redacted]');
    // The proposed budget is the draft's policy from the start: a pending agent cannot run, so it binds nothing until approval.
    assert.equal((await policiesOf(agent.id)).length, 1, 'the budget policy is written with the draft');
    // Other companies cannot see or decide it.
    assert.equal((await t.request('GET', `/api/approvals/${approval.id}`, { token: other.token })).status, 404);
    assert.equal(
      (await t.request('POST', `/api/approvals/${approval.id}/approve`, { token: other.token })).status,
      404,
    );
    assert.equal(
      (await t.request('POST', `/api/approvals/${approval.id}/approve`, { token: otherAgent.token })).status,
      403,
    );
    assert.equal(
      (await t.request('POST', `/api/approvals/${approval.id}/approve`, { token: hirer.token })).status,
      403,
    );

    const res = await t.request('POST', `/api/approvals/${approval.id}/approve`, {
      token: board,
      body: { decisionNote: 'welcome' },
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'approved');
    assert.equal((await agentStatus(agent.id)).status, 'idle');
    const policies = await policiesOf(agent.id);
    assert.equal(policies.length, 1);
    assert.equal(policies[0]!.amount, 4200);
    assert.equal(policies[0]!.windowKind, 'calendar_month_utc');
    assert.equal(policies[0]!.companyId, C);
    const wakes = await wakesFor(hirer.agent.id, approval.id);
    assert.equal(wakes.length, 1);
    assert.deepEqual((wakes[0]!.payload as any).env, {
      SERVICE_APPROVAL_ID: approval.id,
      SERVICE_APPROVAL_STATUS: 'approved',
    });
    assert.equal(wakes[0]!.source, 'automation');
    assert.equal(wakes[0]!.reason, 'approval_resolved');
    assert.equal((await activity(agent.id, 'agent.activated')).length, 1);
    assert.equal((await activity(approval.id, 'approval.approved')).length, 1);
    // The decision is final and the agent is not touched again.
    assert.equal((await t.request('POST', `/api/approvals/${approval.id}/reject`, { token: board })).status, 422);
    assert.equal((await agentStatus(agent.id)).status, 'idle');
  });

  it('reject terminates the draft and wakes the hiring agent with the rejected status', async () => {
    const { agent, approval } = await hire(hirer.token, { budgetMonthlyCents: 1000 });
    const res = await t.request('POST', `/api/approvals/${approval.id}/reject`, {
      token: board,
      body: { decisionNote: 'not now' },
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'rejected');
    const after = await agentStatus(agent.id);
    assert.equal(after.status, 'terminated');
    assert.ok(after.terminatedAt);
    assert.equal((await policiesOf(agent.id)).length, 0);
    const wakes = await wakesFor(hirer.agent.id, approval.id);
    assert.deepEqual(
      wakes.map((w) => (w.payload as any).env.SERVICE_APPROVAL_STATUS),
      ['rejected'],
    );
    assert.equal((await activity(agent.id, 'agent.terminated')).length, 1);
  });

  it('a board hire without budget activates without a policy and wakes nobody', async () => {
    const { agent, approval } = await hire(board);
    assert.equal(approval.requestedByAgentId, null);
    assert.equal((await t.request('POST', `/api/approvals/${approval.id}/approve`, { token: board })).status, 200);
    assert.equal((await agentStatus(agent.id)).status, 'idle');
    assert.equal((await policiesOf(agent.id)).length, 0);
    const wakes = await t.database.db.select().from(agentWakeupRequests).where(eq(agentWakeupRequests.companyId, C));
    assert.equal(wakes.filter((w) => (w.payload as any)?.approvalId === approval.id).length, 0);
  });

  it('revision keeps the draft pending and a resubmitted payload cannot retarget another agent', async () => {
    const { agent, approval } = await hire(hirer.token);
    const decoy = await hire(hirer.token);
    assert.equal(
      (
        await t.request('POST', `/api/approvals/${approval.id}/request-revision`, {
          token: board,
          body: { decisionNote: 'cheaper model' },
        })
      ).status,
      200,
    );
    assert.equal((await agentStatus(agent.id)).status, 'pending_approval');
    assert.deepEqual(
      (await wakesFor(hirer.agent.id, approval.id)).map((w) => (w.payload as any).status),
      ['revision_requested'],
    );
    const resubmitted = await t.request('POST', `/api/approvals/${approval.id}/resubmit`, {
      token: hirer.token,
      body: { payload: { agentId: decoy.agent.id, model: 'small' } },
    });
    assert.equal(resubmitted.status, 200);
    assert.deepEqual(resubmitted.body.payload, { agentId: agent.id, model: 'small' });
    assert.equal((await t.request('POST', `/api/approvals/${approval.id}/approve`, { token: board })).status, 200);
    assert.equal((await agentStatus(agent.id)).status, 'idle');
    assert.equal((await agentStatus(decoy.agent.id)).status, 'pending_approval');
  });

  it('only a draft still pending_approval changes: a terminated draft is not revived by approval', async () => {
    const { agent, approval } = await hire(hirer.token, { budgetMonthlyCents: 500 });
    assert.equal((await t.request('POST', `/api/agents/${agent.id}/terminate`, { token: board })).status, 200);
    assert.equal((await t.request('POST', `/api/approvals/${approval.id}/approve`, { token: board })).status, 200);
    assert.equal((await agentStatus(agent.id)).status, 'terminated');
    assert.equal((await policiesOf(agent.id)).length, 0);
    assert.equal((await activity(agent.id, 'agent.activated')).length, 0);
  });

  it('accepts a hand-made hire_agent approval only for a draft of the same company', async () => {
    const { agent } = await hire(hirer.token);
    const ok = await t.request('POST', `/api/companies/${C}/approvals`, {
      token: board,
      body: { type: 'hire_agent', payload: { agentId: agent.id } },
    });
    assert.equal(ok.status, 201);
    const active = await t.request('POST', `/api/companies/${C}/approvals`, {
      token: board,
      body: { type: 'hire_agent', payload: { agentId: hirer.agent.id } },
    });
    assert.equal(active.status, 422);
    const foreign = await t.request('POST', `/api/companies/${other.company.id}/approvals`, {
      token: other.token,
      body: { type: 'hire_agent', payload: { agentId: agent.id } },
    });
    assert.equal(foreign.status, 422);
    // Rejecting the duplicate terminates the draft once; the original hire approval then finds nothing to change.
    assert.equal((await t.request('POST', `/api/approvals/${ok.body.id}/reject`, { token: board })).status, 200);
    assert.equal((await agentStatus(agent.id)).status, 'terminated');
  });

  it('sourceIssueId(s) are checked with and without approval: unknown 404, another company 422, nothing written', async () => {
    const { randomUUID } = await import('node:crypto');
    const plain = await t.newCompany(); // requireBoardApprovalForNewAgents: false (the default)
    const own = await t.request('POST', `/api/companies/${plain.company.id}/issues`, {
      token: plain.token,
      body: { title: 'why we hire' },
    });
    const ownApproval = await t.request('POST', `/api/companies/${C}/issues`, {
      token: board,
      body: { title: 'why we hire too' },
    });
    const foreign = await t.request('POST', `/api/companies/${other.company.id}/issues`, {
      token: other.token,
      body: { title: 'not yours' },
    });
    assert.equal(own.status, 201);
    assert.equal(ownApproval.status, 201);
    assert.equal(foreign.status, 201);

    const cases: { companyId: string; token: string; ownIssue: string }[] = [
      { companyId: plain.company.id, token: plain.token, ownIssue: own.body.id },
      { companyId: C, token: board, ownIssue: ownApproval.body.id },
    ];
    for (const { companyId, token, ownIssue } of cases) {
      const post = (fields: Record<string, unknown>) =>
        t.request('POST', `/api/companies/${companyId}/agent-hires`, {
          token,
          body: { name: `Hire ${randomUUID().slice(0, 6)}`, role: 'engineer', adapterType: 'process', ...fields },
        });
      const before = (await t.request('GET', `/api/companies/${companyId}/agents`, { token })).body.length;
      for (const [fields, status] of [
        [{ sourceIssueId: randomUUID() }, 404],
        [{ sourceIssueIds: [ownIssue, randomUUID()] }, 404],
        [{ sourceIssueId: foreign.body.id }, 422],
        [{ sourceIssueId: ownIssue, sourceIssueIds: [foreign.body.id] }, 422],
      ] as const) {
        const res = await post(fields);
        assert.equal(
          res.status,
          status,
          `${companyId === C ? 'with' : 'without'} approval, ${JSON.stringify(fields)}: ${JSON.stringify(res.body)}`,
        );
      }
      assert.equal(
        (await t.request('GET', `/api/companies/${companyId}/agents`, { token })).body.length,
        before,
        'refused hires create no agent',
      );
      const logged = await t.database.pool.query(
        `select 1 from activity_log where company_id = $1 and action = 'agent.hire_requested' and details::text like $2`,
        [companyId, `%${foreign.body.id}%`],
      );
      assert.equal(logged.rowCount, 0, 'another company issue id never reaches the activity log');

      const ok = await post({ sourceIssueId: ownIssue });
      assert.equal(ok.status, 201, JSON.stringify(ok.body));
      const [entry] = await activity(ok.body.agent.id, 'agent.hire_requested');
      assert.deepEqual((entry!.details as any).sourceIssueIds, [ownIssue]);
    }
  });

  it('a hire keeps desiredSkills: the draft has them attached and the approval shows them; approval keeps them; an unknown one is 422 with no draft or approval', async () => {
    const skill = await t.request('POST', `/api/companies/${C}/skills`, {
      token: board,
      body: { name: 'Hiring Playbook' },
    });
    assert.equal(skill.status, 201, JSON.stringify(skill.body));
    const keys = ['boardroom/skills/boardroom-api', skill.body.key];
    const { agent, approval } = await hire(hirer.token, {
      adapterType: 'claude_local',
      desiredSkills: ['hiring-playbook'],
    });
    assert.deepEqual(
      approval.payload.adapterConfig.serviceSkillSync.desiredSkills,
      keys,
      'the board sees the skills it approves',
    );
    assert.deepEqual(
      (await t.request('GET', `/api/agents/${agent.id}/skills`, { token: board })).body.desiredSkills,
      keys,
    );
    assert.equal((await t.request('POST', `/api/approvals/${approval.id}/approve`, { token: board })).status, 200);
    const approved = await agentStatus(agent.id);
    assert.equal(approved.status, 'idle');
    assert.deepEqual(approved.adapterConfig.serviceSkillSync.desiredSkills, keys);
    assert.deepEqual(
      (await t.request('GET', `/api/agents/${agent.id}/skills`, { token: board })).body.desiredSkills,
      keys,
    );

    const approvalsBefore = (
      await t.database.pool.query('select count(*)::int as n from approvals where company_id = $1', [C])
    ).rows[0].n;
    const refused = await t.request('POST', `/api/companies/${C}/agent-hires`, {
      token: hirer.token,
      body: { name: 'Unskilled Hire', adapterType: 'process', desiredSkills: ['hiring-playbook', 'no-such-skill'] },
    });
    assert.equal(refused.status, 422, JSON.stringify(refused.body));
    assert.deepEqual(refused.body.details.unknown, ['no-such-skill']);
    assert.equal(
      (
        await t.database.pool.query('select count(*)::int as n from agents where company_id = $1 and name = $2', [
          C,
          'Unskilled Hire',
        ])
      ).rows[0].n,
      0,
    );
    assert.equal(
      (await t.database.pool.query('select count(*)::int as n from approvals where company_id = $1', [C])).rows[0].n,
      approvalsBefore,
    );
  });
});

describe('no escalation through hiring', () => {
  it('an agent creator may not hire a CEO or hand out canCreateAgents, with or without board approval; the CEO and the board may', async () => {
    const open = await t.newCompany();
    const creator = await newAgent(t, open.token, open.company.id, { permissions: { canCreateAgents: true } });
    const ceo = await newAgent(t, open.token, open.company.id, { role: 'ceo' });
    const url = `/api/companies/${open.company.id}/agent-hires`;
    const body = (fields: Record<string, unknown>) => ({
      body: { name: `Hire ${Math.random().toString(36).slice(2, 8)}`, adapterType: 'process', ...fields },
    });
    for (const companyUrl of [url, `/api/companies/${C}/agent-hires`]) {
      const token = companyUrl === url ? creator.token : hirer.token;
      for (const fields of [{ role: 'ceo' }, { role: ' CEO ' }, { permissions: { canCreateAgents: true } }]) {
        const res = await t.request('POST', companyUrl, { token, ...body(fields) });
        assert.equal(res.status, 403, `${companyUrl} ${JSON.stringify(fields)}: ${JSON.stringify(res.body)}`);
      }
    }
    const before = (await t.request('GET', `/api/companies/${open.company.id}/agents`, { token: open.token })).body
      .length;
    assert.equal(
      (await t.request('POST', url, { token: ceo.token, ...body({ permissions: { canCreateAgents: true } }) })).status,
      201,
    );
    assert.equal((await t.request('POST', url, { token: open.token, ...body({ role: 'ceo' }) })).status, 201);
    assert.equal((await t.request('POST', url, { token: creator.token, ...body({ role: 'engineer' }) })).status, 201);
    assert.equal(
      (await t.request('GET', `/api/companies/${open.company.id}/agents`, { token: open.token })).body.length,
      before + 3,
    );
  });
});
