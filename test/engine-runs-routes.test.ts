// The heartbeat run routes over real engine runs: detail, the company list (filters, keyset paging),
// the log (pages and the live SSE stream, also from a second replica), cancel (a real process group
// stopped), and the run/issue lists fed by a run that checks its issue out.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import http from 'node:http';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { openRunLog } from '../src/modules/runs/run-log.ts';
import { followRunLog, KEEPALIVE_MS } from '../src/modules/runs/log-stream.ts';
import { listenForNotifications, type Notifications } from '../src/db/notifications.ts';
import pino from 'pino';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { newAgent, newIssue, newSecret, type AgentFixture } from './helpers/factories.ts';
import { waitFor } from './helpers/wait.ts';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'agents');
const node = (script: string, ...args: string[]) => ({
  command: process.execPath,
  args: [path.join(FIXTURES, script), ...args],
});
/** Prints `tick 0` .. `tick <count-1>`, one every `everyMs`, then exits 0. */
const ticker = (count: number, everyMs: number) => ({
  command: process.execPath,
  args: [
    '-e',
    `let i = 0; const t = setInterval(() => { console.log('tick ' + i); if (++i === ${count}) clearInterval(t); }, ${everyMs});`,
  ],
});

let t: TestApp;
let replica: TestApp;
let board: string;
let companyId: string;
let other: { company: any; token: string };
let otherAgent: AgentFixture;

before(async () => {
  t = await startTestApp({ engine: { pollMs: 200, reaperIntervalMs: 200, leaseSec: 3 } });
  // A second replica on the same database, without an engine: it serves, it does not run.
  replica = await startTestApp({ replicaOf: t, listen: true });
  const c = await t.newCompany();
  board = c.token;
  companyId = c.company.id;
  other = await t.newCompany();
  otherAgent = await newAgent(t, other.token, other.company.id);
});
after(async () => {
  await replica.close();
  await t.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const sql = async (text: string, params: unknown[] = []) => (await t.database.pool.query(text, params)).rows;
const get = (url: string, token = board) => t.request('GET', url, { token });
const wake = (agentId: string, body: Record<string, unknown> = {}) =>
  t.request('POST', `/api/agents/${agentId}/wakeup`, { token: board, body });
const isFinished = (status: string) => !['queued', 'running'].includes(status);

/** Wakes the agent and returns its run id once the run exists. */
async function startRun(agentId: string, body: Record<string, unknown> = {}): Promise<string> {
  const res = await wake(agentId, body);
  assert.equal(res.status, 202, JSON.stringify(res.body));
  const [row] = await waitFor('the run', () =>
    sql('select id from heartbeat_runs where wakeup_request_id = $1', [res.body.id]).then((r) => (r.length ? r : null)),
  );
  return row.id;
}

const finishedRun = (runId: string, timeoutMs = 15_000) =>
  waitFor(
    'the run to finish',
    async () => {
      const res = await get(`/api/heartbeat-runs/${runId}`);
      return isFinished(res.body.status) ? res.body : null;
    },
    timeoutMs,
  );

/** Inserts runs straight into the table (for the list): fields over sensible defaults. */
async function insertRun(fields: {
  agentId: string;
  status?: string;
  issueId?: string | null;
  createdAt?: string;
  error?: string | null;
  errorCode?: string | null;
}): Promise<string> {
  const [row] = await sql(
    `insert into heartbeat_runs (company_id, agent_id, status, issue_id, error, error_code, invocation_source, adapter_type, created_at, finished_at)
     values ($1, $2, $3, $4, $5, $7, 'on_demand', 'process', coalesce($6::timestamptz, now()), case when $3 in ('queued', 'running') then null else now() end) returning id`,
    [
      companyId,
      fields.agentId,
      fields.status ?? 'succeeded',
      fields.issueId ?? null,
      fields.error ?? null,
      fields.createdAt ?? null,
      fields.errorCode ?? null,
    ],
  );
  return row.id;
}

// ---- SSE client: a real HTTP request, read as it arrives ----

interface SseEvent {
  event: string;
  id?: string;
  data: string;
  at: number;
}

interface SseStream {
  status: number;
  headers: Headers;
  events: SseEvent[];
  comments: string[];
  /** Resolves when the server ends the stream. */
  closed: Promise<void>;
  body: any;
  abort(): void;
}

async function openSse(
  baseUrl: string,
  url: string,
  headers: Record<string, string> = {},
  token = board,
): Promise<SseStream> {
  const controller = new AbortController();
  const res = await fetch(`${baseUrl}${url}`, {
    headers: { authorization: `Bearer ${token}`, ...headers },
    signal: controller.signal,
  });
  const stream: SseStream = {
    status: res.status,
    headers: res.headers,
    events: [],
    comments: [],
    closed: Promise.resolve(),
    body: null,
    abort: () => controller.abort(),
  };
  if (!res.headers.get('content-type')?.startsWith('text/event-stream')) {
    stream.body = await res.json();
    return stream;
  }
  stream.closed = (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event: SseEvent = { event: 'message', data: '', at: Date.now() };
          let isEvent = false;
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) stream.comments.push(line);
            else if (line.startsWith('event: ')) [event.event, isEvent] = [line.slice(7), true];
            else if (line.startsWith('id: ')) event.id = line.slice(4);
            else if (line.startsWith('data: ')) [event.data, isEvent] = [line.slice(6), true];
          }
          if (isEvent) stream.events.push(event);
        }
      }
    } catch (err) {
      if ((err as Error).name !== 'AbortError') throw err;
    }
  })();
  return stream;
}

const logText = (events: SseEvent[]) =>
  events
    .filter((e) => e.event === 'log')
    .map((e) => (JSON.parse(e.data) as { content: string }).content)
    .join('');

/** The whole stored log of a run, through the log route. */
async function fullLog(runId: string): Promise<string> {
  let text = '';
  for (let offset = 0; ; ) {
    const page = await get(`/api/heartbeat-runs/${runId}/log?offset=${offset}`);
    assert.equal(page.status, 200);
    text += page.body.content;
    if (page.body.nextOffset >= page.body.logBytes) return text;
    offset = page.body.nextOffset;
  }
}

// ---- Processes ----

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  return true;
}

