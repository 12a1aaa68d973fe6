// boardroom/plugin-sdk (issue 27 section 6): the worker loop against a real spawned process speaking
// the host's JSON-RPC (initialize, invoke of every kind, cancel aborting the handler's signal, host
// calls carrying the invocationId and answered back, errors), block builders the host's schema
// accepts, the shipped example bundles equal to a fresh build, `boardroom plugin init`, and every
// example installed from its path and answering `health` and an invocation through the server's
// worker host.
import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { blocks } from 'boardroom/plugin-sdk';
import { createTestHarness } from 'boardroom/plugin-sdk/testing';
import { blocksPayload } from '../src/modules/plugins/blocks.ts';
import { parseManifest } from '../src/modules/plugins/manifest.ts';
import { pluginWorkersOf } from '../src/modules/plugins/routes.ts';
import { type HostCallScope, PluginWorkers } from '../src/modules/plugins/worker/host.ts';
import { CLI_BIN, PLUGIN_EXAMPLES_DIR, PLUGIN_SDK_DIR, PROJECT_DIR } from '../src/paths.ts';
import { buildableExamples, staleExamples } from '../scripts/build-plugin-examples.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';

const SDK_URL = pathToFileURL(path.join(PLUGIN_SDK_DIR, 'index.mjs')).href;
const EXAMPLES = ['budget-radar', 'chat-notify', 'inbound-hook', 'kitchen-sink', 'run-digest'];

let scratch: string;
before(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'plugin-sdk-test-'));
});
after(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** A worker process on the SDK, and the host's side of its stdio: requests out, every line in. */
class Peer {
  readonly child: ChildProcessWithoutNullStreams;
  private readonly lines: AsyncIterator<string>;
  private nextId = 1;
  readonly exited: Promise<number | null>;

  constructor(file: string) {
    this.child = spawn(process.execPath, [file], { stdio: ['pipe', 'pipe', 'pipe'], env: {} });
    this.lines = createInterface({ input: this.child.stdout })[Symbol.asyncIterator]();
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
  }

  send(message: Record<string, unknown>): void {
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  }

  request(method: string, params?: unknown): number {
    const id = this.nextId++;
    this.send({ id, method, params });
    return id;
  }

  async next(): Promise<any> {
    const timeout = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('the worker wrote nothing in 20 s')), 20_000).unref(),
    );
    const { value, done } = await Promise.race([this.lines.next(), timeout]);
    assert.ok(!done, 'the worker closed its stdout');
    return JSON.parse(value);
  }

  /** The answer to request `id` (host calls the worker makes meanwhile are returned in `calls`). */
  async answer(id: number, calls: any[] = []): Promise<any> {
    for (;;) {
      const message = await this.next();
      if (message.method) calls.push(message);
      else if (message.id === id) return message;
    }
  }

  async call(method: string, params?: unknown): Promise<any> {
    return this.answer(this.request(method, params));
  }

  invoke(kind: string, key: string | null, input: unknown, invocationId = `inv-${this.nextId}`): number {
    return this.request('invoke', { invocationId, kind, key, input, context: { companyId: 'c1', pluginId: 'p1' } });
  }
}

async function probeWorker(): Promise<string> {
  const file = path.join(scratch, 'probe.mjs');
  await writeFile(
    file,
    `import { definePlugin, runWorker, blocks, HostCallError } from ${JSON.stringify(SDK_URL)};
runWorker(definePlugin({
  tools: { add: (input) => ({ sum: input.a + input.b }), config: (_input, ctx) => ctx.config },
  data: {
    async counter(_params, { host }) {
      const { value } = await host.state.get({ key: 'n' });
      await host.state.set({ key: 'n', value: (value ?? 0) + 1 });
      return blocks.payload(blocks.metric('Count', (value ?? 0) + 1));
    },
  },
  actions: {
    fail() { throw new Error('the action failed on purpose'); },
    async denied(_params, { host }) {
      try { await host.issues.create({ title: 'x' }); } catch (err) { return { denied: err instanceof HostCallError && err.code }; }
    },
  },
  jobs: {
    wait: (_input, { signal }) => new Promise((resolve) =>
      signal.addEventListener('abort', () => resolve({ aborted: String(signal.reason?.message) }))),
  },
  webhooks: { hook: (input, { context }) => ({ got: input.json, deliveryId: context.deliveryId ?? null }) },
  events: { 'approval.*': (entry, { key }) => ({ family: key, id: entry.id }), 'approval.approved': () => 'exact' },
  validateConfig: (config) => ({ ok: typeof config.name === 'string', errors: typeof config.name === 'string' ? [] : ['name: required'] }),
  configChanged: () => undefined,
  health: () => ({ custom: true }),
}));
`,
  );
  return file;
}

