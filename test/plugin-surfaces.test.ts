// The routes that call plugin workers for the board and for agents (issue 27 sections 1, 4 and 5),
// against a real server and the real worker of the `surfaces` fixture (a hand-written JSON-RPC
// loop): config per company (schema, secret references, the worker's validateConfig, configChanged),
// data feeds and actions with their blocks check, the frames' bridge, UI contributions, tools
// (listed, executed in an agent's run, offered by `boardroom mcp`), the dashboard; and for each the
// refusals: 404 unknown plugin or key, 403 another company or an agent where board only, 422 bad
// input, 502 bridge errors.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { pluginConfigOf } from '../src/modules/plugins/config.ts';
import { useTestApp } from './helpers/app.ts';
import { activityRows, newAgent, newIssue, newSecret } from './helpers/factories.ts';
import { waitFor } from './helpers/wait.ts';

const FIXTURE = path.resolve(import.meta.dirname, 'fixtures/plugins/surfaces');
const BIN = path.resolve(import.meta.dirname, '..', 'bin', 'boardroom.js');

const t = await useTestApp({ listen: true });
// Company A enabled the plugin; company B (another board user) did not.
const a = await t.newCompany();
const b = await t.newCompany();
const boardA = a.token;
const companyA = a.company.id as string;
const companyB = b.company.id as string;
const me = await t.request('GET', '/api/cli-auth/me', { token: boardA });
const userA = me.body.user.id as string;
const installed = await t.request('POST', '/api/plugins/install', {
  token: t.ownerToken,
  body: { packageName: FIXTURE },
});
assert.equal(installed.status, 201, JSON.stringify(installed.body));
const pluginId = installed.body.id as string;
const consent = await t.request('POST', `/api/companies/${companyA}/plugins/${pluginId}/enable`, {
  token: boardA,
  body: { capabilities: installed.body.manifest.capabilities },
});
assert.equal(consent.status, 200, JSON.stringify(consent.body));
const agentA = await newAgent(t, boardA, companyA, { name: 'Tool User' });
const otherAgentA = await newAgent(t, boardA, companyA, { name: 'Bystander' });
const agentB = await newAgent(t, b.token, companyB, { name: 'Outsider' });
const unknownPlugin = randomUUID();

const post = (url: string, token: string, body: unknown) => t.request('POST', url, { token, body });
const get = (url: string, token: string) => t.request('GET', url, { token });

/** A run row of the agent in the given status, as the engine would have made it. */
async function runOf(agentId: string, companyId: string, status: string): Promise<string> {
  const res = await t.database.pool.query(
    'insert into heartbeat_runs (company_id, agent_id, status, started_at) values ($1, $2, $3, now()) returning id',
    [companyId, agentId, status],
  );
  return res.rows[0].id;
}

function refused(res: { status: number; body: any }, status: number, says?: RegExp) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  if (says) assert.match(res.body.error ?? res.body.message, says);
}

function bridgeError(res: { status: number; body: any }, code: string, says?: RegExp) {
  assert.equal(res.status, 502, JSON.stringify(res.body));
  assert.equal(res.body.code, code, JSON.stringify(res.body));
  if (says) assert.match(res.body.message, says);
}

