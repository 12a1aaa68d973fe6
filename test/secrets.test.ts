import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { openSecret } from '../src/modules/secrets/crypto.ts';
import { assertSecretRefsInCompany } from '../src/modules/secrets/refs.ts';
import { resolveEnvBindings, resolveSecretValue, SecretResolutionError } from '../src/modules/secrets/resolve.ts';
import { useTestApp, type RequestOptions, type Response } from './helpers/app.ts';
import { newAgent, type AgentFixture } from './helpers/factories.ts';

const t = await useTestApp();
const { db } = t.database;
const masterKey = t.config.masterKey;

// Every plaintext used in this file; no response body may ever contain one of them.
const plaintexts = new Set<string>();
const responses: { url: string; body: string }[] = [];
const value = (label: string) => {
  const v = `plain-${label}-${randomBytes(12).toString('hex')}`;
  plaintexts.add(v);
  return v;
};
async function req(method: string, url: string, opts: RequestOptions = {}): Promise<Response> {
  const res = await t.request(method, url, opts);
  responses.push({ url: `${method} ${url}`, body: typeof res.body === 'string' ? res.body : JSON.stringify(res.body) });
  return res;
}

let a: { company: any; token: string };
let b: { company: any; token: string };
let agentA: AgentFixture;
let ceoA: AgentFixture;
let agentB: AgentFixture;

