// Public webhook fires, as an outside sender makes them: raw bytes and headers to the pathname of
// the trigger's webhookUrl, signed (or not) per signing mode. Every refusal is checked to show
// nothing of the trigger.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { useTestApp, type Response } from './helpers/app.ts';
import { newAgent } from './helpers/factories.ts';

const t = await useTestApp();
const { company, token: board } = await t.newCompany();
const companyId: string = company.id;
const { agent, token: agentToken } = await newAgent(t, board, companyId);
const agentId: string = agent.id;

interface Hook {
  routineId: string;
  triggerId: string;
  mode: string;
  /** The pathname of webhookUrl: what the sender posts to. */
  path: string;
  url: string;
  secret: string | null;
}

async function newHook(signingMode: string, fields: Record<string, unknown> = {}): Promise<Hook> {
  const routine = await t.request('POST', `/api/companies/${companyId}/routines`, {
    token: board,
    body: { title: 'Handle a delivery', assigneeAgentId: agentId, concurrencyPolicy: 'always_enqueue' },
  });
  assert.equal(routine.status, 201, JSON.stringify(routine.body));
  const res = await t.request('POST', `/api/routines/${routine.body.id}/triggers`, {
    token: board,
    body: { kind: 'webhook', signingMode, ...fields },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  assert.equal(res.body.signingMode, signingMode);
  const url = res.body.webhookUrl as string;
  return {
    routineId: routine.body.id,
    triggerId: res.body.id,
    mode: signingMode,
    path: new URL(url).pathname,
    url,
    secret: res.body.webhookSecret,
  };
}

const hmac = (secret: string, ...parts: string[]) => {
  const mac = createHmac('sha256', secret);
  for (const part of parts) mac.update(part);
  return mac.digest('hex');
};
const nowSec = () => Math.floor(Date.now() / 1000);

function fire(hook: Hook, payload: string, headers: Record<string, string> = {}): Promise<Response> {
  return t.request('POST', hook.path, { payload, headers: { 'content-type': 'application/json', ...headers } });
}

/** The headers a correct sender of this mode would send for `body`. */
function signed(hook: Hook, body: string, timestamp = nowSec()): Record<string, string> {
  const secret = hook.secret!;
  if (hook.mode === 'bearer') return { authorization: `Bearer ${secret}` };
  if (hook.mode === 'hmac_sha256') return { 'x-service-signature': hmac(secret, body) };
  if (hook.mode === 'codehost_hmac')
    return {
      'x-hub-signature-256': `sha256=${hmac(secret, `${timestamp}.`, body)}`,
      'x-service-timestamp': String(timestamp),
    };
  return {};
}

/** A refusal: the status, and nothing of the trigger in the body (ids, secret, signing mode). */
function refused(res: Response, status: number, hook: Hook): void {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(typeof res.body.error, 'string');
  const text = JSON.stringify(res.body);
  for (const secretThing of [hook.routineId, hook.triggerId, hook.secret].filter(Boolean))
    assert.ok(!text.includes(secretThing!), `error body leaks ${secretThing}: ${text}`);
  assert.doesNotMatch(
    text,
    /bearer|hmac_sha256|codehost_hmac|signingMode|signing mode/i,
    `error body names the signing mode: ${text}`,
  );
  if (hook.mode === 'none') assert.doesNotMatch(text, /\bnone\b/i);
}

const runsOf = async (routineId: string) =>
  (await t.request('GET', `/api/routines/${routineId}/runs?limit=200`, { token: board })).body as any[];

async function accepted(res: Response, hook: Hook): Promise<any> {
  assert.equal(res.status, 202, JSON.stringify(res.body));
  assert.equal(res.body.status, 'issue_created');
  const run = (await runsOf(hook.routineId)).find((r) => r.id === res.body.runId);
  assert.ok(run, 'the run is listed');
  assert.equal(run.source, 'webhook');
  assert.equal(run.triggerId, hook.triggerId);
  return run;
}

describe('public fire: each signing mode', () => {
  const body = JSON.stringify({ payload: { ref: 'main', commits: 3 } });

  for (const mode of ['bearer', 'hmac_sha256', 'codehost_hmac']) {
    it(`${mode}: a good signature is 202 with the payload recorded; a bad or missing one is 401 and records nothing`, async () => {
      const hook = await newHook(mode);
      assert.match(hook.secret!, /^whsec_/);
      const run = await accepted(await fire(hook, body, signed(hook, body)), hook);
      assert.deepEqual(run.triggerPayload, { ref: 'main', commits: 3 });

      const wrong = { ...hook, secret: `${hook.secret}x` };
      refused(await fire(hook, body, signed(wrong, body)), 401, hook);
      refused(await fire(hook, body), 401, hook);
      // HMAC modes: signed correctly, but for other bytes.
      if (mode !== 'bearer') refused(await fire(hook, body, signed(hook, `${body} `)), 401, hook);
      assert.equal((await runsOf(hook.routineId)).length, 1);
    });
  }

  it('every mode gives the same 401 to a caller without the secret: the answer does not tell the mode', async () => {
    const body = '{}';
    const answers = new Set<string>();
    for (const mode of ['bearer', 'hmac_sha256', 'codehost_hmac']) {
      const hook = await newHook(mode);
      const attempts: Record<string, string>[] = [
        {},
        { authorization: 'Bearer nope' },
        { 'x-service-signature': 'ab' },
        { 'x-hub-signature-256': 'sha256=ab', 'x-service-timestamp': String(nowSec()) },
      ];
      for (const headers of attempts) {
        const res = await fire(hook, body, headers);
        refused(res, 401, hook);
        answers.add(JSON.stringify(res.body));
      }
    }
    assert.equal(answers.size, 1, [...answers].join(' | '));
  });

  it('bearer reads Authorization only; another scheme or an empty token is 401', async () => {
    const hook = await newHook('bearer');
    refused(await fire(hook, body, { authorization: `Basic ${hook.secret}` }), 401, hook);
    refused(await fire(hook, body, { authorization: 'Bearer ' }), 401, hook);
    refused(await fire(hook, body, { 'x-service-signature': hook.secret! }), 401, hook);
  });

  it('hmac_sha256 accepts X-Service-Signature and X-Hub-Signature-256, with or without sha256=', async () => {
    const hook = await newHook('hmac_sha256');
    const sig = hmac(hook.secret!, body);
    const variants: Record<string, string>[] = [
      { 'x-service-signature': sig },
      { 'x-service-signature': `sha256=${sig}` },
      { 'x-hub-signature-256': sig },
      { 'x-hub-signature-256': `sha256=${sig}` },
    ];
    const runIds = new Set<string>();
    for (const headers of variants) runIds.add((await accepted(await fire(hook, body, headers), hook)).id);
    assert.equal(runIds.size, 4, 'no idempotency without a key: four deliveries, four runs');
    refused(await fire(hook, body, { 'x-hub-signature-256': `sha256=${sig.slice(0, -1)}` }), 401, hook);
  });

  it('codehost_hmac signs `<timestamp>.<body>` within replayWindowSec; a repeat is the same run, a moved timestamp is 401', async () => {
    const hook = await newHook('codehost_hmac', { replayWindowSec: 60 });
    const at = (ts: number) => signed(hook, body, ts);
    refused(await fire(hook, body, at(nowSec() - 120)), 401, hook);
    refused(await fire(hook, body, at(nowSec() + 120)), 401, hook);
    // Signature without the timestamp header, and the timestamp without a signature.
    const ts = nowSec();
    refused(await fire(hook, body, { 'x-service-signature': hmac(hook.secret!, `${ts}.`, body) }), 401, hook);
    refused(await fire(hook, body, { 'x-service-timestamp': String(ts) }), 401, hook);
    // The HMAC of the body alone (hmac_sha256 style) is not enough.
    refused(
      await fire(hook, body, { 'x-service-signature': hmac(hook.secret!, body), 'x-service-timestamp': String(ts) }),
      401,
      hook,
    );
    assert.equal((await runsOf(hook.routineId)).length, 0);

    const delivery = at(ts);
    const first = await accepted(await fire(hook, body, delivery), hook);
    const again = await fire(hook, body, delivery);
    assert.equal(again.status, 202);
    assert.equal(again.body.runId, first.id);
    assert.equal(again.body.status, 'issue_created');
    // A captured signature under a fresh timestamp does not verify.
    refused(await fire(hook, body, { ...delivery, 'x-service-timestamp': String(ts + 1) }), 401, hook);
    assert.equal((await runsOf(hook.routineId)).length, 1);
    // A new delivery (new timestamp, signed for it) is a new run.
    assert.notEqual((await accepted(await fire(hook, body, at(ts + 1)), hook)).id, first.id);
    // Inside the window on either side of the server clock is fine.
    await accepted(await fire(hook, body, at(nowSec() - 45)), hook);
    await accepted(await fire(hook, body, at(nowSec() + 45)), hook);
  });

  it('codehost_hmac with the widest replayWindowSec (86400 s): a day old less a minute verifies, a day and a minute is 401', async () => {
    const hook = await newHook('codehost_hmac', { replayWindowSec: 86_400 });
    const day = 86_400;
    refused(await fire(hook, body, signed(hook, body, nowSec() - day - 60)), 401, hook);
    refused(await fire(hook, body, signed(hook, body, nowSec() + day + 60)), 401, hook);
    assert.equal((await runsOf(hook.routineId)).length, 0);
    await accepted(await fire(hook, body, signed(hook, body, nowSec() - day + 60)), hook);
    await accepted(await fire(hook, body, signed(hook, body, nowSec() + day - 60)), hook);
  });

  it('none: no headers at all is 202; the whole object is the payload when it has no `payload` key', async () => {
    const hook = await newHook('none');
    assert.equal(hook.secret, null);
    const res = await t.request('POST', hook.path, { payload: JSON.stringify({ action: 'opened', number: 7 }) });
    const run = await accepted(res, hook);
    assert.deepEqual(run.triggerPayload, { action: 'opened', number: 7 });
    const empty = await accepted(await t.request('POST', hook.path), hook);
    assert.equal(empty.triggerPayload, null);
  });
});

describe('public fire: secrets and bytes', () => {
  it('rotation: the old secret is 401 at once, the new one 202, the URL unchanged', async () => {
    for (const mode of ['bearer', 'hmac_sha256']) {
      const hook = await newHook(mode);
      const body = '{"payload":{"n":1}}';
      const rotated = await t.request('POST', `/api/routine-triggers/${hook.triggerId}/rotate-secret`, {
        token: board,
      });
      assert.equal(rotated.status, 200);
      assert.equal(rotated.body.webhookUrl, hook.url);
      assert.notEqual(rotated.body.webhookSecret, hook.secret);
      refused(await fire(hook, body, signed(hook, body)), 401, hook);
      const fresh = { ...hook, secret: rotated.body.webhookSecret as string };
      await accepted(await fire(fresh, body, signed(fresh, body)), fresh);
    }
  });

  it('the signature covers the raw bytes: the same JSON spaced differently with the original signature is 401', async () => {
    const hook = await newHook('hmac_sha256');
    const original = '{"payload":{"a":1,"b":[1,2]}}';
    const sig = { 'x-service-signature': hmac(hook.secret!, original) };
    refused(await fire(hook, '{ "payload": { "a": 1, "b": [1, 2] } }', sig), 401, hook);
    refused(await fire(hook, '{"payload":{"b":[1,2],"a":1}}', sig), 401, hook);
    // Unusual spacing, signed as sent, verifies (nothing re-serialises before the check).
    const spaced = '{\n  "payload" : {"a" :1,\t"b":[ 1 ,2 ]}  }\n';
    const run = await accepted(await fire(hook, spaced, { 'x-service-signature': hmac(hook.secret!, spaced) }), hook);
    assert.deepEqual(run.triggerPayload, { a: 1, b: [1, 2] });
  });

  it('Idempotency-Key: a repeat returns the same run', async () => {
    const hook = await newHook('bearer');
    const body = '{"payload":{"n":1}}';
    const headers = { ...signed(hook, body), 'idempotency-key': 'delivery-42' };
    const first = await accepted(await fire(hook, body, headers), hook);
    const again = await fire(hook, body, headers);
    assert.equal(again.status, 202);
    assert.equal(again.body.runId, first.id);
    assert.notEqual(
      (await accepted(await fire(hook, body, { ...headers, 'idempotency-key': 'delivery-43' }), hook)).id,
      first.id,
    );
    assert.equal((await runsOf(hook.routineId)).length, 2);
  });

  it("no Boardroom credential is needed or accepted: a board or agent token is not a bearer trigger's secret", async () => {
    const hook = await newHook('bearer');
    const body = '{}';
    refused(await fire(hook, body, { authorization: `Bearer ${board}` }), 401, hook);
    refused(await fire(hook, body, { authorization: `Bearer ${agentToken}` }), 401, hook);
    const open = await newHook('none');
    await accepted(await fire(open, body), open);
    assert.equal((await runsOf(hook.routineId)).length, 0);
  });
});

describe('public fire: refusals', () => {
  it('404 for an unknown public id and for a deleted trigger', async () => {
    const hook = await newHook('none');
    refused(
      await t.request('POST', hook.path.replace(/public\/[^/]+/, 'public/nosuchtrigger123'), { payload: '{}' }),
      404,
      hook,
    );
    const del = await t.request('DELETE', `/api/routine-triggers/${hook.triggerId}`, { token: board });
    assert.equal(del.status, 204);
    refused(await fire(hook, '{}'), 404, hook);
  });

  it('409 for a disabled trigger or a paused routine, with a valid signature; 401 first without one', async () => {
    const hook = await newHook('hmac_sha256');
    const body = '{"payload":{}}';
    assert.equal(
      (await t.request('PATCH', `/api/routine-triggers/${hook.triggerId}`, { token: board, body: { enabled: false } }))
        .status,
      200,
    );
    refused(await fire(hook, body, signed(hook, body)), 409, hook);
    refused(await fire(hook, body), 401, hook);
    assert.equal(
      (await t.request('PATCH', `/api/routine-triggers/${hook.triggerId}`, { token: board, body: { enabled: true } }))
        .status,
      200,
    );
    assert.equal(
      (await t.request('PATCH', `/api/routines/${hook.routineId}`, { token: board, body: { status: 'paused' } }))
        .status,
      200,
    );
    refused(await fire(hook, body, signed(hook, body)), 409, hook);
    assert.equal((await runsOf(hook.routineId)).length, 0);
    assert.equal(
      (await t.request('PATCH', `/api/routines/${hook.routineId}`, { token: board, body: { status: 'active' } }))
        .status,
      200,
    );
    await accepted(await fire(hook, body, signed(hook, body)), hook);
  });

  it('413 for a body over 256 KiB (signed or not); exactly 256 KiB is accepted', async () => {
    const hook = await newHook('hmac_sha256');
    const sized = (bytes: number) => {
      const head = '{"payload":{"pad":"';
      const tail = '"}}';
      return head + 'x'.repeat(bytes - head.length - tail.length) + tail;
    };
    const big = sized(256 * 1024 + 1);
    refused(await fire(hook, big, signed(hook, big)), 413, hook);
    refused(await fire(hook, big), 413, hook);
    const limit = sized(256 * 1024);
    await accepted(await fire(hook, limit, signed(hook, limit)), hook);
  });

  it('400, never 500, for bodies that are not a JSON object, even when validly signed', async () => {
    const hook = await newHook('hmac_sha256');
    const deep = '{"a":'.repeat(5_000) + '1' + '}'.repeat(5_000);
    const deepArrays = '{"payload":{"a":' + '['.repeat(5_000) + ']'.repeat(5_000) + '}}';
    const bodies = [
      'not json',
      '{"payload":',
      '[{"payload":{}}]',
      '"a string"',
      '42',
      'null',
      '{"payload":{"a":"x\\u0000"}}',
      '{"payload":{"x\\u0000":1}}',
      '{"payload":[1,2]}',
      '{"payload":"text"}',
      deep,
      deepArrays,
    ];
    for (const body of bodies) {
      const res = await fire(hook, body, signed(hook, body));
      refused(res, 400, hook);
    }
    assert.equal((await runsOf(hook.routineId)).length, 0);
    // Invalid signature comes first: an outsider learns nothing about the body rules either.
    refused(await fire(hook, 'not json'), 401, hook);
  });
});
