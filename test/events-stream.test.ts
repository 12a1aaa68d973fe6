// GET /api/companies/{companyId}/events over real HTTP: two replicas on one database (an entry
// written through one reaches the clients of the other), run and run-log events, the stream order
// when transactions commit out of order, Last-Event-ID replay and its bound, access, slow clients
// dropped (a raw socket that never reads), and clean-up on disconnect and shutdown.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { DEFAULT_LIMITS } from '../src/modules/events/streams.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { companyWithAgent, newAgent, newIssue } from './helpers/factories.ts';
import { waitFor } from './helpers/wait.ts';

interface SseEvent {
  event: string;
  id?: string;
  data: any;
}

/**
 * A Server-Sent Events client collecting what it receives. node:http with a connection of its own
 * (no pool): closing it closes the socket. (fetch's pool reopens spare connections after an abort,
 * which an app.close() then waits on until the server's headers timeout.)
 */
class SseClient {
  readonly events: SseEvent[] = [];
  readonly comments: string[] = [];
  ended = false;
  body?: any;
  private constructor(
    readonly status: number,
    readonly headers: http.IncomingHttpHeaders,
    private readonly req: http.ClientRequest,
  ) {}

  static open(
    baseUrl: string,
    path: string,
    token: string | null,
    headers: Record<string, string> = {},
  ): Promise<SseClient> {
    return new Promise((resolve, reject) => {
      const req = http.get(
        `${baseUrl}${path}`,
        { agent: false, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } },
        (res) => {
          const client = new SseClient(res.statusCode ?? 0, res.headers, req);
          res.setEncoding('utf8');
          if (client.status !== 200) {
            let text = '';
            res.on('data', (chunk: string) => (text += chunk));
            res.on('end', () => {
              client.body = JSON.parse(text);
              client.ended = true;
              resolve(client);
            });
            return;
          }
          client.consume(res);
          resolve(client);
        },
      );
      req.on('error', reject);
    });
  }

  private consume(res: http.IncomingMessage): void {
    let text = '';
    res.on('data', (chunk: string) => {
      text += chunk;
      let end: number;
      while ((end = text.indexOf('\n\n')) >= 0) {
        const block = text.slice(0, end);
        text = text.slice(end + 2);
        const event: Partial<SseEvent> = {};
        let data: string | undefined;
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) this.comments.push(line);
          else if (line.startsWith('event: ')) event.event = line.slice(7);
          else if (line.startsWith('id: ')) event.id = line.slice(4);
          else if (line.startsWith('data: ')) data = line.slice(6);
        }
        if (data !== undefined)
          this.events.push({
            event: event.event ?? 'message',
            ...(event.id && { id: event.id }),
            data: JSON.parse(data),
          });
      }
    });
    const ended = () => (this.ended = true);
    res.on('end', ended);
    res.on('close', ended);
    res.on('error', ended);
  }

  /** The first event (from the start of the stream) matching `match`, waiting up to `timeoutMs`. */
  async find(match: (e: SseEvent) => boolean, what: string, timeoutMs = 10_000): Promise<SseEvent> {
    const found = await waitFor(what, async () => this.events.find(match), timeoutMs);
    return found;
  }

  ready(): Promise<SseEvent> {
    return this.find((e) => e.event === 'ready', 'the stream to be ready');
  }

  activity(): SseEvent[] {
    return this.events.filter((e) => e.event === 'activity');
  }

  close(): void {
    this.req.destroy();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let a: TestApp; // replica A
let b: TestApp; // replica B, same database
const opened: SseClient[] = [];

before(async () => {
  a = await startTestApp({ listen: true });
  b = await startTestApp({ replicaOf: a, listen: true });
});
after(async () => {
  for (const c of opened) c.close();
  await b.close();
  await a.close();
});

async function connect(
  app: TestApp,
  companyId: string,
  token: string | null,
  headers: Record<string, string> = {},
  query = '',
) {
  const client = await SseClient.open(app.baseUrl!, `/api/companies/${companyId}/events${query}`, token, headers);
  opened.push(client);
  return client;
}

const sql = async (text: string, params: unknown[] = []) => (await a.database.pool.query(text, params)).rows;

/** Activity entries of a company written straight into the table (as many as asked, in one transaction). */
async function insertEntries(companyId: string, count: number, detailsBytes = 0): Promise<string[]> {
  const rows = await sql(
    `insert into activity_log (company_id, actor_type, actor_id, action, entity_type, entity_id, details)
     select $1::uuid, 'system', 'test', 'test.bulk', 'company', $1::text, case when $3::int > 0 then jsonb_build_object('n', n, 'blob', repeat('x', $3::int)) else jsonb_build_object('n', n) end
     from generate_series(1, $2::int) n returning id`,
    [companyId, count, detailsBytes],
  );
  return rows.map((r) => r.id);
}

/** Ids of the company's entries after `afterId`, in stream order, straight from the table. */
async function idsAfter(companyId: string, afterId: string): Promise<string[]> {
  const rows = await sql(
    `select id from activity_log where company_id = $1 and (tx_id, id) > (select tx_id, id from activity_log where id = $2) order by tx_id, id`,
    [companyId, afterId],
  );
  return rows.map((r) => r.id);
}

describe('events: access', () => {
  it('answers 401 without a credential, 404 for an unknown company, 403 across companies, as JSON', async () => {
    const { company } = await a.newCompany();
    const other = await companyWithAgent(a);

    const anonymous = await connect(a, company.id, null);
    assert.equal(anonymous.status, 401);

    const missing = await connect(a, randomUUID(), a.ownerToken);
    assert.equal(missing.status, 404);
    assert.match(missing.headers['content-type'] ?? '', /application\/json/);

    const board = await connect(a, company.id, other.boardToken);
    assert.equal(board.status, 403);
    assert.equal(board.body.error, 'no access to this company');

    const agent = await connect(b, company.id, other.agent.token);
    assert.equal(agent.status, 403);
    assert.equal(agent.body.error, 'no access to this company');
  });

  it("lets the company's agent connect, with SSE headers, and streams the board's changes to it", async () => {
    const c = await companyWithAgent(a);
    const stream = await connect(a, c.company.id, c.agent.token);
    assert.equal(stream.status, 200);
    assert.match(stream.headers['content-type'] ?? '', /^text\/event-stream/);
    assert.equal(stream.headers['cache-control'], 'no-cache');
    assert.equal(stream.headers['x-accel-buffering'], 'no');
    assert.deepEqual((await stream.ready()).data, {});
    const issue = await newIssue(a, c.boardToken, c.company.id);
    const event = await stream.find(
      (e) => e.event === 'activity' && e.data.entityId === issue.id,
      'the issue.created entry',
    );
    assert.equal(event.data.action, 'issue.created');
    stream.close();
  });
});

describe('events: delivery', () => {
  it('brings an issue created through replica A to a client of replica B, shaped as the activity feed', async () => {
    const { company, token } = await a.newCompany();
    const stream = await connect(b, company.id, token);
    await stream.ready();
    const res = await fetch(`${a.baseUrl}/api/companies/${company.id}/issues`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Across replicas' }),
    });
    assert.equal(res.status, 201);
    const issue = (await res.json()) as { id: string };
    const event = await stream.find(
      (e) => e.event === 'activity' && e.data.entityId === issue.id,
      'the entry on replica B',
    );
    assert.equal(event.data.action, 'issue.created');
    assert.equal(event.data.entityType, 'issue');
    assert.equal(event.id, event.data.id);
    const feed = (await a.request('GET', `/api/companies/${company.id}/activity?entityId=${issue.id}`, { token })).body;
    assert.deepEqual(
      event.data,
      feed.find((e: any) => e.id === event.id),
    );
    stream.close();
  });

  it('sends run status changes from every replica, and no event of another company', async () => {
    const c = await companyWithAgent(a);
    const other = await companyWithAgent(a);
    const onA = await connect(a, c.company.id, c.boardToken);
    const onB = await connect(b, c.company.id, c.boardToken);
    await Promise.all([onA.ready(), onB.ready()]);
    const runId = randomUUID();
    await sql(`insert into heartbeat_runs (id, company_id, agent_id, status) values ($1, $2, $3, 'queued')`, [
      runId,
      c.company.id,
      c.agent.agent.id,
    ]);
    await sql(`update heartbeat_runs set status = 'running' where id = $1`, [runId]);
    await sql(`insert into heartbeat_runs (company_id, agent_id, status) values ($1, $2, 'queued')`, [
      other.company.id,
      other.agent.agent.id,
    ]);
    for (const stream of [onA, onB]) {
      const running = await stream.find((e) => e.event === 'run' && e.data.status === 'running', 'the running event');
      assert.deepEqual(running.data, { runId, agentId: c.agent.agent.id, issueId: null, status: 'running' });
      assert.equal(running.id, undefined);
      const runs = stream.events.filter((e) => e.event === 'run');
      assert.deepEqual(
        runs.map((e) => e.data.status),
        ['queued', 'running'],
      );
    }
    onA.close();
    onB.close();
  });

  it('sends a real run of the engine: run events and its heartbeat_run.* entries', async () => {
    const engineApp = await startTestApp({ replicaOf: a, engine: { pollMs: 200, reaperIntervalMs: 200, leaseSec: 3 } });
    try {
      const { company, token } = await a.newCompany();
      const worker = new URL('./fixtures/agents/worker.mjs', import.meta.url).pathname;
      const { agent } = await newAgent(a, token, company.id, {
        adapterConfig: { command: process.execPath, args: [worker, '100'] },
      });
      const stream = await connect(a, company.id, token);
      await stream.ready();
      const wake = await a.request('POST', `/api/agents/${agent.id}/wakeup`, {
        token,
        body: { reason: 'stream test' },
      });
      assert.equal(wake.status, 202);
      const done = await stream.find(
        (e) => e.event === 'run' && e.data.status === 'succeeded',
        'the run to succeed',
        20_000,
      );
      assert.equal(done.data.agentId, agent.id);
      const started = await stream.find(
        (e) => e.event === 'activity' && e.data.action === 'heartbeat_run.started',
        'the heartbeat_run.started entry',
      );
      assert.equal(started.data.entityId, done.data.runId);
      stream.close();
    } finally {
      await engineApp.close();
    }
  });

  it('throttles run_log events to one per run per second, always with the latest offset and last line', async () => {
    const { company, token } = await a.newCompany();
    const stream = await connect(b, company.id, token);
    await stream.ready();
    const runId = randomUUID();
    const notify = (offset: number, lastLine: string | null) =>
      sql(`select pg_notify('boardroom_run_log', $1)`, [
        JSON.stringify({ runId, companyId: company.id, offset, lastLine }),
      ]);
    // The third notice stored only blank lines (no line of its own): the line before it stands.
    // The first event cannot leave before `notifiedAt`, the second not before an interval after the
    // first: the time from `notifiedAt` to seeing the second is at least the interval, however
    // loaded the machine (load only adds to it).
    const notifiedAt = Date.now();
    for (const [offset, line] of [
      [10, 'one'],
      [20, 'two'],
      [30, 'three'],
      [40, null],
    ] as const)
      await notify(offset, line);
    const first = await stream.find((e) => e.event === 'run_log', 'the first run_log event');
    assert.deepEqual(first.data, { runId, offset: 10, lastLine: 'one' });
    const second = await stream.find((e) => e.event === 'run_log' && e.data.offset === 40, 'the latest offset');
    const waited = Date.now() - notifiedAt;
    // Timers may fire a millisecond or so before their time.
    assert.ok(waited >= DEFAULT_LIMITS.runLogIntervalMs - 20, `second event ${waited} ms after the notices`);
    assert.equal(second.data.lastLine, 'three');
    assert.equal(second.id, undefined);
    // A later notice is the next event: nothing else of those four came in between.
    await notify(50, 'four');
    await stream.find((e) => e.event === 'run_log' && e.data.offset === 50, 'the next notice');
    assert.deepEqual(
      stream.events.filter((e) => e.event === 'run_log').map((e) => e.data.offset),
      [10, 40, 50],
    );
    stream.close();
  });

  it("carries a real run's last line in its run_log events, as the live-runs list shows it", async () => {
    const engineApp = await startTestApp({ replicaOf: a, engine: { pollMs: 200, reaperIntervalMs: 200, leaseSec: 3 } });
    try {
      const { company, token } = await a.newCompany();
      const stream = await connect(a, company.id, token);
      await stream.ready();
      const { agent } = await newAgent(a, token, company.id, {
        adapterConfig: {
          command: process.execPath,
          args: ['-e', "console.log('first line'); console.log('\\x1b[32mthe last line\\x1b[0m\\n\\n')"],
        },
      });
      assert.equal((await a.request('POST', `/api/agents/${agent.id}/wakeup`, { token, body: {} })).status, 202);
      const event = await stream.find(
        (e) => e.event === 'run_log' && e.data.lastLine === 'the last line',
        'the last line, escapes removed, in a run_log event',
        20_000,
      );
      assert.equal(typeof event.data.offset, 'number');
      stream.close();
    } finally {
      await engineApp.close();
    }
  });

  it('leaves out entries about hidden issues, as the feed does', async () => {
    const { company, token } = await a.newCompany();
    const hidden = await newIssue(a, token, company.id);
    const stream = await connect(a, company.id, token);
    await stream.ready();
    assert.equal(
      (await a.request('PATCH', `/api/issues/${hidden.id}`, { token, body: { hiddenAt: new Date().toISOString() } }))
        .status,
      200,
    );
    const visible = await newIssue(a, token, company.id);
    await stream.find((e) => e.event === 'activity' && e.data.entityId === visible.id, 'the visible issue');
    assert.equal(
      stream.activity().some((e) => e.data.entityId === hidden.id),
      false,
    );
    stream.close();
  });
});