async function createSecret(companyId: string, token: string, fields: Record<string, unknown> = {}) {
  const res = await req('POST', `/api/companies/${companyId}/secrets`, {
    token,
    body: { name: `S_${randomBytes(4).toString('hex')}`, value: value('create'), ...fields },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

async function versionRows(secretId: string) {
  const { rows } = await t.database.pool.query(
    'select company_id, secret_id, version, iv, auth_tag, ciphertext from secret_versions where secret_id = $1 order by version',
    [secretId],
  );
  return rows as {
    company_id: string;
    secret_id: string;
    version: number;
    iv: string;
    auth_tag: string;
    ciphertext: string;
  }[];
}

before(async () => {
  a = await t.newCompany();
  b = await t.newCompany();
  agentA = await newAgent(t, a.token, a.company.id);
  ceoA = await newAgent(t, a.token, a.company.id, { role: 'ceo' });
  agentB = await newAgent(t, b.token, b.company.id);
});

after(() => {
  // Checked last, over every response the file received (errors included).
  for (const r of responses)
    for (const p of plaintexts) assert.ok(!r.body.includes(p), `${r.url} leaked a secret value`);
});

describe('secrets: routes', () => {
  it('describes the local encrypted provider', async () => {
    const res = await req('GET', `/api/companies/${a.company.id}/secret-providers`, { token: a.token });
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.map((p: any) => ({
        id: p.id,
        requiresExternalRef: p.requiresExternalRef,
        hasLabel: typeof p.label === 'string',
      })),
      [{ id: 'local_encrypted', requiresExternalRef: false, hasLabel: true }],
    );
  });

  it('creates version 1 with metadata only, and refuses duplicates and bad input', async () => {
    const secretValue = value('first');
    const res = await req('POST', `/api/companies/${a.company.id}/secrets`, {
      token: a.token,
      body: { name: 'OPENAI_API_KEY', value: secretValue, description: 'model key' },
    });
    assert.equal(res.status, 201);
    assert.deepEqual(
      Object.keys(res.body).sort(),
      [
        'companyId',
        'createdAt',
        'createdByAgentId',
        'createdByUserId',
        'description',
        'externalRef',
        'id',
        'latestVersion',
        'name',
        'provider',
        'updatedAt',
      ].sort(),
    );
    assert.equal(res.body.companyId, a.company.id);
    assert.equal(res.body.provider, 'local_encrypted');
    assert.equal(res.body.latestVersion, 1);
    assert.equal(res.body.description, 'model key');
    assert.equal(typeof res.body.createdByUserId, 'string');
    assert.equal(res.body.createdByAgentId, null);
    assert.equal(await resolveSecretValue(db, masterKey, a.company.id, { secretId: res.body.id }), secretValue);

    const dup = await req('POST', `/api/companies/${a.company.id}/secrets`, {
      token: a.token,
      body: { name: 'OPENAI_API_KEY', value: value('dup') },
    });
    assert.equal(dup.status, 409);
    assert.equal(typeof dup.body.error, 'string');
    // Names are unique per company, not globally.
    assert.equal(
      (
        await req('POST', `/api/companies/${b.company.id}/secrets`, {
          token: b.token,
          body: { name: 'OPENAI_API_KEY', value: value('b') },
        })
      ).status,
      201,
    );

    const base = `/api/companies/${a.company.id}/secrets`;
    assert.equal((await req('POST', base, { token: a.token, body: { name: 'NO_VALUE' } })).status, 400);
    assert.equal((await req('POST', base, { token: a.token, body: { name: 'EMPTY', value: '' } })).status, 400);
    assert.equal((await req('POST', base, { token: a.token, body: { value: value('noname') } })).status, 400);
    assert.equal((await req('POST', base, { token: a.token, body: { name: 'X', value: 5 } })).status, 400);
    assert.equal(
      (await req('POST', base, { token: a.token, body: { name: 'X', value: 'x'.repeat(70_000) } })).status,
      400,
    );
    const unknown = await req('POST', base, {
      token: a.token,
      body: { name: 'VAULTED', value: value('vault'), provider: 'vault' },
    });
    assert.equal(unknown.status, 422);
    const withRef = await req('POST', base, {
      token: a.token,
      body: { name: 'WITH_REF', value: value('ref'), provider: 'local_encrypted', externalRef: 'ops/db' },
    });
    assert.equal(withRef.status, 201);
    assert.equal(withRef.body.externalRef, 'ops/db');
  });

  it('lists metadata only, newest first, bounded by limit', async () => {
    const c = await t.newCompany();
    const first = await createSecret(c.company.id, c.token, { name: 'FIRST' });
    const second = await createSecret(c.company.id, c.token, { name: 'SECOND' });
    const res = await req('GET', `/api/companies/${c.company.id}/secrets`, { token: c.token });
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.map((s: any) => s.id),
      [second.id, first.id],
    );
    assert.ok(res.body.every((s: any) => !('value' in s) && !('ciphertext' in s)));
    const limited = await req('GET', `/api/companies/${c.company.id}/secrets?limit=1`, { token: c.token });
    assert.deepEqual(
      limited.body.map((s: any) => s.id),
      [second.id],
    );
    assert.equal((await req('GET', `/api/companies/${c.company.id}/secrets?limit=0`, { token: c.token })).status, 400);
    assert.equal(
      (await req('GET', `/api/companies/${c.company.id}/secrets?limit=5000`, { token: c.token })).status,
      400,
    );
  });

  it("lists where each secret is referenced: live agents' env variables, pinned or latest, bounded per secret", async () => {
    const { company, token } = await t.newCompany();
    const used = await createSecret(company.id, token, { name: 'USED' });
    await createSecret(company.id, token, { name: 'UNUSED' });
    const ref = (version?: 'latest' | number) => ({
      type: 'secret_ref',
      secretId: used.id,
      ...(version !== undefined && { version }),
    });
    await newAgent(t, token, company.id, { name: 'Bea', adapterConfig: { env: { API_KEY: ref(), PLAIN: 'x' } } });
    await newAgent(t, token, company.id, {
      name: 'Al',
      adapterConfig: { env: { OLD_KEY: ref(1), NEW_KEY: ref('latest') } },
    });
    const gone = await newAgent(t, token, company.id, { name: 'Cy', adapterConfig: { env: { API_KEY: ref() } } });
    assert.equal((await req('POST', `/api/agents/${gone.agent.id}/terminate`, { token })).status, 200);
    // Another company's agent cannot reference it (422 at write), so only this company is read.
    const list = await req('GET', `/api/companies/${company.id}/secrets`, { token });
    assert.equal(list.status, 200);
    const byName = new Map<string, any>(list.body.map((s: any) => [s.name, s]));
    assert.deepEqual(byName.get('UNUSED').references, { count: 0, agents: [] });
    assert.deepEqual(
      byName.get('USED').references.agents.map((r: any) => [r.agentName, r.envKey, r.version]),
      [
        ['Al', 'NEW_KEY', 'latest'],
        ['Al', 'OLD_KEY', 1],
        ['Bea', 'API_KEY', 'latest'],
      ],
    );
    assert.equal(byName.get('USED').references.count, 3);

    const many = await createSecret(company.id, token, { name: 'MANY' });
    const env = Object.fromEntries(
      Array.from({ length: 25 }, (_, i) => [
        `K${String(i).padStart(2, '0')}`,
        { type: 'secret_ref', secretId: many.id },
      ]),
    );
    await newAgent(t, token, company.id, { name: 'Ed', adapterConfig: { env } });
    const again = await req('GET', `/api/companies/${company.id}/secrets`, { token });
    const manyRefs = again.body.find((s: any) => s.name === 'MANY').references;
    assert.equal(manyRefs.count, 25);
    assert.equal(manyRefs.agents.length, 20);
    assert.equal(manyRefs.agents[0].envKey, 'K00');
  });

  it('patches metadata without touching the value or the version; a rename collision is 409', async () => {
    const original = value('patch');
    const secret = await createSecret(a.company.id, a.token, { name: 'PATCH_ME', value: original });
    await createSecret(a.company.id, a.token, { name: 'TAKEN' });
    const res = await req('PATCH', `/api/secrets/${secret.id}`, {
      token: a.token,
      body: { name: 'PATCHED', description: 'new', externalRef: 'ref/1' },
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.name, 'PATCHED');
    assert.equal(res.body.description, 'new');
    assert.equal(res.body.externalRef, 'ref/1');
    assert.equal(res.body.latestVersion, 1);
    assert.equal(await resolveSecretValue(db, masterKey, a.company.id, { secretId: secret.id }), original);
    assert.equal((await versionRows(secret.id)).length, 1);
    // Keeping one's own name is not a collision.
    assert.equal(
      (await req('PATCH', `/api/secrets/${secret.id}`, { token: a.token, body: { name: 'PATCHED' } })).status,
      200,
    );
    assert.equal(
      (await req('PATCH', `/api/secrets/${secret.id}`, { token: a.token, body: { name: 'TAKEN' } })).status,
      409,
    );
    // value is not a PATCH field; extra keys are ignored and the value stays.
    await req('PATCH', `/api/secrets/${secret.id}`, { token: a.token, body: { value: value('ignored') } });
    assert.equal(await resolveSecretValue(db, masterKey, a.company.id, { secretId: secret.id }), original);
    assert.equal((await req('PATCH', `/api/secrets/${secret.id}`, { token: a.token, body: { name: '' } })).status, 400);
    assert.equal(
      (await req('PATCH', '/api/secrets/00000000-0000-4000-8000-000000000000', { token: a.token, body: { name: 'Z' } }))
        .status,
      404,
    );
  });

  it('rotates to new immutable versions: latest tracks, pinned stays, externalRef kept unless given', async () => {
    const v1 = value('v1');
    const v2 = value('v2');
    const v3 = value('v3');
    const secret = await createSecret(a.company.id, a.token, { name: 'ROTATE_ME', value: v1, externalRef: 'keep/me' });
    const r2 = await req('POST', `/api/secrets/${secret.id}/rotate`, { token: a.token, body: { value: v2 } });
    assert.equal(r2.status, 200);
    assert.equal(r2.body.id, secret.id);
    assert.equal(r2.body.latestVersion, 2);
    assert.equal(r2.body.externalRef, 'keep/me');
    const r3 = await req('POST', `/api/secrets/${secret.id}/rotate`, {
      token: a.token,
      body: { value: v3, externalRef: 'moved' },
    });
    assert.equal(r3.body.latestVersion, 3);
    assert.equal(r3.body.externalRef, 'moved');

    const ref = (version?: 'latest' | number) => ({ secretId: secret.id, version });
    assert.equal(await resolveSecretValue(db, masterKey, a.company.id, ref()), v3);
    assert.equal(await resolveSecretValue(db, masterKey, a.company.id, ref('latest')), v3);
    assert.equal(await resolveSecretValue(db, masterKey, a.company.id, ref(1)), v1);
    assert.equal(await resolveSecretValue(db, masterKey, a.company.id, ref(2)), v2);
    await assert.rejects(resolveSecretValue(db, masterKey, a.company.id, ref(4)), SecretResolutionError);

    // Older versions were not rewritten by the rotations.
    const rows = await versionRows(secret.id);
    assert.deepEqual(
      rows.map((r) => r.version),
      [1, 2, 3],
    );
    assert.equal((await req('POST', `/api/secrets/${secret.id}/rotate`, { token: a.token, body: {} })).status, 400);
    assert.equal(
      (await req('POST', `/api/secrets/${secret.id}/rotate`, { token: a.token, body: { value: '' } })).status,
      400,
    );
  });

  it('gives concurrent rotations distinct versions', async () => {
    const secret = await createSecret(a.company.id, a.token, { name: 'RACE' });
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        req('POST', `/api/secrets/${secret.id}/rotate`, { token: a.token, body: { value: value(`race${i}`) } }),
      ),
    );
    assert.ok(results.every((r) => r.status === 200));
    assert.deepEqual(
      results.map((r) => r.body.latestVersion).sort((x, y) => x - y),
      [2, 3, 4, 5, 6, 7, 8, 9],
    );
    assert.deepEqual(
      (await versionRows(secret.id)).map((r) => r.version),
      [1, 2, 3, 4, 5, 6, 7, 8, 9],
    );
  });

  it('deletes a secret with all its versions; resolution then fails', async () => {
    const secret = await createSecret(a.company.id, a.token, { name: 'DELETE_ME' });
    await req('POST', `/api/secrets/${secret.id}/rotate`, { token: a.token, body: { value: value('del2') } });
    const res = await req('DELETE', `/api/secrets/${secret.id}`, { token: a.token });
    assert.equal(res.status, 200);
    assert.equal((await versionRows(secret.id)).length, 0);
    const list = await req('GET', `/api/companies/${a.company.id}/secrets`, { token: a.token });
    assert.ok(!list.body.some((s: any) => s.id === secret.id));
    await assert.rejects(
      resolveSecretValue(db, masterKey, a.company.id, { secretId: secret.id, version: 1 }),
      /does not exist/,
    );
    assert.equal((await req('DELETE', `/api/secrets/${secret.id}`, { token: a.token })).status, 404);
    assert.equal(
      (await req('POST', `/api/secrets/${secret.id}/rotate`, { token: a.token, body: { value: value('late') } }))
        .status,
      404,
    );
  });

  it('writes activity for every mutation, with no value in the details', async () => {
    const secret = await createSecret(a.company.id, a.token, { name: 'AUDITED' });
    await req('PATCH', `/api/secrets/${secret.id}`, { token: a.token, body: { description: 'd' } });
    await req('POST', `/api/secrets/${secret.id}/rotate`, { token: a.token, body: { value: value('audit') } });
    await req('DELETE', `/api/secrets/${secret.id}`, { token: a.token });
    const feed = await req('GET', `/api/companies/${a.company.id}/activity?entityType=secret&entityId=${secret.id}`, {
      token: a.token,
    });
    assert.equal(feed.status, 200);
    assert.deepEqual(
      feed.body.map((e: any) => e.action),
      ['secret.deleted', 'secret.rotated', 'secret.updated', 'secret.created'],
    );
    assert.equal(feed.body[1].details.version, 2);
    // The stored rows, not only the feed, are free of plaintext.
    const { rows } = await t.database.pool.query(
      'select details::text as d from activity_log where company_id = $1 and details is not null',
      [a.company.id],
    );
    for (const row of rows) for (const p of plaintexts) assert.ok(!row.d.includes(p));
  });
});