/** A live (not zombie) member of the process group is left. */
async function groupAlive(pgid: number): Promise<boolean> {
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[2] === String(pgid) && fields[0] !== 'Z') return true;
  }
  return false;
}

async function processGone(pid: number): Promise<boolean> {
  if (!isAlive(pid)) return true;
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  return stat === null || stat.slice(stat.lastIndexOf(')') + 2)[0] === 'Z';
}

const RUN_DETAIL_FIELDS = [
  'runId',
  'status',
  'agentId',
  'adapterType',
  'startedAt',
  'finishedAt',
  'createdAt',
  'invocationSource',
  'usageJson',
  'resultJson',
  'logBytes',
  'issueId',
  'wakeReason',
  'wakeupRequestId',
  'exitCode',
  'signal',
  'error',
  'errorCode',
  'errorHelp',
  'logTruncated',
  'leaseExpiresAt',
  'deadlineAt',
  'updatedAt',
  'workspace',
];

describe('GET /api/heartbeat-runs/{runId}', () => {
  it('the detail of an engine run, for the board and the agents of its company', async () => {
    const { agent, token: agentToken } = await newAgent(t, board, companyId, {
      adapterConfig: node('worker.mjs', '100'),
    });
    const issue = await newIssue(t, board, companyId, { status: 'todo' });
    const runId = await startRun(agent.id, { reason: 'look at it', payload: { issueId: issue.id } });
    const live = await get(`/api/heartbeat-runs/${runId}`);
    assert.equal(live.status, 200);
    assert.ok(['queued', 'running'].includes(live.body.status));
    const run = await finishedRun(runId);
    assert.deepEqual(Object.keys(run).sort(), [...RUN_DETAIL_FIELDS].sort());
    assert.equal(run.runId, runId);
    assert.equal(run.status, 'succeeded');
    assert.equal(run.agentId, agent.id);
    assert.equal(run.issueId, issue.id);
    assert.equal(run.wakeReason, 'look at it');
    assert.equal(run.exitCode, 0);
    assert.equal(run.signal, null);
    assert.equal(run.error, null);
    assert.equal(run.errorCode, null);
    assert.equal(run.errorHelp, null);
    assert.equal(run.logTruncated, false);
    assert.ok(run.logBytes > 0);
    assert.equal(run.leaseExpiresAt, null);
    assert.ok(run.deadlineAt && run.startedAt && run.finishedAt && run.updatedAt);
    assert.equal(run.resultJson.summary, 'worked 100 ms');
    const [wakeRow] = await sql('select id from agent_wakeup_requests where run_id = $1', [runId]);
    assert.equal(run.wakeupRequestId, wakeRow.id);

    const colleague = await newAgent(t, board, companyId);
    for (const token of [agentToken, colleague.token])
      assert.equal((await get(`/api/heartbeat-runs/${runId}`, token)).status, 200);
  });

  it('404 for an unknown run or a non-UUID id, 403 for another company', async () => {
    assert.equal((await get(`/api/heartbeat-runs/${randomUUID()}`)).status, 404);
    assert.equal((await get('/api/heartbeat-runs/not-a-run')).status, 404);
    const { agent } = await newAgent(t, board, companyId);
    const runId = await insertRun({ agentId: agent.id });
    assert.equal((await get(`/api/heartbeat-runs/${runId}`, other.token)).status, 403);
    assert.equal((await get(`/api/heartbeat-runs/${runId}`, otherAgent.token)).status, 403);
    assert.equal((await get(`/api/heartbeat-runs/${runId}`, (await t.newBoardUser()).token)).status, 403);
    assert.equal((await t.request('GET', `/api/heartbeat-runs/${runId}`)).status, 401);
  });
});

