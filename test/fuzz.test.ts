// Hostile input keeps its promise: every operation of the server's own /api/openapi.json, as board and
// as agent, gets a valid call and a seeded sample of hostile variants (wrong types, missing and extra
// fields, NUL bytes raw and %00, 10 MB strings, 5,000-deep JSON, unknown and other-company ids,
// malformed multipart) against a real `boardroom run` process (the esbuild bundle). It passes when no
// answer is a 5xx, no request hangs, the server logs nothing at error level, and GET /api/health
// answers 200 throughout (polled beside the cases, see PROBE). How long health took, over a control
// request timed beside it, is printed, not asserted: on a loaded machine that is a figure for
// `npm run bench`, not a rule. FUZZ_SEED=<n> replays a run (`npm test` chooses and prints it);
// FUZZ_CASES=<n> sends more (default 6000).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import { freePort } from '../src/db/embedded.ts';
import { casesFor, type FuzzCase, type Operation, type RequestSpec } from './helpers/fuzz-cases.ts';
import { prng, type SeededIds } from './helpers/fuzz-schema.ts';
import { freshDatabase, runCli, spawnServer, tempDir, waitForHealth } from './helpers/server-process.ts';
import { waitFor } from './helpers/wait.ts';

const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const TOTAL_CASES = Number(process.env.FUZZ_CASES ?? 6000);
const CONCURRENCY = Number(process.env.FUZZ_CONCURRENCY ?? 2);
// A health probe this much slower than its control is printed with the requests in flight beside it.
const SLOW_HEALTH_MS = 200;
const PROBE_INTERVAL_MS = 150;
// A request that has not answered by then is a hang, reported like a 5xx.
const REQUEST_TIMEOUT_MS = 30_000;

/**
 * What the fuzz never sends, and why: each would break the run itself rather than test the server.
 * Checked on the built request; anything else is sent, real ids included.
 */
function exclusionOf(opName: string, spec: RequestSpec, world: World): string | undefined {
  const uses = (id: string | undefined) => id !== undefined && spec.path.includes(id);
  if (opName === 'DELETE /api/companies/{companyId}' && (uses(world.a.company) || uses(world.b.company)))
    return 'deletes a seeded company: every later case would only see 404s';
  if (opName === 'DELETE /api/agents/{agentId}/keys/{keyId}' && uses(world.a.agentKey))
    return 'revokes the agent key the agent cases authenticate with';
  if (
    (opName === 'DELETE /api/agents/{agentId}' || opName === 'POST /api/agents/{agentId}/terminate') &&
    uses(world.a.agent)
  )
    return 'ends the agent whose key the agent cases use';
  return undefined;
}

// DELETEs and archive run after everything else, so the seeded records stay for the other cases.
const isDestructive = (opName: string) => opName.startsWith('DELETE ') || /\/(archive|terminate)$/.test(opName);

interface World {
  base: string;
  boardKey: string;
  agentKey: string;
  a: SeededIds & { publicId?: string };
  b: SeededIds & { publicId?: string };
  spareBoardKeyId: string;
}

