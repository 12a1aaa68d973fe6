// Input bounds at the edge: no 500 on bad input. NUL (U+0000) in the URL or anywhere in a JSON body
// is refused with 400 (PostgreSQL cannot store it); bodies nested deeper than 40 levels are refused
// with 400 before zod or a service recurses into them; free-form objects are bounded to 32 levels and
// a byte size per field; malformed multipart is 400. The generic checks read the route list from the
// OpenAPI document, so a route added later is covered without touching this file.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { installErrorHandler } from '../src/server/errors.ts';
import { useTestApp } from './helpers/app.ts';
import { companyWithAgent, multipartBody, newIssue } from './helpers/factories.ts';

const t = await useTestApp();
const token = t.ownerToken;

interface Operation {
  method: string;
  path: string;
  pathParams: string[];
  queryParams: string[];
  /** Top-level properties of the JSON request body, with their JSON-schema type when it has one. */
  bodyProps: { name: string; type?: string }[] | null;
}

const spec = (await t.request('GET', '/api/openapi.json')).body as { paths: Record<string, Record<string, any>> };
const operations: Operation[] = Object.entries(spec.paths).flatMap(([path, methods]) =>
  Object.entries(methods)
    .filter(([m]) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
    .filter(() => !path.startsWith('/api/docs'))
    .map(([m, op]) => {
      const params = (op.parameters ?? []) as { in: string; name: string }[];
      const schema = op.requestBody?.content?.['application/json']?.schema;
      const props = schema?.properties as Record<string, { type?: string | string[] }> | undefined;
      return {
        method: m.toUpperCase(),
        path,
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: params.filter((p) => p.in === 'query').map((p) => p.name),
        bodyProps: props
          ? Object.entries(props).map(([name, s]) => ({
              name,
              type: Array.isArray(s.type) ? s.type.find((x) => x !== 'null') : s.type,
            }))
          : null,
      };
    }),
);
/**
 * Routes that keep the raw bytes and judge them only after a credential check the generic requests
 * cannot pass (a random id answers 404 first); routines-webhooks.test.ts and plugin-webhooks.test.ts
 * send them NUL and deep bodies at a real endpoint.
 */
const RAW_BODY = new Set([
  'POST /api/routine-triggers/public/{publicId}/fire',
  'POST /api/plugins/{pluginId}/webhooks/{endpointKey}',
]);
const takesBody = (op: Operation) =>
  (op.method === 'POST' || op.method === 'PUT' || op.method === 'PATCH') && !RAW_BODY.has(`${op.method} ${op.path}`);
// Random ids: nothing real is addressed, so no generic request can change a fixture.
const fill = (path: string, values: Record<string, string> = {}) =>
  path.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? randomUUID());

/** JSON text of an object nested `depth` levels: depth 1 is `{}`. Built as text: JSON.stringify itself overflows near 5,000. */
const nested = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;
/** Sends `body` as JSON with each `"__DEEP__"` placeholder replaced by raw JSON text. */
function sendRaw(method: string, url: string, body: unknown, raw: string, tok = token) {
  return t.request(method, url, {
    token: tok,
    payload: JSON.stringify(body).replaceAll('"__DEEP__"', raw),
    headers: { 'content-type': 'application/json' },
  });
}

const fx = await companyWithAgent(t);
const C = fx.company.id;
const board = fx.boardToken;
const issue = await newIssue(t, board, C);

describe('the route list', () => {
  it('comes from the OpenAPI document', () => {
    assert.ok(operations.length > 80, `only ${operations.length} operations`);
    assert.ok(operations.filter(takesBody).filter((op) => op.bodyProps).length > 25, 'JSON bodies are described');
  });
});