describe('plugin SDK: runWorker speaks the host protocol (a real process)', () => {
  let peer: Peer;
  before(async () => {
    peer = new Peer(await probeWorker());
  });
  after(() => {
    peer.child.kill('SIGKILL');
  });

  it('initialize, then health with what the plugin adds', async () => {
    const init = await peer.call('initialize', { pluginId: 'p1', companyId: 'c1', config: { name: 'first' } });
    assert.deepEqual(init.result.ok, true);
    const health = await peer.call('health', {});
    assert.equal(health.result.status, 'ok');
    assert.equal(health.result.custom, true);
  });

  it('invokes a tool, a webhook, an event (exact action before its family), validateConfig and configChanged', async () => {
    assert.deepEqual((await peer.answer(peer.invoke('tool', 'add', { a: 2, b: 3 }))).result, { sum: 5 });
    assert.deepEqual((await peer.answer(peer.invoke('tool', 'config', {}))).result, { name: 'first' });
    const hook = await peer.answer(peer.invoke('webhook', 'hook', { json: { x: 1 }, body: '{"x":1}' }));
    assert.deepEqual(hook.result, { got: { x: 1 }, deliveryId: null });
    assert.equal((await peer.answer(peer.invoke('event', 'approval.approved', { id: 'a1' }))).result, 'exact');
    assert.deepEqual((await peer.answer(peer.invoke('event', 'approval.rejected', { id: 'a2' }))).result, {
      family: 'approval.rejected',
      id: 'a2',
    });
    assert.deepEqual((await peer.answer(peer.invoke('validateConfig', null, {}))).result, {
      ok: false,
      errors: ['name: required'],
    });
    assert.equal((await peer.answer(peer.invoke('configChanged', null, { name: 'second' }))).result, null);
    assert.deepEqual((await peer.answer(peer.invoke('tool', 'config', {}))).result, { name: 'second' });
  });

  it('a data handler calls the host with its invocationId, gets the answers back, and returns blocks', async () => {
    const id = peer.invoke('data', 'counter', {}, 'inv-data-1');
    const get = await peer.next();
    assert.equal(get.method, 'state.get');
    assert.deepEqual(get.params, { key: 'n', invocationId: 'inv-data-1' });
    peer.send({ id: get.id, result: { value: 41 } });
    const set = await peer.next();
    assert.equal(set.method, 'state.set');
    assert.deepEqual(set.params, { key: 'n', value: 42, invocationId: 'inv-data-1' });
    peer.send({ id: set.id, result: { ok: true } });
    const answer = await peer.answer(id);
    assert.deepEqual(answer.result, { blocks: [{ type: 'metric', label: 'Count', value: 42 }] });
    blocksPayload.parse(answer.result);
  });

  it('a host refusal reaches the handler as a HostCallError with code CAPABILITY_DENIED', async () => {
    const id = peer.invoke('action', 'denied', {}, 'inv-denied');
    const create = await peer.next();
    assert.equal(create.method, 'issues.create');
    assert.equal(create.params.invocationId, 'inv-denied');
    peer.send({ id: create.id, error: { code: -32000, message: 'CAPABILITY_DENIED: issues.write was not granted' } });
    assert.deepEqual((await peer.answer(id)).result, { denied: 'CAPABILITY_DENIED' });
  });

  it('a handler that throws, an unknown key, an unknown kind and an unknown method are JSON-RPC errors', async () => {
    const failed = await peer.answer(peer.invoke('action', 'fail', {}));
    assert.deepEqual(failed.error, { code: -32000, message: 'the action failed on purpose' });
    const unknownKey = await peer.answer(peer.invoke('tool', 'nope', {}));
    assert.equal(unknownKey.error.code, -32601);
    assert.match(unknownKey.error.message, /no tool handler for "nope"/);
    assert.equal((await peer.answer(peer.invoke('telepathy', 'x', {}))).error.code, -32602);
    assert.equal((await peer.call('frobnicate', {})).error.code, -32601);
  });

  it('cancel { id } aborts the signal of that invocation only', async () => {
    const waiting = peer.invoke('job', 'wait', { fireAt: new Date().toISOString(), trigger: 'manual' });
    const other = peer.invoke('tool', 'add', { a: 1, b: 1 });
    assert.deepEqual((await peer.answer(other)).result, { sum: 2 });
    peer.send({ method: 'cancel', params: { id: waiting } });
    assert.deepEqual((await peer.answer(waiting)).result, { aborted: 'the host cancelled this invocation' });
  });

  it('a line over 1 MiB is refused and the worker goes on answering', async () => {
    peer.child.stdin.write(`${'x'.repeat(1024 * 1024 + 10)}\n`);
    const refused = await peer.next();
    assert.equal(refused.error.code, -32600);
    assert.deepEqual((await peer.answer(peer.invoke('tool', 'add', { a: 5, b: 5 }))).result, { sum: 10 });
  });

  it('shutdown answers, then the process exits 0', async () => {
    assert.deepEqual((await peer.call('shutdown', {})).result, { ok: true });
    assert.equal(await peer.exited, 0);
  });
});

