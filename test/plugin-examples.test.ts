// The shipped examples end to end (issue 27 section 7): each installed from its path under
// plugins/examples, enabled for one company with exactly its manifest's capabilities, configured
// through the API and used as a board, an agent or a caller from outside would: a real server with
// the engine (webhook, event and job loops), real worker processes, a real local HTTP receiver.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { newAgent, newIssue } from './helpers/factories.ts';
import { waitFor } from './helpers/wait.ts';

const EXAMPLES = path.resolve(import.meta.dirname, '../plugins/examples');
const WAIT_MS = 60_000;

let t: TestApp;
let board: string;
let companyId: string;

// chat-notify's channel. The host fetches only the manifest's `net` hosts (chat-notify names
// hooks.slack.com, discord.com, discordapp.com, ntfy.sh), over https and to public addresses, unless
// the operator lists a host:port in BOARDROOM_PLUGIN_NET_ALLOW (then plain http and any address). The
// example is installed unchanged; the app allows ntfy.sh:<receiver port> and resolves ntfy.sh to this
// receiver, the one stand-in (DNS) for a self-hosted ntfy.
const received: { path: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
const receiver = http.createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    received.push({ path: req.url ?? '', headers: req.headers, body });
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
});
let receiverPort: number;

before(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverPort = (receiver.address() as { port: number }).port;
  t = await startTestApp({
    engine: {},
    pluginNetAllow: [`ntfy.sh:${receiverPort}`],
    pluginNetLookup: async (hostname) => {
      assert.equal(hostname, 'ntfy.sh', 'only the receiver is looked up');
      return [{ address: '127.0.0.1', family: 4 }];
    },
  });
  const c = await t.newCompany(t.ownerToken);
  board = c.token;
  companyId = c.company.id;
});
after(async () => {
  await t.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

const sql = async (text: string, params: unknown[] = []) => (await t.database.pool.query(text, params)).rows;

/** Installs a plugin from a local folder and turns it on for the company; answers the record and the enable answer. */
async function installAndEnable(folder: string) {
  const install = await t.request('POST', '/api/plugins/install', {
    token: t.ownerToken,
    body: { packageName: folder, isLocalPath: true },
  });
  assert.equal(install.status, 201, JSON.stringify(install.body));
  const enable = await t.request('POST', `/api/companies/${companyId}/plugins/${install.body.id}/enable`, {
    token: board,
    body: { capabilities: install.body.manifest.capabilities },
  });
  assert.equal(enable.status, 200, JSON.stringify(enable.body));
  return { plugin: install.body, enabled: enable.body };
}

async function configure(pluginId: string, config: Record<string, unknown>) {
  const res = await t.request('POST', `/api/plugins/${pluginId}/config`, { token: board, body: { companyId, config } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
}

/** POSTs to a webhook URL over real HTTP (the server listens with the engine). */
async function deliver(url: string, body: string, headers: Record<string, string> = {}) {
  const res = await fetch(new URL(new URL(url).pathname, t.baseUrl!), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  return { status: res.status, body: await res.text() };
}

/** The README's signature: hex HMAC-SHA256 of the raw body under the endpoint's secret, `sha256=` prefixed. */
const signature = (secret: string, body: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** The company's webhooks of a plugin as GET /api/companies/{id}/plugins lists them. */
async function listedWebhooks(pluginId: string): Promise<Record<string, string>> {
  const res = await t.request('GET', `/api/companies/${companyId}/plugins`, { token: board });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const entry = res.body.find((p: any) => p.pluginId === pluginId);
  assert.ok(entry?.webhooks, JSON.stringify(entry));
  return Object.fromEntries(entry.webhooks.map((w: any) => [w.key, w.url]));
}

const secretOf = (enabled: any, key: string): string => {
  const hook = enabled.webhooks.find((w: any) => w.key === key);
  assert.ok(hook?.secret, `the enable answer shows ${key}'s secret once: ${JSON.stringify(enabled.webhooks)}`);
  return hook.secret;
};

describe('shipped plugin examples, end to end', () => {
  it('inbound-hook: a signed delivery becomes an issue and wakes the configured agent', async () => {
    const { agent } = await newAgent(t, board, companyId);
    const { plugin, enabled } = await installAndEnable(path.join(EXAMPLES, 'inbound-hook'));
    await configure(plugin.id, { agentId: agent.id, titlePrefix: '[form] ' });
    const url = (await listedWebhooks(plugin.id)).inbound!;
    const body = JSON.stringify({ title: 'Refund request from Ada', text: 'Order 1042 arrived broken.' });
    const unsigned = await deliver(url, body);
    assert.equal(unsigned.status, 401, unsigned.body);
    const res = await deliver(url, body, { 'x-service-signature': signature(secretOf(enabled, 'inbound'), body) });
    assert.equal(res.status, 202, res.body);

    const issue = await waitFor(
      'the issue the delivery opens',
      async () =>
        (
          await sql('select id, title, assignee_agent_id from issues where company_id = $1 and title like $2', [
            companyId,
            '[form] %',
          ])
        )[0],
      WAIT_MS,
    );
    assert.match(issue.title, /Refund request from Ada/);
    assert.equal(issue.assignee_agent_id, null, 'a plugin never assigns');
    const wake = await waitFor(
      "the agent's wakeup with the issue",
      async () =>
        (
          await sql('select reason from agent_wakeup_requests where agent_id = $1 and issue_id = $2', [
            agent.id,
            issue.id,
          ])
        )[0],
      WAIT_MS,
    );
    assert.match(String(wake.reason), /inbound webhook delivery/);
  });
  it('chat-notify: an approval waiting for the board reaches the channel URL the company secret holds', async () => {
    const { plugin } = await installAndEnable(path.join(EXAMPLES, 'chat-notify'));
    const secret = await t.request('POST', `/api/companies/${companyId}/secrets`, {
      token: board,
      body: { name: 'NTFY_URL', value: `http://ntfy.sh:${receiverPort}/boardroom-alerts` },
    });
    assert.equal(secret.status, 201, JSON.stringify(secret.body));
    await configure(plugin.id, { format: 'ntfy', webhookUrl: secret.body.id });
    const approval = await t.request('POST', `/api/companies/${companyId}/approvals`, {
      token: board,
      body: { type: 'request_board_approval', payload: { title: 'Buy a GPU' } },
    });
    assert.equal(approval.status, 201, JSON.stringify(approval.body));

    // Other events of the company may reach the channel too (the agent woken above may fail its run).
    const message = await waitFor(
      'the approval’s ntfy message at the receiver',
      () => received.find((m) => /waits for the board/.test(m.body)),
      WAIT_MS,
    );
    assert.equal(message.path, '/boardroom-alerts', 'the URL the company secret holds');
    assert.equal(message.headers['content-type'], 'text/plain');
    assert.equal(message.headers.priority, 'high', 'an approval waiting for the board is urgent');
    assert.ok(message.headers.title, JSON.stringify(message.headers));
    assert.match(message.body, /waits for the board/);
  });

  it('run-digest: a triggered run writes the runs and spend summary on the configured issue', async () => {
    const { agent } = await newAgent(t, board, companyId);
    const issue = await newIssue(t, board, companyId, { title: 'Digests' });
    const cost = await t.request('POST', `/api/companies/${companyId}/cost-events`, {
      token: board,
      body: { agentId: agent.id, provider: 'acme', model: 'm1', costCents: 1234, occurredAt: new Date().toISOString() },
    });
    assert.equal(cost.status, 201, JSON.stringify(cost.body));
    const { plugin } = await installAndEnable(path.join(EXAMPLES, 'run-digest'));
    await configure(plugin.id, { issueId: issue.id });
    const trigger = await t.request('POST', `/api/plugins/${plugin.id}/jobs/daily-digest/trigger`, {
      token: board,
      body: { companyId },
    });
    assert.ok(trigger.status === 201 || trigger.status === 202 || trigger.status === 200, JSON.stringify(trigger.body));

    const run = await waitFor(
      'the digest run to end',
      async () => {
        const res = await t.request('GET', `/api/plugins/${plugin.id}/jobs/daily-digest/runs?companyId=${companyId}`, {
          token: board,
        });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        const items = Array.isArray(res.body) ? res.body : res.body.items;
        return items.find((r: any) => !['queued', 'running'].includes(r.status));
      },
      WAIT_MS,
    );
    assert.equal(run.status, 'succeeded', JSON.stringify(run));
    const docs = await t.request('GET', `/api/issues/${issue.id}/documents`, { token: board });
    assert.equal(docs.status, 200, JSON.stringify(docs.body));
    const list = Array.isArray(docs.body) ? docs.body : docs.body.items;
    const digest = list.find((d: any) => String(d.key).startsWith('run-digest-'));
    assert.ok(digest, JSON.stringify(list));
    const doc = await t.request('GET', `/api/issues/${issue.id}/documents/${digest.key}`, { token: board });
    assert.equal(doc.status, 200, JSON.stringify(doc.body));
    assert.match(doc.body.body, /# Run digest, \d{4}-\d{2}-\d{2}/);
    assert.match(doc.body.body, /Spend this month so far: \$\d+\.\d\d/);
  });

  it('kitchen-sink: the echo tool, the summary blocks, the action and both webhooks', async () => {
    const { agent } = await newAgent(t, board, companyId);
    const issue = await newIssue(t, board, companyId, { title: 'Sink target' });
    const { plugin, enabled } = await installAndEnable(path.join(EXAMPLES, 'kitchen-sink'));
    await configure(plugin.id, { greeting: 'Ahoy' });

    const echo = await t.request('POST', '/api/plugins/tools/execute', {
      token: board,
      body: { tool: `${plugin.id}:echo`, parameters: { text: 'ping' }, runContext: { companyId, agentId: agent.id } },
    });
    assert.equal(echo.status, 200, JSON.stringify(echo.body));
    assert.match(JSON.stringify(echo.body), /Ahoy: ping/);

    const summary = await t.request('POST', `/api/plugins/${plugin.id}/data/summary`, {
      token: board,
      body: { companyId, params: {} },
    });
    assert.equal(summary.status, 200, JSON.stringify(summary.body));
    const blocks = summary.body.data.blocks;
    assert.ok(Array.isArray(blocks), JSON.stringify(summary.body));
    assert.ok(
      blocks.some((b: any) => b.type === 'metric'),
      JSON.stringify(blocks),
    );

    const action = await t.request('POST', `/api/plugins/${plugin.id}/actions/post-greeting`, {
      token: board,
      body: { companyId, params: { issueId: issue.id } },
    });
    assert.equal(action.status, 200, JSON.stringify(action.body));
    const comments = await t.request('GET', `/api/issues/${issue.id}/comments`, { token: board });
    assert.equal(comments.status, 200, JSON.stringify(comments.body));
    const bodies = (Array.isArray(comments.body) ? comments.body : comments.body.items).map((c: any) => c.body);
    assert.ok(bodies.includes('Ahoy from the kitchen sink.'), JSON.stringify(bodies));

    const urls = await listedWebhooks(plugin.id);
    const lastDelivery = async () => {
      const res = await t.request('POST', `/api/plugins/${plugin.id}/data/summary`, {
        token: board,
        body: { companyId, params: {} },
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return JSON.stringify(res.body);
    };
    const open = await deliver(urls.open!, JSON.stringify({ hello: 'open' }));
    assert.equal(open.status, 202, open.body);
    const openId = JSON.parse(open.body).deliveryId ?? JSON.parse(open.body).id;
    assert.ok(openId, open.body);
    await waitFor('the open delivery in the summary', async () => (await lastDelivery()).includes(openId), WAIT_MS);
    const body = JSON.stringify({ hello: 'signed' });
    const wrong = await deliver(urls.signed!, body, { 'x-service-signature': signature('not the secret', body) });
    assert.equal(wrong.status, 401, wrong.body);
    const signed = await deliver(urls.signed!, body, {
      'x-service-signature': signature(secretOf(enabled, 'signed'), body),
    });
    assert.equal(signed.status, 202, signed.body);
    const signedId = JSON.parse(signed.body).deliveryId ?? JSON.parse(signed.body).id;
    await waitFor('the signed delivery in the summary', async () => (await lastDelivery()).includes(signedId), WAIT_MS);
    // The plugin's dashboard lists both deliveries, newest first, and the state the worker keeps.
    const dashboard = await t.request('GET', `/api/plugins/${plugin.id}/dashboard?companyId=${companyId}`, {
      token: board,
    });
    assert.equal(dashboard.status, 200, JSON.stringify(dashboard.body));
    assert.deepEqual(
      dashboard.body.recentDeliveries.map((d: any) => [d.id, d.webhookKey, d.status]),
      [
        [signedId, 'signed', 'delivered'],
        [openId, 'open', 'delivered'],
      ],
    );
    assert.ok(dashboard.body.state.keys > 0, JSON.stringify(dashboard.body.state));
  });

  it('budget-radar: the radar answers blocks with the burn rate after some cost events', async () => {
    const { agent } = await newAgent(t, board, companyId);
    const budget = await t.request('PATCH', `/api/companies/${companyId}/budgets`, {
      token: board,
      body: { budgetMonthlyCents: 1_000_000 },
    });
    assert.equal(budget.status, 200, JSON.stringify(budget.body));
    for (const costCents of [500, 700])
      assert.equal(
        (
          await t.request('POST', `/api/companies/${companyId}/cost-events`, {
            token: board,
            body: { agentId: agent.id, provider: 'acme', model: 'm1', costCents, occurredAt: new Date().toISOString() },
          })
        ).status,
        201,
      );
    const { plugin } = await installAndEnable(path.join(EXAMPLES, 'budget-radar'));
    const res = await t.request('POST', `/api/plugins/${plugin.id}/data/radar`, {
      token: board,
      body: { companyId, params: {} },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const blocks = res.body.data.blocks;
    assert.ok(Array.isArray(blocks), JSON.stringify(res.body));
    const rate = blocks.find((b: any) => b.type === 'metric' && /spend per day/.test(b.label ?? b.title));
    assert.ok(rate, JSON.stringify(blocks));
    assert.equal(rate.unit, 'cents');
    assert.ok(rate.value > 0, `a burn rate above zero: ${JSON.stringify(rate)}`);
  });
});
