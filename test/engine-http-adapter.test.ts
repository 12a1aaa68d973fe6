// The http adapter end to end: the engine POSTs a signed run request to a real HTTP receiver in this
// process (node:http on 127.0.0.1), the receiver completes the run through the API with the run
// token from the body, on this replica or another. Plus the signing-secret route and the complete
// route's rules.
import assert from 'node:assert/strict';
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createServerAdapter, httpConfigSchema, signBody } from '../src/adapters/http.ts';
import { mintAgentJwt } from '../src/modules/auth/jwt.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { activityRows, newAgent, newIssue } from './helpers/factories.ts';
import { waitFor } from './helpers/wait.ts';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  raw: Buffer;
  body: any;
}

// The receiver: records every request; answers per path (default 202), optionally with a body.
const received: Received[] = [];
const answers = new Map<
  string,
  { status: number; body?: (r: Received) => string; headers?: Record<string, string>; hang?: boolean }
>();
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const raw = Buffer.concat(chunks);
    let body: unknown = null;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      // HEAD probes and the like carry no JSON.
    }
    const entry: Received = { path: req.url ?? '', headers: req.headers, raw, body };
    if (req.method === 'POST') received.push(entry);
    const answer = answers.get(entry.path) ?? { status: 202 };
    if (answer.hang) return; // never answers (closeAllConnections ends it)
    res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
    res.end(answer.body ? answer.body(entry) : 'ok');
  });
});

let t: TestApp;
let board: string;
let companyId: string;
let hookBase: string;