describe('UI contributions', () => {
  it("lists the slots of the company's enabled plugins: blocks with their data key, frames with their URL", async () => {
    const res = await get(`/api/plugins/ui-contributions?companyId=${companyA}`, boardA);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const mine = res.body.find((c: any) => c.pluginId === pluginId);
    assert.equal(mine.pluginKey, 'test.surfaces');
    assert.equal(mine.displayName, 'Surfaces (test fixture)');
    assert.deepEqual(mine.slots, [
      { key: 'widget', slot: 'dashboardWidget', title: 'Summary', kind: 'blocks', data: 'summary' },
      { key: 'tab', slot: 'detailTab', title: 'Broken', kind: 'blocks', entity: 'issue', data: 'bad-blocks' },
      {
        key: 'page',
        slot: 'companyPage',
        title: 'Page',
        kind: 'frame',
        frameUrl: `/plugin-frames/${pluginId}/ui/index.html`,
      },
    ]);
  });

  it('lists nothing for a company that did not enable it; refuses agents and other companies', async () => {
    const other = await get(`/api/plugins/ui-contributions?companyId=${companyB}`, b.token);
    assert.equal(other.status, 200);
    assert.ok(!other.body.some((c: any) => c.pluginId === pluginId));
    refused(await get(`/api/plugins/ui-contributions?companyId=${companyA}`, agentA.token), 403);
    refused(await get(`/api/plugins/ui-contributions?companyId=${companyA}`, b.token), 403);
    refused(await get(`/api/plugins/ui-contributions?companyId=${randomUUID()}`, boardA), 404);
    refused(await get('/api/plugins/ui-contributions?companyId=nope', boardA), 400);
  });
});

describe('data feeds and actions', () => {
  it('data: the worker answers for the company, caused by the board user, with the params given', async () => {
    const res = await post(`/api/plugins/${pluginId}/data/echo`, boardA, { companyId: companyA, params: { n: 1 } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.data.input, { n: 1 });
    assert.equal(res.body.data.context.companyId, companyA);
    assert.equal(res.body.data.context.pluginId, pluginId);
    assert.deepEqual(res.body.data.context.actor, { type: 'user', id: userA, runId: null });
  });

  it("a blocks slot's data key answers blocks; a wrong block is 502 WORKER_ERROR naming the field", async () => {
    const ok = await post(`/api/plugins/${pluginId}/data/summary`, boardA, {
      companyId: companyA,
      params: { entityId: 'x' },
    });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.deepEqual(ok.body.data, {
      blocks: [{ type: 'metric', label: 'Open issues', value: 3, unit: 'count', caption: 'x' }],
    });
    const bad = await post(`/api/plugins/${pluginId}/data/bad-blocks`, boardA, { companyId: companyA, params: {} });
    bridgeError(bad, 'WORKER_ERROR', /"bad-blocks" is not blocks: blocks\[0\]\.value/);
  });

  it('actions: params checked against paramsSchema (422 naming the field), then run by the worker', async () => {
    const ok = await post(`/api/plugins/${pluginId}/actions/greet`, boardA, {
      companyId: companyA,
      params: { name: 'Ada' },
    });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.data.greeting, 'Hello, Ada');
    assert.equal(ok.body.data.context.actor.id, userA);
    refused(
      await post(`/api/plugins/${pluginId}/actions/greet`, boardA, { companyId: companyA, params: {} }),
      422,
      /params\.name/,
    );
    refused(
      await post(`/api/plugins/${pluginId}/actions/greet`, boardA, { companyId: companyA, params: { name: '' } }),
      422,
      /params\.name/,
    );
    bridgeError(
      await post(`/api/plugins/${pluginId}/actions/explode`, boardA, { companyId: companyA, params: {} }),
      'WORKER_ERROR',
      /the action blew up/,
    );
  });

  it("the frames' bridge: the same data and actions, the key in the body", async () => {
    const data = await post(`/api/plugins/${pluginId}/bridge/data`, boardA, {
      companyId: companyA,
      key: 'echo',
      params: { from: 'frame' },
    });
    assert.equal(data.status, 200, JSON.stringify(data.body));
    assert.deepEqual(data.body.data.input, { from: 'frame' });
    const action = await post(`/api/plugins/${pluginId}/bridge/action`, boardA, {
      companyId: companyA,
      key: 'greet',
      params: { name: 'Frame' },
    });
    assert.equal(action.status, 200, JSON.stringify(action.body));
    assert.equal(action.body.data.greeting, 'Hello, Frame');
    refused(
      await post(`/api/plugins/${pluginId}/bridge/action`, boardA, { companyId: companyA, key: 'greet', params: {} }),
      422,
      /params\.name/,
    );
    bridgeError(
      await post(`/api/plugins/${pluginId}/bridge/data`, boardA, {
        companyId: companyA,
        key: 'bad-blocks',
        params: {},
      }),
      'WORKER_ERROR',
    );
    refused(
      await post(`/api/plugins/${pluginId}/bridge/data`, boardA, { companyId: companyA, key: 'nope', params: {} }),
      404,
    );
  });

  it('refusals: 404 unknown plugin or key, 403 agents and other companies, 502 where the plugin does not run', async () => {
    for (const kind of ['data/echo', 'actions/greet']) {
      const body = { companyId: companyA, params: { name: 'x' } };
      refused(await post(`/api/plugins/${unknownPlugin}/${kind}`, boardA, body), 404, /plugin not found/);
      refused(await post(`/api/plugins/${pluginId}/${kind}`, agentA.token, body), 403);
      refused(await post(`/api/plugins/${pluginId}/${kind}`, b.token, body), 403);
      refused(await post(`/api/plugins/${pluginId}/${kind}`, boardA, { ...body, companyId: randomUUID() }), 404);
      // Company B never enabled it: its worker does not start.
      bridgeError(
        await post(`/api/plugins/${pluginId}/${kind}`, b.token, { ...body, companyId: companyB }),
        'WORKER_UNAVAILABLE',
        /not enabled for this company/,
      );
    }
    refused(
      await post(`/api/plugins/${pluginId}/data/undeclared`, boardA, { companyId: companyA, params: {} }),
      404,
      /declares no data key "undeclared"/,
    );
    refused(
      await post(`/api/plugins/${pluginId}/actions/undeclared`, boardA, { companyId: companyA, params: {} }),
      404,
      /declares no action "undeclared"/,
    );
  });
});