describe('GET /api/companies/{companyId}/heartbeat-runs', () => {
  it('newest first (ties broken by id), filtered by agent, issue, status and errorCode, paged with `before`', async () => {
    const { company, token } = await t.newCompany();
    const saved = companyId;
    companyId = company.id; // insertRun writes into companyId
    try {
      const one = await newAgent(t, token, company.id);
      const two = await newAgent(t, token, company.id);
      const issue = await newIssue(t, token, company.id);
      const base = Date.now() - 60_000;
      const at = (s: number) => new Date(base + s * 1000).toISOString();
      const runs = [
        await insertRun({
          agentId: one.agent.id,
          createdAt: at(1),
          status: 'failed',
          error: 'boom',
          errorCode: 'process_exit_nonzero',
        }),
        await insertRun({ agentId: two.agent.id, createdAt: at(2), issueId: issue.id }),
        await insertRun({ agentId: one.agent.id, createdAt: at(3), status: 'running', issueId: issue.id }),
        await insertRun({ agentId: two.agent.id, createdAt: at(3) }), // same instant as the one before
        await insertRun({
          agentId: one.agent.id,
          createdAt: at(4),
          status: 'cancelled',
          error: 'cancelled by the board',
          errorCode: 'cancelled_by_board',
        }),
      ];
      const tie = [runs[2]!, runs[3]!].sort().reverse();
      const newestFirst = [runs[4]!, ...tie, runs[1]!, runs[0]!];
      const list = (query = '', as = token) =>
        t.request('GET', `/api/companies/${company.id}/heartbeat-runs${query}`, { token: as });

      const all = await list();
      assert.equal(all.status, 200);
      assert.deepEqual(
        all.body.map((r: any) => r.runId),
        newestFirst,
      );
      const failed = all.body.find((r: any) => r.runId === runs[0]);
      assert.equal(failed.error, 'boom');
      assert.equal(failed.errorCode, 'process_exit_nonzero');
      assert.equal(failed.errorHelp.meaning, "The agent's process ended with an error (a non-zero exit code).");
      assert.ok(failed.errorHelp.action.length > 0);
      assert.equal(failed.issueId, null);
      assert.equal(all.body.find((r: any) => r.runId === runs[1]).issueId, issue.id);
      assert.ok(['runId', 'status', 'agentId', 'logBytes', 'createdAt', 'issueId', 'error'].every((k) => k in failed));

      assert.deepEqual(
        (await list(`?agentId=${one.agent.id}`)).body.map((r: any) => r.runId),
        [runs[4], runs[2], runs[0]],
      );
      assert.deepEqual(
        (await list(`?issueId=${issue.id}`)).body.map((r: any) => r.runId),
        [runs[2], runs[1]],
      );
      assert.deepEqual(
        (await list('?status=succeeded')).body.map((r: any) => r.runId),
        newestFirst.filter((id) => id === runs[1] || id === runs[3]),
      );
      assert.deepEqual((await list(`?status=running&agentId=${two.agent.id}`)).body, []);
      assert.deepEqual(
        (await list('?errorCode=process_exit_nonzero')).body.map((r: any) => r.runId),
        [runs[0]],
      );
      assert.deepEqual(
        (await list('?errorCode=cancelled_by_board')).body.map((r: any) => r.runId),
        [runs[4]],
      );
      assert.deepEqual((await list(`?errorCode=cancelled_by_board&agentId=${two.agent.id}`)).body, []);
      assert.deepEqual((await list('?errorCode=timeout')).body, []);

      // Keyset pages of two, through the tie: every run exactly once, in order.
      const seen: string[] = [];
      for (let before: string | undefined; ; ) {
        const page = await list(`?limit=2${before ? `&before=${before}` : ''}`);
        assert.equal(page.status, 200);
        seen.push(...page.body.map((r: any) => r.runId));
        if (page.body.length < 2) break;
        before = page.body.at(-1).runId;
      }
      assert.deepEqual(seen, newestFirst);
      assert.deepEqual(
        (await list(`?before=${tie[0]}`)).body.map((r: any) => r.runId),
        [tie[1], runs[1], runs[0]],
      );

      // Agents of the company may list too.
      assert.equal((await list('', one.token)).status, 200);
    } finally {
      companyId = saved;
    }
  });

  it('404 for an unknown cursor (or one of another company) and an unknown company; 403 outside; 400 for bad filters', async () => {
    const list = (query = '', as = board, company = companyId) =>
      t.request('GET', `/api/companies/${company}/heartbeat-runs${query}`, { token: as });
    assert.equal((await list(`?before=${randomUUID()}`)).status, 404);
    const [foreign] = await sql(
      `insert into heartbeat_runs (company_id, agent_id, status) values ($1, $2, 'succeeded') returning id`,
      [other.company.id, otherAgent.agent.id],
    );
    assert.equal((await list(`?before=${foreign.id}`)).status, 404);
    assert.equal((await list('', board, randomUUID())).status, 404);
    assert.equal((await list('', other.token)).status, 403);
    assert.equal((await list('', otherAgent.token)).status, 403);
    for (const query of [
      '?status=done',
      '?limit=0',
      '?limit=201',
      '?before=nope',
      '?agentId=x',
      '?errorCode=no_such_code',
      '?errorCode=',
      '?errorCode=TIMEOUT',
    ])
      assert.equal((await list(query)).status, 400, query);
  });
});

describe('GET /api/heartbeat-runs/{runId}/log', () => {
  it('pages through a finished run log; complete at its end; empty past it', async () => {
    const { agent } = await newAgent(t, board, companyId, { adapterConfig: ticker(40, 5) });
    const runId = await startRun(agent.id);
    const run = await finishedRun(runId);
    const expected = Array.from({ length: 40 }, (_, i) => `tick ${i}\n`).join('');
    assert.equal(run.logBytes, expected.length);

    const first = await get(`/api/heartbeat-runs/${runId}/log?limit=10`);
    assert.deepEqual(first.body, {
      runId,
      offset: 0,
      nextOffset: 10,
      stderr: [],
      content: expected.slice(0, 10),
      logBytes: expected.length,
      truncated: false,
      finished: true,
      complete: false,
    });
    const rest = await get(`/api/heartbeat-runs/${runId}/log?offset=10`);
    assert.deepEqual(
      [rest.body.content, rest.body.nextOffset, rest.body.complete],
      [expected.slice(10), expected.length, true],
    );
    const past = await get(`/api/heartbeat-runs/${runId}/log?offset=${expected.length + 100}`);
    assert.deepEqual([past.body.content, past.body.complete], ['', true]);
    assert.equal(await fullLog(runId), expected);

    for (const query of ['?offset=-1', '?limit=0', `?limit=${256 * 1024 + 1}`])
      assert.equal((await get(`/api/heartbeat-runs/${runId}/log${query}`)).status, 400, query);
    assert.equal((await get(`/api/heartbeat-runs/${runId}/log`, other.token)).status, 403);
    assert.equal((await get(`/api/heartbeat-runs/${randomUUID()}/log`)).status, 404);
  });

  it('a live run is neither finished nor complete', async () => {
    const { agent } = await newAgent(t, board, companyId, { adapterConfig: ticker(20, 100) });
    const runId = await startRun(agent.id);
    const page = await waitFor('some log', async () => {
      const res = await get(`/api/heartbeat-runs/${runId}/log`);
      return res.body.content.length > 0 && !res.body.finished ? res.body : null;
    });
    assert.equal(page.complete, false);
    await finishedRun(runId);
    assert.equal((await get(`/api/heartbeat-runs/${runId}/log`)).body.complete, true);
  });
});

