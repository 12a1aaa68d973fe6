// The plugin host API (issue 27 sections 2 and 3) with a real server and a real worker: the
// test-only `probe` plugin makes whatever host call its invocation names, so each call is driven
// from here through `workers.invoke`. A call may do what the company's consented grant holds,
// intersected with whoever caused the invocation; anything else is CAPABILITY_DENIED and a
// `plugin.call_denied` activity entry; the company is always the slot's; state is bounded;
// http.fetch reaches only the manifest's hosts at public addresses (or an operator's allowed
// host:port), follows no redirect and keeps secret values from the worker; streams are declared.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import pg from 'pg';
import type { AgentActor, BoardActor } from '../src/core/actor.ts';
import { CHANNELS } from '../src/db/channels.ts';
import { agentWakeupRequests, pluginCompanyEnablements, pluginState } from '../src/db/schema/index.ts';
import { createPluginHostApi } from '../src/engine/plugins/host-api.ts';
import { isRefusedAddress } from '../src/engine/plugins/net.ts';
import { parseNetAllow } from '../src/core/config.ts';
import { ACTIONS, type Action, permissionsMarkdown, permits } from '../src/core/permissions.ts';
import { CAPABILITY_NAMES, isCapability } from '../src/modules/plugins/capabilities.ts';
import { pluginWorkersOf } from '../src/modules/plugins/routes.ts';
import { type Invocation, PluginWorkers } from '../src/modules/plugins/worker/host.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { newAgent } from './helpers/factories.ts';
import { waitFor } from './helpers/wait.ts';

const PROBE = path.resolve(import.meta.dirname, 'fixtures/plugins/probe');
const SECRET_VALUE = 'sk-live-probe-9f8e7d6c5b4a';

let t: TestApp;
let companyA: string;
let companyB: string;
let boardA: string;
let probe: string;
let grant: string[];
let issueA: any;
let issueB: any;
let plainAgent: any;
let otherAgent: any;
let boardUser: BoardActor;

interface Answer {
  result?: any;
  error?: string;
}

async function call(
  method: string,
  params: Record<string, unknown> = {},
  opts: { cause?: Invocation['cause']; workers?: PluginWorkers } = {},
): Promise<Answer> {
  const workers = opts.workers ?? pluginWorkersOf(t.app);
  return (await workers.invoke(probe, companyA, {
    kind: 'tool',
    key: 'call',
    input: { method, params },
    cause: opts.cause ?? null,
  })) as Answer;
}

async function setGrant(capabilities: string[]): Promise<void> {
  await t.database.db
    .update(pluginCompanyEnablements)
    .set({ capabilities })
    .where(and(eq(pluginCompanyEnablements.pluginId, probe), eq(pluginCompanyEnablements.companyId, companyA)));
}

const activity = async (query: string) =>
  (await t.request('GET', `/api/companies/${companyA}/activity?${query}`, { token: boardA })).body as any[];