describe('config per company', () => {
  const url = `/api/plugins/${pluginId}/config`;

  it('before any save: the schema defaults, revision 0', async () => {
    const res = await get(`${url}?companyId=${companyA}`, boardA);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.config, { greeting: 'Hello', limit: 10 });
    assert.equal(res.body.revision, 0);
    assert.equal(res.body.configSchema.properties.token.format, 'secret-ref');
  });

  it('refuses what the schema refuses, naming the field', async () => {
    refused(await post(url, boardA, { companyId: companyA, config: { limit: 0 } }), 422, /config\.limit/);
    refused(await post(url, boardA, { companyId: companyA, config: { limit: 'ten' } }), 422, /config\.limit/);
    refused(await post(url, boardA, { companyId: companyA, config: { colour: 'red' } }), 422, /config\.colour/);
    refused(
      await post(`${url}/test`, boardA, { companyId: companyA, config: { greeting: 'x'.repeat(21) } }),
      422,
      /config\.greeting/,
    );
  });

  it("a secret reference must name one of the company's secrets", async () => {
    const theirs = await newSecret(t, b.token, companyB);
    refused(
      await post(url, boardA, { companyId: companyA, config: { token: theirs.id } }),
      422,
      /config\.token: no secret/,
    );
    refused(
      await post(url, boardA, { companyId: companyA, config: { token: 'hunter2' } }),
      422,
      /config\.token: a secret reference/,
    );
  });

  it("the worker's validateConfig refusal is a 422 with its reasons", async () => {
    const res = await post(`${url}/test`, boardA, { companyId: companyA, config: { greeting: 'forbidden' } });
    refused(res, 422, /the plugin refused it: greeting "forbidden" is not allowed/);
    assert.deepEqual(res.body.details.errors, ['greeting "forbidden" is not allowed']);
  });

  it('a worker answering validateConfig with the wrong shape is 502 WORKER_ERROR, and nothing is saved', async () => {
    for (const route of [url, `${url}/test`])
      bridgeError(
        await post(route, boardA, { companyId: companyA, config: { greeting: 'garbled' } }),
        'WORKER_ERROR',
        /validateConfig must answer/,
      );
    assert.equal((await get(`${url}?companyId=${companyA}`, boardA)).body.revision, 0);
  });

  it('config/test checks without saving; a save bumps the revision, is recorded, and reaches the worker', async () => {
    const secret = await newSecret(t, boardA, companyA);
    const tested = await post(`${url}/test`, boardA, {
      companyId: companyA,
      config: { greeting: 'Hi', token: secret.id },
    });
    assert.equal(tested.status, 200, JSON.stringify(tested.body));
    assert.deepEqual(tested.body, {
      ok: true,
      config: { greeting: 'Hi', limit: 10, token: secret.id },
      checkedByWorker: true,
    });
    assert.equal((await get(`${url}?companyId=${companyA}`, boardA)).body.revision, 0);

    const saved = await post(url, boardA, { companyId: companyA, config: { greeting: 'Hi', token: secret.id } });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.equal(saved.body.revision, 1);
    assert.deepEqual(saved.body.config, { greeting: 'Hi', limit: 10, token: secret.id });
    assert.equal(saved.body.updatedByUserId, userA);
    // The reference, never the value.
    assert.ok(!JSON.stringify(saved.body).includes('s3cr3t-value'));
    const again = await post(url, boardA, { companyId: companyA, config: { greeting: 'Hey', token: secret.id } });
    assert.equal(again.body.revision, 2);
    assert.deepEqual((await get(`${url}?companyId=${companyA}`, boardA)).body.config, {
      greeting: 'Hey',
      limit: 10,
      token: secret.id,
    });
    assert.deepEqual(await pluginConfigOf(t.database.db, pluginId, companyA), {
      greeting: 'Hey',
      limit: 10,
      token: secret.id,
    });
    // Company B's config is its own: defaults only.
    assert.deepEqual(await pluginConfigOf(t.database.db, pluginId, companyB), { greeting: 'Hello', limit: 10 });

    const recorded = await activityRows(t, companyA, 'plugin.config_updated');
    assert.equal(recorded.length, 2);
    assert.deepEqual(recorded[1].details, { pluginKey: 'test.surfaces', revision: 2, fields: ['greeting', 'token'] });

    // configChanged is best-effort and not awaited by the save: wait for the worker to have it.
    await waitFor('the worker to get configChanged with the new config', async () => {
      const seen = await post(`/api/plugins/${pluginId}/data/seen`, boardA, { companyId: companyA, params: {} });
      return seen.body.data?.lastConfig?.greeting === 'Hey';
    });
  });

  it('a company that did not enable the plugin may configure it: the host checks alone', async () => {
    const res = await post(`${url}/test`, b.token, { companyId: companyB, config: { greeting: 'forbidden' } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.checkedByWorker, false);
  });

  it('refusals: 404 unknown plugin, 403 agents and other companies', async () => {
    const body = { companyId: companyA, config: {} };
    refused(await get(`/api/plugins/${unknownPlugin}/config?companyId=${companyA}`, boardA), 404);
    refused(await post(`/api/plugins/${unknownPlugin}/config`, boardA, body), 404);
    refused(await post(`/api/plugins/${unknownPlugin}/config/test`, boardA, body), 404);
    refused(await get(`${url}?companyId=${companyA}`, agentA.token), 403);
    refused(await post(url, agentA.token, body), 403);
    refused(await get(`${url}?companyId=${companyA}`, b.token), 403);
    refused(await post(url, b.token, body), 403);
    refused(await post(`${url}/test`, b.token, body), 403);
  });
});