async function api(
  base: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<any> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body !== undefined && { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`seed ${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

async function upload(
  base: string,
  token: string,
  path: string,
  filename: string,
  contentType: string,
  data: Buffer,
): Promise<any> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)], { type: contentType }), filename);
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (res.status !== 201 && res.status !== 200)
    throw new Error(`seed upload ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

/** One company's worth of records, each through the API; the agent checks out its issue, so a run exists. */
async function seedCompany(
  base: string,
  board: string,
  name: string,
  workspaceDir: string,
): Promise<{ ids: SeededIds & { publicId?: string }; agentToken: string }> {
  const company = await api(base, board, 'POST', '/api/companies', { name });
  const c = company.id as string;
  const agent = await api(base, board, 'POST', `/api/companies/${c}/agents`, {
    name: `${name} agent`,
    role: 'engineer',
    adapterType: 'process',
    adapterConfig: {},
  });
  const key = await api(base, board, 'POST', `/api/agents/${agent.id}/keys`, { name: 'fuzz' });
  const goal = await api(base, board, 'POST', `/api/companies/${c}/goals`, { title: `${name} goal` });
  const project = await api(base, board, 'POST', `/api/companies/${c}/projects`, { name: `${name} project` });
  const workspace = await api(base, board, 'POST', `/api/projects/${project.id}/workspaces`, {
    name: 'main',
    cwd: workspaceDir,
  });
  const issue = await api(base, board, 'POST', `/api/companies/${c}/issues`, {
    title: `${name} issue`,
    status: 'todo',
    assigneeAgentId: agent.id,
    projectId: project.id,
    goalId: goal.id,
  });
  const comment = await api(base, board, 'POST', `/api/issues/${issue.id}/comments`, { body: 'a comment' });
  const document = await api(base, board, 'PUT', `/api/issues/${issue.id}/documents/plan`, { body: '# Plan' });
  const attachment = await upload(
    base,
    board,
    `/api/companies/${c}/issues/${issue.id}/attachments`,
    'note.png',
    'image/png',
    PNG,
  );
  const logo = await upload(base, board, `/api/companies/${c}/logo`, 'logo.png', 'image/png', PNG);
  const secret = await api(base, board, 'POST', `/api/companies/${c}/secrets`, {
    name: 'FUZZ_SECRET',
    value: 'fuzz-secret-value',
  });
  const skill = await api(base, board, 'POST', `/api/companies/${c}/skills`, {
    name: `fuzz-skill-${name.toLowerCase()}`,
  });
  const routine = await api(base, board, 'POST', `/api/companies/${c}/routines`, {
    title: `${name} routine`,
    assigneeAgentId: agent.id,
    projectId: project.id,
  });
  const trigger = await api(base, board, 'POST', `/api/routines/${routine.id}/triggers`, { kind: 'webhook' });
  const approval = await api(base, board, 'POST', `/api/companies/${c}/approvals`, {
    type: 'request_board_approval',
    payload: { reason: 'fuzz' },
  });
  const runId = randomUUID();
  await api(
    base,
    key.token,
    'POST',
    `/api/issues/${issue.id}/checkout`,
    { agentId: agent.id, expectedStatuses: ['todo'] },
    { 'x-service-run-id': runId },
  );
  const ids = {
    company: c,
    agent: agent.id,
    agentKey: key.id,
    goal: goal.id,
    project: project.id,
    workspace: workspace.id,
    issue: issue.id,
    comment: comment.id,
    revision: document.latestRevisionId,
    attachment: attachment.id,
    asset: logo.assetId,
    secret: secret.id,
    skill: skill.id,
    routine: routine.id,
    trigger: trigger.id,
    // webhookUrl ends in /api/routine-triggers/public/<publicId>/fire.
    publicId: /\/public\/([^/]+)\/fire$/.exec(trigger.webhookUrl)?.[1],
    approval: approval.id,
    run: runId,
  };
  for (const [kind, id] of Object.entries(ids)) assert.ok(id, `seeded ${kind} has an id`);
  return { ids, agentToken: key.token };
}

function pathValueFor(world: World) {
  return (_method: string, path: string, name: string, which: 'own' | 'other'): string | undefined => {
    const ids = which === 'own' ? world.a : world.b;
    if (path.startsWith('/api/board-keys/')) return world.spareBoardKeyId;
    if (name === 'publicId') return ids.publicId;
    if (name === 'key') return 'plan';
    if (name === 'type') return 'process';
    return undefined;
  };
}

interface Outcome {
  status: number;
  body: string;
}

async function send(base: string, token: string, spec: RequestSpec): Promise<Outcome> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, ...spec.headers };
  if (headers.authorization === '') delete headers.authorization;
  if (spec.raw) return sendRaw(base, { ...spec, headers });
  const res = await fetch(`${base}${spec.path}`, {
    method: spec.method,
    headers,
    body: typeof spec.body === 'string' || spec.body === undefined ? spec.body : new Uint8Array(spec.body),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  // Streams stay open by design: the status and headers are the answer; the body is let go.
  if (res.headers.get('content-type')?.startsWith('text/event-stream')) {
    await res.body?.cancel();
    return { status: res.status, body: '(event stream)' };
  }
  return { status: res.status, body: await res.text() };
}

/** Bytes fetch refuses to send (a raw NUL in the request line), over a plain socket. */
function sendRaw(base: string, spec: RequestSpec): Promise<Outcome> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname);
    let data = '';
    socket.setTimeout(REQUEST_TIMEOUT_MS, () => socket.destroy(new Error('timed out')));
    socket.on('data', (d) => (data += d));
    socket.on('error', reject);
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0);
      resolve({ status, body: data.split('\r\n\r\n').slice(1).join('\r\n\r\n') });
    });
    const body = spec.body === undefined ? Buffer.alloc(0) : Buffer.from(spec.body);
    const head = [
      `${spec.method} ${spec.path} HTTP/1.1`,
      `host: ${url.host}`,
      'connection: close',
      `content-length: ${body.length}`,
      ...Object.entries(spec.headers).map(([k, v]) => `${k}: ${v}`),
    ];
    socket.end(Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), body]));
  });
}

