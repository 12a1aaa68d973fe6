// The NOTIFY contract (src/db/channels.ts) is the only place that names a channel or reads a
// payload: the listener parses each notification once, hands subscribers typed payloads, and drops
// (and logs) one that does not parse, without disturbing anyone else.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { codeFilesUnder } from '../scripts/import-specifiers.ts';
import { CHANNELS, type RunChange } from '../src/db/channels.ts';
import { listenForNotifications, type Notifications } from '../src/db/notifications.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { waitFor } from './helpers/wait.ts';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'src');

describe('the channels are named only in src/db', () => {
  it('no file outside src/db names a channel, LISTENs or calls pg_notify', () => {
    const names = Object.values(CHANNELS).map((c) => c.name);
    const offenders: string[] = [];
    for (const file of codeFilesUnder(SRC)) {
      const rel = path.relative(SRC, file).split(path.sep).join('/');
      if (rel.startsWith('db/')) continue;
      const text = readFileSync(file, 'utf8');
      for (const needle of [...names, 'pg_notify', 'LISTEN ${', 'NOTIFY ${'])
        if (text.includes(needle)) offenders.push(`${rel}: ${needle}`);
      if (/\b(UN)?LISTEN\s+boardroom_|\bNOTIFY\s+boardroom_/i.test(text))
        offenders.push(`${rel}: a LISTEN or NOTIFY statement`);
    }
    assert.deepEqual(offenders, []);
  });
});

describe('the listener', () => {
  let t: TestApp;
  let notifications: Notifications;
  const warnings: { msg: string; channel?: string }[] = [];

  before(async () => {
    t = await startTestApp();
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) warnings.push(JSON.parse(line));
        done();
      },
    });
    notifications = listenForNotifications(t.databaseUrl, pino({ level: 'warn' }, sink));
    await notifications.ready;
  });
  after(async () => {
    await notifications.close();
    await t.close();
  });

  const notify = (channel: string, payload: string) =>
    t.database.pool.query('select pg_notify($1, $2)', [channel, payload]);

  it('hands every subscriber the parsed payload; drops a malformed one with a warning; a failing subscriber harms no other', async () => {
    const heard: RunChange[] = [];
    const offs = [
      notifications.on('run', () => {
        throw new Error('a subscriber that fails');
      }),
      notifications.on('run', (run) => heard.push(run)),
    ];
    const runId = '0b7d6a1e-8c59-4a57-9d3b-2f0a6f6f0c11';
    const companyId = '5f1d2c3b-4a59-4e6f-8a7b-9c0d1e2f3a4b';
    const agentId = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
    await notify(CHANNELS.run.name, 'not json');
    await notify(CHANNELS.run.name, JSON.stringify({ runId: 'not-a-uuid', companyId, agentId, status: 'running' }));
    await notify(
      CHANNELS.run.name,
      JSON.stringify({
        runId,
        companyId,
        agentId,
        issueId: null,
        status: 'cancelled',
        error: 'cancelled by the board',
      }),
    );
    await waitFor('the valid payload', async () => heard.length === 1, 5_000);
    assert.deepEqual(heard, [
      { runId, companyId, agentId, issueId: null, status: 'cancelled', error: 'cancelled by the board' },
    ]);
    const dropped = warnings.filter((w) => w.msg === 'notifications: malformed payload dropped');
    assert.deepEqual(
      dropped.map((w) => w.channel),
      [CHANNELS.run.name, CHANNELS.run.name],
    );
    assert.equal(warnings.filter((w) => w.msg === 'notifications: a subscriber failed').length, 1);
    for (const off of offs) off();
  });
});