before(async () => {
  t = await startTestApp();
  const user = await t.newBoardUser();
  const a = await t.newCompany(user.token);
  companyA = a.company.id;
  boardA = a.token;
  boardUser = { kind: 'board', userId: user.userId, isInstanceOwner: false, via: 'board_key' };
  companyB = (await t.newCompany()).company.id;
  const res = await t.request('POST', '/api/plugins/install', { token: t.ownerToken, body: { packageName: PROBE } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  probe = res.body.id;
  grant = res.body.manifest.capabilities;
  const consent = await t.request('POST', `/api/companies/${companyA}/plugins/${probe}/enable`, {
    token: boardA,
    body: { capabilities: grant },
  });
  assert.equal(consent.status, 200, JSON.stringify(consent.body));
  issueA = (await t.request('POST', `/api/companies/${companyA}/issues`, { token: boardA, body: { title: 'In A' } }))
    .body;
  issueB = (
    await t.request('POST', `/api/companies/${companyB}/issues`, { token: t.ownerToken, body: { title: 'In B' } })
  ).body;
  plainAgent = (await newAgent(t, boardA, companyA)).agent;
  otherAgent = (await newAgent(t, boardA, companyA)).agent;
});
after(async () => {
  await t.close();
});

const agentCause = (agent: any): AgentActor => ({
  kind: 'agent',
  agentId: agent.id,
  companyId: agent.companyId,
  role: agent.role,
  adapterType: agent.adapterType,
  via: 'agent_key',
});

describe('capabilities: allowed when the company granted them, CAPABILITY_DENIED when not', () => {
  const rows: [method: string, capability: string, params: () => Record<string, unknown>][] = [
    ['issues.list', 'issues.read', () => ({ limit: 5 })],
    ['issues.get', 'issues.read', () => ({ issueId: issueA.id })],
    ['issues.create', 'issues.write', () => ({ title: 'Made by the probe', priority: 'low' })],
    ['issues.update', 'issues.write', () => ({ issueId: issueA.id, title: 'In A, renamed' })],
    ['issues.setStatus', 'issues.status', () => ({ issueId: issueA.id, status: 'todo' })],
    ['comments.list', 'comments.read', () => ({ issueId: issueA.id })],
    ['comments.create', 'comments.write', () => ({ issueId: issueA.id, body: 'A note from the probe' })],
    ['documents.put', 'documents.write', () => ({ issueId: issueA.id, key: 'notes', body: '# Notes' })],
    ['documents.get', 'documents.read', () => ({ issueId: issueA.id, key: 'notes' })],
    ['projects.list', 'projects.read', () => ({})],
    ['agents.list', 'agents.read', () => ({})],
    ['agents.get', 'agents.read', () => ({ agentId: plainAgent.id })],
    ['goals.list', 'goals.read', () => ({})],
    ['routines.list', 'routines.read', () => ({})],
    ['activity.list', 'activity.read', () => ({ limit: 3 })],
    ['costs.summary', 'costs.read', () => ({})],
    ['agents.wake', 'agents.wake', () => ({ agentId: otherAgent.id, reason: 'probe' })],
    ['state.set', 'state', () => ({ key: 'k', value: { n: 1 } })],
    ['state.get', 'state', () => ({ key: 'k' })],
    ['state.list', 'state', () => ({})],
    ['state.delete', 'state', () => ({ key: 'k' })],
    ['http.fetch', 'http.outbound', () => ({ url: 'https://nowhere.test/' })],
  ];
  for (const [method, capability, params] of rows) {
    it(`${method} (${capability})`, async () => {
      await setGrant(grant.filter((c) => c !== capability));
      const denied = await call(method, params());
      assert.match(denied.error ?? '', /^CAPABILITY_DENIED: /, JSON.stringify(denied));
      assert.ok(denied.error?.includes(capability), denied.error);
      await setGrant(grant);
      if (method === 'http.fetch') return; // allowed: see the http.fetch tests (nowhere.test does not resolve)
      const allowed = await call(method, params());
      assert.equal(allowed.error, undefined, `${method}: ${allowed.error}`);
    });
  }

  it('bad params are an error naming them, and the worker goes on', async () => {
    const bad = await call('issues.get', { issueId: 42 });
    assert.match(bad.error ?? '', /^INVALID_PARAMS: issueId/);
    const unknown = await call('secrets.read', { name: 'master' });
    assert.match(unknown.error ?? '', /method not found/);
    assert.equal((await call('issues.list', {})).error, undefined);
  });
});

describe('activity', () => {
  it('a plugin write appears as actorType plugin; a denial as plugin.call_denied', async () => {
    const made = await call('issues.create', { title: 'Stamped' });
    assert.equal(made.error, undefined, made.error);
    const created = (await activity(`action=issue.created&entityId=${made.result.id}`))[0];
    assert.equal(created?.actorType, 'plugin');
    assert.equal(created?.actorId, probe);
    await setGrant(grant.filter((c) => c !== 'goals.read'));
    try {
      assert.match((await call('goals.list')).error ?? '', /^CAPABILITY_DENIED/);
    } finally {
      await setGrant(grant);
    }
    const denied = await activity('action=plugin.call_denied');
    const entry = denied.find((e) => e.details?.method === 'goals.list');
    assert.ok(entry, JSON.stringify(denied));
    assert.equal(entry.actorType, 'plugin');
    assert.equal(entry.entityId, probe);
  });
});

describe('the company is always the slot', () => {
  it("another company's issue is not found, whatever companyId the worker sends", async () => {
    for (const method of ['issues.get', 'comments.list', 'comments.create'])
      assert.match(
        (await call(method, { issueId: issueB.id, companyId: companyB, body: 'x' })).error ?? '',
        /^NOT_FOUND: issue not found/,
        method,
      );
    const listed = await call('issues.list', { companyId: companyB, limit: 500 });
    assert.ok(listed.result.every((i: any) => i.companyId === companyA));
    assert.ok(!listed.result.some((i: any) => i.id === issueB.id));
  });
});

describe('grant intersected with the cause', () => {
  it('an agent cause without the right is refused although the grant holds it; the board cause is not', async () => {
    const byAgent = await call('agents.wake', { agentId: otherAgent.id }, { cause: agentCause(plainAgent) });
    assert.match(byAgent.error ?? '', /^CAPABILITY_DENIED: only the board or the agent itself may wake an agent/);
    const itself = await call('agents.wake', { agentId: plainAgent.id }, { cause: agentCause(plainAgent) });
    assert.equal(itself.error, undefined, itself.error);
    const byBoard = await call('agents.wake', { agentId: otherAgent.id }, { cause: boardUser });
    assert.equal(byBoard.error, undefined, byBoard.error);
  });

  it('a board cause outside the company leaves the plugin nothing of it', async () => {
    const outsider: BoardActor = { kind: 'board', userId: randomUUID(), isInstanceOwner: false, via: 'session' };
    assert.match((await call('issues.get', { issueId: issueA.id }, { cause: outsider })).error ?? '', /^NOT_FOUND/);
  });

  it("a plugin's comment mentioning an agent wakes nobody (a board member's does)", async () => {
    const fresh = (await newAgent(t, boardA, companyA, { name: 'Mentionable' })).agent;
    const wakes = () =>
      t.database.db.select().from(agentWakeupRequests).where(eq(agentWakeupRequests.agentId, fresh.id));
    const made = await call('comments.create', { issueId: issueA.id, body: 'Look, @Mentionable' });
    assert.equal(made.error, undefined, made.error);
    assert.deepEqual(await wakes(), []);
    const byBoard = await t.request('POST', `/api/issues/${issueA.id}/comments`, {
      token: boardA,
      body: { body: 'Look, @Mentionable' },
    });
    assert.equal(byBoard.status, 201);
    assert.equal((await wakes()).length, 1);
  });
});

describe('state', () => {
  it('round-trips per plugin and company, and refuses what is over its bounds', async () => {
    assert.deepEqual((await call('state.get', { key: 'missing' })).result, { value: null });
    assert.deepEqual((await call('state.set', { key: 'cursor', value: { at: 3, ids: ['a'] } })).result, { ok: true });
    assert.deepEqual((await call('state.get', { key: 'cursor' })).result, { value: { at: 3, ids: ['a'] } });
    assert.deepEqual(
      (await call('state.list')).result.keys.map((k: any) => k.key),
      ['cursor'],
    );
    assert.match((await call('state.set', { key: 'k'.repeat(201), value: 1 })).error ?? '', /^INVALID_PARAMS: key/);
    assert.match(
      (await call('state.set', { key: 'big', value: 'x'.repeat(64 * 1024) })).error ?? '',
      /^STATE_LIMIT: a value is at most 65536 bytes/,
    );
    await t.database.db
      .insert(pluginState)
      .values(
        Array.from({ length: 999 }, (_, i) => ({ pluginId: probe, companyId: companyA, key: `filler-${i}`, value: i })),
      );
    assert.match(
      (await call('state.set', { key: 'one-more', value: 1 })).error ?? '',
      /^STATE_LIMIT: at most 1000 keys/,
    );
    assert.deepEqual((await call('state.set', { key: 'cursor', value: 4 })).result, { ok: true }, 'an existing key');
    assert.deepEqual((await call('state.delete', { key: 'cursor' })).result, { deleted: true });
    assert.deepEqual((await call('state.set', { key: 'one-more', value: 1 })).result, { ok: true });
    await t.database.db.delete(pluginState).where(eq(pluginState.pluginId, probe));
  });
});

describe('stream.emit', () => {
  it('publishes a declared channel for the slot company, and refuses an undeclared one', async () => {
    const listener = new pg.Client({ connectionString: t.databaseUrl });
    await listener.connect();
    const heard: any[] = [];
    listener.on('notification', (n) => heard.push(JSON.parse(n.payload ?? 'null')));
    await listener.query(`listen ${CHANNELS.pluginStream.name}`);
    try {
      assert.match(
        (await call('stream.emit', { channel: 'other', data: 1 })).error ?? '',
        /^CAPABILITY_DENIED: stream "other" is not declared/,
      );
      assert.match(
        (await call('stream.emit', { channel: 'ticks', data: 'x'.repeat(8 * 1024) })).error ?? '',
        /^STREAM_LIMIT/,
      );
      assert.deepEqual((await call('stream.emit', { channel: 'ticks', data: { n: 1 }, companyId: companyB })).result, {
        ok: true,
      });
      await waitFor('the stream notification', () => heard.length > 0, 10_000);
      assert.deepEqual(heard, [{ pluginId: probe, companyId: companyA, channel: 'ticks', data: { n: 1 } }]);
    } finally {
      await listener.end();
    }
  });
});

describe('http.fetch', () => {
  let receiver: http.Server;
  let port: number;
  const seen: { path: string; authorization: string | undefined; body: string }[] = [];
  let workers: PluginWorkers;
  let secretId: string;

  before(async () => {
    receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        seen.push({ path: req.url ?? '', authorization: req.headers.authorization, body });
        if (req.url === '/redirect') {
          res.writeHead(302, { location: `http://receiver.test:${port}/elsewhere` });
          return res.end();
        }
        if (req.url === '/echo') return res.end(`you sent ${req.headers.authorization}`);
        if (req.url === '/big') return res.end('x'.repeat(1024 * 1024 + 1));
        res.setHeader('content-type', 'text/plain');
        res.end('hello plugin');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    port = (receiver.address() as AddressInfo).port;
    const secret = await t.request('POST', `/api/companies/${companyA}/secrets`, {
      token: boardA,
      body: { name: 'PROBE_TOKEN', value: SECRET_VALUE },
    });
    assert.equal(secret.status, 201, JSON.stringify(secret.body));
    secretId = secret.body.id;
    const names: Record<string, string> = {
      'receiver.test': '127.0.0.1',
      'loop.test': '127.0.0.1',
      'private.test': '10.1.2.3',
      'metadata.test': '169.254.169.254',
    };
    workers = new PluginWorkers({
      db: t.database.db,
      dataDir: t.config.dataDir,
      hostApi: createPluginHostApi({
        config: { masterKey: t.config.masterKey, pluginNetAllow: parseNetAllow(`receiver.test:${port}`) },
        configOf: async (pluginId, companyId) =>
          pluginId === probe && companyId === companyA ? { token: secretId, greeting: 'hi' } : null,
        lookup: async (name) => {
          const address = names[name];
          if (!address) throw new Error('ENOTFOUND');
          return [{ address, family: 4 }];
        },
      }),
    });
  });
  after(async () => {
    await workers.close();
    await new Promise((resolve) => receiver.close(resolve));
  });

  const fetchVia = (params: Record<string, unknown>) => call('http.fetch', params, { workers });

  it('reaches an operator-allowed host:port over http', async () => {
    const answer = await fetchVia({ url: `http://receiver.test:${port}/hello` });
    assert.equal(answer.error, undefined, answer.error);
    assert.equal(answer.result.status, 200);
    assert.equal(answer.result.body, 'hello plugin');
    assert.equal(answer.result.headers['content-type'], 'text/plain');
  });

  it('refuses loopback, private and metadata addresses, IP literals and hosts outside net', async () => {
    const refusals: [string, RegExp][] = [
      [`http://loop.test:${port}/`, /plain http is refused/],
      [`https://loop.test:${port}/`, /resolves to 127\.0\.0\.1/],
      ['https://private.test/', /resolves to 10\.1\.2\.3/],
      ['https://metadata.test/latest/meta-data/', /resolves to 169\.254\.169\.254/],
      ['https://127.0.0.1/', /not in the manifest's net/],
      ['https://169.254.169.254/', /not in the manifest's net/],
      ['https://example.com/', /not in the manifest's net/],
      ['ftp://receiver.test/', /only https/],
    ];
    for (const [url, reason] of refusals) {
      const answer = await fetchVia({ url });
      assert.match(answer.error ?? '', /^CAPABILITY_DENIED: /, url);
      assert.match(answer.error ?? '', reason, url);
    }
    // The app's own host API (no operator allowance) refuses the receiver too.
    assert.match(
      (await call('http.fetch', { url: `http://receiver.test:${port}/` })).error ?? '',
      /^CAPABILITY_DENIED/,
    );
    assert.ok(!seen.some((s) => s.path === '/'), 'nothing refused reached the receiver');
  });

  it('answers a redirect as is, without following it', async () => {
    const answer = await fetchVia({ url: `http://receiver.test:${port}/redirect` });
    assert.equal(answer.result.status, 302);
    assert.equal(answer.result.headers.location, `http://receiver.test:${port}/elsewhere`);
    assert.ok(!seen.some((s) => s.path === '/elsewhere'));
  });

  it('bounds the response body', async () => {
    const answer = await fetchVia({ url: `http://receiver.test:${port}/big` });
    assert.match(answer.error ?? '', /^HTTP_LIMIT: the response body is over 1048576 bytes/);
  });

  it('substitutes a secret reference: the receiver sees the value, the worker and its logs never do', async () => {
    const answer = await fetchVia({
      url: `http://receiver.test:${port}/echo`,
      method: 'POST',
      headers: { authorization: ['Bearer ', { $secret: 'token' }] },
      body: 'ping',
    });
    assert.equal(answer.error, undefined, answer.error);
    assert.equal(seen.at(-1)?.authorization, `Bearer ${SECRET_VALUE}`);
    assert.equal(answer.result.body, 'you sent Bearer [secret]');
    assert.ok(!JSON.stringify(answer).includes(SECRET_VALUE));
    const logs = workers.logs(probe);
    assert.ok(
      logs.some((l) => l.message.includes('[secret]')),
      'the probe logged its answer',
    );
    assert.ok(!JSON.stringify(logs).includes(SECRET_VALUE));
    // Only fields the config schema declares as secret references, and only with secrets.use.
    assert.match(
      (await fetchVia({ url: `http://receiver.test:${port}/`, headers: { x: { $secret: 'greeting' } } })).error ?? '',
      /^CAPABILITY_DENIED: config field "greeting" is not a secret reference/,
    );
    await setGrant(grant.filter((c) => c !== 'secrets.use'));
    try {
      assert.match(
        (await fetchVia({ url: `http://receiver.test:${port}/`, headers: { x: { $secret: 'token' } } })).error ?? '',
        /^CAPABILITY_DENIED: a secret reference needs the secrets.use capability/,
      );
    } finally {
      await setGrant(grant);
    }
  });
});

describe('address rules', () => {
  it('refuses every address that is not plainly public', () => {
    for (const address of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '100.64.0.1',
      '169.254.169.254',
      '0.0.0.0',
      '::',
      '::1',
      'fd00:ec2::254',
      'fe80::1',
      '::ffff:127.0.0.1',
      '224.0.0.1',
      'not-an-address',
    ])
      assert.equal(isRefusedAddress(address), true, address);
    for (const address of ['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111'])
      assert.equal(isRefusedAddress(address), false, address);
  });

  it('BOARDROOM_PLUGIN_NET_ALLOW is host:port pairs', () => {
    assert.deepEqual(parseNetAllow(' Hooks.Local:8080 , [::1]:9000'), ['hooks.local:8080', '[::1]:9000']);
    assert.deepEqual(parseNetAllow(undefined), []);
    assert.throws(() => parseNetAllow('hooks.local'), /expected host:port/);
  });
});

describe('the plugin column of the permission table', () => {
  const owner: BoardActor = { kind: 'board', userId: randomUUID(), isInstanceOwner: true, via: 'session' };
  const everything = {
    kind: 'plugin',
    pluginId: randomUUID(),
    pluginKey: 'p',
    companyId: randomUUID(),
    capabilities: CAPABILITY_NAMES,
    cause: owner,
  } as const;

  it('never opens what is never grantable, whatever the grant and the cause', () => {
    const never: Action[] = [
      'approval.decide',
      'budget.createPolicy',
      'budget.resolveIncident',
      'agent.setBudget',
      'secret.read',
      'secret.create',
      'agent.createKey',
      'boardKey.create',
      'plugin.manage',
      'plugin.consent',
      'adapter.install',
      'agent.create',
      'issue.assign',
      'company.delete',
    ];
    for (const action of never)
      assert.equal(
        permits(everything, action, { companyId: everything.companyId, agentId: null } as never),
        false,
        action,
      );
  });

  it('names only capabilities a manifest can declare, and renders the column in the docs', () => {
    for (const [action, row] of Object.entries(ACTIONS))
      if (Array.isArray(row.plugin)) for (const c of row.plugin) assert.ok(isCapability(c), `${action}: ${c}`);
    const doc = permissionsMarkdown();
    assert.match(doc, /\| action \| scope \| board \| agent \| system \| plugin \|/);
    assert.match(doc, /\| `issue\.read` \| company \| always \| always \| always \| `issues\.read` \|/);
    assert.match(doc, /`issues\.read` \(plugin\)/);
  });

  it('meets a row with the capability, and the cause must meet it too', () => {
    const facts = { companyId: everything.companyId };
    assert.equal(permits(everything, 'issue.create', facts), true);
    assert.equal(permits({ ...everything, capabilities: ['issues.read'] }, 'issue.create', facts), false);
    assert.equal(permits({ ...everything, cause: null }, 'issue.create', facts), true);
    const agent: AgentActor = {
      kind: 'agent',
      agentId: randomUUID(),
      companyId: everything.companyId,
      role: 'engineer',
      adapterType: 'process',
      via: 'agent_key',
    };
    const wakeOther = { companyId: everything.companyId, agentId: randomUUID() };
    assert.equal(permits({ ...everything, cause: null }, 'agent.wake', wakeOther), true);
    assert.equal(permits({ ...everything, cause: agent }, 'agent.wake', wakeOther), false);
    assert.equal(
      permits({ ...everything, cause: agent }, 'agent.wake', { ...wakeOther, agentId: agent.agentId }),
      true,
    );
  });
});