describe('tools', () => {
  const tool = `${pluginId}:echo`;
  const execute = (token: string, body: Record<string, unknown>) => post('/api/plugins/tools/execute', token, body);

  it("lists the company's plugin tools to its board and its agents", async () => {
    for (const token of [boardA, agentA.token]) {
      const res = await get(`/api/plugins/tools?companyId=${companyA}`, token);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const echo = res.body.find((entry: any) => entry.tool === tool);
      assert.deepEqual(
        { ...echo, inputSchema: undefined },
        {
          tool,
          pluginId,
          pluginKey: 'test.surfaces',
          name: 'echo',
          description: 'Answers with the text it was given and the context it ran in',
          inputSchema: undefined,
          effect: 'read',
        },
      );
      assert.deepEqual(echo.inputSchema.required, ['text']);
    }
    assert.deepEqual((await get(`/api/plugins/tools?companyId=${companyB}`, b.token)).body, []);
    refused(await get(`/api/plugins/tools?companyId=${companyA}`, agentB.token), 403);
    refused(await get(`/api/plugins/tools?companyId=${companyA}`, b.token), 403);
  });

  it('an agent executes as itself in its own live run: the worker sees the agent, run and issue', async () => {
    const runId = await runOf(agentA.agent.id, companyA, 'running');
    const issue = await newIssue(t, boardA, companyA);
    const res = await execute(agentA.token, {
      tool,
      parameters: { text: 'hi' },
      runContext: { companyId: companyA, agentId: agentA.agent.id, runId, issueId: issue.id },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.result.text, 'hi');
    const { context } = res.body.result;
    assert.deepEqual(context.actor, { type: 'agent', id: agentA.agent.id, runId });
    assert.equal(context.agentId, agentA.agent.id);
    assert.equal(context.runId, runId);
    assert.equal(context.issueId, issue.id);
    assert.equal(context.companyId, companyA);
  });

  it('a board user of the company executes for one of its agents: the agent is the cause', async () => {
    const res = await execute(boardA, {
      tool,
      parameters: { text: 'from the board' },
      runContext: { companyId: companyA, agentId: otherAgentA.agent.id },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.result.context.actor, { type: 'agent', id: otherAgentA.agent.id, runId: null });
  });

  it('the host checks the context and the parameters', async () => {
    const ctx = { companyId: companyA, agentId: agentA.agent.id };
    // As another agent: 403.
    refused(
      await execute(agentA.token, {
        tool,
        parameters: { text: 'x' },
        runContext: { ...ctx, agentId: otherAgentA.agent.id },
      }),
      403,
      /only as itself/,
    );
    // Another company's agent, or another company altogether.
    refused(await execute(agentB.token, { tool, parameters: { text: 'x' }, runContext: ctx }), 403);
    refused(
      await execute(boardA, { tool, parameters: { text: 'x' }, runContext: { ...ctx, agentId: agentB.agent.id } }),
      422,
      /runContext\.agentId/,
    );
    // Runs: another agent's, a finished one, one that does not exist.
    const othersRun = await runOf(otherAgentA.agent.id, companyA, 'running');
    const finished = await runOf(agentA.agent.id, companyA, 'succeeded');
    for (const runId of [othersRun, randomUUID()])
      refused(
        await execute(agentA.token, { tool, parameters: { text: 'x' }, runContext: { ...ctx, runId } }),
        422,
        /runContext\.runId: not a run of this agent/,
      );
    refused(
      await execute(agentA.token, { tool, parameters: { text: 'x' }, runContext: { ...ctx, runId: finished } }),
      422,
      /the run is succeeded, not live/,
    );
    // The run-id header names the caller's run: a dead one is refused the same way.
    const viaHeader = await t.request('POST', '/api/plugins/tools/execute', {
      token: agentA.token,
      headers: { 'x-service-run-id': finished },
      body: { tool, parameters: { text: 'x' }, runContext: ctx },
    });
    refused(viaHeader, 422, /not live/);
    const theirIssue = await newIssue(t, b.token, companyB);
    refused(
      await execute(agentA.token, { tool, parameters: { text: 'x' }, runContext: { ...ctx, issueId: theirIssue.id } }),
      422,
      /runContext\.issueId/,
    );
    // Parameters against the tool's inputSchema.
    refused(await execute(agentA.token, { tool, parameters: {}, runContext: ctx }), 422, /parameters\.text/);
    refused(
      await execute(agentA.token, { tool, parameters: { text: 'x', extra: 1 }, runContext: ctx }),
      422,
      /parameters\.extra/,
    );
    // A tool whose worker fails: 502 with the bridge code.
    bridgeError(
      await execute(agentA.token, { tool: `${pluginId}:boom`, parameters: {}, runContext: ctx }),
      'WORKER_ERROR',
      /the tool blew up/,
    );
    // Unknown tools and plugins, malformed names.
    refused(
      await execute(agentA.token, { tool: `${pluginId}:nope`, parameters: {}, runContext: ctx }),
      404,
      /no tool "nope"/,
    );
    refused(
      await execute(agentA.token, { tool: `${unknownPlugin}:echo`, parameters: {}, runContext: ctx }),
      404,
      /plugin not found/,
    );
    refused(await execute(agentA.token, { tool: 'echo', parameters: {}, runContext: ctx }), 422, /<pluginId>:<name>/);
  });

  it('offered by `boardroom mcp` to the agents of the company, executed as the agent in its run', async () => {
    const runId = await runOf(agentA.agent.id, companyA, 'running');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp'],
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        SERVICE_API_URL: t.baseUrl!,
        SERVICE_API_KEY: agentA.token,
        SERVICE_RUN_ID: runId,
      },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'plugin-surfaces-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      const echo = tools.find((entry) => entry.name === 'test_surfaces__echo');
      assert.ok(echo, tools.map((entry) => entry.name).join(', '));
      assert.deepEqual(echo.inputSchema.required, ['text']);
      const res = (await client.callTool({ name: 'test_surfaces__echo', arguments: { text: 'over mcp' } })) as {
        isError?: boolean;
        content: { text: string }[];
      };
      assert.notEqual(res.isError, true, res.content[0]?.text);
      const { result } = JSON.parse(res.content[0]!.text);
      assert.equal(result.text, 'over mcp');
      assert.deepEqual(result.context.actor, { type: 'agent', id: agentA.agent.id, runId });
    } finally {
      await client.close();
    }
  });

  it('an agent of a company without plugin tools gets only the built-in MCP tools', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp'],
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        SERVICE_API_URL: t.baseUrl!,
        SERVICE_API_KEY: agentB.token,
        SERVICE_RUN_ID: randomUUID(),
      },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'plugin-surfaces-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      assert.ok(!tools.some((entry) => entry.name.includes('__')), tools.map((entry) => entry.name).join(', '));
    } finally {
      await client.close();
    }
  });
});

