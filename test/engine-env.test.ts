// The run environment of a real process run: the SERVICE_* contract, secrets resolved at spawn
// (latest follows rotation, pinned stays, deleted fails the run before any process starts), and
// nothing of the server's own environment.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { safeBaseEnv } from '../src/adapters/run-env.ts';
import { verifyAgentJwt } from '../src/modules/auth/jwt.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { newAgent, newIssue, newSecret } from './helpers/factories.ts';
import { waitFor } from './helpers/wait.ts';

const ENV_TO_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'agents', 'env-to-file.mjs');

let t: TestApp;
let board: string;
let companyId: string;
let dir: string;

before(async () => {
  process.env.BOARDROOM_SHOULD_NOT_LEAK = 'server-only';
  t = await startTestApp({ engine: { pollMs: 200, reaperIntervalMs: 500, leaseSec: 5 } });
  const c = await t.newCompany();
  board = c.token;
  companyId = c.company.id;
  dir = await mkdtemp(path.join(os.tmpdir(), 'boardroom-env-'));
});
after(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
  delete process.env.BOARDROOM_SHOULD_NOT_LEAK;
});

const sql = async (text: string, params: unknown[] = []) => (await t.database.pool.query(text, params)).rows;

/** Wakes the agent (about `issueId` when given) and returns its finished run. */
async function runOnce(agentId: string, payload: Record<string, unknown> = {}): Promise<any> {
  const res = await t.request('POST', `/api/agents/${agentId}/wakeup`, { token: board, body: { payload } });
  assert.equal(res.status, 202);
  return waitFor(
    'the run to finish',
    async () =>
      (
        await sql("select * from heartbeat_runs where wakeup_request_id = $1 and status not in ('queued', 'running')", [
          res.body.id,
        ])
      )[0],
  );
}

