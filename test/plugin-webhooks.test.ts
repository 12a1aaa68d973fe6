// Plugin webhooks (issue 27 section 4) through the API, with real workers: the `listener` fixture
// logs every delivery it is handed to stderr, and the tests read it back from GET
// /api/plugins/{id}/logs. Each company gets its own endpoint per declared webhook; a delivery is
// checked (404, 401, 413), recorded without its credential headers, answered 202 at once, and handed
// to that company's worker exactly once by the engine's dispatcher, even with two replicas.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { eq } from 'drizzle-orm';
import { pluginWebhookDeliveries } from '../src/db/schema/index.ts';
import { listenForNotifications, type Notifications } from '../src/db/notifications.ts';
import { startWebhookDispatch, type Dispatch } from '../src/engine/plugins/webhook-dispatch.ts';
import { pluginWorkersOf } from '../src/modules/plugins/routes.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { waitFor } from './helpers/wait.ts';

const LISTENER = path.resolve(import.meta.dirname, 'fixtures/plugins/listener');
const logger = pino({ level: 'silent' });

let t: TestApp;
let replica: TestApp | null = null;
let pluginId: string;
let companyA: string;
let companyB: string;
let boardB: string;
/** Each company's webhooks as its enable answer gave them (with the secrets, shown that once). */
const hooks: Record<string, Record<string, { url: string; secret?: string; signing: string }>> = {};
const loops: { dispatch: Dispatch; notifications: Notifications }[] = [];

function startDispatch(app: TestApp) {
  const notifications = listenForNotifications(app.databaseUrl, logger);
  const dispatch = startWebhookDispatch(
    { db: app.database.db, notifications, workers: pluginWorkersOf(app.app), logger },
    { pollMs: 200 },
  );
  loops.push({ dispatch, notifications });
}