// The probe runs in its own thread: latencies measured on the fuzzer's busy event loop would be the
// fuzzer's, not the server's. Beside each health request it times one to a trivial HTTP server of its
// own (the control): on this shared 2-core machine other work can starve every process at once, and
// a slow control says so. What the server adds over the control is the figure printed.
const PROBE = `
const http = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const samples = [];
let failures = 0;
let stopping = false;
parentPort.on('message', () => (stopping = true));
const control = http.createServer((req, res) => res.end('ok'));
async function timed(url) {
  const started = performance.now();
  const res = await fetch(url, { signal: AbortSignal.timeout(10000) });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - started };
}
control.listen(0, '127.0.0.1', async () => {
  const controlUrl = 'http://127.0.0.1:' + control.address().port + '/';
  while (!stopping) {
    const at = Date.now();
    try {
      const [health, baseline] = await Promise.all([timed(workerData.url), timed(controlUrl)]);
      if (health.status !== 200) failures++;
      samples.push({ at, ms: health.ms, control: baseline.ms });
    } catch {
      failures++;
    }
    await new Promise((r) => setTimeout(r, workerData.intervalMs));
  }
  control.close();
  parentPort.postMessage({ samples, failures });
});
`;

interface HealthSample {
  at: number;
  ms: number;
  control: number;
}

function startHealthProbe(base: string) {
  const worker = new Worker(PROBE, {
    eval: true,
    workerData: { url: `${base}/api/health`, intervalMs: PROBE_INTERVAL_MS },
  });
  return {
    stop: () =>
      new Promise<{ samples: HealthSample[]; failures: number }>((resolve) => {
        worker.once('message', (result) => {
          void worker.terminate();
          resolve(result);
        });
        worker.postMessage('stop');
      }),
  };
}

interface Planned {
  opName: string;
  actor: 'board' | 'agent';
  fuzzCase: FuzzCase;
}

/** Every (operation, actor) pair gets the valid call and a seeded sample of its hostile cases. */
function plan(
  spec: { paths: Record<string, Record<string, Operation>> },
  world: World,
  rng: ReturnType<typeof prng>,
): { planned: Planned[]; total: number; operations: number } {
  const operations = Object.entries(spec.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([m]) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
      .map(([m, op]) => ({ method: m.toUpperCase(), path, op })),
  );
  const perPair = Math.max(1, Math.ceil(TOTAL_CASES / (operations.length * 2)));
  const planned: Planned[] = [];
  let total = 0;
  for (const { method, path, op } of operations) {
    for (const actor of ['board', 'agent'] as const) {
      const all = casesFor(method, path, op, {
        rng,
        own: world.a,
        other: world.b,
        runId: actor === 'agent' ? world.a.run! : randomUUID(),
        pathValue: pathValueFor(world),
      });
      total += all.length;
      const [valid, ...hostile] = all;
      for (const fuzzCase of [valid!, ...rng.shuffle(hostile).slice(0, perPair - 1)])
        planned.push({ opName: `${method} ${path}`, actor, fuzzCase });
    }
  }
  const ordered = [
    ...rng.shuffle(planned.filter((p) => !isDestructive(p.opName))),
    ...rng.shuffle(planned.filter((p) => isDestructive(p.opName))),
  ];
  return { planned: ordered, total, operations: operations.length };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

// Past the body limit the server answers 413 and closes the connection; a client still writing the
// rest may see the close (EPIPE, ECONNRESET) before it reads the answer. Accepted only for such bodies.
const BODY_LIMIT = 2 * 1024 * 1024;
const isCutOff = (spec: RequestSpec, err: unknown) =>
  spec.body !== undefined &&
  spec.body.length > BODY_LIMIT &&
  /EPIPE|ECONNRESET|other side closed/.test(`${(err as Error).message} ${String((err as Error).cause)}`);

/** Sends the planned cases CONCURRENCY at a time; collects 5xx, hangs and what was excluded. */
async function runCases(planned: Planned[], world: World) {
  const failures: string[] = [];
  const excluded = new Map<string, number>();
  const statuses = new Map<number, number>();
  const windows: { what: string; start: number; end: number }[] = [];
  // How deep the valid calls get: a 400 there means the generated body missed the schema.
  const valid = { sent: 0, succeeded: 0, refusedAsInvalid: [] as string[] };
  let sent = 0;
  let dropped = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < planned.length) {
        const { opName, actor, fuzzCase } = planned[next++]!;
        const spec = fuzzCase.build();
        const reason = exclusionOf(opName, spec, world);
        if (reason) {
          excluded.set(`${opName}: ${reason}`, (excluded.get(`${opName}: ${reason}`) ?? 0) + 1);
          continue;
        }
        const what = `${opName} as ${actor} [${fuzzCase.label}]`;
        const start = Date.now();
        sent++;
        try {
          const outcome = await send(world.base, actor === 'board' ? world.boardKey : world.agentKey, spec);
          statuses.set(outcome.status, (statuses.get(outcome.status) ?? 0) + 1);
          if (fuzzCase.label === 'valid') {
            valid.sent++;
            if (outcome.status < 300) valid.succeeded++;
            if (outcome.status === 400) valid.refusedAsInvalid.push(`${what}: ${outcome.body.slice(0, 200)}`);
          }
          if (outcome.status >= 500 || outcome.status === 0)
            failures.push(`${what}: ${outcome.status} ${outcome.body.slice(0, 300)}`);
        } catch (err) {
          if (isCutOff(spec, err)) dropped++;
          else
            failures.push(
              `${what}: no answer (${(err as Error).message}${(err as Error).cause ? `: ${String((err as Error).cause)}` : ''})`,
            );
        }
        windows.push({ what, start, end: Date.now() });
      }
    }),
  );
  return { failures, excluded, statuses, sent, dropped, windows, valid };
}