describe('the run log keeps stdout and stderr apart', () => {
  type Range = { from: number; to: number };
  /** A script writing lines to stdout and stderr in turn (stderr lines start with `err`). */
  const alternating = {
    command: process.execPath,
    args: [
      '-e',
      `const lines = [];
       for (let i = 0; i < 4; i++) {
         lines.push([process.stdout, 'out ' + i + ' plain\\n']);
         lines.push([process.stderr, 'err ' + i + ' \\u001b[31mé✓ failed\\u001b[0m\\n']);
         if (i === 1) lines.push([process.stderr, 'err key=' + process.env.KEY + '\\n']);
       }
       let n = 0;
       const next = () => { const [stream, text] = lines[n++]; stream.write(text); if (n < lines.length) setTimeout(next, 20); };
       next();`,
    ],
  };

  /** The byte ranges of the lines starting with `err`, merged when adjacent (whatever order the pipes delivered them in). */
  function errLines(content: string): Range[] {
    const ranges: Range[] = [];
    let at = 0;
    for (const line of content.split(/(?<=\n)/)) {
      const bytes = Buffer.byteLength(line, 'utf8');
      if (line.startsWith('err ')) {
        const last = ranges.at(-1);
        if (last?.to === at) last.to = at + bytes;
        else ranges.push({ from: at, to: at + bytes });
      }
      at += bytes;
    }
    return ranges;
  }
  const clip = (ranges: Range[], from: number, to: number) =>
    ranges.map((r) => ({ from: Math.max(r.from, from), to: Math.min(r.to, to) })).filter((r) => r.from < r.to);

  it('a page says which bytes came from stderr; small pages clip the ranges; the stream carries them; a secret on stderr is masked', async () => {
    const secret = await newSecret(t, board, companyId);
    const { agent } = await newAgent(t, board, companyId, {
      adapterConfig: { ...alternating, env: { KEY: { type: 'secret_ref', secretId: secret.id } } },
    });
    const runId = await startRun(agent.id);
    assert.equal((await finishedRun(runId)).status, 'succeeded');

    const whole = await get(`/api/heartbeat-runs/${runId}/log`);
    const content: string = whole.body.content;
    assert.equal(content.includes('s3cr3t-value'), false, 'the secret is masked');
    assert.ok(content.includes('err key=***\n'), content);
    assert.equal(content.split('\n').filter(Boolean).length, 9);
    assert.ok(content.includes('err 3 \u001b[31mé✓ failed\u001b[0m\n'));
    const expected = errLines(content);
    assert.ok(expected.length >= 1);
    assert.deepEqual(whole.body.stderr, expected);
    // Every stdout line is outside the ranges, every stderr byte inside.
    const stderrBytes = expected.reduce((sum, r) => sum + r.to - r.from, 0);
    const errText = content
      .split(/(?<=\n)/)
      .filter((l) => l.startsWith('err '))
      .join('');
    assert.equal(stderrBytes, Buffer.byteLength(errText, 'utf8'));

    // Small pages: each page's ranges are the whole log's, clipped to it.
    for (let offset = 0, complete = false; !complete; ) {
      const page = await get(`/api/heartbeat-runs/${runId}/log?offset=${offset}&limit=7`);
      assert.equal(page.status, 200);
      assert.deepEqual(page.body.stderr, clip(expected, page.body.offset, page.body.nextOffset), `page at ${offset}`);
      offset = page.body.nextOffset;
      complete = page.body.complete;
    }

    // The live stream: each log event carries the ranges of its own content; from an offset too.
    for (const from of [0, 9]) {
      const stream = await openSse(t.baseUrl!, `/api/heartbeat-runs/${runId}/log/stream?offset=${from}`);
      await stream.closed;
      const logs = stream.events.filter((e) => e.event === 'log').map((e) => JSON.parse(e.data));
      assert.ok(logs.length > 0);
      for (const data of logs) {
        const end = data.offset + Buffer.byteLength(data.content, 'utf8');
        assert.deepEqual(data.stderr, clip(expected, data.offset, end));
      }
    }
  });

  /** The text of one stream in a page, cut by its stderr byte ranges as the board does (UTF-8 offsets per character). */
  function streamText(content: string, offset: number, stderr: Range[], wanted: 'stdout' | 'stderr'): string {
    let text = '';
    let byte = offset;
    for (const char of content) {
      const inStderr = stderr.some((r) => r.from <= byte && byte < r.to);
      if (inStderr === (wanted === 'stderr')) text += char;
      byte += Buffer.byteLength(char, 'utf8');
    }
    return text;
  }

  it('a secret a process prints to stdout in two writes around a stderr write is masked in the stdout-only text', async () => {
    const res = await t.request('POST', `/api/companies/${companyId}/secrets`, {
      token: board,
      body: { name: `SPLIT_${randomUUID().slice(0, 8).toUpperCase()}`, value: 'secret' },
    });
    assert.equal(res.status, 201);
    const { agent } = await newAgent(t, board, companyId, {
      adapterConfig: {
        command: process.execPath,
        args: [
          '-e',
          `const key = process.env.KEY;
           process.stdout.write(key.slice(0, 3));
           setTimeout(() => process.stderr.write('X'), 150);
           setTimeout(() => process.stdout.write(key.slice(3) + '\\n'), 300);`,
        ],
        env: { KEY: { type: 'secret_ref', secretId: res.body.id } },
      },
    });
    const runId = await startRun(agent.id);
    assert.equal((await finishedRun(runId)).status, 'succeeded');
    const page = await get(`/api/heartbeat-runs/${runId}/log`);
    const { content, offset, stderr } = page.body;
    const stdoutText = streamText(content, offset, stderr, 'stdout');
    const stderrText = streamText(content, offset, stderr, 'stderr');
    for (const [name, text] of [
      ['the log', content],
      ['its stdout', stdoutText],
      ['its stderr', stderrText],
    ]) {
      assert.equal(text.includes('secret'), false, `${name}: ${JSON.stringify(text)}`);
    }
    assert.equal(stderrText, 'X');
    assert.match(stdoutText, /^\*+\n$/);
  });

  it('a log stored before streams were recorded reads as stdout', async () => {
    const { agent } = await newAgent(t, board, companyId);
    const runId = await insertRun({ agentId: agent.id });
    await sql(
      `insert into heartbeat_run_log_chunks (run_id, seq, byte_offset, content) values ($1, 0, 0, 'old log\n')`,
      [runId],
    );
    await sql('update heartbeat_runs set log_bytes = 8 where id = $1', [runId]);
    const page = await get(`/api/heartbeat-runs/${runId}/log`);
    assert.deepEqual([page.body.content, page.body.stderr], ['old log\n', []]);
    const stream = await openSse(t.baseUrl!, `/api/heartbeat-runs/${runId}/log/stream`);
    await stream.closed;
    const [log] = stream.events.filter((e) => e.event === 'log').map((e) => JSON.parse(e.data));
    assert.deepEqual(log, { offset: 0, content: 'old log\n', stderr: [] });
  });
});

