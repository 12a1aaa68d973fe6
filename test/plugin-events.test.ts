// Plugin events and streams (issue 27 section 4) with real workers. Events: each (plugin, company)
// reads the company's activity log from its own cursor and hands the entries whose action matches
// the manifest's patterns to its worker, in order, for that company only, at least once (nothing
// lost when the worker is killed mid-event, or when the dispatcher stops and starts again), one
// replica at a time, never on the request that wrote the entry. Streams: a `plugin_stream`
// notification reaches the SSE clients of its plugin, company and channel only.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { listenForNotifications, type Notifications } from '../src/db/notifications.ts';
import { startEventDispatch } from '../src/engine/plugins/events.ts';
import type { Dispatch } from '../src/engine/plugins/webhook-dispatch.ts';
import { pluginWorkersOf } from '../src/modules/plugins/routes.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { newIssue } from './helpers/factories.ts';
import { waitFor } from './helpers/wait.ts';

const LISTENER = path.resolve(import.meta.dirname, 'fixtures/plugins/listener');
const logger = pino({ level: 'silent' });

let t: TestApp;
let replica: TestApp | null = null;
let pluginId: string;
let companyA: string;
let companyB: string;
let boardB: string;
const loops = new Set<{ dispatch: Dispatch; notifications: Notifications }>();

function startDispatch(app: TestApp) {
  const notifications = listenForNotifications(app.databaseUrl, logger);
  const dispatch = startEventDispatch(
    { db: app.database.db, notifications, workers: pluginWorkersOf(app.app), logger },
    { pollMs: 500, retryMs: 200 },
  );
  const loop = { dispatch, notifications };
  loops.add(loop);
  return async () => {
    loops.delete(loop);
    await dispatch.stop();
    await notifications.close();
  };
}

