// Route-wide guards: every API route refuses an unauthenticated caller, and every route scoped by
// {companyId} alone refuses a board user and an agent of another company. The route list comes from
// the generated OpenAPI document, so a route added later is covered without touching this file.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { useTestApp } from './helpers/app.ts';
import { companyWithAgent } from './helpers/factories.ts';

const t = await useTestApp();
const PUBLIC = new Set(['GET /api/health', 'GET /api/auth/login', 'POST /api/routine-triggers/public/{publicId}/fire']);

const spec = (await t.request('GET', '/api/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
const routes = Object.entries(spec.paths).flatMap(([path, methods]) =>
  Object.keys(methods)
    .filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
    .map((m) => ({ method: m.toUpperCase(), path })),
);
const fill = (path: string, values: Record<string, string> = {}) => path.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? randomUUID());

describe('route-wide guards', () => {
  it('lists the API routes', () => {
    assert.ok(routes.length > 80, `only ${routes.length} routes in the OpenAPI document`);
  });

  it('every non-public route answers 401 without a credential', async () => {
    const open: string[] = [];
    for (const { method, path } of routes) {
      if (PUBLIC.has(`${method} ${path}`) || path.startsWith('/api/docs')) continue;
      const res = await t.request(method, fill(path), { body: method === 'GET' || method === 'DELETE' ? undefined : {} });
      if (res.status !== 401) open.push(`${method} ${path} -> ${res.status}`);
    }
    assert.deepEqual(open, []);
  });

  it('every route scoped by {companyId} alone answers 403 to another company', async () => {
    const target = await companyWithAgent(t);
    const outsider = await companyWithAgent(t);
    const scoped = routes.filter(({ path }) => (path.match(/\{/g) ?? []).length === 1 && path.includes('{companyId}'));
    assert.ok(scoped.length >= 20, `only ${scoped.length} company-scoped routes`);
    const leaks: string[] = [];
    for (const { method, path } of scoped) {
      for (const [who, token] of [['board user', outsider.boardToken], ['agent', outsider.agent.token]] as const) {
        const res = await t.request(method, fill(path, { companyId: target.company.id }), { token, body: method === 'GET' || method === 'DELETE' ? undefined : {} });
        // 400 may come first for a body that fails validation; anything 2xx or 404 would be a leak.
        if (res.status !== 403 && res.status !== 400) leaks.push(`${method} ${path} (${who}) -> ${res.status}`);
      }
    }
    assert.deepEqual(leaks, []);
  });
});