describe('secrets: who may call', () => {
  let secret: any;
  before(async () => {
    secret = await createSecret(a.company.id, a.token, { name: 'GUARDED' });
  });

  const routes = (companyId: string, secretId: string): [string, string, unknown?][] => [
    ['GET', `/api/companies/${companyId}/secret-providers`],
    ['GET', `/api/companies/${companyId}/secrets`],
    [
      'POST',
      `/api/companies/${companyId}/secrets`,
      { name: `N_${randomBytes(3).toString('hex')}`, value: value('guard') },
    ],
    ['PATCH', `/api/secrets/${secretId}`, { description: 'x' }],
    ['POST', `/api/secrets/${secretId}/rotate`, { value: value('guard') }],
    ['DELETE', `/api/secrets/${secretId}`],
  ];

  it('answers 403 to agents on every route, even the CEO of the same company', async () => {
    for (const agent of [agentA, ceoA, agentB]) {
      for (const [method, url, body] of routes(a.company.id, secret.id)) {
        const res = await req(method, url, { token: agent.token, body });
        assert.equal(res.status, 403, `${method} ${url}`);
      }
    }
    // And for their own company too.
    for (const [method, url, body] of routes(b.company.id, secret.id))
      assert.equal((await req(method, url, { token: agentB.token, body })).status, 403);
  });

  it('answers 403 to a board user of another company and 404 for missing resources', async () => {
    for (const [method, url, body] of routes(a.company.id, secret.id)) {
      assert.equal((await req(method, url, { token: b.token, body })).status, 403, `${method} ${url}`);
    }
    const missing = '00000000-0000-4000-8000-000000000000';
    for (const [method, url, body] of routes(missing, missing)) {
      assert.equal((await req(method, url, { token: a.token, body })).status, 404, `${method} ${url}`);
    }
    for (const [method, url, body] of routes(a.company.id, secret.id))
      assert.equal((await req(method, url, { body })).status, 401);
    // Nothing above changed the secret.
    const [row] = (
      await t.database.pool.query('select latest_version, description from secrets where id = $1', [secret.id])
    ).rows;
    assert.deepEqual(row, { latest_version: 1, description: null });
  });
});

