// The server as users start it: `node bin/boardroom.js run` (what `npm start` execs) on the esbuild
// bundle rebuilt from the sources, a fresh data directory with its embedded PostgreSQL, driven as an
// outside HTTP client with a board key from `boardroom board-key create` and an agent key, through
// one request or more of every route group, a real `process` adapter run, the events stream and
// `boardroom mcp`. The rest of the suite loads the TypeScript sources through tsx, where a path
// that means another folder inside the bundle goes unnoticed: this file is where it is noticed.
// Any 5xx answer fails the test at once; any log line at level 50 (error) or above fails it at the
// end; both print the offending lines. BOARDROOM_REQUIRE_BUNDLE=1 on every process makes a failed
// build an exit instead of a silent run of the sources, and the server's start line must say
// `runningFrom: "bundle"`.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { buildBundle } from '../bin/bundle.js';
import { CLI_BIN, PROJECT_DIR } from '../src/paths.ts';
import { runCli, spawnServer, tempDir, waitForHealth, type ServerProcess } from './helpers/server-process.ts';
import { CLIS, invocations } from './helpers/fake-cli.ts';
import { waitFor } from './helpers/wait.ts';

const ADAPTER_FIXTURE = path.join(PROJECT_DIR, 'test', 'fixtures', 'adapter-package');
const REQUIRE_BUNDLE = { BOARDROOM_REQUIRE_BUNDLE: '1' };
// A run goes through the dispatcher, a child process and the run log on a machine busy with other
// test files: generous, and a poll, never a sleep.
const RUN_TIMEOUT_MS = 60_000;

interface Answer {
  status: number;
  body: any;
  text: string;
}

/** A server's JSON log lines at level 50 (error) or above. */
function errorLines(of: ServerProcess = server): string[] {
  return of
    .output()
    .split('\n')
    .filter((line) => {
      if (!line.startsWith('{')) return false;
      const level = (JSON.parse(line) as { level?: unknown }).level;
      return typeof level === 'number' && level >= 50;
    });
}