describe('GET /api/heartbeat-runs/{runId}/log/stream', () => {
  it('a finished run: streams what it has, then `end` with its status at once; resumes from offset or Last-Event-ID', async () => {
    const { agent } = await newAgent(t, board, companyId, { adapterConfig: ticker(30, 5) });
    const runId = await startRun(agent.id);
    await finishedRun(runId);
    const expected = await fullLog(runId);

    const started = Date.now();
    const stream = await openSse(t.baseUrl!, `/api/heartbeat-runs/${runId}/log/stream`);
    assert.equal(stream.status, 200);
    assert.match(stream.headers.get('content-type') ?? '', /^text\/event-stream/);
    await stream.closed;
    // At once: it waited for nothing periodic (a keepalive, a look for more text), however loaded the machine.
    assert.ok(Date.now() - started < KEEPALIVE_MS, `ended after ${Date.now() - started} ms`);
    assert.equal(logText(stream.events), expected);
    const last = stream.events.at(-1)!;
    assert.deepEqual([last.event, last.data], ['end', 'succeeded']);
    const logs = stream.events.filter((e) => e.event === 'log');
    assert.equal(logs.at(-1)!.id, String(expected.length));
    assert.equal(JSON.parse(logs[0]!.data).offset, 0);

    const fromQuery = await openSse(t.baseUrl!, `/api/heartbeat-runs/${runId}/log/stream?offset=16`);
    await fromQuery.closed;
    assert.equal(logText(fromQuery.events), expected.slice(16));
    assert.equal(JSON.parse(fromQuery.events[0]!.data).offset, 16);
    const fromHeader = await openSse(t.baseUrl!, `/api/heartbeat-runs/${runId}/log/stream`, { 'last-event-id': '24' });
    await fromHeader.closed;
    assert.equal(logText(fromHeader.events), expected.slice(24));
    const atEnd = await openSse(t.baseUrl!, `/api/heartbeat-runs/${runId}/log/stream`, {
      'last-event-id': String(expected.length),
    });
    await atEnd.closed;
    assert.deepEqual(
      atEnd.events.map((e) => e.event),
      ['end'],
    );
  });

  it('answers JSON errors before the stream starts: 404, 403, 401, 400', async () => {
    const { agent } = await newAgent(t, board, companyId);
    const runId = await insertRun({ agentId: agent.id });
    const unknown = await openSse(t.baseUrl!, `/api/heartbeat-runs/${randomUUID()}/log/stream`);
    assert.equal(unknown.status, 404);
    assert.equal(typeof unknown.body.error, 'string');
    assert.equal((await openSse(t.baseUrl!, `/api/heartbeat-runs/${runId}/log/stream`, {}, other.token)).status, 403);
    assert.equal(
      (await openSse(t.baseUrl!, `/api/heartbeat-runs/${runId}/log/stream`, {}, 'svc_board_nope')).status,
      401,
    );
    assert.equal(
      (await openSse(t.baseUrl!, `/api/heartbeat-runs/${runId}/log/stream`, { 'last-event-id': 'x' })).status,
      400,
    );
  });

  it('follows a run executing on another replica, live, until `end`', async () => {
    const { agent } = await newAgent(t, board, companyId, { adapterConfig: ticker(10, 150) });
    const runId = await startRun(agent.id);
    // The replica has no engine: the run executes on the first app, the stream is served here.
    const stream = await openSse(replica.baseUrl!, `/api/heartbeat-runs/${runId}/log/stream`);
    assert.equal(stream.status, 200);
    await stream.closed;
    const run = (await get(`/api/heartbeat-runs/${runId}`)).body;
    assert.equal(run.status, 'succeeded');
    const expected = Array.from({ length: 10 }, (_, i) => `tick ${i}\n`).join('');
    assert.equal(logText(stream.events), expected);
    const last = stream.events.at(-1)!;
    assert.deepEqual([last.event, last.data], ['end', 'succeeded']);
    const logs = stream.events.filter((e) => e.event === 'log');
    // Live: the text came in several events while the run printed, not in one at the end.
    assert.ok(logs.length >= 3, `${logs.length} log events`);
    assert.ok(logs[0]!.at < new Date(run.finishedAt).getTime(), 'the first text arrived before the run finished');
    // Offsets chain: each event starts where the one before ended.
    let offset = 0;
    for (const e of logs) {
      assert.equal(JSON.parse(e.data).offset, offset);
      offset = Number(e.id);
    }
    assert.equal(offset, expected.length);
  });

  it('a client may leave mid-stream; the server goes on serving the run', async () => {
    const { agent } = await newAgent(t, board, companyId, { adapterConfig: ticker(10, 200) });
    const runId = await startRun(agent.id);
    const stream = await openSse(t.baseUrl!, `/api/heartbeat-runs/${runId}/log/stream`);
    await waitFor('some text', () => stream.events.length > 0);
    stream.abort();
    await stream.closed;
    await finishedRun(runId);
    const again = await openSse(t.baseUrl!, `/api/heartbeat-runs/${runId}/log/stream`);
    await again.closed;
    assert.equal(again.events.at(-1)!.event, 'end');
  });

  // Node drops a HEAD's body: a stream opened for one would write nothing and stay open while the
  // run lives. The headers are the answer, and the response ends with them.
  it('answers HEAD of a live run with the stream headers and ends at once', async () => {
    const { agent } = await newAgent(t, board, companyId);
    const runId = await insertRun({ agentId: agent.id, status: 'running' });
    const url = new URL(t.baseUrl!);
    const socket = net.connect(Number(url.port), url.hostname);
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    socket.on('error', () => undefined);
    const closed = new Promise<boolean>((resolve) => socket.once('close', () => resolve(true)));
    socket.write(
      `HEAD /api/heartbeat-runs/${runId}/log/stream HTTP/1.1\r\nhost: ${url.host}\r\nauthorization: Bearer ${board}\r\n\r\n`,
    );
    // The run stays live: an answer left open would never end. A keepalive's time is long enough to tell.
    const ended = await Promise.race([closed, sleep(KEEPALIVE_MS).then(() => false)]);
    socket.destroy();
    assert.equal(ended, true, `the HEAD answer did not end: ${JSON.stringify(received)}`);
    assert.match(received, /^HTTP\/1\.1 200 /);
    assert.match(received, /\r\ncontent-type: text\/event-stream/i);
    assert.equal(received.split('\r\n\r\n')[1], '', 'no body');
  });
});

