// Credential resolution (SPEC section 5), the login link, board keys, cli-auth, deployment modes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { boardApiKeys, boardSessions, users } from '../src/db/schema/index.ts';
import { mintAgentJwt } from '../src/modules/auth/jwt.ts';
import { createLoginToken, ensureInstanceOwner } from '../src/modules/auth/service.ts';
import { hashToken } from '../src/lib/tokens.ts';
import { startTestApp, useTestApp, type TestApp } from './helpers/app.ts';
import { companyWithAgent } from './helpers/factories.ts';

const t = await useTestApp();

/** Signs in `userId` through the login link; returns the session cookie value. */
async function sessionFor(app: TestApp, userId: string): Promise<string> {
  const token = await createLoginToken(app.database.db, userId);
  const res = await app.request('GET', `/api/auth/login?token=${token}`);
  assert.equal(res.status, 302);
  return /boardroom_session=([^;]+)/.exec(String(res.headers['set-cookie']))![1]!;
}

const cookie = (session: string) => ({ cookie: `boardroom_session=${session}` });

async function ownerId(app: TestApp): Promise<string> {
  return (await ensureInstanceOwner(app.database.db)).id;
}

describe('login link and session', () => {
  it('trades a one-time token for an HttpOnly session cookie and redirects to the board', async () => {
    const token = await createLoginToken(t.database.db, await ownerId(t));
    const res = await t.request('GET', `/api/auth/login?token=${token}`);
    assert.equal(res.status, 302);
    assert.equal(res.headers.location, '/');
    const setCookie = String(res.headers['set-cookie']);
    assert.match(setCookie, /^boardroom_session=sess_[\w-]+;/);
    assert.match(setCookie, /HttpOnly/);
    assert.match(setCookie, /SameSite=Lax/);
    assert.match(setCookie, /Path=\//);
    const session = /boardroom_session=([^;]+)/.exec(setCookie)![1]!;
    const me = await t.request('GET', '/api/cli-auth/me', { headers: cookie(session) });
    assert.equal(me.status, 200);
    assert.equal(me.body.via, 'session');
    assert.equal(me.body.keyId, null);
    assert.equal(me.body.user.isInstanceOwner, true);

    const again = await t.request('GET', `/api/auth/login?token=${token}`);
    assert.equal(again.status, 401, 'the token works once');
    assert.equal(again.headers['set-cookie'], undefined);
    assert.equal((await t.request('GET', '/api/auth/login?token=login_unknown')).status, 401);
    assert.equal((await t.request('GET', '/api/auth/login')).status, 400);
  });

  it('sends a browser with a used link to the sign-in page, which says why', async () => {
    const token = await createLoginToken(t.database.db, await ownerId(t));
    assert.equal((await t.request('GET', `/api/auth/login?token=${token}`)).status, 302);
    const again = await t.request('GET', `/api/auth/login?token=${token}`, {
      headers: { accept: 'text/html,application/xhtml+xml' },
    });
    assert.equal(again.status, 302);
    assert.equal(again.headers.location, '/sign-in?reason=link-invalid');
    assert.equal(again.headers['set-cookie'], undefined);
  });

  it('signs out: the session stops working at once and the cookie is cleared; without one it only clears', async () => {
    const session = await sessionFor(t, await ownerId(t));
    assert.equal((await t.request('GET', '/api/companies', { headers: cookie(session) })).status, 200);
    const out = await t.request('POST', '/api/auth/logout', { headers: cookie(session) });
    assert.equal(out.status, 204);
    assert.match(String(out.headers['set-cookie']), /^boardroom_session=;.*Expires=Thu, 01 Jan 1970/);
    assert.equal((await t.request('GET', '/api/companies', { headers: cookie(session) })).status, 401);
    assert.equal((await t.request('POST', '/api/auth/logout')).status, 204);
  });

  it('refuses an expired login token and an expired or unknown session', async () => {
    const token = await createLoginToken(t.database.db, await ownerId(t));
    await t.database.db
      .update(boardSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(boardSessions.tokenHash, hashToken(token)));
    assert.equal((await t.request('GET', `/api/auth/login?token=${token}`)).status, 401);

    const session = await sessionFor(t, await ownerId(t));
    await t.database.db
      .update(boardSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(boardSessions.tokenHash, hashToken(session)));
    assert.equal((await t.request('GET', '/api/companies', { headers: cookie(session) })).status, 401);
    assert.equal((await t.request('GET', '/api/companies', { headers: cookie('sess_made_up') })).status, 401);
  });
});

describe('credential resolution', () => {
  it('a valid bearer wins over a session cookie', async () => {
    const alice = await t.newBoardUser('Alice');
    const bob = await t.newBoardUser('Bob');
    const aliceSession = await sessionFor(t, alice.userId);
    const me = await t.request('GET', '/api/cli-auth/me', { token: bob.token, headers: cookie(aliceSession) });
    assert.equal(me.status, 200);
    assert.equal(me.body.user.id, bob.userId);
    assert.equal(me.body.via, 'board_key');
    assert.equal(
      (await t.request('GET', '/api/cli-auth/me', { headers: cookie(aliceSession) })).body.user.id,
      alice.userId,
    );
  });

  it('an invalid, revoked or malformed bearer answers 401 even with a valid cookie', async () => {
    const alice = await t.newBoardUser('Alice');
    const session = await sessionFor(t, alice.userId);
    const created = await t.request('POST', '/api/board-keys', { token: alice.token, body: { name: 'to revoke' } });
    assert.equal((await t.request('DELETE', `/api/board-keys/${created.body.id}`, { token: alice.token })).status, 200);
    for (const authorization of [
      'Bearer svc_board_not-a-real-key',
      `Bearer ${created.body.token}`,
      'Bearer svc_agent_unknown',
      'Bearer a.b.c',
      'Basic YWxpY2U6eA==',
      'Bearer',
    ]) {
      const res = await t.request('GET', '/api/companies', { headers: { authorization, ...cookie(session) } });
      assert.equal(res.status, 401, authorization);
      assert.equal(typeof res.body.error, 'string');
    }
  });

  it('GET /api/cli-auth/me returns the user, company ids and key id of a board key', async () => {
    const { company, token } = await t.newCompany();
    const other = await t.newCompany();
    const me = await t.request('GET', '/api/cli-auth/me', { token });
    assert.equal(me.status, 200);
    assert.deepEqual(me.body.companyIds, [company.id], 'the creator is a member of exactly their company');
    assert.ok(!me.body.companyIds.includes(other.company.id));
    assert.equal(me.body.user.isInstanceOwner, false);
    assert.equal(me.body.via, 'board_key');
    const keys = await t.request('GET', '/api/board-keys', { token });
    assert.equal(keys.body.length, 1);
    assert.equal(me.body.keyId, keys.body[0].id);
  });

  it('agents are refused board-only identity routes with 403', async () => {
    const { company, agent } = await companyWithAgent(t);
    for (const [method, url] of [
      ['GET', '/api/cli-auth/me'],
      ['GET', '/api/board-keys'],
      ['POST', '/api/board-keys'],
      ['DELETE', '/api/board-keys/00000000-0000-4000-8000-000000000000'],
    ] as const) {
      assert.equal(
        (await t.request(method, url, { token: agent.token, body: method === 'POST' ? { name: 'x' } : undefined }))
          .status,
        403,
        `${method} ${url}`,
      );
    }
    const jwt = await mintAgentJwt(t.config.jwtSecret, {
      agentId: agent.agent.id,
      companyId: company.id,
      adapterType: 'process',
      runId: 'run-jwt',
    });
    assert.equal((await t.request('GET', '/api/cli-auth/me', { token: jwt })).status, 403);
    assert.equal(
      (await t.request('GET', `/api/companies/${company.id}/agents`, { token: jwt })).status,
      200,
      'the JWT authenticates the agent',
    );
  });

  it('attaches X-Service-Run-Id to the actor (recorded on activity); an agent JWT keeps its own run id', async () => {
    const { company, boardToken, agent } = await companyWithAgent(t);
    const patched = await t.request('PATCH', `/api/companies/${company.id}`, {
      token: boardToken,
      headers: { 'x-service-run-id': 'run-board-1' },
      body: { description: 'by run' },
    });
    assert.equal(patched.status, 200);
    const jwt = await mintAgentJwt(t.config.jwtSecret, {
      agentId: agent.agent.id,
      companyId: company.id,
      adapterType: 'process',
      runId: 'run-from-claim',
    });
    const byJwt = await t.request('PATCH', `/api/agents/${agent.agent.id}`, {
      token: jwt,
      headers: { 'x-service-run-id': 'run-spoofed' },
      body: { title: 'Updated by run' },
    });
    assert.equal(byJwt.status, 200);
    const activity = await t.request('GET', `/api/companies/${company.id}/activity`, { token: boardToken });
    assert.equal(activity.status, 200);
    const runIds = activity.body.map((e: any) => e.runId);
    assert.ok(runIds.includes('run-board-1'), JSON.stringify(runIds));
    assert.ok(runIds.includes('run-from-claim'), JSON.stringify(runIds));
    assert.ok(!runIds.includes('run-spoofed'));
  });
});

describe('board keys', () => {
  it('issues a key once, lists without the plaintext, stores only its hash, and revokes', async () => {
    const alice = await t.newBoardUser('Alice');
    const bob = await t.newBoardUser('Bob');
    const created = await t.request('POST', '/api/board-keys', { token: alice.token, body: { name: 'laptop' } });
    assert.equal(created.status, 201);
    assert.match(created.body.token, /^svc_board_[\w-]{43}$/);
    assert.equal(created.body.name, 'laptop');
    assert.equal(created.body.prefix, created.body.token.slice(0, 14));
    assert.equal(created.body.revokedAt, null);
    const defaulted = await t.request('POST', '/api/board-keys', { token: alice.token, body: {} });
    assert.equal(defaulted.status, 201);
    assert.equal(defaulted.body.name, 'board key');

    const [row] = await t.database.db.select().from(boardApiKeys).where(eq(boardApiKeys.id, created.body.id));
    assert.equal(row!.keyHash, hashToken(created.body.token));
    assert.ok(!JSON.stringify(row).includes(created.body.token), 'the plaintext is not stored');

    assert.equal((await t.request('GET', '/api/companies', { token: created.body.token })).status, 200);
    const list = await t.request('GET', '/api/board-keys', { token: alice.token });
    assert.equal(list.status, 200);
    assert.equal(list.body.length, 3);
    assert.ok(!JSON.stringify(list.body).includes(created.body.token), 'listing never shows a plaintext');
    assert.ok(list.body.every((k: any) => !('token' in k)));
    const used = list.body.find((k: any) => k.id === created.body.id);
    assert.notEqual(used.lastUsedAt, null, 'lastUsedAt is recorded');
    assert.equal(
      (await t.request('GET', '/api/board-keys', { token: bob.token })).body.length,
      1,
      'only the caller’s own keys',
    );

    assert.equal(
      (await t.request('DELETE', `/api/board-keys/${created.body.id}`, { token: bob.token })).status,
      404,
      'another user cannot revoke it',
    );
    const revoked = await t.request('DELETE', `/api/board-keys/${created.body.id}`, { token: alice.token });
    assert.equal(revoked.status, 200);
    assert.notEqual(revoked.body.revokedAt, null);
    assert.equal((await t.request('GET', '/api/companies', { token: created.body.token })).status, 401);
    const again = await t.request('DELETE', `/api/board-keys/${created.body.id}`, { token: alice.token });
    assert.equal(again.body.revokedAt, revoked.body.revokedAt, 'revoking twice keeps the first time');
    assert.equal(
      (await t.request('DELETE', '/api/board-keys/00000000-0000-4000-8000-000000000000', { token: alice.token }))
        .status,
      404,
    );
    assert.equal((await t.request('POST', '/api/board-keys', { body: { name: 'x' } })).status, 401);
  });
});

describe('deployment modes', () => {
  it('authenticated (default): every non-public route needs a credential', async () => {
    assert.equal(t.config.deploymentMode, 'authenticated');
    for (const url of ['/api/companies', '/api/cli-auth/me', '/api/board-keys'])
      assert.equal((await t.request('GET', url)).status, 401, url);
    assert.equal((await t.request('GET', '/api/health')).status, 200);
  });

  it('there is one instance owner, with access to every company; a creating board user becomes a member', async () => {
    const first = await ensureInstanceOwner(t.database.db);
    const second = await ensureInstanceOwner(t.database.db);
    assert.equal(second.created, false);
    assert.equal(second.id, first.id);
    assert.equal((await t.database.db.select().from(users).where(eq(users.isInstanceOwner, true))).length, 1);

    const { company, token } = await t.newCompany();
    const outsider = await t.newBoardUser();
    assert.equal((await t.request('GET', `/api/companies/${company.id}`, { token })).status, 200);
    assert.equal((await t.request('GET', `/api/companies/${company.id}`, { token: t.ownerToken })).status, 200);
    assert.equal((await t.request('GET', `/api/companies/${company.id}`, { token: outsider.token })).status, 403);
  });

  it('local_trusted: requests without credentials act as the local board user, invalid bearers still 401', async () => {
    const local = await startTestApp({ deploymentMode: 'local_trusted' });
    try {
      const me = await local.request('GET', '/api/cli-auth/me');
      assert.equal(me.status, 200);
      assert.equal(me.body.via, 'local_trusted');
      assert.equal(me.body.user.id, await ownerId(local));
      assert.equal(me.body.user.isInstanceOwner, true);
      const created = await local.request('POST', '/api/companies', { body: { name: 'Local Co' } });
      assert.equal(created.status, 201);
      assert.equal((await local.request('GET', '/api/health')).body.deploymentMode, 'local_trusted');

      assert.equal((await local.request('GET', '/api/companies', { token: 'svc_board_invalid' })).status, 401);
      const bob = await local.newBoardUser('Bob');
      const asBob = await local.request('GET', '/api/cli-auth/me', { token: bob.token });
      assert.equal(asBob.body.user.id, bob.userId, 'a valid key still identifies its own user');
      const { agent } = await companyWithAgent(local);
      assert.equal(
        (await local.request('GET', '/api/cli-auth/me', { token: agent.token })).status,
        403,
        'an agent stays an agent',
      );
    } finally {
      await local.close();
    }
  });
});