async function enable(companyId: string, token: string) {
  const res = await t.request('POST', `/api/companies/${companyId}/plugins/${pluginId}/enable`, {
    token,
    body: { capabilities: ['webhooks', 'events.subscribe'] },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  hooks[companyId] = Object.fromEntries(res.body.webhooks.map((w: any) => [w.key, w]));
}

before(async () => {
  t = await startTestApp();
  companyA = (await t.newCompany(t.ownerToken)).company.id;
  const b = await t.newCompany();
  companyB = b.company.id;
  boardB = b.token;
  const res = await t.request('POST', '/api/plugins/install', { token: t.ownerToken, body: { packageName: LISTENER } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  pluginId = res.body.id;
  await enable(companyA, t.ownerToken);
  await enable(companyB, boardB);
  startDispatch(t);
});
after(async () => {
  for (const loop of loops) {
    await loop.dispatch.stop();
    await loop.notifications.close();
  }
  await replica?.close();
  await t.close();
});

/** The path of a webhook URL (requests go through inject). */
const pathOf = (url: string) => new URL(url).pathname;

function post(url: string, body: string | Buffer, headers: Record<string, string> = {}) {
  return t.request('POST', pathOf(url), { payload: body, headers: { 'content-type': 'application/json', ...headers } });
}

const hmac = (secret: string, ...parts: string[]) => {
  const mac = createHmac('sha256', secret);
  for (const part of parts) mac.update(part);
  return mac.digest('hex');
};

interface Note {
  companyId: string;
  note: any;
}

/** What the listener noted, on one replica, from its log lines. */
async function notes(app: TestApp = t): Promise<Note[]> {
  const res = await app.request('GET', `/api/plugins/${pluginId}/logs`, { token: t.ownerToken });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body
    .filter((l: any) => l.source === 'stderr' && l.message.startsWith('listener: '))
    .map((l: any) => ({ companyId: l.companyId, note: JSON.parse(l.message.slice('listener: '.length)) }));
}

const handed = (all: Note[], deliveryId: string) =>
  all.filter((n) => n.note.kind === 'webhook' && n.note.deliveryId === deliveryId);

async function deliveryRow(id: string) {
  const [row] = await t.database.db.select().from(pluginWebhookDeliveries).where(eq(pluginWebhookDeliveries.id, id));
  return row;
}

describe('plugin webhooks', () => {
  it("lists each company's own endpoint per declared webhook, with its signing and no secret", async () => {
    const res = await t.request('GET', `/api/companies/${companyA}/plugins`, { token: t.ownerToken });
    assert.equal(res.status, 200);
    const listener = res.body.find((p: any) => p.pluginId === pluginId);
    assert.deepEqual(
      listener.webhooks.map((w: any) => [w.key, w.signing, 'secret' in w]),
      [
        ['open', 'none', false],
        ['bearer', 'bearer', false],
        ['hmac', 'hmac_sha256', false],
        ['codehost', 'codehost_hmac', false],
      ],
    );
    for (const w of listener.webhooks) {
      assert.equal(w.url, hooks[companyA]![w.key]!.url);
      assert.match(pathOf(w.url), new RegExp(`^/api/plugins/${pluginId}/webhooks/[A-Za-z0-9_-]{24}$`));
      assert.notEqual(w.url, hooks[companyB]![w.key]!.url, 'each company has its own endpoint key');
    }
    // Secrets came once, in the enable answers: signed modes only.
    assert.match(hooks[companyA]!.bearer!.secret!, /^whsec_/);
    assert.equal(hooks[companyA]!.open!.secret, undefined);
  });

  it("routes a delivery to its endpoint's company's worker only", async () => {
    const a = await post(hooks[companyA]!.open!.url, JSON.stringify({ to: 'a' }));
    const b = await post(hooks[companyB]!.open!.url, JSON.stringify({ to: 'b' }));
    assert.equal(a.status, 202, JSON.stringify(a.body));
    assert.equal(b.status, 202, JSON.stringify(b.body));
    const all = await waitFor('both deliveries handed over', async () => {
      const n = await notes();
      return handed(n, a.body.deliveryId).length && handed(n, b.body.deliveryId).length ? n : null;
    });
    const [toA] = handed(all, a.body.deliveryId);
    const [toB] = handed(all, b.body.deliveryId);
    assert.equal(toA!.companyId, companyA);
    assert.equal(toA!.note.companyId, companyA);
    assert.deepEqual(toA!.note.input.json, { to: 'a' });
    assert.equal(toA!.note.key, 'open');
    assert.deepEqual(toA!.note.actor, { type: 'plugin', id: pluginId }, 'the plugin acts alone');
    assert.equal(toB!.companyId, companyB);
    assert.deepEqual(toB!.note.input.json, { to: 'b' });
    assert.equal((await deliveryRow(a.body.deliveryId))!.status, 'delivered');
  });

  it('answers 404 for an unknown endpoint key, or a real one under another plugin id', async () => {
    const unknown = await t.request('POST', `/api/plugins/${pluginId}/webhooks/not-a-key-of-anyone-0000`, {
      body: {},
    });
    assert.equal(unknown.status, 404, JSON.stringify(unknown.body));
    const realKey = pathOf(hooks[companyA]!.open!.url).split('/').at(-1);
    const otherPlugin = await t.request(
      'POST',
      `/api/plugins/00000000-0000-4000-8000-000000000000/webhooks/${realKey}`,
      { body: {} },
    );
    assert.equal(otherPlugin.status, 404);
  });

  it('checks each signing mode: a proven delivery 202, anything else 401', async () => {
    const body = JSON.stringify({ signed: true });
    const bearer = hooks[companyA]!.bearer!;
    assert.equal((await post(bearer.url, body)).status, 401);
    assert.equal((await post(bearer.url, body, { authorization: 'Bearer whsec_wrong' })).status, 401);
    assert.equal(
      (await post(bearer.url, body, { authorization: `Bearer ${hooks[companyB]!.bearer!.secret}` })).status,
      401,
      "another company's secret",
    );
    assert.equal((await post(bearer.url, body, { authorization: `Bearer ${bearer.secret}` })).status, 202);

    const signed = hooks[companyA]!.hmac!;
    assert.equal((await post(signed.url, body)).status, 401);
    assert.equal(
      (await post(signed.url, body, { 'x-hub-signature-256': `sha256=${hmac('wrong', body)}` })).status,
      401,
    );
    const good = `sha256=${hmac(signed.secret!, body)}`;
    assert.equal((await post(signed.url, `${body} `, { 'x-hub-signature-256': good })).status, 401, 'other bytes');
    assert.equal((await post(signed.url, body, { 'x-hub-signature-256': good })).status, 202);
    assert.equal((await post(signed.url, body, { 'x-service-signature': hmac(signed.secret!, body) })).status, 202);

    const codehost = hooks[companyA]!.codehost!;
    const now = String(Math.floor(Date.now() / 1000));
    const sig = (ts: string) => hmac(codehost.secret!, `${ts}.`, body);
    assert.equal((await post(codehost.url, body, { 'x-service-signature': sig(now) })).status, 401, 'no timestamp');
    const stale = String(Math.floor(Date.now() / 1000) - 3600);
    const old = await post(codehost.url, body, { 'x-service-signature': sig(stale), 'x-service-timestamp': stale });
    assert.equal(old.status, 401);
    assert.match(old.body.error, /replay window/);
    assert.equal(
      (await post(codehost.url, body, { 'x-service-signature': sig(now), 'x-service-timestamp': now })).status,
      202,
    );
    assert.equal((await post(hooks[companyA]!.open!.url, body)).status, 202, 'none: no check');
  });

  it('caps the body at 256 KiB (413 beyond)', async () => {
    const url = hooks[companyA]!.open!.url;
    const at = await post(url, Buffer.alloc(256 * 1024, 'a'), { 'content-type': 'text/plain' });
    assert.equal(at.status, 202, JSON.stringify(at.body));
    const over = await post(url, Buffer.alloc(256 * 1024 + 1, 'a'), { 'content-type': 'text/plain' });
    assert.equal(over.status, 413);
    // Text the database cannot hold is refused as bad input, never a server error.
    const nul = await post(url, Buffer.from([0x61, 0x00, 0x62]), { 'content-type': 'text/plain' });
    assert.equal(nul.status, 400, JSON.stringify(nul.body));
    // Any other bytes are the sender's, kept as text (an escaped \u0000 in JSON is six characters,
    // not a NUL): a 5,000-deep JSON body is kept too, never a server error.
    const deep = `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`;
    const kept = await post(url, deep, { 'content-type': 'application/json' });
    assert.equal(kept.status, 202, JSON.stringify(kept.body));
  });

  it('records and hands over no authorization, signature, cookie or token header', async () => {
    const bearer = hooks[companyA]!.bearer!;
    const res = await post(bearer.url, JSON.stringify({ kept: 'headers' }), {
      authorization: `Bearer ${bearer.secret}`,
      cookie: 'session=abc',
      'x-hub-signature-256': 'sha256=00',
      'x-api-token': 'tok',
      'x-custom': 'kept',
    });
    assert.equal(res.status, 202);
    const row = (await deliveryRow(res.body.deliveryId))!;
    assert.equal(row.headers['x-custom'], 'kept');
    for (const name of ['authorization', 'cookie', 'x-hub-signature-256', 'x-api-token'])
      assert.equal(row.headers[name], undefined, name);
    assert.ok(!JSON.stringify(row.headers).includes(bearer.secret!));
    const note = await waitFor('the delivery handed over', async () => handed(await notes(), res.body.deliveryId)[0]);
    assert.equal(note!.note.input.headers['x-custom'], 'kept');
    assert.equal(note!.note.input.headers.authorization, undefined);
    assert.equal(note!.note.input.headers.cookie, undefined);
  });

  it('answers 202 before the worker answers (a worker taking 5 s)', async () => {
    const res = await post(hooks[companyA]!.open!.url, JSON.stringify({ sleepMs: 5_000 }));
    assert.equal(res.status, 202);
    const id = res.body.deliveryId;
    // The worker needs 5 s once handed the delivery: the answer came before it could have finished.
    const done = (n: Note[]) => n.some((x) => x.note.kind === 'webhook-done' && x.note.deliveryId === id);
    assert.ok(!done(await notes()), 'the answer did not wait for the worker');
    assert.notEqual((await deliveryRow(id))!.status, 'delivered');
    await waitFor('the slow delivery finished', async () => done(await notes()), 60_000);
    await waitFor('recorded delivered', async () => (await deliveryRow(id))!.status === 'delivered');
  });

  it('records a handler that throws as failed, with its error, and does not hand it over again', async () => {
    const res = await post(hooks[companyA]!.open!.url, JSON.stringify({ fail: true }));
    assert.equal(res.status, 202);
    const row = await waitFor('recorded failed', async () => {
      const r = await deliveryRow(res.body.deliveryId);
      return r?.status === 'failed' ? r : null;
    });
    assert.match(row.error ?? '', /refused this delivery/);
    assert.equal(row.attempts, 1);
  });

  it('rotating gives a new key and secret: the old URL is 404, the old secret 401', async () => {
    const before = hooks[companyA]!.hmac!;
    const res = await t.request('POST', `/api/companies/${companyA}/plugins/${pluginId}/webhooks/hmac/rotate`, {
      token: t.ownerToken,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.notEqual(res.body.url, before.url);
    assert.match(res.body.secret, /^whsec_/);
    assert.notEqual(res.body.secret, before.secret);
    const body = '{"rotated":true}';
    assert.equal((await post(before.url, body, { 'x-hub-signature-256': hmac(before.secret!, body) })).status, 404);
    assert.equal((await post(res.body.url, body, { 'x-hub-signature-256': hmac(before.secret!, body) })).status, 401);
    assert.equal((await post(res.body.url, body, { 'x-hub-signature-256': hmac(res.body.secret, body) })).status, 202);
    const listed = await t.request('GET', `/api/companies/${companyA}/plugins`, { token: t.ownerToken });
    const hmacHook = listed.body.find((p: any) => p.pluginId === pluginId).webhooks.find((w: any) => w.key === 'hmac');
    assert.equal(hmacHook.url, res.body.url);
    assert.equal(hmacHook.secret, undefined, 'the secret is shown in the rotate answer only');
    hooks[companyA]!.hmac = res.body;
    // Another company's board cannot rotate it; an undeclared key is 404.
    const refused = await t.request('POST', `/api/companies/${companyA}/plugins/${pluginId}/webhooks/hmac/rotate`, {
      token: boardB,
    });
    assert.equal(refused.status, 403);
    const unknown = await t.request('POST', `/api/companies/${companyA}/plugins/${pluginId}/webhooks/nope/rotate`, {
      token: t.ownerToken,
    });
    assert.equal(unknown.status, 404);
  });

  it('hands each delivery over exactly once with two replicas claiming', async () => {
    replica = await startTestApp({ replicaOf: t });
    startDispatch(replica);
    const ids: string[] = [];
    const sent = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        post(hooks[i % 2 ? companyA : companyB]!.open!.url, JSON.stringify({ n: i })),
      ),
    );
    for (const res of sent) {
      assert.equal(res.status, 202);
      ids.push(res.body.deliveryId);
    }
    await waitFor(
      'every delivery handed over',
      async () => {
        const rows = await Promise.all(ids.map(deliveryRow));
        const failed = rows.find((r) => r?.status === 'failed');
        assert.equal(failed, undefined, `a delivery failed: ${failed?.error}`);
        return rows.every((r) => r?.status === 'delivered');
      },
      60_000,
    );
    const all = [...(await notes(t)), ...(await notes(replica))];
    for (const id of ids) assert.equal(handed(all, id).length, 1, `delivery ${id} handed over once`);
    for (const id of ids) assert.equal((await deliveryRow(id))!.attempts, 1);
  });

  it('turning the plugin off for a company removes its endpoints (404)', async () => {
    const url = hooks[companyB]!.open!.url;
    const off = await t.request('POST', `/api/companies/${companyB}/plugins/${pluginId}/disable`, { token: boardB });
    assert.equal(off.status, 200);
    assert.deepEqual(off.body.webhooks, []);
    assert.equal((await post(url, '{}')).status, 404);
    const listed = await t.request('GET', `/api/companies/${companyB}/plugins`, { token: boardB });
    assert.deepEqual(listed.body.find((p: any) => p.pluginId === pluginId).webhooks, []);
  });
});