describe('dashboard', () => {
  it("this replica's worker for the company, with the jobs' and webhooks' lists", async () => {
    const res = await get(`/api/plugins/${pluginId}/dashboard?companyId=${companyA}`, boardA);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.pluginId, pluginId);
    assert.equal(res.body.companyId, companyA);
    assert.equal(res.body.workers.length, 1);
    assert.equal(res.body.workers[0].companyId, companyA);
    assert.equal(res.body.workers[0].status, 'running');
    assert.deepEqual(res.body.workers[0].health, { status: 'ok' });
    // This plugin declares no job or webhook and keeps no state.
    assert.deepEqual(res.body.recentJobRuns, []);
    assert.deepEqual(res.body.recentDeliveries, []);
    assert.deepEqual(res.body.state, { keys: 0 });
  });

  it('refusals: 404 unknown plugin, 403 agents and other companies', async () => {
    refused(await get(`/api/plugins/${unknownPlugin}/dashboard?companyId=${companyA}`, boardA), 404);
    refused(await get(`/api/plugins/${pluginId}/dashboard?companyId=${companyA}`, agentA.token), 403);
    refused(await get(`/api/plugins/${pluginId}/dashboard?companyId=${companyA}`, b.token), 403);
    const theirs = await get(`/api/plugins/${pluginId}/dashboard?companyId=${companyB}`, b.token);
    assert.equal(theirs.status, 200);
    // Company B never enabled it: no worker runs for it (the earlier refused calls left their reason).
    for (const worker of theirs.body.workers) {
      assert.equal(worker.status, 'stopped');
      assert.equal(worker.pid, null);
      assert.match(worker.lastError, /not enabled for this company/);
    }
  });
});
