// The API explains itself: every operation in /api/openapi.json has a summary, a description and a
// described response schema for each status it answers, including the error shape; `/` leads to the
// docs. A route added without its documentation fails here.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { installRouteContract } from '../src/server/route-contract.ts';
import { useTestApp } from './helpers/app.ts';

const t = await useTestApp();

interface Operation {
  summary?: string;
  description?: string;
  parameters?: { in: string; name: string }[];
  requestBody?: { content: Record<string, { schema?: unknown; example?: unknown }> };
  responses: Record<string, { description: string; content?: Record<string, { schema?: unknown }> }>;
}

const spec = (await t.request('GET', '/api/openapi.json')).body as {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
};
const operations = Object.entries(spec.paths).flatMap(([path, methods]) =>
  Object.entries(methods)
    .filter(([m]) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
    .map(([m, op]) => ({ name: `${m.toUpperCase()} ${path}`, op })),
);

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1 and lists every API route', () => {
    assert.equal(spec.openapi, '3.1.0');
    assert.ok(operations.length > 80, `only ${operations.length} operations`);
  });

  it('gives every operation a summary and a description', () => {
    const missing = operations.filter(({ op }) => !op.summary?.trim() || !op.description?.trim()).map((o) => o.name);
    assert.deepEqual(missing, []);
  });

  it('describes every response with a schema, never "Default Response"', () => {
    const bad: string[] = [];
    for (const { name, op } of operations) {
      const statuses = Object.keys(op.responses);
      if (!statuses.some((s) => /^[23]/.test(s))) bad.push(`${name}: no success response`);
      for (const [status, response] of Object.entries(op.responses)) {
        if (response.description === 'Default Response' || !response.description)
          bad.push(`${name} ${status}: undescribed`);
        // 204 and redirects carry no body; everything else declares what it returns.
        if (status !== '204' && !/^3/.test(status) && !response.content) bad.push(`${name} ${status}: no schema`);
      }
      const errors = statuses.filter((s) => /^[45]/.test(s));
      if (errors.length === 0) bad.push(`${name}: no error responses`);
    }
    assert.deepEqual(bad, []);
  });

  it('declares X-Service-Run-Id where the server reads it', () => {
    for (const name of [
      'POST /api/issues/{issueId}/checkout',
      'POST /api/issues/{issueId}/release',
      'PATCH /api/issues/{issueId}',
    ]) {
      const op = operations.find((o) => o.name === name)?.op;
      assert.ok(op, `${name} is documented`);
      assert.ok(
        op.parameters?.some((p) => p.in === 'header' && p.name === 'x-service-run-id'),
        `${name} declares X-Service-Run-Id`,
      );
    }
  });

  it('describes multipart bodies', () => {
    const uploads = operations.filter(({ op }) => op.requestBody?.content['multipart/form-data']);
    assert.ok(uploads.length >= 2, `multipart operations: ${uploads.map((u) => u.name).join(', ')}`);
    for (const { name, op } of uploads)
      assert.ok(op.requestBody!.content['multipart/form-data']!.schema, `${name} has a multipart schema`);
  });

  it('shows a checkout example that the server accepts', async () => {
    const op = operations.find((o) => o.name === 'POST /api/issues/{issueId}/checkout')!.op;
    const example = op.requestBody!.content['application/json']!.example as Record<string, unknown>;
    assert.ok(example, 'checkout has an example body');
    assert.equal('runId' in example, false);
    const { company, token } = await t.newCompany();
    const agent = await t.request('POST', `/api/companies/${company.id}/agents`, {
      token,
      body: { name: 'Doc Agent', role: 'engineer', adapterType: 'process' },
    });
    const issue = await t.request('POST', `/api/companies/${company.id}/issues`, {
      token,
      body: { title: 'From the docs', status: 'todo' },
    });
    const res = await t.request('POST', `/api/issues/${issue.body.id}/checkout`, {
      token,
      body: { ...example, agentId: agent.body.id },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.status, 'in_progress');
  });
});

describe('front door', () => {
  it('serves the board at / and at any page path, never in place of an API route', async () => {
    for (const url of ['/', '/c/00000000-0000-4000-8000-000000000000/issues']) {
      const res = await t.request('GET', url);
      assert.equal(res.status, 200, url);
      assert.match(String(res.headers['content-type']), /text\/html/);
      assert.match(res.raw.toString(), /<div id="root">/);
    }
    const api = await t.request('GET', '/api/no-such-route');
    assert.equal(api.status, 404);
    assert.match(api.body.error, /not found/);
    const asset = await t.request('GET', '/assets/missing-0000.js');
    assert.equal(asset.status, 404);
  });

  it('sends the built scripts compressed and cached for good, and the page itself never cached', async () => {
    const page = await t.request('GET', '/');
    assert.equal(page.headers['cache-control'], 'no-cache');
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(page.raw.toString())?.[1];
    assert.ok(script, 'index.html loads a hashed script');
    const brotli = await t.request('GET', script, { headers: { 'accept-encoding': 'br, gzip' } });
    assert.equal(brotli.status, 200);
    assert.equal(brotli.headers['content-encoding'], 'br');
    assert.equal(brotli.headers['cache-control'], 'public, max-age=31536000, immutable');
    const plain = await t.request('GET', script, { headers: { 'accept-encoding': 'identity' } });
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.ok(brotli.raw.length < plain.raw.length / 2, `${brotli.raw.length} compressed vs ${plain.raw.length}`);
  });
});

describe('route contract', () => {
  it('refuses to register an API route without a summary, a description and a success response schema', () => {
    const app = Fastify();
    installRouteContract(app);
    assert.throws(
      () => app.get('/api/undocumented', async () => ({ secret: 'leaks' })),
      /lacks summary, description, a success response schema/,
    );
    assert.throws(
      () => app.get('/api/half', { schema: { summary: 's', description: 'd' } }, async () => ({})),
      /a success response schema/,
    );
    app.get(
      '/api/documented',
      { schema: { summary: 's', description: 'd', response: { 200: { type: 'object' } } } },
      async () => ({}),
    );
    app.get('/', { schema: { hide: true } }, async () => ({}));
  });
});