describe('NUL in the request URL', () => {
  it('every path parameter holding %00 answers 400', async () => {
    const wrong: string[] = [];
    for (const op of operations) {
      for (const param of op.pathParams) {
        const res = await t.request(op.method, fill(op.path, { [param]: 'a%00b' }), {
          token,
          body: takesBody(op) ? {} : undefined,
        });
        if (res.status !== 400) wrong.push(`${op.method} ${op.path} {${param}} -> ${res.status}`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  it('every query parameter holding %00 answers 400 (an undeclared one on routes without any)', async () => {
    const wrong: string[] = [];
    for (const op of operations) {
      for (const param of op.queryParams.length > 0 ? op.queryParams : ['q']) {
        const res = await t.request(op.method, `${fill(op.path)}?${param}=a%00b`, {
          token,
          body: takesBody(op) ? {} : undefined,
        });
        if (res.status !== 400) wrong.push(`${op.method} ${op.path} ?${param} -> ${res.status}`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  it('refuses the named filters and shortname segments on real resources, before and without authentication', async () => {
    const urls = [
      `/api/companies/${C}/issues?q=a%00b`,
      `/api/companies/${C}/issues?originId=a%00b`,
      `/api/companies/${C}/issues?originKind=%00`,
      `/api/companies/${C}/activity?entityId=a%00b`,
      `/api/companies/${C}/activity?entityType=a%00b`,
      `/api/companies/${C}/feedback-traces?targetType=a%00b`,
      `/api/projects/a%00b?companyId=${C}`,
      `/api/projects/a%00b`,
      `/api/agents/a%00b?companyId=${C}`,
      `/api/agents/a%00b`,
      `/api/issues/A%00-1`,
      `/api/heartbeat-runs/a%00b/issues`,
      `/api/auth/login?token=a%00b`,
      `/api/no-such-route/%00`,
    ];
    for (const url of urls) {
      const res = await t.request('GET', url, { token: board });
      assert.equal(res.status, 400, url);
      assert.match(res.body.error, /NUL/, url);
    }
    assert.equal(
      (await t.request('GET', `/api/companies/${C}/issues?q=a%00b`)).status,
      400,
      'no credential needed to be refused',
    );
  });

  it('accepts an encoded percent sign that only looks like %00', async () => {
    const res = await t.request('GET', `/api/companies/${C}/issues?q=%2500`, { token: board });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, []);
  });
});

describe('NUL in a JSON body', () => {
  it('every JSON operation refuses a NUL in its string fields, and in an object key', async () => {
    const wrong: string[] = [];
    for (const op of operations.filter(takesBody)) {
      const strings = Object.fromEntries(
        (op.bodyProps ?? []).filter((p) => p.type === 'string').map((p) => [p.name, 'a\u0000b']),
      );
      const bodies: unknown[] = [
        { ...strings, note: 'a\u0000b' },
        { 'a\u0000b': 1 },
        { nested: [{ deeper: 'x\u0000' }] },
      ];
      for (const body of bodies) {
        const res = await t.request(op.method, fill(op.path), { token, body });
        if (res.status !== 400) wrong.push(`${op.method} ${op.path} ${JSON.stringify(body)} -> ${res.status}`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  it('refuses a comment, a document of NUL bytes and a NUL deep inside a free-form object, storing nothing', async () => {
    const comment = await t.request('POST', `/api/issues/${issue.id}/comments`, {
      token: board,
      body: { body: 'a\u0000b' },
    });
    assert.equal(comment.status, 400);
    assert.match(comment.body.error, /NUL/);
    assert.deepEqual(comment.body.details, [{ path: '/body', message: 'contains U+0000 (NUL)' }]);
    assert.deepEqual((await t.request('GET', `/api/issues/${issue.id}/comments`, { token: board })).body, []);

    const doc = await t.request('PUT', `/api/issues/${issue.id}/documents/plan`, {
      token: board,
      body: { body: '\u0000'.repeat(4096) },
    });
    assert.equal(doc.status, 400);
    assert.equal((await t.request('GET', `/api/issues/${issue.id}/documents/plan`, { token: board })).status, 404);

    const agent = await t.request('POST', `/api/companies/${C}/agents`, {
      token: board,
      body: { name: 'Nul', adapterType: 'process', adapterConfig: { env: { 'KEY\u0000': 'v' } } },
    });
    assert.equal(agent.status, 400);
    assert.deepEqual(agent.body.details, [
      { path: '/adapterConfig/env/KEY\\u0000', message: 'key contains U+0000 (NUL)' },
    ]);

    const patch = await t.request('PATCH', `/api/issues/${issue.id}`, {
      token: board,
      body: { comment: 'hi', executionPolicy: { steps: ['ok', 'n\u0000'] } },
    });
    assert.equal(patch.status, 400);
    assert.equal(patch.body.details[0].path, '/executionPolicy/steps/1');
  });
});

describe('deep nesting', () => {
  it('every JSON operation refuses a 5,000-deep body, and a 5,000-deep value in each field', async () => {
    const wrong: string[] = [];
    for (const op of operations.filter(takesBody)) {
      const top = await t.request(op.method, fill(op.path), {
        token,
        payload: nested(5000),
        headers: { 'content-type': 'application/json' },
      });
      if (top.status !== 400) wrong.push(`${op.method} ${op.path} (body) -> ${top.status}`);
      for (const prop of op.bodyProps ?? []) {
        const res = await sendRaw(op.method, fill(op.path), { [prop.name]: '__DEEP__' }, nested(5000));
        if (res.status !== 400) wrong.push(`${op.method} ${op.path} .${prop.name} -> ${res.status}`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  it('refuses 5,000 levels in every free-form field of an otherwise valid request (each was a 500)', async () => {
    const project = await t.request('POST', `/api/companies/${C}/projects`, {
      token: board,
      body: { name: 'Deep host' },
    });
    assert.equal(project.status, 201);
    const agentId = fx.agent.agent.id;
    const cases: [string, string, unknown][] = [
      ['POST', `/api/companies/${C}/issues`, { title: 'x', executionPolicy: '__DEEP__' }],
      ['POST', `/api/companies/${C}/issues`, { title: 'x', executionWorkspaceSettings: '__DEEP__' }],
      ['PATCH', `/api/issues/${issue.id}`, { executionPolicy: '__DEEP__' }],
      ['POST', `/api/companies/${C}/agents`, { name: 'd1', adapterType: 'process', adapterConfig: '__DEEP__' }],
      ['POST', `/api/companies/${C}/agents`, { name: 'd2', adapterType: 'process', runtimeConfig: '__DEEP__' }],
      ['POST', `/api/companies/${C}/agents`, { name: 'd3', adapterType: 'process', metadata: '__DEEP__' }],
      ['PATCH', `/api/agents/${agentId}`, { metadata: '__DEEP__' }],
      ['POST', `/api/companies/${C}/agent-hires`, { name: 'd4', adapterType: 'process', adapterConfig: '__DEEP__' }],
      ['POST', `/api/agents/${agentId}/wakeup`, { payload: '__DEEP__' }],
      ['POST', `/api/companies/${C}/approvals`, { type: 'request_board_approval', payload: '__DEEP__' }],
      [
        'POST',
        `/api/companies/${C}/activity`,
        { actorId: 'x', action: 'a', entityType: 'e', entityId: 'i', details: '__DEEP__' },
      ],
      ['POST', `/api/companies/${C}/projects`, { name: 'd5', executionWorkspacePolicy: '__DEEP__' }],
      [
        'POST',
        `/api/companies/${C}/projects`,
        { name: 'd6', workspace: { name: 'w', cwd: '/tmp', metadata: '__DEEP__' } },
      ],
      ['POST', `/api/projects/${project.body.id}/workspaces`, { name: 'w1', cwd: '/tmp', metadata: '__DEEP__' }],
      ['POST', `/api/projects/${project.body.id}/workspaces`, { name: 'w2', cwd: '/tmp', runtimeConfig: '__DEEP__' }],
    ];
    const wrong: string[] = [];
    for (const [method, url, body] of cases) {
      const res = await sendRaw(method, url, body, nested(5000), board);
      if (res.status !== 400) wrong.push(`${method} ${url} ${JSON.stringify(body)} -> ${res.status}`);
    }
    assert.deepEqual(wrong, []);
  });

  it('bounds a free-form field at 32 levels: 4,100 and 33 are refused, 32 is stored and read back', async () => {
    const url = `/api/companies/${C}/issues`;
    const deep = await sendRaw('POST', url, { title: 'deep', executionPolicy: '__DEEP__' }, nested(4100), board);
    assert.equal(deep.status, 400);
    const over = await sendRaw('POST', url, { title: 'over', executionPolicy: '__DEEP__' }, nested(33), board);
    assert.equal(over.status, 400);
    assert.match(JSON.stringify(over.body.details), /deeper than 32 levels/);
    const ok = await sendRaw('POST', url, { title: 'ok', executionPolicy: '__DEEP__' }, nested(32), board);
    assert.equal(ok.status, 201);
    const read = await t.request('GET', `/api/issues/${ok.body.id}`, { token: board });
    assert.equal(read.status, 200);
    assert.equal(JSON.stringify(read.body.executionPolicy), nested(32));
  });

  it('lets a free-form field three levels down (project → workspace → metadata) hold 32 levels', async () => {
    const res = await sendRaw(
      'POST',
      `/api/companies/${C}/projects`,
      { name: 'Nested ws', workspace: { name: 'w', cwd: '/tmp/nested', metadata: '__DEEP__' } },
      nested(32),
      board,
    );
    assert.equal(res.status, 201, JSON.stringify(res.body));
  });

  it('bounds adapterConfig at 64 KiB of JSON', async () => {
    const url = `/api/companies/${C}/agents`;
    // {"blob":"..."} is 11 bytes of JSON around the string.
    const fits = await t.request('POST', url, {
      token: board,
      body: { name: 'fits', adapterType: 'process', adapterConfig: { blob: 'x'.repeat(64 * 1024 - 11) } },
    });
    assert.equal(fits.status, 201, JSON.stringify(fits.body));
    const big = await t.request('POST', url, {
      token: board,
      body: { name: 'big', adapterType: 'process', adapterConfig: { blob: 'x'.repeat(64 * 1024 - 10) } },
    });
    assert.equal(big.status, 400);
    assert.match(JSON.stringify(big.body.details), /65537 bytes of JSON; at most 65536 bytes/);
    // Counted in UTF-8 bytes, not characters.
    const wide = await t.request('POST', url, {
      token: board,
      body: { name: 'wide', adapterType: 'process', metadata: { blob: 'é'.repeat(33 * 1024) } },
    });
    assert.equal(wide.status, 400);
  });
});

describe('malformed multipart', () => {
  const attachmentsUrl = `/api/companies/${C}/issues/${issue.id}/attachments`;
  const logoUrl = `/api/companies/${C}/logo`;

  it('answers 400 for a body that is not multipart or has no boundary, on attachments and logo alike', async () => {
    for (const url of [attachmentsUrl, logoUrl]) {
      for (const contentType of [
        'multipart/form-data; boundary=x',
        'multipart/form-data',
        'multipart/form-data; boundary=',
      ]) {
        const res = await t.request('POST', url, {
          token: board,
          payload: 'abc',
          headers: { 'content-type': contentType },
        });
        assert.equal(res.status, 400, `${url} ${contentType}`);
        assert.equal(typeof res.body.error, 'string');
      }
      // A part cut off before its closing boundary.
      const cut = multipartBody([{ name: 'file', data: 'hello', filename: 'a.png', contentType: 'image/png' }]);
      const truncated = await t.request('POST', url, {
        token: board,
        payload: cut.payload.subarray(0, cut.payload.length - 20),
        headers: cut.headers,
      });
      assert.equal(truncated.status, 400, `${url} truncated`);
    }
    assert.deepEqual((await t.request('GET', `/api/issues/${issue.id}/attachments`, { token: board })).body, []);
  });

  it('answers 415 for a non-multipart request and 413 above the upload limit', async () => {
    for (const url of [attachmentsUrl, logoUrl]) {
      assert.equal((await t.request('POST', url, { token: board, body: { file: 'x' } })).status, 415, url);
      assert.equal(
        (await t.request('POST', url, { token: board, payload: 'x', headers: { 'content-type': 'text/plain' } }))
          .status,
        415,
        url,
      );
      const big = multipartBody([
        {
          name: 'file',
          data: Buffer.alloc(t.config.maxUploadBytes + 1),
          filename: 'big.png',
          contentType: 'image/png',
        },
      ]);
      assert.equal((await t.request('POST', url, { token: board, ...big })).status, 413, url);
    }
  });
});

describe('bounded responses', () => {
  it('holds a project to 20 workspaces, so a project response embeds at most 20', async () => {
    const project = await t.request('POST', `/api/companies/${C}/projects`, {
      token: board,
      body: { name: 'Many workspaces', workspace: { cwd: '/w/0' } },
    });
    assert.equal(project.status, 201);
    for (let i = 1; i < 20; i++) {
      const ws = await t.request('POST', `/api/projects/${project.body.id}/workspaces`, {
        token: board,
        body: { cwd: `/w/${i}` },
      });
      assert.equal(ws.status, 201);
    }
    const extra = await t.request('POST', `/api/projects/${project.body.id}/workspaces`, {
      token: board,
      body: { cwd: '/w/20' },
    });
    assert.equal(extra.status, 422);
    assert.match(extra.body.error, /at most 20 workspaces/);
    assert.equal(
      (await t.request('GET', `/api/projects/${project.body.id}/workspaces`, { token: board })).body.length,
      20,
    );
    assert.equal(
      (await t.request('GET', `/api/projects/${project.body.id}`, { token: board })).body.workspaces.length,
      20,
    );
  });

  it('holds a project env to 64 KiB of JSON', async () => {
    const env = Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`VAR_${i}`, 'v'.repeat(20_000)]));
    const res = await t.request('POST', `/api/companies/${C}/projects`, {
      token: board,
      body: { name: 'Big env', env },
    });
    assert.equal(res.status, 400);
    assert.match(JSON.stringify(res.body.details), /at most 65536 bytes/);
    const small = await t.request('POST', `/api/companies/${C}/projects`, {
      token: board,
      body: { name: 'Small env', env: { VAR: 'v'.repeat(20_000) } },
    });
    assert.equal(small.status, 201);
  });

  it('lists at most 1000 company ids in GET /api/cli-auth/me', async () => {
    const user = await t.newBoardUser('Member of many');
    await t.database.pool.query(
      `with made as (insert into companies (name, issue_prefix) select 'Bulk ' || n, 'BULK' || n || '-' || substr(md5(random()::text), 1, 6) from generate_series(1, 1001) as n returning id)
       insert into company_memberships (company_id, user_id, role) select id, $1, 'owner' from made`,
      [user.userId],
    );
    const me = await t.request('GET', '/api/cli-auth/me', { token: user.token });
    assert.equal(me.status, 200);
    assert.equal(me.body.companyIds.length, 1000);
  });
});

describe('PostgreSQL backstop', () => {
  it('maps a NUL that reaches PostgreSQL (22021 in text, 22P05 in jsonb) to 400', async () => {
    const app = Fastify();
    installErrorHandler(app);
    app.get('/text', async () => t.database.pool.query('select $1::text as v', ['a\u0000b']));
    app.get('/jsonb', async () => t.database.pool.query('select $1::jsonb as v', ['{"a":"\\u0000"}']));
    await app.ready();
    try {
      const text = await app.inject({ method: 'GET', url: '/text' });
      assert.equal(text.statusCode, 400);
      assert.deepEqual(text.json(), { error: 'invalid byte sequence in input' });
      const jsonb = await app.inject({ method: 'GET', url: '/jsonb' });
      assert.equal(jsonb.statusCode, 400);
      assert.deepEqual(jsonb.json(), { error: 'unsupported character in input' });
    } finally {
      await app.close();
    }
  });
});