before(async () => {
  t = await startTestApp({ listen: true });
  companyA = (await t.newCompany(t.ownerToken)).company.id;
  const b = await t.newCompany();
  companyB = b.company.id;
  boardB = b.token;
  const res = await t.request('POST', '/api/plugins/install', { token: t.ownerToken, body: { packageName: LISTENER } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  pluginId = res.body.id;
  for (const [companyId, token] of [
    [companyA, t.ownerToken],
    [companyB, boardB],
  ] as const) {
    const on = await t.request('POST', `/api/companies/${companyId}/plugins/${pluginId}/enable`, {
      token,
      body: { capabilities: ['webhooks', 'events.subscribe'] },
    });
    assert.equal(on.status, 200, JSON.stringify(on.body));
  }
});
after(async () => {
  for (const loop of loops) {
    await loop.dispatch.stop();
    await loop.notifications.close();
  }
  await replica?.close();
  await t.close();
});

interface EventNote {
  /** The worker's company (the log line's). */
  companyId: string;
  kind: 'event' | 'event-done';
  key: string;
  activityId: string;
  entryCompanyId: string;
  title: string | null;
}

async function eventNotes(app: TestApp = t): Promise<EventNote[]> {
  const res = await app.request('GET', `/api/plugins/${pluginId}/logs`, { token: t.ownerToken });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body
    .filter((l: any) => l.source === 'stderr' && l.message.startsWith('listener: {"kind":"event'))
    .map((l: any) => ({ companyId: l.companyId, ...JSON.parse(l.message.slice('listener: '.length)) }));
}

/** The titles of the issue.created events handed to `companyId`'s worker, first deliveries in order. */
const createdTitles = (notes: EventNote[], companyId: string) => {
  const seen = new Set<string>();
  return notes
    .filter((n) => n.kind === 'event' && n.companyId === companyId && n.key === 'issue.created')
    .filter((n) => !seen.has(n.activityId) && seen.add(n.activityId))
    .map((n) => n.title);
};

describe('plugin events', () => {
  it("hands the subscribed actions to each company's worker, in order, and nothing of another company", async () => {
    const stop = startDispatch(t);
    try {
      const titles = ['first', 'second', 'third', 'fourth'];
      const issue = await newIssue(t, t.ownerToken, companyA, { title: titles[0] });
      for (const title of titles.slice(1)) await newIssue(t, t.ownerToken, companyA, { title });
      await newIssue(t, boardB, companyB, { title: 'b-only' });
      // Not subscribed: issue.updated.
      const patch = await t.request('PATCH', `/api/issues/${issue.id}`, {
        token: t.ownerToken,
        body: { title: 'renamed' },
      });
      assert.equal(patch.status, 200, JSON.stringify(patch.body));
      await newIssue(t, t.ownerToken, companyA, { title: 'fifth' });
      const notes = await waitFor('the events handed over', async () => {
        const n = await eventNotes();
        return createdTitles(n, companyA).includes('fifth') && createdTitles(n, companyB).includes('b-only') ? n : null;
      });
      assert.deepEqual(createdTitles(notes, companyA), [...titles, 'fifth']);
      assert.deepEqual(createdTitles(notes, companyB), ['b-only']);
      for (const n of notes) {
        assert.equal(n.entryCompanyId ?? n.companyId, n.companyId, 'an entry of its own company only');
        if (n.kind === 'event') assert.match(n.key, /^(issue\.created|approval\..+)$/, 'subscribed actions only');
      }
    } finally {
      await stop();
    }
  });

  it('never holds up the request that wrote the entry, and loses nothing when the worker is killed mid-event', async () => {
    const stop = startDispatch(t);
    try {
      // The worker takes 3 s over an issue titled `slow`: the create answers without waiting for it.
      const slow = await newIssue(t, t.ownerToken, companyA, { title: 'slow' });
      const done = (n: EventNote[], title: string) =>
        n.some((x) => x.kind === 'event-done' && x.companyId === companyA && createdTitle(n, x.activityId) === title);
      const createdTitle = (n: EventNote[], activityId: string) =>
        n.find((x) => x.kind === 'event' && x.activityId === activityId)?.title;
      assert.ok(!done(await eventNotes(), 'slow'), 'the create answered before the worker finished');
      assert.ok(slow.id);
      await newIssue(t, t.ownerToken, companyA, { title: 'after-slow' });
      // Killed while it handles `slow`: the cursor has not moved past it.
      await waitFor('the worker holds the slow event', async () =>
        (await eventNotes()).some((n) => n.kind === 'event' && n.title === 'slow'),
      );
      const pid = pluginWorkersOf(t.app).state(pluginId, companyA)?.pid;
      assert.ok(pid, 'the worker runs');
      process.kill(pid, 'SIGKILL');
      const notes = await waitFor(
        'the slow event delivered again after the restart, then the next one',
        async () => {
          const n = await eventNotes();
          return done(n, 'slow') && createdTitles(n, companyA).includes('after-slow') ? n : null;
        },
        60_000,
      );
      const order = createdTitles(notes, companyA);
      assert.deepEqual(order.slice(order.indexOf('slow')), ['slow', 'after-slow']);
      const slowDeliveries = notes.filter((n) => n.kind === 'event' && n.title === 'slow');
      assert.ok(slowDeliveries.length >= 2, 'handed over again after the crash');
      assert.equal(new Set(slowDeliveries.map((n) => n.activityId)).size, 1, 'with the same activityId');
    } finally {
      await stop();
    }
  });

  it('resumes from its cursor after a stop: what was written meanwhile arrives', async () => {
    await newIssue(t, t.ownerToken, companyA, { title: 'while-stopped-1' });
    await newIssue(t, t.ownerToken, companyA, { title: 'while-stopped-2' });
    const stop = startDispatch(t);
    try {
      const notes = await waitFor('the entries written while stopped', async () => {
        const n = await eventNotes();
        return createdTitles(n, companyA).includes('while-stopped-2') ? n : null;
      });
      const order = createdTitles(notes, companyA);
      assert.deepEqual(order.slice(-2), ['while-stopped-1', 'while-stopped-2']);
    } finally {
      await stop();
    }
  });

  it('delivers each entry once, in order, with two replicas running the dispatcher', async () => {
    replica = await startTestApp({ replicaOf: t });
    const stops = [startDispatch(t), startDispatch(replica)];
    try {
      const titles = Array.from({ length: 10 }, (_, i) => `pair-${i}`);
      for (const title of titles) await newIssue(t, t.ownerToken, companyA, { title });
      const all = async () => [...(await eventNotes(t)), ...(await eventNotes(replica!))];
      const notes = await waitFor('every entry handed over', async () => {
        const n = await all();
        return createdTitles(n, companyA).includes('pair-9') ? n : null;
      });
      const handed = notes.filter((n) => n.kind === 'event' && n.title?.startsWith('pair-'));
      assert.deepEqual(
        handed.map((n) => n.title).sort(),
        [...titles].sort(),
        'each entry handed over once, by one replica',
      );
      // In order on whichever replica held the lease: each replica's own deliveries keep the stream's order.
      for (const app of [t, replica]) {
        const own = createdTitles(await eventNotes(app), companyA).filter((x) => x?.startsWith('pair-'));
        assert.deepEqual(
          own,
          [...own].sort((a, b) => Number(a!.slice(5)) - Number(b!.slice(5))),
        );
      }
    } finally {
      for (const stop of stops) await stop();
    }
  });
});

/** Reads SSE frames from a stream until `until` says stop; returns the `message` events' data. */
async function readMessages(res: Response, until: (data: unknown[]) => boolean): Promise<unknown[]> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const messages: unknown[] = [];
  let buffer = '';
  const deadline = Date.now() + 30_000;
  try {
    while (!until(messages)) {
      if (Date.now() > deadline) throw new Error(`stream timed out with ${JSON.stringify(messages)}`);
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf('\n\n');
        const event = /^event: (.*)$/m.exec(frame)?.[1];
        const data = /^data: (.*)$/m.exec(frame)?.[1];
        if (event === 'message' && data !== undefined) messages.push(JSON.parse(data));
      }
    }
  } finally {
    await reader.cancel();
  }
  return messages;
}