describe('the log stream and server shutdown', () => {
  it('open streams end when their server closes, so the close does not wait for them', async () => {
    const third = await startTestApp({ replicaOf: t, listen: true });
    const { agent } = await newAgent(t, board, companyId, { adapterConfig: { ...node('sleeper.mjs'), graceSec: 0 } });
    const runId = await startRun(agent.id);
    const stream = await openSse(third.baseUrl!, `/api/heartbeat-runs/${runId}/log/stream`);
    await waitFor('the first text', () => stream.events.length > 0);
    // The run stays live: a close that waited for its stream would never end.
    const closed = await Promise.race([
      third.close().then(() => stream.closed.then(() => true)),
      sleep(30_000).then(() => false),
    ]);
    assert.equal(closed, true, 'the server close waited for the open stream');
    assert.equal(
      stream.events.some((e) => e.event === 'end'),
      false,
      'no `end`: the run is still live',
    );
    assert.equal((await t.request('POST', `/api/heartbeat-runs/${runId}/cancel`, { token: board })).status, 200);
  });
});

describe('the log stream itself (followRunLog)', () => {
  // The stream on a real HTTP response of a server of this file's own (the route passes fixed limits;
  // these tests set theirs), fed by the real notifications of the test database. Counting its
  // subscriptions is all the wrapper adds: each call goes to the real one.
  let notifications: Notifications;
  let server: http.Server;
  let port: number;
  let subscriptions = 0;
  const counted: Pick<Notifications, 'on' | 'onReconnect'> = {
    on: ((channel, handler) => track(notifications.on(channel, handler))) as Notifications['on'],
    onReconnect: (handler) => track(notifications.onReconnect(handler)),
  };
  function track(off: () => void): () => void {
    subscriptions++;
    let done = false;
    return () => {
      if (!done) subscriptions--;
      done = true;
      off();
    };
  }
  /** The next request to `server` is answered by this. */
  let serve: (req: http.IncomingMessage, res: http.ServerResponse) => void = () => undefined;

  before(async () => {
    notifications = listenForNotifications(t.databaseUrl, pino({ level: 'silent' }));
    await notifications.ready;
    server = http.createServer((req, res) => serve(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as net.AddressInfo).port;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await notifications.close();
  });

  /**
   * A client on a raw socket (paused: it reads nothing until resumed) and the stream that answers
   * it, with `limits` over the stream's defaults.
   */
  async function follow(runId: string, limits: Partial<Parameters<typeof followRunLog>[0]> = {}) {
    const opened = new Promise<{ res: http.ServerResponse; stream: ReturnType<typeof followRunLog> }>((resolve) => {
      serve = (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.flushHeaders();
        resolve({
          res,
          stream: followRunLog({ db: t.database.db, notifications: counted, runId, from: 0, sink: res, ...limits }),
        });
      };
    });
    const client = net.connect(port, '127.0.0.1');
    client.on('error', () => undefined);
    client.pause();
    let received = '';
    client.on('data', (chunk: Buffer) => (received += chunk.toString()));
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    client.write(`GET /log HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n\r\n`);
    return { client, ...(await opened), received: () => received, closed };
  }

  async function runWithLog(text: string, status = 'running'): Promise<string> {
    const { agent } = await newAgent(t, board, companyId);
    const runId = await insertRun({ agentId: agent.id, status });
    const log = openRunLog({ db: t.database.db, runId, companyId, maxBytes: 16 * 1024 * 1024 });
    log.write(text);
    await log.close();
    return runId;
  }

  /** The event frames of a raw HTTP/1.1 answer (its body in chunked transfer encoding). */
  function framesOf(raw: string): string[] {
    const body = raw.slice(raw.indexOf('\r\n\r\n') + 4);
    let text = '';
    for (let at = 0; at < body.length; ) {
      const lineEnd = body.indexOf('\r\n', at);
      const size = Number.parseInt(body.slice(at, lineEnd), 16);
      if (!(size > 0)) break;
      text += body.slice(lineEnd + 2, lineEnd + 2 + size);
      at = lineEnd + 2 + size + 2;
    }
    return text.split('\n\n').filter(Boolean);
  }
  const logOf = (frames: string[]) =>
    frames
      .filter((frame) => frame.startsWith('event: log\n'))
      .map((frame) => (JSON.parse(frame.slice(frame.indexOf('data: ') + 6)) as { content: string }).content)
      .join('');

  it('drops a client whose backlog passes the bound, and unsubscribes', async () => {
    const runId = await runWithLog('x'.repeat(3 * 1024 * 1024));
    // A small bound, and no stall drop for a minute: what drops the client is the bound. A client
    // that reads nothing lets the kernel's share grow past it (the kernel takes megabytes on its
    // behalf; then the keepalive's write finds the backlog over the bound), or Node's own buffer holds
    // a page over it.
    const { res, stream, client, closed } = await follow(runId, {
      maxBufferedBytes: 64 * 1024,
      stallMs: 60_000,
      keepaliveMs: 100,
    });
    assert.equal(subscriptions, 3, 'runLog, run and reconnect');
    assert.equal(await stream.done, 'dropped');
    assert.equal(res.destroyed, true);
    assert.equal(subscriptions, 0);
    client.resume();
    await closed;
  });

  it('waits for Node to hand each page to the kernel before the next, and sends all of it to a client that reads', async () => {
    // More than the kernel takes for a client that reads nothing (a few MB here), so that at some
    // point a page waits in Node's buffer; no bound and no stall drop in the way.
    const text = Array.from({ length: 8 * 1024 }, (_, i) => `${String(i).padStart(1023, '.')}\n`).join('');
    const runId = await runWithLog(text, 'succeeded');
    const { res, stream, client, received, closed } = await follow(runId, {
      maxBufferedBytes: 1024 * 1024 * 1024,
      stallMs: 60_000,
    });
    let accepted = -1;
    await waitFor(
      "a page waiting in Node's buffer for the kernel",
      () => {
        const now = res.socket ? res.socket.bytesWritten - res.writableLength : -1;
        const waiting = res.writableLength > 0 && now === accepted;
        accepted = now;
        return waiting;
      },
      30_000,
    );
    // One page (256 KiB of text and its framing), not the rest of the log behind it.
    assert.ok(res.writableLength <= 256 * 1024 + 1024, `${res.writableLength} bytes in Node's buffer`);
    assert.ok(accepted + res.writableLength < text.length, 'the rest of the log was not written yet');
    client.resume();
    assert.equal(await stream.done, 'end');
    await closed;
    const frames = framesOf(received());
    assert.equal(logOf(frames), text);
    assert.equal(frames.at(-1), 'event: end\ndata: succeeded');
    assert.equal(subscriptions, 0);
  });

  it('drops a client that has a backlog and takes nothing for stallMs', async () => {
    const runId = await runWithLog('y'.repeat(3 * 1024 * 1024));
    const { stream, client, closed } = await follow(runId, { maxBufferedBytes: 1024 * 1024 * 1024, stallMs: 200 });
    assert.equal(await stream.done, 'dropped');
    assert.equal(subscriptions, 0);
    client.resume();
    await closed;
  });

  // The rule and the piece are the event stream's (ClientProgress): what the client acknowledged
  // counts, not what the kernel took from Node (a few MB here, more than this whole log).
  it('drops a real client of the route that never reads, though the kernel took the whole log', async () => {
    const runId = await runWithLog('z'.repeat(300 * 1024));
    const url = new URL(t.baseUrl!);
    const socket = net.connect(Number(url.port), url.hostname);
    socket.on('error', () => undefined);
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `GET /api/heartbeat-runs/${runId}/log/stream HTTP/1.1\r\nhost: ${url.host}\r\nauthorization: Bearer ${board}\r\n\r\n`,
    );
    socket.pause();
    const serverEnd = () => establishedOnServer(Number(url.port), socket.localPort!);
    await waitFor('the server to hold the connection', serverEnd);
    // Read nothing until the server let go of its end of the connection (the stall drop after 10 s
    // and a look); only then read what was sent.
    await waitFor('the server to drop the client', async () => !(await serverEnd()), 60_000);
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    const closed = new Promise((r) => socket.once('close', () => r(true)));
    socket.resume();
    await closed;
    assert.match(received, /event: log/);
    assert.doesNotMatch(received, /event: end/, 'the run ended: the stream closed for another reason');
    assert.equal((await sql('select status from heartbeat_runs where id = $1', [runId]))[0].status, 'running');
  });

  it('sends keepalive comments while idle and unsubscribes when the client goes', async () => {
    const runId = await runWithLog('hello\n');
    const { stream, client, received } = await follow(runId, { keepaliveMs: 50 });
    client.resume();
    await waitFor('the text', () => received().includes('hello'));
    await waitFor('a keepalive', () => received().includes(': keepalive\n\n'));
    assert.equal(subscriptions, 3);
    client.destroy(); // the client went away
    assert.equal(await stream.done, 'closed');
    assert.equal(subscriptions, 0);
  });
});