describe('plugin SDK: block builders', () => {
  it('every builder produces what the host schema (blocksPayload) accepts', () => {
    const payload = blocks.payload(
      blocks.metric('Spend', 1234, { unit: 'cents', caption: 'this month', tone: 'warning' }),
      blocks.table(
        [
          { key: 'agent', label: 'Agent' },
          { key: 'spend', label: 'Spend', unit: 'cents' },
        ],
        [{ agent: 'Dev', spend: 100 }],
        { title: 'By agent' },
      ),
      blocks.list([{ title: 'BRD-1', subtitle: 'open', href: '/issues/BRD-1', tone: 'info' }], { title: 'Issues' }),
      blocks.keyValue([{ label: 'Runs', value: 3, unit: 'count' }]),
      blocks.markdown('**bold**'),
      [blocks.chart('line', [{ label: 'Spend', points: [{ x: '2026-11-01', y: 10 }] }], { unit: 'cents' })],
      blocks.form('post-greeting', { submitLabel: 'Post', values: { issueId: null } }),
      blocks.buttons([{ label: 'Go', action: 'post-greeting', params: { issueId: 'x' }, tone: 'danger' }]),
    );
    assert.equal(payload.blocks.length, 8);
    assert.deepEqual(blocksPayload.parse(payload), payload);
    // Options left undefined are left out, not sent as undefined keys.
    assert.deepEqual(blocks.metric('A', 1, { caption: undefined }), { type: 'metric', label: 'A', value: 1 });
  });
});

describe('plugin examples: sources and shipped bundles', () => {
  it('the shipped examples are the five, each built from src/worker.mjs with the SDK, and every bundle is up to date', async () => {
    assert.deepEqual(await buildableExamples(), EXAMPLES);
    assert.deepEqual(await staleExamples(), [], 'run npm run plugins:build');
  });

  it('every example has a README and a manifest that validates', async () => {
    for (const name of EXAMPLES) {
      const dir = path.join(PLUGIN_EXAMPLES_DIR, name);
      assert.ok(existsSync(path.join(dir, 'README.md')), `${name} has a README`);
      const manifest = parseManifest(JSON.parse(await readFile(path.join(dir, 'boardroom.plugin.json'), 'utf8')));
      assert.equal(manifest.worker, './worker.mjs');
    }
  });
});

/** An example's own module (its pure parts: the worker entry itself would start serving stdio). */
const exampleModule = (name: string, file: string): Promise<any> =>
  import(pathToFileURL(path.join(PLUGIN_EXAMPLES_DIR, name, 'src', file)).href);