describe('events: order and resume', () => {
  it('never skips an entry whose transaction commits after a later one', async () => {
    const { company, token } = await a.newCompany();
    const stream = await connect(a, company.id, token);
    await stream.ready();
    const slow = new pg.Client({ connectionString: a.databaseUrl });
    await slow.connect();
    try {
      // The slow transaction writes first (older transaction id, earlier createdAt) and commits last.
      await slow.query('begin');
      const [early] = (
        await slow.query(
          `insert into activity_log (company_id, actor_type, actor_id, action, entity_type, entity_id) values ($1::uuid, 'system', 'test', 'test.early', 'company', $1::text) returning id`,
          [company.id],
        )
      ).rows;
      const [late] = await sql(
        `insert into activity_log (company_id, actor_type, actor_id, action, entity_type, entity_id) values ($1::uuid, 'system', 'test', 'test.late', 'company', $1::text) returning id`,
        [company.id],
      );
      await slow.query('commit');
      await stream.find((e) => e.event === 'activity' && e.data.id === late.id, 'the later entry');
      // In the order written, though `late` committed first: had it been sent before the older
      // transaction committed, it would come first here.
      assert.deepEqual(
        stream.activity().map((e) => e.id),
        [early.id, late.id],
      );
    } finally {
      await slow.end();
    }
    stream.close();
  });

  it('is not held back by a long transaction of another database on the same server', async () => {
    const { company, token } = await a.newCompany();
    const stream = await connect(a, company.id, token);
    await stream.ready();
    // The test cluster's base database stands for a neighbour's database on a shared server.
    const neighbour = new pg.Client({ connectionString: process.env.BOARDROOM_TEST_DATABASE_URL });
    await neighbour.connect();
    try {
      await neighbour.query('begin');
      await neighbour.query('select pg_current_xact_id()'); // it has written: it holds a transaction id
      const [entry] = await sql(
        `insert into activity_log (company_id, actor_type, actor_id, action, entity_type, entity_id) values ($1::uuid, 'system', 'test', 'test.meanwhile', 'company', $1::text) returning id`,
        [company.id],
      );
      // Polled within a second (./streams.ts backs off from 50 ms): well within the wait below,
      // while the neighbour's transaction stays open all along.
      await stream.find(
        (e) => e.event === 'activity' && e.data.id === entry.id,
        'the entry written while the neighbour works',
        3_000,
      );
    } finally {
      await neighbour.query('rollback');
      await neighbour.end();
    }
    stream.close();
  });

  it('resumes from an id the stream has not passed yet (read from the feed) without missing an older transaction', async () => {
    const { company, token } = await a.newCompany();
    const slow = new pg.Client({ connectionString: a.databaseUrl });
    await slow.connect();
    try {
      await slow.query('begin');
      const [early] = (
        await slow.query(
          `insert into activity_log (company_id, actor_type, actor_id, action, entity_type, entity_id) values ($1::uuid, 'system', 'test', 'test.early', 'company', $1::text) returning id`,
          [company.id],
        )
      ).rows;
      const issue = await newIssue(a, token, company.id);
      const [newest] = (await a.request('GET', `/api/companies/${company.id}/activity?limit=1`, { token })).body;
      assert.equal(newest.entityId, issue.id);
      // The client saw `newest` in the feed and starts after it; `early` has not committed yet.
      const stream = await connect(a, company.id, token, {}, `?lastEventId=${newest.id}`);
      await stream.ready();
      await slow.query('commit');
      await stream.find((e) => e.event === 'activity' && e.id === early.id, 'the entry of the older transaction');
      stream.close();
    } finally {
      await slow.end();
    }
  });

  it('replays exactly the entries written after Last-Event-ID, in order, then goes on live', async () => {
    const { company, token } = await a.newCompany();
    const first = await connect(a, company.id, token);
    await first.ready();
    const one = await newIssue(a, token, company.id);
    const two = await newIssue(a, token, company.id);
    await first.find((e) => e.event === 'activity' && e.data.entityId === two.id, 'the second issue');
    const seen = first.activity();
    assert.deepEqual(
      seen.map((e) => e.data.entityId),
      [one.id, two.id],
    );
    first.close();

    // Missed while disconnected: an issue, a comment, an update.
    const three = await newIssue(a, token, company.id);
    assert.equal(
      (await a.request('POST', `/api/issues/${one.id}/comments`, { token, body: { body: 'while away' } })).status,
      201,
    );
    assert.equal(
      (await a.request('PATCH', `/api/issues/${two.id}`, { token, body: { title: 'renamed while away' } })).status,
      200,
    );
    const missed = await idsAfter(company.id, seen.at(-1)!.id!);
    assert.ok(missed.length >= 3, `missed ${missed.length}`);

    const resumed = await connect(b, company.id, token, { 'last-event-id': seen.at(-1)!.id! });
    await resumed.ready();
    await waitFor('the missed entries', async () => resumed.activity().length >= missed.length);
    // Entries come in order: once a live entry written after the replay arrived, the replay is all there.
    const four = await newIssue(a, token, company.id);
    const live = await resumed.find(
      (e) => e.event === 'activity' && e.data.entityId === four.id,
      'a live entry after the replay',
    );
    const replayed = resumed.activity().slice(0, resumed.activity().indexOf(live));
    assert.deepEqual(
      replayed.map((e) => e.id),
      missed,
    );
    assert.equal(resumed.events[0]!.event, 'ready');
    assert.ok(replayed.some((e) => e.data.entityId === three.id && e.data.action === 'issue.created'));
    assert.equal(
      replayed.some((e) => seen.some((s) => s.id === e.id)),
      false,
      'nothing already seen is sent again',
    );
    resumed.close();

    // The same through the query parameter (a client starting after the newest feed entry).
    const newest = (await a.request('GET', `/api/companies/${company.id}/activity?limit=1`, { token })).body[0];
    const byQuery = await connect(a, company.id, token, {}, `?lastEventId=${seen.at(-1)!.id}`);
    await byQuery.find((e) => e.id === newest.id, 'the newest entry');
    assert.deepEqual(
      byQuery.activity().map((e) => e.id),
      await idsAfter(company.id, seen.at(-1)!.id!),
    );
    byQuery.close();
  });

  it(`replays at most 500 entries; beyond that it sends reset and goes on live`, async () => {
    const { company, token } = await a.newCompany();
    const first = await connect(a, company.id, token);
    await first.ready();
    const issue = await newIssue(a, token, company.id);
    const mark = await first.find((e) => e.event === 'activity' && e.data.entityId === issue.id, 'the issue');
    first.close();

    await insertEntries(company.id, 500);
    const expected = await idsAfter(company.id, mark.id!);
    const exactly = await connect(a, company.id, token, { 'last-event-id': mark.id! });
    await waitFor('500 entries', async () => exactly.activity().length >= 500);
    // A live entry after them: once it arrived, whatever the replay sent came before it.
    const [marker] = await insertEntries(company.id, 1);
    await exactly.find((e) => e.id === marker, 'a live entry after the replay');
    assert.deepEqual(
      exactly.activity().map((e) => e.id),
      [...expected, marker],
    );
    assert.equal(
      exactly.events.some((e) => e.event === 'reset'),
      false,
    );
    const last = exactly.activity().at(-1)!;
    exactly.close();

    await insertEntries(company.id, 501);
    const tooMany = await connect(b, company.id, token, { 'last-event-id': last.id! });
    await tooMany.ready();
    assert.deepEqual(
      tooMany.events.map((e) => e.event),
      ['reset', 'ready'],
    );
    assert.deepEqual(tooMany.events[0]!.data, { reason: 'too_many_missed', replayLimit: 500 });
    // Nothing of the 501 is replayed: the first entry after the reset is the live one.
    const live = await newIssue(a, token, company.id);
    await tooMany.find((e) => e.event === 'activity' && e.data.entityId === live.id, 'a live entry after the reset');
    assert.equal(tooMany.activity().length, 1);
    tooMany.close();
  });

  it("sends reset for an unknown Last-Event-ID (not an entry, or another company's), then goes on live", async () => {
    const { company, token } = await a.newCompany();
    const other = await a.newCompany();
    await newIssue(a, other.token, other.company.id);
    const [foreign] = await sql('select id from activity_log where company_id = $1 limit 1', [other.company.id]);
    for (const lastEventId of [randomUUID(), foreign.id, 'not-an-id']) {
      const stream = await connect(a, company.id, token, { 'last-event-id': lastEventId });
      await stream.ready();
      assert.deepEqual(
        stream.events.map((e) => [e.event, e.data.reason]),
        [
          ['reset', 'unknown_last_event_id'],
          ['ready', undefined],
        ],
      );
      stream.close();
    }
  });
});