describe('the run environment', () => {
  it('carries the SERVICE_* contract, a run JWT that covers the deadline, and no server environment', async () => {
    const out = path.join(dir, 'contract.json');
    const { agent } = await newAgent(t, board, companyId, {
      adapterConfig: {
        command: process.execPath,
        args: [ENV_TO_FILE, out],
        timeoutSec: 600,
        graceSec: 5,
        env: { PLAIN: 'plain-value', SERVICE_RUN_ID: 'spoofed' },
      },
    });
    const issue = await newIssue(t, board, companyId, { status: 'todo' });
    const run = await runOnce(agent.id, { issueId: issue.id, commentId: '00000000-0000-4000-8000-000000000001' });
    assert.equal(run.status, 'succeeded');
    const env = JSON.parse(await readFile(out, 'utf8'));
    assert.equal(env.SERVICE_API_URL, t.baseUrl);
    assert.equal(env.SERVICE_RUN_ID, run.id, 'configuration cannot spoof the contract');
    assert.equal(env.SERVICE_AGENT_ID, agent.id);
    assert.equal(env.SERVICE_COMPANY_ID, companyId);
    assert.equal(env.SERVICE_TASK_ID, issue.id);
    assert.equal(env.SERVICE_WAKE_REASON, undefined, 'no reason was given');
    assert.equal(env.SERVICE_WAKE_COMMENT_ID, '00000000-0000-4000-8000-000000000001');
    assert.ok(env.SERVICE_WORKSPACE_CWD);
    assert.equal(env.PLAIN, 'plain-value');
    assert.equal(env.BOARDROOM_SHOULD_NOT_LEAK, undefined);
    assert.equal(env.DATABASE_URL, undefined);
    const claims = await verifyAgentJwt(t.config.jwtSecret, env.SERVICE_API_KEY);
    assert.deepEqual(claims, { agentId: agent.id, companyId, adapterType: 'process', runId: run.id });
    const [, payload] = env.SERVICE_API_KEY.split('.');
    const { iat, exp } = JSON.parse(Buffer.from(payload, 'base64url').toString());
    assert.ok(
      exp - iat >= 605 && exp - iat <= 605 + 120,
      `token lifetime ${exp - iat} s for a 600 s deadline plus 5 s grace`,
    );
  });

  it('resolves secrets at spawn: latest follows rotation, a pinned version stays, values are masked in the log', async () => {
    const secret = await newSecret(t, board, companyId);
    const out = path.join(dir, 'secrets.json');
    const { agent } = await newAgent(t, board, companyId, {
      adapterConfig: {
        command: process.execPath,
        args: [ENV_TO_FILE, out, 'LATEST'],
        env: {
          LATEST: { type: 'secret_ref', secretId: secret.id, version: 'latest' },
          PINNED: { type: 'secret_ref', secretId: secret.id, version: 1 },
        },
      },
    });
    const first = await runOnce(agent.id);
    assert.equal(first.status, 'succeeded');
    let env = JSON.parse(await readFile(out, 'utf8'));
    assert.deepEqual([env.LATEST, env.PINNED], ['s3cr3t-value', 's3cr3t-value']);

    assert.equal(
      (await t.request('POST', `/api/secrets/${secret.id}/rotate`, { token: board, body: { value: 'rotated-value' } }))
        .status,
      200,
    );
    const second = await runOnce(agent.id);
    env = JSON.parse(await readFile(out, 'utf8'));
    assert.deepEqual([env.LATEST, env.PINNED], ['rotated-value', 's3cr3t-value']);

    const log = await t.request('GET', `/api/heartbeat-runs/${second.id}/log`, { token: board });
    assert.equal(log.status, 200);
    assert.match(log.body.content, /the value is \*\*\*/);
    assert.ok(!log.body.content.includes('rotated-value'));
  });

  it('an approval decision wakes its requester with SERVICE_APPROVAL_ID and SERVICE_APPROVAL_STATUS', async () => {
    const out = path.join(dir, 'approval.json');
    const { agent, token } = await newAgent(t, board, companyId, {
      adapterConfig: { command: process.execPath, args: [ENV_TO_FILE, out] },
    });
    const approval = await t.request('POST', `/api/companies/${companyId}/approvals`, {
      token,
      body: {
        type: 'request_board_approval',
        payload: { title: 'Ship it', summary: 'Ready', recommendedAction: 'Approve', risks: [] },
      },
    });
    assert.equal(approval.status, 201);
    assert.equal(
      (await t.request('POST', `/api/approvals/${approval.body.id}/approve`, { token: board, body: {} })).status,
      200,
    );
    await waitFor(
      'the requester run',
      async () =>
        (await sql("select 1 from heartbeat_runs where agent_id = $1 and status = 'succeeded'", [agent.id])).length > 0,
    );
    const env = JSON.parse(await readFile(out, 'utf8'));
    assert.equal(env.SERVICE_APPROVAL_ID, approval.body.id);
    assert.equal(env.SERVICE_APPROVAL_STATUS, 'approved');
    assert.equal(env.SERVICE_WAKE_REASON, 'approval_resolved');
  });

  it('a deleted secret fails the run (secret_unresolved) with a clear error before any process starts', async () => {
    const secret = await newSecret(t, board, companyId);
    const out = path.join(dir, 'deleted.json');
    const { agent } = await newAgent(t, board, companyId, {
      adapterConfig: {
        command: process.execPath,
        args: [ENV_TO_FILE, out],
        env: { GONE: { type: 'secret_ref', secretId: secret.id } },
      },
    });
    assert.equal((await t.request('DELETE', `/api/secrets/${secret.id}`, { token: board })).status, 200);
    const run = await runOnce(agent.id);
    assert.equal(run.status, 'failed');
    assert.match(run.error, /adapterConfig\.env/);
    assert.equal(run.pid, null);
    const shown = (await t.request('GET', `/api/heartbeat-runs/${run.id}`, { token: board })).body;
    assert.equal(shown.errorCode, 'secret_unresolved');
    assert.match(shown.errorHelp.meaning, /secret the agent's environment refers to could not be read/);
    assert.equal(existsSync(out), false, 'no process ran');
    assert.equal((await t.request('GET', `/api/agents/${agent.id}`, { token: board })).body.status, 'error');
  });
});

describe("the run environment's PATH", () => {
  // The real `npm start` case is in cli.test.ts; these are the edges of the rule.
  const gyp = '/usr/lib/node_modules/npm/node_modules/@npmcli/run-script/lib/node-gyp-bin';
  it("drops only the entries npm put in front, when started through npm; the operator's own stay", () => {
    const npmPath = ['/srv/app/node_modules/.bin', '/srv/node_modules/.bin', '/node_modules/.bin', gyp];
    const operator = ['/home/op/tools/node_modules/.bin', '/srv/app/node_modules/.bin', '/usr/bin'];
    const viaNpm = {
      npm_lifecycle_event: 'start',
      npm_config_local_prefix: '/srv/app',
      PATH: [...npmPath, ...npmPath, ...operator].join(':'),
      HOME: '/home/op',
    };
    assert.deepEqual(safeBaseEnv(viaNpm), { PATH: operator.join(':'), HOME: '/home/op' });
    // Not started through npm: PATH is the operator's as it is, whatever it holds.
    assert.equal(safeBaseEnv({ PATH: [...npmPath, ...operator].join(':') }).PATH, [...npmPath, ...operator].join(':'));
  });
});
