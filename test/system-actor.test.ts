// Code with no HTTP request behind it (engine loops, schedulers) calls the same use cases as the
// routes, as the system actor: the rules hold, the company boundary lets it through, the activity
// log records it as `system`, and what it does is visible through the API like anything else.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { systemActor } from '../src/core/actor.ts';
import { accessibleCompanyIds, requireCompanyAccess } from '../src/core/access.ts';
import { DomainError } from '../src/core/errors.ts';
import { createComment } from '../src/modules/comments/service.ts';
import { createIssue } from '../src/modules/issues/service.ts';
import { useTestApp } from './helpers/app.ts';
import { companyWithAgent } from './helpers/factories.ts';

const t = await useTestApp();
const system = systemActor('scheduler');

describe('the system actor', () => {
  it('crosses every company boundary (it acts for the platform)', async () => {
    const a = await t.newCompany();
    const b = await t.newCompany();
    const allowed = await accessibleCompanyIds(t.database.db, system, [a.company.id, b.company.id]);
    assert.deepEqual([...allowed].sort(), [a.company.id, b.company.id].sort());
    assert.equal((await requireCompanyAccess(t.database.db, system, a.company.id)).id, a.company.id);
  });

  it('creates an issue and a comment through the same use cases as the routes, recorded as system', async () => {
    const { company, boardToken, agent } = await companyWithAgent(t);
    const ctx = { db: t.database.db, actor: system };
    const issue = await createIssue(ctx, company.id, {
      title: 'Nightly report',
      status: 'todo',
      assigneeAgentId: agent.agent.id,
    });
    await createComment(ctx, issue, { body: 'opened by the scheduler' });

    const read = await t.request('GET', `/api/issues/${issue.identifier}`, { token: boardToken });
    assert.equal(read.status, 200);
    assert.equal(read.body.assigneeAgentId, agent.agent.id);
    const activity = await t.request('GET', `/api/issues/${issue.id}/activity`, { token: boardToken });
    const created = activity.body.find((e: { action: string }) => e.action === 'issue.created');
    assert.equal(created.actorType, 'system');
    assert.equal(created.actorId, 'scheduler');
    assert.ok(
      activity.body.some(
        (e: { action: string; actorType: string }) => e.action === 'issue.comment_added' && e.actorType === 'system',
      ),
      JSON.stringify(activity.body.map((e: { action: string }) => e.action)),
    );
  });

  it('is still held to the domain rules (no in_progress without a checkout)', async () => {
    const { company } = await t.newCompany();
    await assert.rejects(
      createIssue({ db: t.database.db, actor: system }, company.id, { title: 'Skip the queue', status: 'in_progress' }),
      (err: unknown) => err instanceof DomainError && err.status === 422,
    );
  });
});