describe('fuzz: every OpenAPI operation against a running server', () => {
  it(`answers hostile input with 4xx, never 5xx, logs no error and keeps answering health (FUZZ_SEED=${SEED})`, {
    timeout: 15 * 60_000,
  }, async () => {
    console.log(`# fuzz seed: FUZZ_SEED=${SEED} FUZZ_CASES=${TOTAL_CASES}`);
    const dataDir = await tempDir('boardroom-fuzz-');
    const closed = String(await freePort(0));
    // DATABASE_URL mode on a fresh database of the test cluster (no initdb per run). Nothing the fuzz
    // sends may leave this machine: code-host imports and npm installs point at a closed local port.
    const env = {
      DATABASE_URL: await freshDatabase(),
      BOARDROOM_CODEHOST_API_URL: `http://127.0.0.1:${closed}`,
      BOARDROOM_CODEHOST_RAW_URL: `http://127.0.0.1:${closed}`,
      BOARDROOM_SKILL_CATALOG_URL: `http://127.0.0.1:${closed}`,
      npm_config_registry: `http://127.0.0.1:${closed}/`,
      npm_config_offline: 'true',
    };
    const server = spawnServer(['--data-dir', dataDir, '--port', '0'], env);
    try {
      const base = await server.baseUrl();
      await waitForHealth(base);
      const key = await runCli(['board-key', 'create', '--data-dir', dataDir, '--name', 'fuzz'], env);
      assert.equal(key.code, 0, key.stderr);
      const boardKey = key.stdout.trim();
      const spare = await api(base, boardKey, 'POST', '/api/board-keys', { name: 'fuzz-spare' });
      const seededA = await seedCompany(base, boardKey, 'Alpha', path.join(dataDir, 'alpha'));
      const seededB = await seedCompany(base, boardKey, 'Beta', path.join(dataDir, 'beta'));
      const world: World = {
        base,
        boardKey,
        agentKey: seededA.agentToken,
        a: seededA.ids,
        b: seededB.ids,
        spareBoardKeyId: spare.id,
      };
      const openapi = await (await fetch(`${base}/api/openapi.json`)).json();

      const rng = prng(SEED);
      const { planned, total, operations } = plan(openapi, world, rng);
      const probe = startHealthProbe(base);
      const started = Date.now();
      const run = await runCases(planned, world);
      const seconds = (Date.now() - started) / 1000;
      const health = await probe.stop();
      const { failures, excluded, statuses, sent, dropped, windows, valid } = run;
      // The server writes its log in order: once the line of a last request is out, so is every line before it.
      const marker = randomUUID();
      await fetch(`${base}/api/health?flush=${marker}`).then((res) => res.arrayBuffer());
      await waitFor('the server to log the last request', () => server.output().includes(marker));

      const logEntries = server
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map(
          (line) =>
            JSON.parse(line) as {
              level: number;
              msg?: string;
              responseTime?: number;
              err?: { message?: string; stack?: string };
              req?: { method?: string; url?: string };
            },
        );
      const errorLines = logEntries
        .filter((entry) => entry.level >= 50)
        .map((entry) =>
          `${entry.msg} ${entry.req ? `${entry.req.method} ${entry.req.url}` : ''} ${entry.err?.stack ?? entry.err?.message ?? ''}`.slice(
            0,
            800,
          ),
        );
      const latencies = health.samples.map((l) => l.ms);
      const excess = health.samples.map((l) => l.ms - l.control);
      const maxExcess = Math.max(...excess);
      const max = Math.max(...latencies);
      console.log(
        `# fuzz: ${operations} operations, ${total} cases generated, ${sent} sent in ${seconds.toFixed(1)} s (${CONCURRENCY} at a time)`,
      );
      console.log(
        `# fuzz: valid calls ${valid.succeeded} of ${valid.sent} succeeded, ${valid.refusedAsInvalid.length} answered 400`,
      );
      if (process.env.FUZZ_VERBOSE)
        for (const line of valid.refusedAsInvalid) console.log(`# fuzz: valid call refused: ${line}`);
      console.log(`# fuzz: server log ${logEntries.length} lines, ${errorLines.length} at error level or above`);
      if (process.env.FUZZ_VERBOSE) {
        const warnings = new Map<string, number>();
        for (const e of logEntries.filter((entry) => entry.level === 40))
          warnings.set(
            `${e.msg} ${e.err?.message ?? ''}`.slice(0, 300),
            (warnings.get(`${e.msg} ${e.err?.message ?? ''}`.slice(0, 300)) ?? 0) + 1,
          );
        for (const [line, count] of warnings) console.log(`# fuzz: warning ${count}x ${line}`);
        const slowest = logEntries
          .filter((e) => e.responseTime !== undefined)
          .sort((x, y) => y.responseTime! - x.responseTime!);
        for (const e of slowest.slice(0, 15))
          console.log(`# fuzz: slow ${e.responseTime!.toFixed(0)} ms ${e.req?.method} ${e.req?.url?.slice(0, 150)}`);
      }
      console.log(`# fuzz: statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([x], [y]) => x - y)))}`);
      console.log(
        `# fuzz: health ${latencies.length} probes, max ${max.toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, p50 ${percentile(latencies, 50).toFixed(1)} ms, ${health.failures} failed; over the control at worst ${maxExcess.toFixed(1)} ms (control max ${Math.max(...health.samples.map((l) => l.control)).toFixed(1)} ms)`,
      );
      for (const [what, count] of excluded) console.log(`# fuzz: excluded ${count}x ${what}`);
      if (dropped > 0)
        console.log(
          `# fuzz: ${dropped} bodies over the limit were cut off by the server's 413 and connection close before the client read the answer`,
        );
      // A slow probe names the requests in flight with it: the suspects for a blocked event loop.
      for (const slow of health.samples.filter((l) => l.ms - l.control >= SLOW_HEALTH_MS)) {
        const during = windows
          .filter((w) => w.start < slow.at + slow.ms && w.end > slow.at)
          .map((w) => `${w.what} ${w.end - w.start} ms`);
        console.log(
          `# fuzz: health took ${slow.ms.toFixed(0)} ms (control ${slow.control.toFixed(0)} ms) while: ${during.join('; ') || 'nothing was in flight'}`,
        );
      }

      assert.deepEqual(failures, [], `5xx or no answer (FUZZ_SEED=${SEED})`);
      // One line per request is logged: an empty log would make the error check below vacuous.
      assert.ok(
        logEntries.length >= sent / 2,
        `the server logged ${logEntries.length} lines for ${sent} requests (FUZZ_SEED=${SEED})`,
      );
      assert.deepEqual(errorLines, [], `error-level log lines (FUZZ_SEED=${SEED})`);
      assert.equal(health.failures, 0, `every health probe answered 200 (FUZZ_SEED=${SEED})`);
      assert.ok(latencies.length > 10, 'the probe ran throughout');
    } finally {
      server.child.kill('SIGKILL');
      await server.exited;
    }
  });
});