describe('plugin examples: what each one computes', () => {
  it('inbound-hook: a JSON delivery gives title and description, plain text its first line, and agentId is required', async () => {
    const { issueFromDelivery, configErrors } = await exampleModule('inbound-hook', 'delivery.mjs');
    const json = issueFromDelivery(
      { deliveryId: 'd1', body: '', json: { title: 'Printer on fire', description: 'Floor 3' } },
      '[form] ',
    );
    assert.equal(json.title, '[form] Printer on fire');
    assert.match(json.description, /^Floor 3\n\n_Received by the inbound-hook plugin, delivery d1\._$/);
    const text = issueFromDelivery({ deliveryId: 'd2', body: 'Server down\nsince 09:00', json: null });
    assert.deepEqual([text.title, text.description.split('\n')[0]], ['Server down', 'since 09:00']);
    const bare = issueFromDelivery({ deliveryId: 'd3', body: '{"a":1}', json: { a: 1 } });
    assert.equal(bare.title, 'Inbound delivery d3');
    assert.match(bare.description, /"a": 1/);
    assert.deepEqual(configErrors({ agentId: '6f1c2d3e-0000-4000-8000-000000000001' }), []);
    assert.match(configErrors({}).join(), /agentId/);
    assert.match(configErrors({ agentId: '6f1c2d3e-0000-4000-8000-000000000001', projectId: 'x' }).join(), /projectId/);
  });

  it('chat-notify: words for approvals, budget incidents and failed runs, in the shape of each service', async () => {
    const { messageFor, requestFor, configErrors } = await exampleModule('chat-notify', 'messages.mjs');
    const entry = (action: string, details: Record<string, unknown>) => ({
      action,
      entityId: 'abcdef12-3456',
      agentId: null,
      details,
    });
    const approval = messageFor(entry('approval.created', { type: 'hire_agent' }));
    assert.deepEqual(approval, {
      title: 'Approval waits for the board',
      text: 'Approval abcdef12 (hire agent) waits for the board.',
      urgent: true,
    });
    const hard = messageFor(
      entry('budget.hard_limit_reached', {
        scopeType: 'company',
        metric: 'billed_cents',
        observed: 10250,
        amount: 10000,
        hardStop: true,
      }),
    );
    assert.equal(
      hard.text,
      'The company has used $102.50 of its $100.00 budget: work is paused until the board decides.',
    );
    const failed = messageFor(entry('heartbeat_run.failed', { agentId: '12345678-aaaa', error: 'exit 1' }));
    assert.equal(failed.text, 'Run abcdef12 of agent 12345678 failed: exit 1');
    assert.equal(messageFor(entry('approval.decide', {})), null);
    assert.deepEqual(JSON.parse(requestFor('slack', approval).body), {
      text: '*Approval waits for the board*\nApproval abcdef12 (hire agent) waits for the board.',
    });
    assert.equal(JSON.parse(requestFor('discord', approval).body).content.startsWith('**Approval'), true);
    const ntfy = requestFor('ntfy', hard);
    assert.deepEqual(
      [ntfy.headers.title, ntfy.headers.priority, ntfy.body],
      ['Budget limit reached', 'high', hard.text],
    );
    assert.throws(() => requestFor('teams', approval), /format must be one of slack, discord, ntfy/);
    assert.deepEqual(configErrors({ format: 'ntfy', webhookUrl: { $secret: 'x' } }), []);
    assert.equal(configErrors({}).length, 2);
  });

  it('budget-radar: the rate since the month began, the day a budget runs out, blocks the host accepts', async () => {
    const { forecastBudget, radarBlocks } = await exampleModule('budget-radar', 'forecast.mjs');
    const now = new Date('2026-11-11T00:00:00Z'); // ten days into November
    const monthly = { scopeType: 'company', scopeId: 'c', metric: 'billed_cents', windowKind: 'calendar_month_utc' };
    const fast = forecastBudget({ ...monthly, amount: 50_000, observed: 20_000 }, now);
    assert.equal(fast.perDayCents, 2000);
    assert.equal(fast.verdict, 'runs-out');
    assert.equal(new Date(fast.runsOutAt).toISOString(), '2026-11-26T00:00:00.000Z');
    assert.equal(forecastBudget({ ...monthly, amount: 50_000, observed: 10_000 }, now).verdict, 'lasts');
    assert.equal(forecastBudget({ ...monthly, amount: 50_000, observed: 50_000 }, now).verdict, 'spent');
    assert.equal(forecastBudget({ ...monthly, amount: 50_000, observed: 0 }, now).verdict, 'idle');
    assert.equal(
      forecastBudget({ ...monthly, windowKind: 'lifetime', amount: 5, observed: 1 }, now).verdict,
      'lifetime',
    );
    const agentId = '0a1b2c3d-0000-4000-8000-000000000000';
    const payload = radarBlocks(
      blocks,
      {
        policies: [
          { ...monthly, amount: 50_000, observed: 20_000 },
          { ...monthly, scopeType: 'agent', scopeId: agentId, amount: 1000, observed: 900 },
          { ...monthly, metric: 'tokens', amount: 1, observed: 0 },
        ],
      },
      now,
      { [agentId]: 'Dev' },
    );
    blocksPayload.parse(payload);
    assert.deepEqual(
      payload.blocks.map((b: any) => b.type),
      ['metric', 'metric', 'table'],
    );
    assert.equal(payload.blocks[1].value, '26 November');
    assert.deepEqual(
      payload.blocks[2].rows.map((r: any) => [r.budget, r.runsOut]),
      [
        ['Agent Dev', '12 November'],
        ['Company', '26 November'],
      ],
    );
    assert.equal(radarBlocks(blocks, {}, now).blocks[0].type, 'markdown');
  });

  it('run-digest: runs by agent and status, reported spend, as a markdown document', async () => {
    const { tally, digestMarkdown, inWindow } = await exampleModule('run-digest', 'digest.mjs');
    const from = new Date('2026-11-27T07:00:00Z');
    const to = new Date('2026-11-28T07:00:00Z');
    const dev = '11111111-0000-4000-8000-000000000000';
    const at = '2026-11-28T01:00:00Z';
    const entries = [
      { action: 'heartbeat_run.succeeded', agentId: dev, details: { agentId: dev }, createdAt: at },
      { action: 'heartbeat_run.succeeded', agentId: dev, details: { agentId: dev }, createdAt: at },
      { action: 'heartbeat_run.failed', agentId: dev, details: { agentId: dev, error: 'exit 2' }, createdAt: at },
      { action: 'heartbeat_run.started', agentId: dev, details: {}, createdAt: at },
      { action: 'cost.reported', agentId: dev, details: { agentId: dev, costCents: 1234 }, createdAt: at },
    ];
    assert.equal(inWindow({ createdAt: '2026-11-27T06:59:59Z' }, from, to), false);
    const body = digestMarkdown({ from, to, agents: tally(entries), names: { [dev]: 'Dev' }, monthSpendCents: 99_00 });
    assert.match(body, /^# Run digest, 2026-11-28\n/);
    assert.match(body, /- 3 runs ended: 2 succeeded, 1 failed\./);
    assert.match(body, /- Spend reported: \$12\.34\./);
    assert.match(body, /- Spend this month so far: \$99\.00\./);
    assert.match(body, /\| Dev \| 2 \| 1 \| 0 \| 0 \| \$12\.34 \|/);
    assert.match(body, /- Dev: exit 2/);
    assert.match(digestMarkdown({ from, to, agents: tally([]) }), /No run ended in this window/);
  });
});

describe('plugin examples: installed on a real server', () => {
  let t: TestApp;
  let companyId: string;
  before(async () => {
    t = await startTestApp();
    companyId = (await t.newCompany(t.ownerToken)).company.id;
  });
  after(async () => {
    await t.close();
  });

  it('GET /api/plugins/examples lists the five', async () => {
    const res = await t.request('GET', '/api/plugins/examples', { token: t.ownerToken });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(
      res.body.map((e: any) => path.basename(e.localPath)),
      EXAMPLES,
    );
  });

  for (const name of EXAMPLES) {
    it(`${name}: installs from its path (201), is enabled for a company, and its worker answers health`, async () => {
      const res = await t.request('POST', '/api/plugins/install', {
        token: t.ownerToken,
        body: { packageName: path.join(PLUGIN_EXAMPLES_DIR, name) },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const consent = await t.request('POST', `/api/companies/${companyId}/plugins/${res.body.id}/enable`, {
        token: t.ownerToken,
        body: { capabilities: res.body.manifest.capabilities },
      });
      assert.equal(consent.status, 200, JSON.stringify(consent.body));
      const workers = pluginWorkersOf(t.app);
      const health = (await workers.call(res.body.id, companyId, 'health', {})) as any;
      assert.equal(health.status, 'ok');
      // validateConfig runs in every example without a host call: the worker's own answer through the host.
      const verdict = (await workers.invoke(res.body.id, companyId, {
        kind: 'validateConfig',
        key: null,
        input: {},
        cause: null,
      })) as any;
      assert.equal(typeof verdict.ok, 'boolean');
      await workers.stopPlugin(res.body.id);
      assert.equal((await t.request('DELETE', `/api/plugins/${res.body.id}`, { token: t.ownerToken })).status, 200);
    });
  }

  it("kitchen-sink's echo tool answers through the server's worker host", async () => {
    const res = await t.request('POST', '/api/plugins/install', {
      token: t.ownerToken,
      body: { packageName: path.join(PLUGIN_EXAMPLES_DIR, 'kitchen-sink') },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    await t.request('POST', `/api/companies/${companyId}/plugins/${res.body.id}/enable`, {
      token: t.ownerToken,
      body: { capabilities: res.body.manifest.capabilities },
    });
    const workers = pluginWorkersOf(t.app);
    const echoed = await workers.invoke(res.body.id, companyId, {
      kind: 'tool',
      key: 'echo',
      input: { text: 'ping' },
      cause: null,
    });
    assert.deepEqual(echoed, { text: 'Hello: ping' });
    await workers.stopPlugin(res.body.id);
    assert.equal((await t.request('DELETE', `/api/plugins/${res.body.id}`, { token: t.ownerToken })).status, 200);
  });
});

// Each example's flow through the server's worker host, with the worker in its sandbox, up to the host
// API: that side is scripted here (answers per method, every call recorded with the invocation the host
// resolved from its invocationId). The host API itself (helper 1's) and the routes that fire jobs,
// webhooks and events replace this script in the end-to-end tests after the merge.
describe('plugin examples: each flow through the worker host, up to the host API', () => {
  let t: TestApp;
  let companyId: string;
  let workers: PluginWorkers;
  const calls: { method: string; params: any; invocation: HostCallScope['invocation'] }[] = [];
  let answers: Record<string, (params: any) => unknown> = {};
  const installed = new Map<string, string>();

  before(async () => {
    t = await startTestApp();
    companyId = (await t.newCompany(t.ownerToken)).company.id;
    workers = new PluginWorkers({
      db: t.database.db,
      dataDir: t.config.dataDir,
      hostApi: async (scope, method, params) => {
        calls.push({ method, params, invocation: scope.invocation });
        const answer = answers[method];
        if (!answer) throw new Error(`CAPABILITY_DENIED: ${method} is not scripted here`);
        return answer(params);
      },
    });
    for (const name of EXAMPLES) {
      const res = await t.request('POST', '/api/plugins/install', {
        token: t.ownerToken,
        body: { packageName: path.join(PLUGIN_EXAMPLES_DIR, name) },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const consent = await t.request('POST', `/api/companies/${companyId}/plugins/${res.body.id}/enable`, {
        token: t.ownerToken,
        body: { capabilities: res.body.manifest.capabilities },
      });
      assert.equal(consent.status, 200, JSON.stringify(consent.body));
      installed.set(name, res.body.id);
    }
  });
  after(async () => {
    await workers.close();
    await t.close();
  });

  const run = async (name: string, kind: any, key: string | null, input: unknown, config?: unknown) => {
    const pluginId = installed.get(name)!;
    if (config !== undefined)
      await workers.invoke(pluginId, companyId, { kind: 'configChanged', key: null, input: config, cause: null });
    calls.length = 0;
    return workers.invoke(pluginId, companyId, { kind, key, input, cause: null });
  };
  /** Every call named its live invocation, of this kind and key. */
  const allWithin = (kind: string, key: string) => {
    for (const call of calls) {
      assert.equal(call.params.invocationId, call.invocation?.id, call.method);
      assert.deepEqual([call.invocation?.kind, call.invocation?.key], [kind, key], call.method);
    }
  };

  it('inbound-hook: a delivery creates an issue in the configured project and wakes the configured agent with it', async () => {
    answers = { 'issues.create': () => ({ id: 'issue-1' }), 'agents.wake': () => ({ runId: 'run-1' }) };
    const agentId = '6f1c2d3e-0000-4000-8000-000000000001';
    const projectId = '6f1c2d3e-0000-4000-8000-000000000002';
    const delivery = {
      deliveryId: 'dlv-1',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"title":"Printer on fire"}',
      json: { title: 'Printer on fire' },
    };
    const result = await run('inbound-hook', 'webhook', 'inbound', delivery, { agentId, projectId });
    assert.deepEqual(result, { issueId: 'issue-1' });
    assert.deepEqual(
      calls.map((c) => c.method),
      ['issues.create', 'agents.wake'],
    );
    assert.equal(calls[0]!.params.title, 'Printer on fire');
    assert.equal(calls[0]!.params.projectId, projectId);
    assert.deepEqual([calls[1]!.params.agentId, calls[1]!.params.issueId], [agentId, 'issue-1']);
    allWithin('webhook', 'inbound');
  });

  it('chat-notify: an approval waiting is posted to the secret URL, which the worker only names', async () => {
    answers = { 'http.fetch': () => ({ status: 200, headers: {}, body: 'ok' }) };
    const entry = {
      id: 'act-1',
      action: 'approval.created',
      entityType: 'approval',
      entityId: 'abcdef12-0000',
      agentId: null,
      details: { type: 'hire_agent' },
    };
    const config = { format: 'slack', webhookUrl: { secretId: 'the-company-secret' } };
    assert.deepEqual(await run('chat-notify', 'event', 'approval.created', entry, config), { sent: true });
    assert.equal(calls.length, 1);
    assert.deepEqual(calls[0]!.params.url, { $secret: 'webhookUrl' });
    assert.deepEqual(JSON.parse(calls[0]!.params.body), {
      text: '*Approval waits for the board*\nApproval abcdef12 (hire agent) waits for the board.',
    });
    allWithin('event', 'approval.created');
    answers = { 'http.fetch': () => ({ status: 500, headers: {}, body: 'down' }) };
    await assert.rejects(run('chat-notify', 'event', 'approval.created', entry), /the slack URL answered 500/);
  });

  it('budget-radar: its data key answers blocks the host schema accepts, with names of budgeted agents', async () => {
    const agentId = '0a1b2c3d-0000-4000-8000-000000000000';
    answers = {
      'costs.summary': () => ({
        spendCents: 900,
        budgetCents: 0,
        policies: [
          {
            scopeType: 'agent',
            scopeId: agentId,
            metric: 'billed_cents',
            windowKind: 'calendar_month_utc',
            amount: 100_000,
            observed: 900,
          },
        ],
      }),
      'agents.list': () => [{ id: agentId, name: 'Dev' }],
    };
    const payload = blocksPayload.parse(await run('budget-radar', 'data', 'radar', {}));
    assert.equal(payload.blocks[0]!.type, 'metric');
    assert.match(JSON.stringify(payload), /Agent Dev/);
    assert.deepEqual(
      calls.map((c) => c.method),
      ['costs.summary', 'agents.list'],
    );
    allWithin('data', 'radar');
  });

  it("run-digest: the job opens its issue once, then writes the day's document on it", async () => {
    const dev = '11111111-0000-4000-8000-000000000000';
    const state = new Map<string, unknown>();
    answers = {
      'activity.list': () => [
        {
          action: 'heartbeat_run.failed',
          agentId: dev,
          details: { agentId: dev, error: 'exit 2' },
          createdAt: '2026-11-28T06:00:00Z',
        },
        {
          action: 'heartbeat_run.succeeded',
          agentId: dev,
          details: { agentId: dev },
          createdAt: '2026-11-28T05:00:00Z',
        },
      ],
      'agents.list': () => [{ id: dev, name: 'Dev' }],
      'costs.summary': () => ({ spendCents: 4200 }),
      'state.get': (p) => ({ value: state.get(p.key) ?? null }),
      'state.set': (p) => {
        state.set(p.key, p.value);
        return { ok: true };
      },
      'issues.create': () => ({ id: 'digest-issue' }),
      'documents.put': () => ({ ok: true }),
    };
    const fire = { fireAt: '2026-11-28T07:00:00.000Z', trigger: 'manual' };
    await run('run-digest', 'job', 'daily-digest', fire, {});
    const put = calls.find((c) => c.method === 'documents.put')!;
    assert.deepEqual([put.params.issueId, put.params.key], ['digest-issue', 'run-digest-2026-11-28']);
    assert.match(put.params.body, /2 runs ended: 1 succeeded, 1 failed/);
    assert.match(put.params.body, /Spend this month so far: \$42\.00/);
    allWithin('job', 'daily-digest');
    await run('run-digest', 'job', 'daily-digest', fire);
    assert.equal(calls.filter((c) => c.method === 'issues.create').length, 0, 'the issue is opened once');
    await run('run-digest', 'job', 'daily-digest', fire, { issueId: 'OPS-7' });
    assert.equal(calls.find((c) => c.method === 'documents.put')!.params.issueId, 'OPS-7');
  });

  it("kitchen-sink: the issue tab's data answers blocks with a button bound to its action", async () => {
    answers = {
      'issues.list': () => [{ status: 'todo' }, { status: 'todo' }, { status: 'done' }],
      'state.get': () => ({ value: { deliveryId: 'dlv-9' } }),
    };
    const payload = blocksPayload.parse(await run('kitchen-sink', 'data', 'summary', { entityId: 'issue-7' }, {}));
    assert.deepEqual(payload.blocks[0], {
      type: 'metric',
      label: 'Issues',
      value: 3,
      unit: 'count',
      caption: 'in this company',
    });
    assert.deepEqual(payload.blocks.at(-1), {
      type: 'buttons',
      buttons: [{ label: 'Post a greeting', action: 'post-greeting', params: { issueId: 'issue-7' } }],
    });
    allWithin('data', 'summary');
    answers = {};
    await assert.rejects(
      run('kitchen-sink', 'data', 'summary', {}),
      /CAPABILITY_DENIED: issues\.list is not scripted here/,
    );
  });
});

/** Runs the real `boardroom` command; its exit status and output. */
function boardroom(args: string[], env: Record<string, string> = {}, cwd = PROJECT_DIR) {
  return new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], { cwd, env: { ...process.env, ...env } });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.once('exit', (code) => resolve({ code, out }));
  });
}

function withoutTestContext(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  return env;
}

describe('boardroom plugin init', () => {
  let t: TestApp;
  let companyId: string;
  let project: string;
  let dir: string;
  before(async () => {
    t = await startTestApp({ listen: true });
    companyId = (await t.newCompany(t.ownerToken)).company.id;
    project = path.join(scratch, 'project');
    dir = path.join(project, 'weather-bot');
  });
  after(async () => {
    await t.close();
  });

  it('scaffolds a manifest that validates, a worker on a copy of the SDK, a README and a test', async () => {
    const made = await boardroom(['plugin', 'init', dir]);
    assert.equal(made.code, 0, made.out);
    assert.match(made.out, /created .*weather-bot/);
    assert.deepEqual((await readdir(dir)).sort(), [
      'README.md',
      'boardroom-plugin-sdk.d.mts',
      'boardroom-plugin-sdk.mjs',
      'boardroom.plugin.json',
      'package.json',
      'test',
      'worker.mjs',
    ]);
    const pkg = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8'));
    assert.deepEqual(pkg.boardroom, { plugin: './boardroom.plugin.json' });
    assert.equal(pkg.type, 'module');
    assert.equal(pkg.devDependencies.boardroom, `file:${PROJECT_DIR}`);
    const manifest = parseManifest(JSON.parse(await readFile(path.join(dir, 'boardroom.plugin.json'), 'utf8')));
    assert.equal(manifest.id, 'local.weather-bot');
    assert.equal(manifest.displayName, 'Weather Bot');
    // The copy is the SDK itself under a one-line header, not a second version of it.
    const copy = await readFile(path.join(dir, 'boardroom-plugin-sdk.mjs'), 'utf8');
    assert.equal(copy.slice(copy.indexOf('\n') + 1), await readFile(path.join(PLUGIN_SDK_DIR, 'index.mjs'), 'utf8'));
    assert.match(await readFile(path.join(dir, 'test', 'worker.test.mjs'), 'utf8'), /createTestHarness/);
  });

  it('refuses a folder that is not empty', async () => {
    const again = await boardroom(['plugin', 'init', dir]);
    assert.equal(again.code, 1);
    assert.match(again.out, /is not empty/);
  });

  it('the scaffold installs from its path (201) and its tool answers through the worker host', async () => {
    const res = await t.request('POST', '/api/plugins/install', {
      token: t.ownerToken,
      body: { packageName: dir, isLocalPath: true },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const consent = await t.request('POST', `/api/companies/${companyId}/plugins/${res.body.id}/enable`, {
      token: t.ownerToken,
      body: { capabilities: res.body.manifest.capabilities },
    });
    assert.equal(consent.status, 200, JSON.stringify(consent.body));
    const workers = pluginWorkersOf(t.app);
    const answer = await workers.invoke(res.body.id, companyId, {
      kind: 'tool',
      key: 'hello',
      input: { name: 'Ada' },
      cause: null,
    });
    assert.deepEqual(answer, { message: 'Hello, Ada!' });
    await workers.stopPlugin(res.body.id);
    assert.equal((await t.request('DELETE', `/api/plugins/${res.body.id}`, { token: t.ownerToken })).status, 200);
  });

  it("the scaffold's own test passes against the server, through the harness (boardroom linked as npm install would)", async () => {
    await mkdir(path.join(project, 'node_modules'), { recursive: true });
    await symlink(PROJECT_DIR, path.join(project, 'node_modules', 'boardroom'), 'dir').catch(() => undefined);
    const run = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn(process.execPath, ['--test'], {
        cwd: dir,
        // Without NODE_TEST_CONTEXT, which would make it a subprocess of this runner that runs no file.
        env: { ...withoutTestContext(), BOARDROOM_TEST_URL: t.baseUrl!, BOARDROOM_TEST_TOKEN: t.ownerToken },
      });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      child.once('exit', (code) => resolve({ code, out }));
    });
    assert.equal(run.code, 0, run.out);
    assert.match(run.out, /# pass 2/);
  });
});

describe('plugin SDK: the test harness on a server of its own', () => {
  it('starts boardroom run on a fresh data directory, installs and enables the plugin, and close() leaves nothing', async () => {
    const h = await createTestHarness({ pluginDir: path.join(PLUGIN_EXAMPLES_DIR, 'kitchen-sink') });
    let closed = false;
    try {
      assert.equal(h.plugin.pluginKey, 'boardroom.kitchen-sink');
      assert.equal(h.plugin.status, 'ready');
      const mine = await h.request('GET', `/api/companies/${h.companyId}/plugins`);
      assert.equal(mine.find((p: any) => p.pluginId === h.pluginId)?.status, 'enabled');
      assert.equal((await h.health()).companyId, h.companyId);
      await h.close();
      closed = true;
      await assert.rejects(fetch(`${h.url}/api/health`), 'the server it started is stopped');
      // Its own folder only: another suite on this machine may have harness folders of its own in /tmp.
      assert.ok(h.dataDir?.startsWith(path.join(os.tmpdir(), 'boardroom-harness-')), String(h.dataDir));
      assert.equal(existsSync(h.dataDir ?? ''), false, 'its data directory is removed');
    } finally {
      if (!closed) await h.close();
    }
  });
});

describe('plugin SDK: the test harness on a given server', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ listen: true });
  });
  after(async () => {
    await t.close();
  });

  it('installs a copy without node_modules and .git, upgrades a plugin installed before, and close() uninstalls it', async () => {
    const dir = path.join(scratch, 'sink-with-deps');
    await cp(path.join(PLUGIN_EXAMPLES_DIR, 'kitchen-sink'), dir, { recursive: true });
    // What npm install and git leave behind: a symlink would make the package refused if it were copied.
    await mkdir(path.join(dir, 'node_modules'), { recursive: true });
    await symlink(PROJECT_DIR, path.join(dir, 'node_modules', 'boardroom'), 'dir');
    await mkdir(path.join(dir, '.git'));
    await writeFile(path.join(dir, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    const server = { url: t.baseUrl!, token: t.ownerToken };
    const first = await createTestHarness({ pluginDir: dir, server });
    const second = await createTestHarness({ pluginDir: dir, server });
    try {
      assert.equal(first.pluginId, second.pluginId, 'the second upgraded the plugin the first installed');
      assert.notEqual(first.companyId, second.companyId);
      const record = await second.request('GET', `/api/plugins/${second.pluginId}`);
      const files = (
        await readdir(path.join(PLUGIN_EXAMPLES_DIR, 'kitchen-sink'), { recursive: true, withFileTypes: true })
      ).filter((e) => e.isFile()).length;
      assert.equal(record.files, files, 'the files of the example, without node_modules and .git');
      await assert.rejects(second.data('no-such-key'), (err: any) => err.name === 'HarnessError' && err.status >= 400);
    } finally {
      await second.close();
      await first.close();
    }
    const gone = await t.request('GET', `/api/plugins/${first.pluginId}`, { token: t.ownerToken });
    assert.equal(gone.status, 404);
  });
});