/** One HTTP request as an outside client; a 5xx fails the test here, with the server's error lines. */
async function call(
  method: string,
  url: string,
  opts: { token?: string; body?: unknown; form?: FormData; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | FormData | undefined;
  if (opts.form) body = opts.form;
  else if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  const res = await fetch(`${base}${url}`, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  if (res.status >= 500) {
    // The error line may reach the pipe a moment after the answer.
    await waitFor('the error line', () => errorLines().length > 0, 2000).catch(() => undefined);
    assert.fail(`${method} ${url} answered ${res.status}: ${text}\nserver error lines:\n${errorLines().join('\n')}`);
  }
  let parsed: unknown = null;
  if (res.headers.get('content-type')?.includes('application/json')) parsed = JSON.parse(text);
  return { status: res.status, body: parsed, text };
}

/** `call`, asserting the status; returns the parsed body. */
async function expect(
  status: number,
  method: string,
  url: string,
  opts: Parameters<typeof call>[2] = {},
): Promise<any> {
  const res = await call(method, url, opts);
  assert.equal(res.status, status, `${method} ${url}: ${res.text}`);
  return res.body;
}

/** A Server-Sent Events response read as it arrives (node:http, a socket of its own, closed by `close`). */
function openEventStream(
  url: string,
  token: string,
): Promise<{ status: number; text: () => string; close: () => void }> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}${url}`, { agent: false, headers: { authorization: `Bearer ${token}` } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('error', () => undefined);
      resolve({ status: res.statusCode ?? 0, text: () => text, close: () => req.destroy() });
    });
    req.on('error', reject);
  });
}

// Rebuilt from the sources with bin/boardroom.js's own options, whatever .build held before. (At
// the top level, not in a before() hook: tempDir's clean-up would run when that hook ends.)
await buildBundle();
const dataDir = await tempDir('boardroom-user-start-');
const work = await tempDir('boardroom-user-start-work-');
const server = spawnServer(['--data-dir', dataDir, '--port', '0'], REQUIRE_BUNDLE);
const base = await server.baseUrl();
await waitForHealth(base);
const cli = await runCli(['board-key', 'create', '--data-dir', dataDir, '--name', 'user-start'], REQUIRE_BUNDLE);
assert.equal(cli.code, 0, cli.stderr);
const board = cli.stdout.trim();
assert.match(board, /^svc_board_/);

describe('the server as `npm start` runs it (the esbuild bundle)', () => {
  // When a test fails before the last one stops it: SIGTERM, so the embedded database stops too.
  after(async () => {
    if (server.child.exitCode !== null) return;
    server.child.kill('SIGTERM');
    await server.exited;
  });

  let companyId: string;
  let worker: { id: string };
  let agentKey: string;
  let issue: { id: string; identifier: string };
  let events: Awaited<ReturnType<typeof openEventStream>>;

  it('runs the bundle, not the sources', () => {
    const started = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg?: string; runningFrom?: string })
      .find((entry) => entry.msg?.startsWith('listening on'));
    assert.equal(started?.runningFrom, 'bundle', server.output());
  });

  it('health, the API document and the docs page with its static assets', async () => {
    assert.equal((await expect(200, 'GET', '/api/health')).status, 'ok');
    assert.equal((await expect(200, 'GET', '/api/openapi.json')).openapi, '3.1.0');
    // Served by @fastify/swagger-ui from its own folder under node_modules.
    const docs = await call('GET', '/api/docs');
    assert.equal(docs.status, 200);
    assert.match(docs.text, /swagger-ui/);
    const css = await call('GET', '/api/docs/static/index.css');
    assert.equal(css.status, 200);
    assert.match(css.text, /body|html/);
  });

  it('the board web UI at / and at any page path, with its scripts', async () => {
    const page = await call('GET', '/c/any/issues');
    assert.equal(page.status, 200);
    assert.match(page.text, /<div id="root">/);
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(page.text)?.[1];
    assert.ok(script, page.text);
    const js = await call('GET', script);
    assert.equal(js.status, 200);
    assert.ok(js.text.length > 10_000, 'the entry script');
  });

  it('companies: create, list, read, and a sanitised SVG logo (DOMPurify on jsdom)', async () => {
    const company = await expect(201, 'POST', '/api/companies', { token: board, body: { name: 'Bundle Works' } });
    companyId = company.id;
    events = await openEventStream(`/api/companies/${companyId}/events`, board);
    assert.equal(events.status, 200);
    const listed = await expect(200, 'GET', '/api/companies', { token: board });
    assert.ok(listed.some((c: any) => c.id === companyId));
    assert.equal((await expect(200, 'GET', `/api/companies/${companyId}`, { token: board })).name, 'Bundle Works');
    const form = new FormData();
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><script>alert(1)</script><rect width="4" height="4" fill="#123456"/></svg>';
    form.append('file', new Blob([svg], { type: 'image/svg+xml' }), 'logo.svg');
    const logo = await expect(201, 'POST', `/api/companies/${companyId}/logo`, { token: board, form });
    const stored = await call('GET', logo.contentPath, { token: board });
    assert.equal(stored.status, 200, stored.text);
    assert.match(stored.text, /<rect/);
    assert.doesNotMatch(stored.text, /<script/);
  });

  it('secrets: create and list', async () => {
    const secret = await expect(201, 'POST', `/api/companies/${companyId}/secrets`, {
      token: board,
      body: { name: 'GREETING', value: 'hello-from-a-secret' },
    });
    const listed = await expect(200, 'GET', `/api/companies/${companyId}/secrets`, { token: board });
    assert.deepEqual(
      listed.map((s: any) => s.id),
      [secret.id],
    );
    assert.ok(!JSON.stringify(listed).includes('hello-from-a-secret'));
  });

  it('agents: a process agent whose command is a real node script, its key, /agents/me', async () => {
    // The agent reads its prompt, calls the API back with its run token, reports usage and a result.
    const script = path.join(work, 'agent.mjs');
    await writeFile(
      script,
      [
        "let prompt = '';",
        'for await (const chunk of process.stdin) prompt += chunk;',
        'console.log(`woken with a ${prompt.length}-character prompt; greeting ${process.env.GREETING}`);',
        'const me = await fetch(`${process.env.SERVICE_API_URL}/api/agents/me`, { headers: { authorization: `Bearer ${process.env.SERVICE_API_KEY}` } });',
        'console.log(`agents/me answered ${me.status} for ${(await me.json()).name}`);',
        "console.log(JSON.stringify({ type: 'usage', provider: 'acme', model: 'm1', inputTokens: 10, outputTokens: 5, costCents: 3 }));",
        "console.log(JSON.stringify({ type: 'result', summary: 'done' }));",
      ].join('\n'),
    );
    const secrets = await expect(200, 'GET', `/api/companies/${companyId}/secrets`, { token: board });
    worker = await expect(201, 'POST', `/api/companies/${companyId}/agents`, {
      token: board,
      body: {
        name: 'Worker',
        role: 'engineer',
        adapterType: 'process',
        adapterConfig: {
          command: process.execPath,
          args: [script],
          timeoutSec: 60,
          env: { GREETING: { type: 'secret_ref', secretId: secrets[0].id, version: 'latest' } },
        },
      },
    });
    const key = await expect(201, 'POST', `/api/agents/${worker.id}/keys`, {
      token: board,
      body: { name: 'user-start' },
    });
    agentKey = key.token;
    assert.equal((await expect(200, 'GET', '/api/agents/me', { token: agentKey })).id, worker.id);
    const listed = await expect(200, 'GET', `/api/companies/${companyId}/agents`, { token: board });
    assert.deepEqual(
      listed.map((a: any) => a.name),
      ['Worker'],
    );
  });

  it('runs: a wakeup becomes a real process run; its log is read back', async () => {
    const wake = await expect(202, 'POST', `/api/agents/${worker.id}/wakeup`, {
      token: board,
      body: { source: 'on_demand', triggerDetail: 'manual', reason: 'bundle check' },
    });
    assert.notEqual(wake.skipped, true, JSON.stringify(wake));
    const run = await waitFor(
      'the run to finish',
      async () => {
        const runs = await expect(200, 'GET', `/api/companies/${companyId}/heartbeat-runs?agentId=${worker.id}`, {
          token: board,
        });
        return runs.length > 0 && !['queued', 'running'].includes(runs[0].status) ? runs[0] : null;
      },
      RUN_TIMEOUT_MS,
    );
    const detail = await expect(200, 'GET', `/api/heartbeat-runs/${run.runId}`, { token: board });
    const log = await expect(200, 'GET', `/api/heartbeat-runs/${run.runId}/log`, { token: board });
    assert.equal(detail.status, 'succeeded', `${JSON.stringify(detail)}\n${log.content}`);
    assert.match(
      log.content,
      /woken with a \d+-character prompt; greeting \*\*\*/,
      'the secret reached the process, masked in the log',
    );
    assert.match(log.content, /agents\/me answered 200 for Worker/, 'the run token works against the bundled server');
    assert.ok(!log.content.includes('hello-from-a-secret'));
  });

  it('routines: create, run by hand, and fire a webhook trigger', async () => {
    const routine = await expect(201, 'POST', `/api/companies/${companyId}/routines`, {
      token: board,
      body: { title: 'Weekly bundle check', assigneeAgentId: worker.id },
    });
    await expect(202, 'POST', `/api/routines/${routine.id}/run`, { token: board, body: {} });
    // A webhook trigger, fired from outside with its bearer secret (the one unauthenticated write).
    const trigger = await expect(201, 'POST', `/api/routines/${routine.id}/triggers`, {
      token: board,
      body: { kind: 'webhook', signingMode: 'bearer' },
    });
    const fired = await fetch(trigger.webhookUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${trigger.webhookSecret}`, 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(fired.status, 202, await fired.text());
    const runs = await expect(200, 'GET', `/api/routines/${routine.id}/runs`, { token: board });
    assert.equal(runs.length, 2);
    // The routine's issue wakes the worker: wait for that run too, so nothing is cut off at shutdown.
    await waitFor(
      'every run to finish',
      async () => {
        const all = await expect(200, 'GET', `/api/companies/${companyId}/heartbeat-runs`, { token: board });
        return all.length >= 2 && all.every((r: any) => !['queued', 'running'].includes(r.status));
      },
      RUN_TIMEOUT_MS,
    );
  });

  it("costs: a cost event, then the summary holds it and the run's reported usage", async () => {
    await expect(201, 'POST', `/api/companies/${companyId}/cost-events`, {
      token: board,
      body: { agentId: worker.id, provider: 'acme', model: 'm1', costCents: 25, occurredAt: new Date().toISOString() },
    });
    const summary = await expect(200, 'GET', `/api/companies/${companyId}/costs/summary`, { token: board });
    // 25 reported here, 3 by each run of the script (its usage line).
    const runs = await expect(
      200,
      'GET',
      `/api/companies/${companyId}/heartbeat-runs?agentId=${worker.id}&status=succeeded`,
      { token: board },
    );
    assert.ok(runs.length >= 2);
    assert.equal(summary.spendCents, 25 + 3 * runs.length, JSON.stringify(summary));
  });

  it('issues: create, read, and an agent checks one out under its run', async () => {
    issue = await expect(201, 'POST', `/api/companies/${companyId}/issues`, {
      token: board,
      body: { title: 'Ship the bundle', status: 'todo' },
    });
    assert.equal((await expect(200, 'GET', `/api/issues/${issue.identifier}`, { token: agentKey })).id, issue.id);
    const out = await expect(200, 'POST', `/api/issues/${issue.identifier}/checkout`, {
      token: agentKey,
      headers: { 'x-service-run-id': randomUUID() },
      body: { agentId: worker.id, expectedStatuses: ['todo'] },
    });
    assert.equal(out.status, 'in_progress');
    const listed = await expect(200, 'GET', `/api/companies/${companyId}/issues?status=in_progress`, { token: board });
    assert.deepEqual(
      listed.map((i: any) => i.id),
      [issue.id],
    );
  });

  it("comments, documents, an attachment in storage, the agent's inbox and heartbeat context", async () => {
    await expect(201, 'POST', `/api/issues/${issue.id}/comments`, {
      token: board,
      body: { body: 'Looks good, ship it.' },
    });
    const comments = await expect(200, 'GET', `/api/issues/${issue.id}/comments`, { token: agentKey });
    assert.deepEqual(
      comments.map((c: any) => c.body),
      ['Looks good, ship it.'],
    );
    await expect(201, 'PUT', `/api/issues/${issue.id}/documents/plan`, {
      token: board,
      body: { title: 'Plan', format: 'markdown', body: '# Plan' },
    });
    assert.equal(
      (await expect(200, 'GET', `/api/issues/${issue.id}/documents/plan`, { token: agentKey })).body,
      '# Plan',
    );
    const form = new FormData();
    form.append('file', new Blob(['release checklist'], { type: 'text/plain' }), 'checklist.txt');
    const attachment = await expect(201, 'POST', `/api/companies/${companyId}/issues/${issue.id}/attachments`, {
      token: board,
      form,
    });
    const content = await call('GET', `/api/attachments/${attachment.id}/content`, { token: agentKey });
    assert.equal(content.status, 200);
    assert.equal(content.text, 'release checklist');
    const inbox = await expect(200, 'GET', '/api/agents/me/inbox-lite', { token: agentKey });
    assert.ok(
      inbox.some((item: any) => item.id === issue.id),
      JSON.stringify(inbox),
    );
    assert.equal(
      (await expect(200, 'GET', `/api/issues/${issue.id}/heartbeat-context`, { token: agentKey })).issue.id,
      issue.id,
    );
  });

  it('skills: the bundled ones are listed; a local folder is imported', async () => {
    const skills = await expect(200, 'GET', `/api/companies/${companyId}/skills`, { token: board });
    assert.ok(
      skills.some((s: any) => s.slug === 'boardroom-api'),
      JSON.stringify(skills.map((s: any) => s.slug)),
    );
    const folder = path.join(work, 'skills', 'release-notes');
    await mkdir(folder, { recursive: true });
    await writeFile(
      path.join(folder, 'SKILL.md'),
      '---\nname: Release Notes\ndescription: Write release notes from merged work\n---\n\n# Release notes\n\nList what changed.\n',
    );
    const imported = await expect(200, 'POST', `/api/companies/${companyId}/skills/import`, {
      token: board,
      body: { source: folder },
    });
    assert.equal(imported.imported[0].slug, 'release-notes');
    const file = await expect(
      200,
      'GET',
      `/api/companies/${companyId}/skills/${imported.imported[0].id}/files?path=SKILL.md`,
      { token: board },
    );
    assert.match(JSON.stringify(file), /List what changed/);
  });

  it('a claude_local run (a fake CLI) gets its skills written out and the MCP server at bin/boardroom.js', async () => {
    const argsFile = path.join(work, 'claude.args');
    const claude = await expect(201, 'POST', `/api/companies/${companyId}/agents`, {
      token: board,
      body: {
        name: 'Claude',
        role: 'engineer',
        adapterType: 'claude_local',
        adapterConfig: {
          command: path.join(CLIS, 'fake-claude.mjs'),
          timeoutSec: 60,
          env: { FAKE_ARGS_FILE: argsFile, FAKE_STATE_DIR: path.join(work, 'claude.state') },
        },
      },
    });
    await expect(200, 'POST', `/api/agents/${claude.id}/skills/sync`, {
      token: board,
      body: { desiredSkills: ['release-notes'] },
    });
    await expect(202, 'POST', `/api/agents/${claude.id}/wakeup`, { token: board, body: {} });
    const run = await waitFor(
      'the claude run to finish',
      async () => {
        const runs = await expect(200, 'GET', `/api/companies/${companyId}/heartbeat-runs?agentId=${claude.id}`, {
          token: board,
        });
        return runs.length > 0 && !['queued', 'running'].includes(runs[0].status) ? runs[0] : null;
      },
      RUN_TIMEOUT_MS,
    );
    assert.equal(run.status, 'succeeded', JSON.stringify(run));
    const [call] = await invocations(argsFile);
    const mcp = JSON.parse(call!.argv[call!.argv.indexOf('--mcp-config') + 1]!).mcpServers.boardroom;
    assert.deepEqual(mcp.args, [CLI_BIN, 'mcp']);
    assert.ok(existsSync(mcp.args[0]), `${mcp.args[0]} does not exist`);
    const skillsDir = call!.argv[call!.argv.indexOf('--add-dir') + 1]!;
    // The bundled boardroom-api skill, read from BUNDLED_SKILLS_DIR, is always attached.
    assert.deepEqual((await readdir(skillsDir)).sort(), ['boardroom-api', 'release-notes']);
    assert.ok(existsSync(path.join(skillsDir, 'boardroom-api', 'SKILL.md')));
    assert.match(await readFile(path.join(skillsDir, 'release-notes', 'SKILL.md'), 'utf8'), /List what changed/);
  });

  it('board keys, cli-auth, the login link, budgets, finance and feedback', async () => {
    assert.equal((await expect(200, 'GET', '/api/cli-auth/me', { token: board })).user.isInstanceOwner, true);
    assert.equal((await expect(200, 'GET', '/api/board-keys', { token: board })).length, 1);
    // stdout is not a terminal here: the login link went to the data directory.
    const login = await fetch((await readFile(path.join(dataDir, 'login-url'), 'utf8')).trim(), { redirect: 'manual' });
    assert.equal(login.status, 302);
    await expect(200, 'PATCH', `/api/companies/${companyId}/budgets`, {
      token: board,
      body: { budgetMonthlyCents: 100_000 },
    });
    await expect(200, 'GET', `/api/companies/${companyId}/budgets/overview`, { token: board });
    await expect(201, 'POST', `/api/companies/${companyId}/finance-events`, {
      token: board,
      body: {
        kind: 'platform_fee',
        direction: 'debit',
        amountCents: 500,
        currency: 'USD',
        occurredAt: new Date().toISOString(),
      },
    });
    await expect(200, 'GET', `/api/companies/${companyId}/costs/finance-summary`, { token: board });
    await expect(200, 'GET', `/api/companies/${companyId}/feedback-traces`, { token: board });
  });

  it('activity, dashboard, goals, projects, approvals, and an external adapter installed from a local path', async () => {
    const activity = await expect(200, 'GET', `/api/companies/${companyId}/activity`, { token: board });
    assert.ok(activity.some((a: any) => a.action === 'company.skills_imported'));
    await expect(200, 'GET', `/api/companies/${companyId}/dashboard`, { token: board });
    await expect(201, 'POST', `/api/companies/${companyId}/goals`, { token: board, body: { title: 'Ship it' } });
    await expect(201, 'POST', `/api/companies/${companyId}/projects`, {
      token: board,
      body: { name: 'Bundle', workspace: { cwd: work } },
    });
    await expect(201, 'POST', `/api/companies/${companyId}/approvals`, {
      token: agentKey,
      body: { type: 'request_board_approval', payload: { title: 'Ship' } },
    });
    // An external adapter package is imported by file URL from the bundle as from the sources.
    const installed = await expect(201, 'POST', '/api/adapters/install', {
      token: board,
      body: { packageName: ADAPTER_FIXTURE, isLocalPath: true },
    });
    assert.equal(installed.type, 'fixture_echo');
    const adapters = await expect(200, 'GET', '/api/adapters', { token: board });
    assert.equal(adapters.find((a: any) => a.type === 'fixture_echo')?.loaded, true, JSON.stringify(adapters));
  });

  it('the events stream delivered what happened', async () => {
    try {
      await waitFor('an activity event on the stream', () => /event: activity\n/.test(events.text()), 30_000);
      assert.match(events.text(), /"action":"issue\.created"/);
    } finally {
      events.close();
    }
  });

  it('boardroom mcp (bundled) lists its tools and calls the API with the agent key', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI_BIN, 'mcp'],
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        ...REQUIRE_BUNDLE,
        SERVICE_API_URL: base,
        SERVICE_API_KEY: agentKey,
        SERVICE_RUN_ID: randomUUID(),
      },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'user-start-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      assert.ok(
        tools.some((tool) => tool.name === 'checkout_issue'),
        JSON.stringify(tools.map((tool) => tool.name)),
      );
      const inbox = (await client.callTool({ name: 'inbox', arguments: {} })) as {
        isError?: boolean;
        content: { text: string }[];
      };
      assert.notEqual(inbox.isError, true, inbox.content[0]?.text);
      assert.match(inbox.content[0]!.text, /Ship the bundle/);
    } finally {
      await client.close();
    }
  });

  it('shuts down cleanly on SIGTERM, and logged no error on the way', async () => {
    server.child.kill('SIGTERM');
    const exit = await server.exited;
    assert.equal(exit.code, 0, server.output());
    assert.deepEqual(errorLines(), [], 'the server logged errors');
  });

  it('starts again on the same data directory, with the installed adapter loaded from it', async () => {
    const again = spawnServer(['--data-dir', dataDir, '--port', '0'], REQUIRE_BUNDLE);
    try {
      const url = await again.baseUrl();
      const adapters = await fetch(`${url}/api/adapters`, { headers: { authorization: `Bearer ${board}` } });
      assert.equal(adapters.status, 200);
      assert.equal(((await adapters.json()) as any[]).find((a) => a.type === 'fixture_echo')?.loaded, true);
    } finally {
      again.child.kill('SIGTERM');
    }
    assert.equal((await again.exited).code, 0, again.output());
    assert.deepEqual(errorLines(again), [], 'the server logged errors');
  });
});