describe('plugin streams', () => {
  const streamUrl = (channel: string, companyId: string) =>
    `${t.baseUrl}/api/plugins/${pluginId}/bridge/stream/${channel}?companyId=${companyId}`;
  const publish = (payload: object) =>
    t.database.pool.query('select pg_notify($1, $2)', ['plugin_stream', JSON.stringify(payload)]);

  it("delivers its plugin's messages on its channel for its company only", async () => {
    const res = await fetch(streamUrl('ticks', companyA), { headers: { authorization: `Bearer ${t.ownerToken}` } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /text\/event-stream/);
    const reading = readMessages(res, (m) => m.some((x: any) => x?.n === 'last'));
    // The stream subscribes before its headers go out; the notifications below come after.
    await publish({ pluginId, companyId: companyB, channel: 'ticks', data: { n: 'other company' } });
    await publish({ pluginId, companyId: companyA, channel: 'other', data: { n: 'other channel' } });
    await publish({
      pluginId: '00000000-0000-4000-8000-000000000000',
      companyId: companyA,
      channel: 'ticks',
      data: { n: 'other plugin' },
    });
    await publish({ pluginId, companyId: companyA, channel: 'ticks', data: { n: 1 } });
    await publish({ pluginId, companyId: companyA, channel: 'ticks', data: { n: 'last' } });
    assert.deepEqual(await reading, [{ n: 1 }, { n: 'last' }]);
  });

  it('refuses an undeclared channel (404), another company (403), a plugin the company has not enabled (404)', async () => {
    const auth = { headers: { authorization: `Bearer ${t.ownerToken}` } };
    const undeclared = await fetch(streamUrl('nope', companyA), auth);
    assert.equal(undeclared.status, 404);
    await undeclared.body?.cancel();
    const otherCompany = await fetch(streamUrl('ticks', companyA), { headers: { authorization: `Bearer ${boardB}` } });
    assert.equal(otherCompany.status, 403);
    await otherCompany.body?.cancel();
    const { company } = await t.newCompany(t.ownerToken);
    const notEnabled = await fetch(streamUrl('ticks', company.id), auth);
    assert.equal(notEnabled.status, 404);
    await notEnabled.body?.cancel();
  });
});