before(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  hookBase = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  t = await startTestApp({ engine: { pollMs: 200, reaperIntervalMs: 200, leaseSec: 3 } });
  const c = await t.newCompany();
  board = c.token;
  companyId = c.company.id;
});
after(async () => {
  await t.close();
  receiver.closeAllConnections();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

const sql = async (text: string, params: unknown[] = []) => (await t.database.pool.query(text, params)).rows;
const runsOf = (agentId: string) =>
  sql('select * from heartbeat_runs where agent_id = $1 order by created_at', [agentId]);
const finished = (run: { status: string }) => !['queued', 'running'].includes(run.status);
const wake = (agentId: string, body: Record<string, unknown> = {}) =>
  t.request('POST', `/api/agents/${agentId}/wakeup`, { token: board, body });
const rotate = (agentId: string, token = board) =>
  t.request('POST', `/api/agents/${agentId}/signing-secret`, { token });

/** An http agent whose receiver path is its own; `secret: false` leaves it without a signing secret. */
async function httpAgent(config: Record<string, unknown> = {}, opts: { secret?: boolean } = {}) {
  const hook = `/hook/${randomUUID()}`;
  const fixture = await newAgent(t, board, companyId, {
    adapterType: 'http',
    adapterConfig: { url: `${hookBase}${hook}`, ...config },
  });
  let secret: string | null = null;
  if (opts.secret !== false) {
    const res = await rotate(fixture.agent.id);
    assert.equal(res.status, 201);
    secret = res.body.secret;
  }
  return { ...fixture, hook, secret };
}

const requestsTo = (hook: string) => received.filter((r) => r.path === hook);
const nextRequest = (hook: string, count: number) =>
  waitFor(`request ${count} at ${hook}`, () => requestsTo(hook)[count - 1]);

/** Whether `header` is the HMAC-SHA256 of the raw body under `secret`, checked as a receiver would. */
function verifies(secret: string, raw: Buffer, header: unknown): boolean {
  if (typeof header !== 'string') return false;
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`);
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** Everything a run logged: the chunk table and the file, whichever the log lives in. */
async function runLogText(runId: string): Promise<string> {
  const chunks = await sql('select content from heartbeat_run_log_chunks where run_id = $1 order by seq', [runId]);
  const file = await readFile(path.join(t.config.dataDir, 'run-logs', `${runId}.log`), 'utf8').catch(() => '');
  return chunks.map((c) => c.content).join('') + file;
}

/** POST to a complete URL (absolute, on whichever replica) as a receiver would. */
async function complete(url: string, token: string | null, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

const secretsSeen: string[] = [];

describe('signing secret route', () => {
  it('is board only, 404 for an unknown agent, shows the secret once and rotates it; the activity entry has no secret', async () => {
    const { agent, token: agentKey } = await newAgent(t, board, companyId, {
      adapterType: 'http',
      adapterConfig: { url: `${hookBase}/nowhere` },
    });
    assert.equal((await rotate(agent.id, agentKey)).status, 403);
    assert.equal((await rotate(randomUUID())).status, 404);
    const first = await rotate(agent.id);
    assert.equal(first.status, 201);
    assert.equal(first.body.agentId, agent.id);
    assert.match(first.body.secret, /^svc_sign_[\w-]{43}$/);
    assert.ok(!Number.isNaN(Date.parse(first.body.createdAt)));
    assert.equal(first.headers['cache-control'], 'no-store');
    const second = await rotate(agent.id);
    assert.equal(second.status, 201);
    assert.notEqual(second.body.secret, first.body.secret);
    secretsSeen.push(first.body.secret, second.body.secret);
    // Stored sealed: the row holds no plaintext.
    const [row] = await sql('select * from agent_signing_secrets where agent_id = $1', [agent.id]);
    assert.ok(!JSON.stringify(row).includes(second.body.secret));
    // Nowhere else: not in the agent as any caller reads it, not in the activity log.
    const shown = await t.request('GET', `/api/agents/${agent.id}`, { token: board });
    assert.ok(!JSON.stringify(shown.body).includes('svc_sign_'));
    const entries = await activityRows(t, companyId, 'agent.signing_secret_rotated');
    const mine = entries.filter((e) => e.entity_id === agent.id);
    assert.equal(mine.length, 2);
    assert.deepEqual(
      mine.map((e) => e.details),
      [{ replacedPrevious: false }, { replacedPrevious: true }],
    );
    // A terminated agent gets none.
    assert.equal((await t.request('POST', `/api/agents/${agent.id}/terminate`, { token: board })).status, 200);
    assert.equal((await rotate(agent.id)).status, 409);
  });
});

describe('http adapter: a run end to end', () => {
  it('POSTs the signed run context; the receiver completes it with the run token; result and usage are recorded, the agent is idle', async () => {
    const { agent, hook, secret, token: agentKey } = await httpAgent({ headers: { 'X-Route': 'blue' } });
    secretsSeen.push(secret!);
    const issue = await newIssue(t, board, companyId, { title: 'Answer the customer', status: 'todo' });
    assert.equal((await wake(agent.id, { reason: 'please look', payload: { issueId: issue.id } })).status, 202);
    const req = await nextRequest(hook, 1);

    // The signature verifies over the exact raw bytes, with the secret from the rotate route.
    assert.ok(verifies(secret!, req.raw, req.headers['x-service-signature']), 'signature verifies');
    assert.equal(req.headers['x-service-signature'], signBody(secret!, req.raw));
    assert.ok(
      !verifies(secret!, Buffer.concat([req.raw, Buffer.from(' ')]), req.headers['x-service-signature']),
      'a changed body does not verify',
    );
    assert.equal(req.headers['content-type'], 'application/json');
    assert.equal(req.headers['x-route'], 'blue');

    const [run] = await runsOf(agent.id);
    assert.equal(run.status, 'running');
    const body = req.body;
    assert.equal(req.headers['x-service-run-id'], run.id);
    assert.deepEqual(Object.keys(body).sort(), [
      'agent',
      'apiUrl',
      'companyId',
      'completeUrl',
      'heartbeatContextUrl',
      'issueId',
      'prompt',
      'runId',
      'runToken',
      'wakeReason',
    ]);
    assert.equal(body.runId, run.id);
    assert.deepEqual(body.agent, { id: agent.id, name: agent.name });
    assert.equal(body.companyId, companyId);
    assert.equal(body.issueId, issue.id);
    assert.equal(body.wakeReason, run.wake_reason);
    assert.match(body.prompt, /Answer the customer/);
    assert.equal(body.apiUrl, t.baseUrl);
    assert.equal(body.heartbeatContextUrl, `${t.baseUrl}/api/issues/${issue.id}/heartbeat-context`);
    assert.equal(body.completeUrl, `${t.baseUrl}/api/heartbeat-runs/${run.id}/complete`);
    assert.match(body.runToken, /^eyJ/);

    // The run token works against the API (the heartbeat context) like any agent credential.
    const context = await fetch(body.heartbeatContextUrl, { headers: { authorization: `Bearer ${body.runToken}` } });
    assert.equal(context.status, 200);

    // Anything but this run's token is refused, and leaves the run running.
    const otherRunToken = await mintAgentJwt(t.config.jwtSecret, {
      agentId: agent.id,
      companyId,
      adapterType: 'http',
      runId: randomUUID(),
    });
    assert.equal((await complete(body.completeUrl, otherRunToken, { status: 'succeeded' })).status, 403);
    assert.equal((await complete(body.completeUrl, board, { status: 'succeeded' })).status, 403);
    assert.equal(
      (await complete(body.completeUrl, agentKey, { status: 'succeeded' }, { 'x-service-run-id': run.id })).status,
      403,
    );
    assert.equal((await complete(body.completeUrl, null, { status: 'succeeded' })).status, 401);
    assert.equal((await complete(body.completeUrl, body.runToken, { status: 'done' })).status, 400);
    assert.equal(
      (await complete(body.completeUrl, body.runToken, { status: 'succeeded', usage: { inputTokens: -1 } })).status,
      400,
    );
    assert.equal((await runsOf(agent.id))[0].status, 'running');

    const usage = {
      provider: 'acme',
      model: 'm1',
      inputTokens: 1200,
      cachedInputTokens: 100,
      outputTokens: 300,
      costCents: 4,
      billingType: 'metered_api',
    };
    const done = await complete(body.completeUrl, body.runToken, {
      status: 'succeeded',
      result: { summary: 'answered', replies: 1 },
      usage,
    });
    assert.equal(done.status, 200);
    assert.equal(done.body.runId, run.id);
    assert.equal(done.body.status, 'succeeded');
    assert.ok(!Number.isNaN(Date.parse(done.body.finishedAt)));

    // Twice: the run has already finished.
    const again = await complete(body.completeUrl, body.runToken, { status: 'failed' });
    assert.equal(again.status, 409);
    assert.equal(again.body.details.runStatus, 'succeeded');

    // The owner stops waiting (it heard the finish) and only adds late facts: the status stays.
    await waitFor('the executor to let the run go', () => t.engine!.activeRuns() === 0, 30_000);
    const [after] = await runsOf(agent.id);
    assert.equal(after.status, 'succeeded');
    assert.equal(after.error, null);
    assert.deepEqual(after.result_json, { summary: 'answered', replies: 1 });
    assert.deepEqual(after.usage_json, { ...usage, reports: 1 });
    assert.ok(after.log_bytes > 0);
    assert.equal((await t.request('GET', `/api/agents/${agent.id}`, { token: board })).body.status, 'idle');
    const [entry] = (await activityRows(t, companyId, 'heartbeat_run.succeeded')).filter((e) => e.entity_id === run.id);
    assert.equal(entry.actor_type, 'agent');
    assert.equal(entry.run_id, run.id);

    const log = await runLogText(run.id);
    assert.match(log, new RegExp(`accepted by ${hookBase.replace(/[.]/g, '\\.')}, status 202`));
    assert.ok(!log.includes(secret!), 'no secret in the run log');
    assert.ok(!log.includes(body.runToken), 'no run token in the run log');
  });

  it('a receiver answering 500 fails the run with the status code; what it echoes is masked in the log', async () => {
    const { agent, hook, secret } = await httpAgent();
    secretsSeen.push(secret!);
    // A careless receiver echoes the secret and the token back.
    answers.set(hook, { status: 500, body: (r) => `boom ${secret} ${r.body.runToken}` });
    await wake(agent.id);
    const [run] = await waitFor('the failed run', async () => {
      const runs = await runsOf(agent.id);
      return runs.length === 1 && finished(runs[0]) ? runs : null;
    });
    assert.equal(run.status, 'failed');
    assert.equal(run.error_code, 'http_rejected');
    assert.match(run.error, /status 500/);
    assert.match(run.error, new RegExp(hookBase.replace(/[.]/g, '\\.')));
    assert.ok(!run.error.includes(secret!) && !run.error.includes('eyJ'));
    const log = await runLogText(run.id);
    assert.match(log, /answered 500: boom \*\*\* \*\*\*/);
    assert.ok(!log.includes(secret!));
    assert.equal((await t.request('GET', `/api/agents/${agent.id}`, { token: board })).body.status, 'error');
  });

  it('a receiver that never completes: the run times out at its deadline', async () => {
    const { agent, hook } = await httpAgent({ timeoutSec: 2, graceSec: 1 });
    await wake(agent.id);
    await nextRequest(hook, 1);
    const t0 = Date.now();
    const [run] = await waitFor('the timed-out run', async () => {
      const runs = await runsOf(agent.id);
      return runs.length === 1 && finished(runs[0]) ? runs : null;
    });
    assert.equal(run.status, 'timed_out');
    assert.equal(run.error_code, 'timeout');
    assert.ok(Date.now() - t0 < 4_000, `ended ${Date.now() - t0} ms after the request`);
    assert.match(run.error, /deadline/);
    // Completing after the deadline is too late.
    const { body } = requestsTo(hook)[0]!;
    assert.equal((await complete(body.completeUrl, body.runToken, { status: 'succeeded' })).status, 409);
  });

  it('a redirect is not followed and a receiver that does not answer in requestTimeoutSec fails the run', async () => {
    const moved = await httpAgent();
    answers.set(moved.hook, { status: 307, headers: { location: `${hookBase}/elsewhere` } });
    const slow = await httpAgent({ requestTimeoutSec: 1 });
    answers.set(slow.hook, { status: 202, hang: true });
    await wake(moved.agent.id);
    await wake(slow.agent.id);
    const ended = async (agentId: string) =>
      (
        await waitFor('the failed run', async () => {
          const runs = await runsOf(agentId);
          return runs.length === 1 && finished(runs[0]) ? runs : null;
        })
      )[0];
    const redirected = await ended(moved.agent.id);
    assert.deepEqual([redirected.status, redirected.error_code], ['failed', 'http_rejected']);
    assert.match(redirected.error, /status 307 \(redirects are not followed\)/);
    assert.equal(received.filter((r) => r.path === '/elsewhere').length, 0);
    const timedOut = await ended(slow.agent.id);
    assert.deepEqual([timedOut.status, timedOut.error_code], ['failed', 'http_unreachable']);
    assert.match(timedOut.error, /no answer from .* within 1s/);
  });

  it('an unreachable receiver fails the run with the network error', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { agent } = await httpAgent({ url: `http://127.0.0.1:${port}/hook` });
    await wake(agent.id);
    const [run] = await waitFor('the failed run', async () => {
      const runs = await runsOf(agent.id);
      return runs.length === 1 && finished(runs[0]) ? runs : null;
    });
    assert.deepEqual([run.status, run.error_code], ['failed', 'http_unreachable']);
    assert.match(run.error, new RegExp(`could not reach http://127\\.0\\.0\\.1:${port}: ECONNREFUSED`));
  });

  it('rotating the secret makes the old signature invalid for the next run', async () => {
    const { agent, hook, secret: oldSecret } = await httpAgent();
    await wake(agent.id);
    const first = await nextRequest(hook, 1);
    assert.ok(verifies(oldSecret!, first.raw, first.headers['x-service-signature']));
    assert.equal((await complete(first.body.completeUrl, first.body.runToken, { status: 'succeeded' })).status, 200);
    await waitFor('the first run to be let go', () => t.engine!.activeRuns() === 0, 5_000);

    const rotated = await rotate(agent.id);
    const newSecret = rotated.body.secret as string;
    secretsSeen.push(oldSecret!, newSecret);
    await wake(agent.id);
    const second = await nextRequest(hook, 2);
    assert.ok(verifies(newSecret, second.raw, second.headers['x-service-signature']), 'the new secret verifies');
    assert.ok(!verifies(oldSecret!, second.raw, second.headers['x-service-signature']), 'the old secret does not');
    assert.equal(
      (await complete(second.body.completeUrl, second.body.runToken, { status: 'failed', error: 'the customer left' }))
        .status,
      200,
    );
    const runs = await waitFor('both runs finished', async () => {
      const rows = await runsOf(agent.id);
      return rows.length === 2 && rows.every(finished) ? rows : null;
    });
    assert.deepEqual(
      runs.map((r) => r.status),
      ['succeeded', 'failed'],
    );
    assert.equal(runs[1].error, 'the customer left');
    assert.deepEqual(
      runs.map((r) => r.error_code),
      [null, 'agent_reported_failure'],
    );
  });

  it('an http agent without a signing secret: the run fails with a clear error and nothing is sent', async () => {
    const { agent, hook } = await httpAgent({}, { secret: false });
    await wake(agent.id);
    const [run] = await waitFor('the failed run', async () => {
      const runs = await runsOf(agent.id);
      return runs.length === 1 && finished(runs[0]) ? runs : null;
    });
    assert.deepEqual([run.status, run.error_code], ['failed', 'credentials_missing']);
    assert.match(run.error, /no signing secret.*nothing was sent.*POST \/api\/agents\/[\w-]+\/signing-secret/);
    assert.equal(requestsTo(hook).length, 0);
  });

  it('complete works on a second replica while the run executes on the first', async () => {
    const replica = await startTestApp({ replicaOf: t, listen: true });
    try {
      const { agent, hook } = await httpAgent({ timeoutSec: 60 });
      await wake(agent.id);
      const req = await nextRequest(hook, 1);
      assert.equal(t.engine!.activeRuns(), 1);
      const onReplica = req.body.completeUrl.replace(t.baseUrl!, replica.baseUrl!);
      assert.notEqual(onReplica, req.body.completeUrl);
      const t0 = Date.now();
      const done = await complete(onReplica, req.body.runToken, {
        status: 'succeeded',
        result: { summary: 'from afar' },
      });
      assert.equal(done.status, 200);
      // The first replica hears of it and stops waiting long before the 60 s deadline.
      await waitFor('the owner to let the run go', () => t.engine!.activeRuns() === 0, 5_000);
      assert.ok(Date.now() - t0 < 5_000);
      const [run] = await runsOf(agent.id);
      assert.equal(run.status, 'succeeded');
      assert.deepEqual(run.result_json, { summary: 'from afar' });
      assert.equal((await t.request('GET', `/api/agents/${agent.id}`, { token: board })).body.status, 'idle');
    } finally {
      await replica.close();
    }
  });

  it('no signing secret appears in any run log or activity detail', async () => {
    assert.ok(secretsSeen.length >= 5);
    const runs = await sql('select id from heartbeat_runs where company_id = $1', [companyId]);
    let logged = 0;
    for (const { id } of runs) {
      const log = await runLogText(id);
      logged += log.length;
      for (const secret of secretsSeen) assert.ok(!log.includes(secret), `secret in the log of run ${id}`);
    }
    assert.ok(logged > 0, 'the logs were read');
    const activity = JSON.stringify(await sql('select details from activity_log where company_id = $1', [companyId]));
    for (const secret of secretsSeen) assert.ok(!activity.includes(secret), 'secret in the activity log');
    assert.ok(!activity.includes('svc_sign_'));
  });
});