/** Whether the server's end of the connection from `clientPort` is still established (/proc/net/tcp). */
async function establishedOnServer(serverPort: number, clientPort: number): Promise<boolean> {
  const hex = (port: number) => port.toString(16).toUpperCase().padStart(4, '0');
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const lines = (await readFile(table, 'utf8').catch(() => '')).split('\n').slice(1);
    for (const line of lines) {
      const [, local, remote, state] = line.trim().split(/\s+/);
      if (local?.endsWith(`:${hex(serverPort)}`) && remote?.endsWith(`:${hex(clientPort)}`)) return state === '01';
    }
  }
  return false;
}

describe('POST /api/heartbeat-runs/{runId}/cancel', () => {
  async function grandchildOf(runId: string): Promise<number> {
    return waitFor('the grandchild pid in the log', async () => {
      const m = /"type":"grandchild","pid":(\d+)/.exec(
        (await get(`/api/heartbeat-runs/${runId}/log`)).body.content ?? '',
      );
      return m ? Number(m[1]) : null;
    });
  }

  for (const mode of ['plain', 'stubborn'] as const) {
    it(`stops a real ${mode} process group (grandchild included), with SIGKILL after grace when SIGTERM is ignored`, async () => {
      const graceSec = 1;
      const { agent } = await newAgent(t, board, companyId, {
        adapterConfig: { ...node('sleeper.mjs', mode), graceSec },
      });
      const runId = await startRun(agent.id);
      const grandchild = await grandchildOf(runId);
      const [{ pid }] = await sql('select pid from heartbeat_runs where id = $1', [runId]);
      assert.ok(pid, 'the run records its process group');
      assert.equal(await groupAlive(pid), true);

      const cancelledAt = Date.now();
      const res = await t.request('POST', `/api/heartbeat-runs/${runId}/cancel`, { token: board });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.runId, runId);
      assert.equal(res.body.status, 'cancelled');
      assert.equal(res.body.error, 'cancelled by the board');
      assert.equal(res.body.errorCode, 'cancelled_by_board');
      assert.equal(res.body.errorHelp.meaning, 'A board member cancelled the run.');
      assert.ok(res.body.finishedAt);
      assert.equal((await get(`/api/heartbeat-runs/${runId}`)).body.status, 'cancelled');

      // Gone, grandchild included: a stubborn group outlives SIGTERM, so only the SIGKILL after grace
      // ends it (the late outcome below says which). How soon after grace is a figure, not a rule:
      // the bound is generous for a loaded machine.
      await waitFor(
        'the process group to be gone',
        async () => !(await groupAlive(pid)) && (await processGone(grandchild)),
        (graceSec + 15) * 1000,
      );
      const elapsed = Date.now() - cancelledAt;
      console.log(`${mode} process group gone ${elapsed} ms after the cancel (graceSec ${graceSec})`);
      if (mode === 'stubborn')
        assert.ok(elapsed >= graceSec * 1000 - 100, `SIGTERM was ignored until grace passed: gone after ${elapsed} ms`);

      // The owner records what it saw afterwards (SIGTERM was enough, or SIGKILL after grace); the status stays cancelled.
      const late = await waitFor('the late outcome', async () => {
        const run = (await get(`/api/heartbeat-runs/${runId}`)).body;
        return run.signal ? run : null;
      });
      assert.equal(late.signal, mode === 'plain' ? 'SIGTERM' : 'SIGKILL');
      assert.equal(late.status, 'cancelled');
      assert.ok(late.logBytes > 0);
      const page = (await get(`/api/heartbeat-runs/${runId}/log`)).body;
      assert.deepEqual([page.finished, page.complete], [true, true]);
      assert.equal((await t.request('POST', `/api/heartbeat-runs/${runId}/cancel`, { token: board })).status, 409);
    });
  }

  it("the run's own agent may cancel it; other agents, other companies and unknown runs may not", async () => {
    const owner = await newAgent(t, board, companyId);
    const colleague = await newAgent(t, board, companyId);
    const runId = await insertRun({ agentId: owner.agent.id, status: 'running' });
    const cancel = (id: string, token: string) => t.request('POST', `/api/heartbeat-runs/${id}/cancel`, { token });
    assert.equal((await cancel(runId, colleague.token)).status, 403);
    assert.equal((await cancel(runId, other.token)).status, 403);
    assert.equal((await cancel(runId, otherAgent.token)).status, 403);
    assert.equal((await cancel(randomUUID(), board)).status, 404);
    assert.equal((await cancel('nope', board)).status, 404);
    const res = await cancel(runId, owner.token);
    assert.equal(res.status, 200);
    assert.deepEqual(
      [res.body.status, res.body.error, res.body.errorCode],
      ['cancelled', 'cancelled by its agent', 'cancelled_by_agent'],
    );
    const again = await cancel(runId, owner.token);
    assert.equal(again.status, 409);
    assert.equal(again.body.details.status, 'cancelled');
    const [activity] = await sql(
      `select actor_type, actor_id from activity_log where entity_id = $1 and action = 'heartbeat_run.cancelled'`,
      [runId],
    );
    assert.deepEqual(activity, { actor_type: 'agent', actor_id: owner.agent.id });
  });
});

