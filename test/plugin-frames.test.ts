// A plugin's frame pages (issue 27 section 5): served outside /api with a CSP that confines them to
// their own plugin's files and the manifest's hosts, only while the plugin is ready and some company
// has it on, only from a frame entry's folder; and the API refusing every request whose Origin is
// `null` (what a sandboxed frame sends), whatever credential it carries.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PLUGIN_EXAMPLES_DIR } from '../src/paths.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';

let t: TestApp;
let owner: string;
let companyId: string;
let plugin: { id: string; manifest: { capabilities: string[] } };

before(async () => {
  t = await startTestApp();
  owner = t.ownerToken;
  companyId = (await t.newCompany(owner)).company.id;
  const res = await t.request('POST', '/api/plugins/install', {
    token: owner,
    body: { packageName: path.join(PLUGIN_EXAMPLES_DIR, 'kitchen-sink'), isLocalPath: true },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  plugin = res.body;
});
after(() => t.close());

const frame = (file: string, pluginId = plugin.id) => t.request('GET', `/plugin-frames/${pluginId}/${file}`);
const enable = () =>
  t.request('POST', `/api/companies/${companyId}/plugins/${plugin.id}/enable`, {
    token: owner,
    body: { capabilities: plugin.manifest.capabilities },
  });

describe('plugin frames', () => {
  it('serves nothing until a company has the plugin on', async () => {
    const res = await frame('ui/index.html');
    assert.equal(res.status, 404);
    assert.match(res.body.error, /no such plugin frame file/);
  });

  it("serves a frame entry's page with the confining CSP, without a session", async () => {
    assert.equal((await enable()).status, 200);
    const res = await frame('ui/index.html');
    assert.equal(res.status, 200);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.equal(
      res.headers['content-security-policy'],
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src https://api.example.com; frame-ancestors 'self'",
    );
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.match(String(res.body), /<h1>Kitchen sink<\/h1>/);
  });

  it("serves no file outside a frame entry's folder, no escape and no unknown plugin", async () => {
    for (const file of ['worker.mjs', 'boardroom.plugin.json', 'package.json', 'ui/../worker.mjs', 'ui/nope.html'])
      assert.equal((await frame(file)).status, 404, file);
    assert.equal((await frame('ui/index.html', '00000000-0000-4000-8000-000000000000')).status, 404);
    assert.equal((await frame('ui/index.html', 'not-a-uuid')).status, 404);
  });

  it('stops serving once the plugin is disabled on the instance', async () => {
    assert.equal((await t.request('POST', `/api/plugins/${plugin.id}/disable`, { token: owner })).status, 200);
    assert.equal((await frame('ui/index.html')).status, 404);
    assert.equal((await t.request('POST', `/api/plugins/${plugin.id}/enable`, { token: owner })).status, 200);
    assert.equal((await frame('ui/index.html')).status, 200);
  });
});

describe('the API and Origin: null', () => {
  it('refuses a request from an opaque origin with 403 JSON, whatever its credential', async () => {
    for (const [method, url] of [
      ['GET', '/api/plugins'],
      ['GET', `/api/companies/${companyId}/plugins`],
      ['POST', `/api/plugins/${plugin.id}/disable`],
    ] as const) {
      const res = await t.request(method, url, { token: owner, headers: { origin: 'null' } });
      assert.equal(res.status, 403, `${method} ${url}`);
      assert.match(res.body.error, /opaque origin/);
    }
    const unauthenticated = await t.request('GET', '/api/plugins', { headers: { origin: 'null' } });
    assert.equal(unauthenticated.status, 403);
    // The plugin was not disabled by the refused call.
    assert.equal((await frame('ui/index.html')).status, 200);
  });

  it('answers the same request from the board itself or without an Origin', async () => {
    assert.equal((await t.request('GET', '/api/plugins', { token: owner })).status, 200);
    const sameOrigin = await t.request('GET', '/api/plugins', {
      token: owner,
      headers: { origin: 'http://localhost:3100' },
    });
    assert.equal(sameOrigin.status, 200);
  });
});
