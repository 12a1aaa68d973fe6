import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestApp } from './helpers/app.ts';

const t = await useTestApp();

describe('companies', () => {
  it('creates a company with a derived prefix and makes the creator a member', async () => {
    const { token } = await t.newBoardUser();
    const res = await t.request('POST', '/api/companies', { token, body: { name: 'Acme Robotics', budgetMonthlyCents: 5000 } });
    assert.equal(res.status, 201);
    assert.equal(res.body.issuePrefix, 'ACM');
    assert.equal(res.body.budgetMonthlyCents, 5000);
    assert.equal(res.body.logoUrl, null);
    const again = await t.request('POST', '/api/companies', { token, body: { name: 'Acme Mining' } });
    assert.equal(again.body.issuePrefix, 'ACM2');
    const list = await t.request('GET', '/api/companies', { token });
    assert.deepEqual(list.body.map((c: any) => c.id).sort(), [res.body.id, again.body.id].sort());
  });

  it('rejects unauthenticated, malformed and invalid requests with JSON errors', async () => {
    assert.equal((await t.request('GET', '/api/companies')).status, 401);
    const malformed = await t.request('POST', '/api/companies', { token: t.ownerToken, payload: '{"name":', headers: { 'content-type': 'application/json' } });
    assert.equal(malformed.status, 400);
    assert.equal(typeof malformed.body.error, 'string');
    const wrongType = await t.request('POST', '/api/companies', { token: t.ownerToken, body: { name: 5 } });
    assert.equal(wrongType.status, 400);
    const badEnum = await t.request('PATCH', `/api/companies/${(await t.newCompany(t.ownerToken)).company.id}`, { token: t.ownerToken, body: { status: 'exploded' } });
    assert.equal(badEnum.status, 400);
    assert.equal((await t.request('GET', '/api/companies/not-a-uuid', { token: t.ownerToken })).status, 400);
  });

  it('answers 404 for a missing company and 403 for another company', async () => {
    const a = await t.newCompany();
    const b = await t.newCompany();
    assert.equal((await t.request('GET', `/api/companies/${a.company.id}`, { token: b.token })).status, 403);
    assert.equal((await t.request('GET', '/api/companies/00000000-0000-4000-8000-000000000000', { token: b.token })).status, 404);
    assert.equal((await t.request('PATCH', `/api/companies/${a.company.id}`, { token: b.token, body: { name: 'x' } })).status, 403);
    assert.equal((await t.request('DELETE', `/api/companies/${a.company.id}`, { token: b.token })).status, 403);
  });
});