describe('why a run ended: errorCode', () => {
  /** Wakes an agent with this adapterConfig and returns its run, once finished. */
  async function endedRun(adapterConfig: Record<string, unknown>) {
    const { agent } = await newAgent(t, board, companyId, { adapterConfig });
    return { agent, run: await finishedRun(await startRun(agent.id)) };
  }

  it('a command that does not exist: failed, command_not_found, in words; the agent is in error', async () => {
    const { agent, run } = await endedRun({ command: 'no-such-command-boardroom' });
    assert.equal(run.status, 'failed');
    assert.equal(run.errorCode, 'command_not_found');
    assert.match(run.error, /could not start no-such-command-boardroom/);
    assert.equal(
      run.errorHelp.meaning,
      "The command the agent runs does not exist on the server (or is not on the run's PATH).",
    );
    assert.match(run.errorHelp.action, /Install the command/);
    assert.equal((await get(`/api/agents/${agent.id}`)).body.status, 'error');
    // The activity entry of the end names the code too (what the event stream carries).
    const [entry] = await sql(
      `select details from activity_log where entity_id = $1 and action = 'heartbeat_run.failed'`,
      [run.runId],
    );
    assert.equal(entry.details.errorCode, 'command_not_found');
  });

  it('a non-zero exit: failed, process_exit_nonzero, with the exit code', async () => {
    const { run } = await endedRun({ command: process.execPath, args: ['-e', 'process.exit(3)'] });
    assert.deepEqual([run.status, run.errorCode, run.exitCode], ['failed', 'process_exit_nonzero', 3]);
    assert.equal(run.error, 'process exited with code 3');
  });

  it('past its deadline: timed_out, timeout', async () => {
    const { run } = await endedRun({
      command: process.execPath,
      args: ['-e', 'setInterval(() => {}, 1000)'],
      timeoutSec: 1,
      graceSec: 0,
    });
    assert.deepEqual([run.status, run.errorCode], ['timed_out', 'timeout']);
    // Whichever sees the deadline first ends it with the same code: the executor's own timer, or on a
    // loaded machine the reaper's sweep.
    assert.match(run.error, /deadline of 1s passed|deadline and grace passed/);
    assert.equal(run.errorHelp.meaning, 'The run passed its deadline and was stopped.');
  });

  it('pausing, terminating or deleting the agent cancels its live run with agent_paused, agent_terminated, agent_deleted', async () => {
    for (const [action, code] of [
      ['pause', 'agent_paused'],
      ['terminate', 'agent_terminated'],
    ] as const) {
      const { agent } = await newAgent(t, board, companyId);
      const runId = await insertRun({ agentId: agent.id, status: 'running' });
      assert.equal((await t.request('POST', `/api/agents/${agent.id}/${action}`, { token: board })).status, 200);
      const run = (await get(`/api/heartbeat-runs/${runId}`)).body;
      assert.deepEqual([run.status, run.errorCode, run.error], ['cancelled', code, code]);
    }
    const { agent } = await newAgent(t, board, companyId);
    const runId = await insertRun({ agentId: agent.id, status: 'running' });
    assert.equal((await t.request('DELETE', `/api/agents/${agent.id}`, { token: board })).status, 200);
    // The run goes with its agent; the activity log keeps why it ended.
    const [entry] = await sql(
      `select details from activity_log where entity_id = $1 and action = 'heartbeat_run.cancelled'`,
      [runId],
    );
    assert.equal(entry.details.errorCode, 'agent_deleted');
  });

  it('a success has no code', async () => {
    const { run } = await endedRun({ command: process.execPath, args: ['-e', ''] });
    assert.deepEqual([run.status, run.errorCode, run.errorHelp], ['succeeded', null, null]);
  });
});

describe('run and issue lists fed by engine runs', () => {
  it('a run that checks out its issue shows in GET /issues/{id}/runs and GET /heartbeat-runs/{id}/issues', async () => {
    const { agent } = await newAgent(t, board, companyId, {
      adapterConfig: node('worker.mjs', '100', '0', 'checkout'),
    });
    const issue = await newIssue(t, board, companyId, { status: 'todo' });
    const runId = await startRun(agent.id, { payload: { issueId: issue.id } });
    const run = await finishedRun(runId);
    assert.equal(run.status, 'succeeded');
    assert.match(await fullLog(runId), /checkout: 200/);

    const runs = await get(`/api/issues/${issue.id}/runs`);
    assert.equal(runs.status, 200);
    assert.deepEqual(
      runs.body.map((r: any) => r.runId),
      [runId],
    );
    assert.equal(runs.body[0].status, 'succeeded');
    assert.equal(runs.body[0].invocationSource, run.invocationSource);
    const issues = await get(`/api/heartbeat-runs/${runId}/issues`);
    assert.deepEqual(
      issues.body.map((i: any) => i.id),
      [issue.id],
    );
    assert.equal(issues.body[0].status, 'in_progress');
  });
});
