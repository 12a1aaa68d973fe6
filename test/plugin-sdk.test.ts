// boardroom/plugin-sdk (issue 27 section 6): the worker loop against a real spawned process speaking
// the host's JSON-RPC (initialize, invoke of every kind, cancel aborting the handler's signal, host
// calls carrying the invocationId and answered back, errors), block builders the host's schema
// accepts, the shipped example bundles equal to a fresh build, `boardroom plugin init`, and every
// example installed from its path and answering `health` and an invocation through the server's
// worker host.
import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { blocks } from 'boardroom/plugin-sdk';
import { blocksPayload } from '../src/modules/plugins/blocks.ts';
import { parseManifest } from '../src/modules/plugins/manifest.ts';
import { pluginWorkersOf } from '../src/modules/plugins/routes.ts';
import { PLUGIN_EXAMPLES_DIR, PLUGIN_SDK_DIR } from '../src/paths.ts';
import { buildableExamples, staleExamples } from '../scripts/build-plugin-examples.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';

const SDK_URL = pathToFileURL(path.join(PLUGIN_SDK_DIR, 'index.mjs')).href;
const EXAMPLES = ['kitchen-sink'];

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
  it('the shipped examples, each built from src/worker.mjs with the SDK, and every bundle is up to date', async () => {
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

  it('GET /api/plugins/examples lists them', async () => {
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