describe('secrets: storage and resolution', () => {
  it('stores only ciphertext, bound to (company, secret, version)', async () => {
    const plain = value('stored');
    const secret = await createSecret(a.company.id, a.token, { name: 'AT_REST', value: plain });
    const [row] = await versionRows(secret.id);
    const sealed = { iv: row!.iv, authTag: row!.auth_tag, ciphertext: row!.ciphertext };
    const dump = JSON.stringify(row);
    assert.ok(!dump.includes(plain) && !dump.includes(Buffer.from(plain).toString('base64')));
    assert.equal(Buffer.from(row!.iv, 'base64').length, 12);
    const context = { companyId: a.company.id, secretId: secret.id, version: 1 };
    assert.equal(openSecret(masterKey, context, sealed), plain);
    assert.throws(() => openSecret(masterKey, { ...context, version: 2 }, sealed));
    assert.throws(() => openSecret(masterKey, { ...context, companyId: b.company.id }, sealed));
    assert.throws(() => openSecret(randomBytes(32), context, sealed));
    // Same value twice: a fresh IV each time, so the ciphertexts differ.
    const again = await createSecret(a.company.id, a.token, { name: 'AT_REST_2', value: plain });
    assert.notEqual((await versionRows(again.id))[0]!.ciphertext, row!.ciphertext);
  });

  it('refuses a version row moved to another version or another secret (tampering)', async () => {
    const secret = await createSecret(a.company.id, a.token, { name: 'TAMPER' });
    await req('POST', `/api/secrets/${secret.id}/rotate`, { token: a.token, body: { value: value('tamper2') } });
    const other = await createSecret(a.company.id, a.token, { name: 'TAMPER_OTHER' });
    const pool = t.database.pool;
    // Version 1's sealed bytes copied into version 2's row: the AAD says version 2, so it fails.
    await pool.query(
      `update secret_versions v2 set iv = v1.iv, auth_tag = v1.auth_tag, ciphertext = v1.ciphertext
         from secret_versions v1 where v1.secret_id = $1 and v1.version = 1 and v2.secret_id = $1 and v2.version = 2`,
      [secret.id],
    );
    await assert.rejects(
      resolveSecretValue(db, masterKey, a.company.id, { secretId: secret.id }),
      /failed authentication/,
    );
    assert.equal(
      typeof (await resolveSecretValue(db, masterKey, a.company.id, { secretId: secret.id, version: 1 })),
      'string',
    );
    // The same bytes copied into another secret's row fail as well.
    await pool.query(
      `update secret_versions o set iv = s.iv, auth_tag = s.auth_tag, ciphertext = s.ciphertext
         from secret_versions s where s.secret_id = $1 and s.version = 1 and o.secret_id = $2 and o.version = 1`,
      [secret.id, other.id],
    );
    await assert.rejects(
      resolveSecretValue(db, masterKey, a.company.id, { secretId: other.id }),
      SecretResolutionError,
    );
  });

  it('resolves only within the owning company', async () => {
    const secret = await createSecret(a.company.id, a.token, { name: 'MINE' });
    await assert.rejects(
      resolveSecretValue(db, masterKey, b.company.id, { secretId: secret.id }),
      /does not exist in this company/,
    );
    await assert.rejects(
      resolveSecretValue(db, masterKey, a.company.id, { secretId: '00000000-0000-4000-8000-000000000000' }),
      SecretResolutionError,
    );
  });

  it('resolves env bindings with secret references, following rotations and refusing other companies', async () => {
    const v1 = value('env1');
    const v2 = value('env2');
    const secret = await createSecret(a.company.id, a.token, { name: 'ENV_SECRET', value: v1 });
    const env = {
      PLAIN: 'visible',
      WRAPPED: { type: 'plain', value: 'also-visible' },
      LATEST: { type: 'secret_ref', secretId: secret.id },
      PINNED: { type: 'secret_ref', secretId: secret.id, version: 1 },
    };
    await assertSecretRefsInCompany(db, a.company.id, env);
    await assert.rejects(assertSecretRefsInCompany(db, b.company.id, env), (err: any) => err.status === 422);
    assert.deepEqual(await resolveEnvBindings(db, masterKey, a.company.id, env), {
      PLAIN: 'visible',
      WRAPPED: 'also-visible',
      LATEST: v1,
      PINNED: v1,
    });
    await req('POST', `/api/secrets/${secret.id}/rotate`, { token: a.token, body: { value: v2 } });
    assert.deepEqual(await resolveEnvBindings(db, masterKey, a.company.id, env), {
      PLAIN: 'visible',
      WRAPPED: 'also-visible',
      LATEST: v2,
      PINNED: v1,
    });
    await assert.rejects(resolveEnvBindings(db, masterKey, b.company.id, env), SecretResolutionError);
    await assert.rejects(
      resolveEnvBindings(db, masterKey, a.company.id, { BAD: { type: 'other' } }),
      SecretResolutionError,
    );
  });

  it('resolves references stored by the agents route; a reference to another company is refused there', async () => {
    const plain = value('agent-env');
    const secret = await createSecret(a.company.id, a.token, { name: 'AGENT_ENV', value: plain });
    const env = { TOKEN: { type: 'secret_ref', secretId: secret.id } };
    const refused = await req('POST', `/api/companies/${b.company.id}/agents`, {
      token: b.token,
      body: { name: 'Borrower', role: 'engineer', adapterType: 'process', adapterConfig: { env } },
    });
    assert.equal(refused.status, 422);
    const agent = await newAgent(t, a.token, a.company.id, { adapterConfig: { env } });
    const { rows } = await t.database.pool.query('select adapter_config from agents where id = $1', [agent.agent.id]);
    assert.deepEqual(await resolveEnvBindings(db, masterKey, a.company.id, rows[0].adapter_config.env), {
      TOKEN: plain,
    });
    await req('DELETE', `/api/secrets/${secret.id}`, { token: a.token });
    await assert.rejects(resolveEnvBindings(db, masterKey, a.company.id, rows[0].adapter_config.env), /does not exist/);
  });
});