describe('events: slow clients, revoked access, clean-up', () => {
  let tuned: TestApp;
  before(async () => {
    tuned = await startTestApp({
      replicaOf: a,
      listen: true,
      events: { stallMs: 2_000, keepaliveMs: 100, recheckMs: 200 },
    });
  });
  after(() => tuned.close());

  /** A client on a raw socket that sends its request and never reads a byte of the answer. */
  function neverReading(app: TestApp, companyId: string, token: string): net.Socket {
    const url = new URL(app.baseUrl!);
    const socket = net.connect(Number(url.port), url.hostname);
    socket.on('error', () => undefined);
    socket.write(
      `GET /api/companies/${companyId}/events HTTP/1.1\r\nhost: ${url.host}\r\nauthorization: Bearer ${token}\r\n\r\n`,
    );
    socket.pause();
    return socket;
  }

  it('drops a client that does not read, while a reading client gets a burst larger than any buffer whole', async () => {
    const { company, token } = await a.newCompany();
    const reading = await connect(tuned, company.id, token);
    await reading.ready();
    const before = tuned.app.eventStreams.stats();
    const stuck = neverReading(tuned, company.id, token);
    await waitFor(
      'the raw client to be connected',
      async () => tuned.app.eventStreams.stats().clients === before.clients + 1,
    );

    // About 26 MB of events: more than the socket buffers of both ends and the 1 MiB bound.
    await insertEntries(company.id, 400, 64 * 1024);
    await waitFor(
      'the stuck client to be dropped',
      async () => tuned.app.eventStreams.stats().dropped === before.dropped + 1,
    );
    await waitFor(
      'every entry at the reading client',
      async () => {
        assert.equal(reading.ended, false, `the reading client was dropped after ${reading.activity().length} entries`);
        return reading.activity().length === 400;
      },
      30_000,
    );
    assert.equal(tuned.app.eventStreams.stats().clients, before.clients);
    stuck.destroy();
    reading.close();
  });

  // The kernel takes about 0.5 MB for a client that never reads (the send buffer here, the receive
  // buffer there), and a client's socket in Node stays empty meanwhile: such a client stayed
  // connected 17 s and 498 KB while it took nothing. What it acknowledged is what counts.
  it('drops a client that never reads after stallMs (10 s), before the kernel buffers fill; keeps one that reads slowly', async () => {
    const plain = await startTestApp({ replicaOf: a, listen: true }); // the default limits: 10 s, 1 MiB
    try {
      const { company, token } = await a.newCompany();
      // Both read up to the stream's `ready` (so the entries below are theirs); then one never reads
      // again and the other takes one read (at most 64 KiB) a second.
      const untilReady = async (socket: net.Socket) => {
        let head = '';
        await new Promise<void>((resolve) => {
          const onData = (chunk: Buffer) => {
            head += chunk.toString();
            if (!head.includes('event: ready')) return;
            socket.off('data', onData);
            socket.pause();
            resolve();
          };
          socket.on('data', onData);
          socket.resume();
        });
      };
      const slow = neverReading(plain, company.id, token);
      const stuck = neverReading(plain, company.id, token);
      const noReady = sleep(30_000).then(() => Promise.reject(new Error('a stream sent no ready within 30 s')));
      noReady.catch(() => undefined);
      await Promise.race([Promise.all([untilReady(slow), untilReady(stuck)]), noReady]);
      let slowBytes = 0;
      slow.on('data', (chunk: Buffer) => {
        slowBytes += chunk.length;
        slow.pause();
      });
      slow.pause();
      const reader = setInterval(() => slow.resume(), 1_000);
      const stats = () => plain.app.eventStreams.stats();
      assert.equal(stats().clients, 2);
      try {
        // 256 KiB at once, then 8 KiB every 200 ms: about 0.4 MB in 14 s, less than the kernel takes
        // for a client that never reads, and nowhere near the 1 MiB bound. It goes on until the drop
        // (and 14 s at least, for the slow reader), at most 2.5 x stallMs: under 1.3 MB in all, short
        // of twice the bound, so only the stall can drop a client.
        const { stallMs } = DEFAULT_LIMITS;
        const started = Date.now();
        await insertEntries(company.id, 8, 32 * 1024);
        let droppedAfterMs: number | null = null;
        for (;;) {
          const elapsed = Date.now() - started;
          if (droppedAfterMs === null && stats().dropped === 1) droppedAfterMs = elapsed;
          if ((droppedAfterMs !== null && elapsed >= 14_000) || elapsed >= 2.5 * stallMs) break;
          await insertEntries(company.id, 1, 8 * 1024);
          await sleep(200);
        }
        console.log(
          `a client that never reads was dropped ${droppedAfterMs} ms after the first entries (stallMs ${stallMs}); the slow reader took ${slowBytes} bytes and stayed`,
        );
        assert.notEqual(droppedAfterMs, null, 'the client that never reads was dropped');
        // Never before stallMs (less one look of ClientProgress, every 500 ms, which may come just
        // before the first entry): a loaded machine only makes it later, which the loop above allows.
        assert.ok(droppedAfterMs! >= stallMs - 500, `dropped after ${droppedAfterMs} ms, before stallMs`);
        assert.equal(stats().dropped, 1, 'the slow reader was not dropped');
        assert.equal(stats().clients, 1);
        assert.ok(slowBytes > 300 * 1024, `the slow reader took ${slowBytes} bytes`);
      } finally {
        clearInterval(reader);
        slow.destroy();
        stuck.destroy();
      }
    } finally {
      await plain.close();
    }
  });

  it('drops at once a stalled client whose socket reaches twice the bound', async () => {
    // The default bound (1 MiB): a smaller one is all taken by what the kernel holds for a client
    // that does not read (its backlog counts), and the client is dropped before it could stall.
    // stallMs far above every bound below, so a drop seen within them is the hard bound's, never the stall's.
    const strict = await startTestApp({ replicaOf: a, listen: true, events: { stallMs: 300_000 } });
    try {
      const { company, token } = await a.newCompany();
      const stuck = neverReading(strict, company.id, token);
      await waitFor('the raw client to be connected', async () => strict.app.eventStreams.stats().clients === 1);
      // About 19 MB of entries: more than the kernel's socket buffers of a client that never reads,
      // and the bound.
      await insertEntries(company.id, 300, 64 * 1024);
      // Reading 19 MB of entries out of PostgreSQL takes a while on a loaded 2-core machine.
      await waitFor('the client to stall', async () => strict.app.eventStreams.stats().stalled === 1, 120_000);
      // Paused, not dropped: a stall alone waits for stallMs (300 s here).
      assert.deepEqual(
        [strict.app.eventStreams.stats().clients, strict.app.eventStreams.stats().dropped],
        [1, 0],
        'a stall alone waits for stallMs',
      );
      // Run events keep being written to a stalled client, up to the hard bound (10,000 of them are
      // about 1.6 MiB, more than the 1 MiB left to it).
      await sql(
        `select pg_notify('boardroom_run', json_build_object('runId', gen_random_uuid(), 'companyId', $1::uuid, 'agentId', gen_random_uuid(), 'issueId', null, 'status', 'running')::text) from generate_series(1, 10000)`,
        [company.id],
      );
      // "At once" means long before stallMs (300 s); the bound leaves room for a machine busy with other files.
      await waitFor(
        'the stuck client to be dropped',
        async () => strict.app.eventStreams.stats().dropped === 1,
        60_000,
      );
      assert.equal(strict.app.eventStreams.stats().clients, 0);
      stuck.destroy();
    } finally {
      await strict.close();
    }
  });

  it('ends a stream whose credential is revoked', async () => {
    const { company, token } = await tuned.newCompany();
    const stream = await connect(tuned, company.id, token);
    await stream.ready();
    const [key] = (await tuned.request('GET', '/api/board-keys', { token })).body;
    assert.equal((await tuned.request('DELETE', `/api/board-keys/${key.id}`, { token })).status, 200);
    await waitFor('the stream to end', async () => stream.ended, 5_000);
  });

  it('sends keepalive comments', async () => {
    const { company, token } = await a.newCompany();
    const stream = await connect(tuned, company.id, token);
    await stream.ready();
    await waitFor('a keepalive', async () => stream.comments.includes(': keepalive'), 2_000);
    stream.close();
  });

  it('forgets every client once it disconnects: no subscriber is left after many connects and disconnects', async () => {
    const companies = await Promise.all([a.newCompany(), a.newCompany(), a.newCompany()]);
    const baseline = b.app.eventStreams.stats();
    for (let round = 0; round < 3; round++) {
      const streams = await Promise.all(
        Array.from({ length: 30 }, (_, i) => {
          const c = companies[i % companies.length]!;
          return connect(b, c.company.id, c.token);
        }),
      );
      await Promise.all(streams.map((s) => s.ready()));
      assert.equal(b.app.eventStreams.stats().clients, baseline.clients + 30);
      await newIssue(a, companies[0]!.token, companies[0]!.company.id);
      for (const s of streams) s.close();
      await waitFor('every client to be gone', async () => {
        const stats = b.app.eventStreams.stats();
        return stats.clients === baseline.clients && stats.companies === baseline.companies;
      });
    }
  });

  it('answers HEAD with the stream headers at once and opens no stream', async () => {
    const { company, token } = await a.newCompany();
    const baseline = a.app.eventStreams.stats();
    const res = await fetch(`${a.baseUrl}/api/companies/${company.id}/events`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(5000),
    });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    assert.deepEqual(a.app.eventStreams.stats(), baseline);
  });

  it('ends open streams when the server shuts down', async () => {
    const replica = await startTestApp({ replicaOf: a, listen: true });
    const { company, token } = await a.newCompany();
    const stream = await connect(replica, company.id, token);
    await stream.ready();
    await replica.close();
    await waitFor('the stream to end', async () => stream.ended, 5_000);
  });
});
