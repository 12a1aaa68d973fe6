// `boardroom mcp` driven by the SDK's own client over stdio against a live server: the tools, the
// run id on every call, API errors as tool errors, and a missing environment.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { useTestApp } from './helpers/app.ts';
import { newAgent, newIssue } from './helpers/factories.ts';

const BIN = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'boardroom.js');
const TOOLS = [
  'inbox',
  'heartbeat_context',
  'checkout_issue',
  'release_issue',
  'update_issue',
  'add_comment',
  'read_document',
  'write_document',
  'create_sub_issue',
  'request_approval',
  'report_usage',
];

const t = await useTestApp({ listen: true });
const a = await t.newCompany();
const agent = await newAgent(t, a.token, a.company.id, { name: 'Mcp Agent' });
const b = await t.newCompany();
const runId = randomUUID();
// The issue the run is about: heartbeat_context's default.
const task = await newIssue(t, a.token, a.company.id, { status: 'todo', title: 'The run task' });

const transport = new StdioClientTransport({
  command: process.execPath,
  args: [BIN, 'mcp'],
  // Only the run's contract: no agent or company id, so the server asks GET /api/agents/me.
  env: {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    SERVICE_API_URL: t.baseUrl!,
    SERVICE_API_KEY: agent.token,
    SERVICE_RUN_ID: runId,
    SERVICE_TASK_ID: task.id,
  },
  stderr: 'pipe',
});
const client = new Client({ name: 'boardroom-test', version: '1.0.0' });
await client.connect(transport);
after(() => client.close());

async function call(name: string, args: Record<string, unknown> = {}) {
  const res = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    content: { type: string; text: string }[];
  };
  const text = res.content[0]!.text;
  return { isError: res.isError === true, text, json: () => JSON.parse(text) };
}

describe('boardroom mcp', () => {
  it('lists every tool, each with an input schema', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name).sort(), [...TOOLS].sort());
    for (const tool of tools) assert.equal(tool.inputSchema.type, 'object', tool.name);
  });

  it('checkout_issue checks out under the run; inbox, heartbeat_context, add_comment and update_issue act as the agent', async () => {
    const issue = await newIssue(t, a.token, a.company.id, {
      status: 'todo',
      assigneeAgentId: agent.agent.id,
      title: 'Ship the MCP server',
    });
    const inbox = await call('inbox');
    assert.equal(inbox.isError, false, inbox.text);
    assert.ok(inbox.json().some((item: any) => item.id === issue.id));

    const out = await call('checkout_issue', { issueId: issue.identifier, expectedStatuses: ['todo'] });
    assert.equal(out.isError, false, out.text);
    const row = await t.request('GET', `/api/issues/${issue.id}`, { token: a.token });
    assert.equal(row.body.status, 'in_progress');
    assert.equal(row.body.assigneeAgentId, agent.agent.id);
    assert.equal(row.body.checkoutRunId, runId);

    const context = await call('heartbeat_context', { issueId: issue.id });
    assert.equal(context.isError, false, context.text);
    assert.equal(context.json().issue.id, issue.id);
    const byDefault = await call('heartbeat_context');
    assert.equal(byDefault.isError, false, byDefault.text);
    assert.equal(byDefault.json().issue.id, task.id, 'without issueId: the issue the run is about');

    const comment = await call('add_comment', { issueId: issue.id, body: 'Started: tools first.' });
    assert.equal(comment.isError, false, comment.text);
    const comments = await t.request('GET', `/api/issues/${issue.id}/comments`, { token: a.token });
    const stored = comments.body.find((c: any) => c.body === 'Started: tools first.');
    assert.ok(stored, JSON.stringify(comments.body));
    assert.equal(stored.authorAgentId, agent.agent.id);

    // Updating a checked-out issue passes the ownership check only with this run's id.
    const updated = await call('update_issue', {
      issueId: issue.id,
      status: 'in_review',
      comment: 'Ready for review.',
    });
    assert.equal(updated.isError, false, updated.text);
    assert.equal(updated.json().status, 'in_review');
  });

  it('write_document then read_document; a stale base revision is a tool error with the status', async () => {
    const issue = await newIssue(t, a.token, a.company.id, { status: 'todo' });
    const written = await call('write_document', {
      issueId: issue.id,
      key: 'plan',
      title: 'Plan',
      body: '# Plan\n\n1. Tools',
    });
    assert.equal(written.isError, false, written.text);
    const read = await call('read_document', { issueId: issue.id, key: 'plan' });
    assert.equal(read.isError, false, read.text);
    assert.equal(read.json().body, '# Plan\n\n1. Tools');
    assert.equal(read.json().latestRevisionId, written.json().latestRevisionId);
    const stale = await call('write_document', {
      issueId: issue.id,
      key: 'plan',
      body: 'again',
      baseRevisionId: randomUUID(),
    });
    assert.equal(stale.isError, true);
    assert.match(stale.text, /^HTTP 409: /);
  });

  it("create_sub_issue, request_approval and report_usage post in the agent's company, as the agent", async () => {
    const parent = await newIssue(t, a.token, a.company.id, { status: 'todo' });
    const child = await call('create_sub_issue', { parentId: parent.id, title: 'A piece of it' });
    assert.equal(child.isError, false, child.text);
    assert.equal(child.json().parentId, parent.id);
    assert.equal(child.json().companyId, a.company.id);

    const approval = await call('request_approval', {
      type: 'request_board_approval',
      payload: { title: 'Buy a domain', summary: '12 USD a year' },
      issueIds: [parent.id],
    });
    assert.equal(approval.isError, false, approval.text);
    assert.equal(approval.json().status, 'pending');
    assert.equal(approval.json().requestedByAgentId, agent.agent.id);

    const usage = await call('report_usage', {
      provider: 'anthropic',
      model: 'claude-sonnet-4',
      costCents: 7,
      inputTokens: 1000,
      outputTokens: 50,
    });
    assert.equal(usage.isError, false, usage.text);
    assert.equal(usage.json().agentId, agent.agent.id);
    assert.equal(usage.json().costCents, 7);
  });

  it("API errors are tool errors naming the status: another company's issue, a missing issue, invalid input", async () => {
    const foreign = await newIssue(t, b.token, b.company.id, { status: 'todo' });
    const cross = await call('checkout_issue', { issueId: foreign.id });
    assert.equal(cross.isError, true);
    assert.match(cross.text, /^HTTP (403|404): /);
    const missing = await call('read_document', { issueId: randomUUID(), key: 'plan' });
    assert.equal(missing.isError, true);
    assert.match(missing.text, /^HTTP 404: /);
    // Input the schema refuses never reaches the API and never ends the server.
    const invalid = await call('read_document', { issueId: 'x', key: 'Not A Key' });
    assert.equal(invalid.isError, true);
    assert.equal((await call('inbox')).isError, false, 'the server still answers');
  });

  it('without the run environment the process exits non-zero and names what is missing', async () => {
    const child = spawn(process.execPath, [BIN, 'mcp'], {
      env: { PATH: process.env.PATH ?? '', SERVICE_API_URL: t.baseUrl! },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    assert.equal(code, 1);
    assert.match(stderr, /SERVICE_API_KEY, SERVICE_RUN_ID are not set/);
  });
});