describe('http adapter: configuration and environment check', () => {
  it('validates the URL, the timeouts and the extra headers', () => {
    const ok = httpConfigSchema.safeParse({ url: 'https://example.test/hook', headers: { 'X-Route': 'blue' } });
    assert.ok(ok.success);
    assert.equal(ok.data.requestTimeoutSec, 15);
    const bad = (config: Record<string, unknown>) => !httpConfigSchema.safeParse(config).success;
    assert.ok(bad({ url: 'ftp://example.test/' }));
    assert.ok(bad({ url: 'not a url' }));
    assert.ok(bad({ url: `https://example.test/${'a'.repeat(2048)}` }));
    assert.ok(bad({ url: 'https://user:pw@example.test/' }));
    assert.ok(bad({ url: 'https://example.test/', requestTimeoutSec: 301 }));
    assert.ok(bad({ url: 'https://example.test/', headers: { 'X-Service-Signature': 'forged' } }));
    assert.ok(bad({ url: 'https://example.test/', headers: { 'content-type': 'text/plain' } }));
    assert.ok(bad({ url: 'https://example.test/', headers: { 'X-Bad': 'a\r\nInjected: 1' } }));
    assert.ok(
      bad({
        url: 'https://example.test/',
        headers: Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`X-H${i}`, 'v'])),
      }),
    );
  });

  it('testEnvironment checks the config and that the URL answers (any HTTP status)', async () => {
    const adapter = createServerAdapter();
    const reachable = await adapter.testEnvironment({ url: `${hookBase}/probe` });
    assert.equal(reachable.ok, true);
    assert.match(reachable.checks[1]!.detail, /answered HEAD with status 202/);
    const invalid = await adapter.testEnvironment({ url: 'ftp://example.test/' });
    assert.deepEqual([invalid.ok, invalid.checks[0]!.name], [false, 'config']);
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const down = await adapter.testEnvironment({ url: `http://127.0.0.1:${port}/` });
    assert.equal(down.ok, false);
    assert.match(down.checks[1]!.detail, /ECONNREFUSED/);
  });
});
