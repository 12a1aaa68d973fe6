// The board's plugin pages in a real browser (issue 27 section 5): the instance owner installs the
// kitchen-sink example from the examples list and reads what it asks for in words; the company's
// board turns it on with consent and sees its health and logs; an upgrade that asks for more waits
// for consent again, and is allowed again from its card; the owner turns a plugin off on the instance
// and uninstalls it after confirming. The blocks renderer is shown with one of every block type (on
// /_design: the data route feeding a real slot is another part of issue 27, see below), its actions
// asking first when they say `confirm`, and a failed call saying what the server answered. A frame
// page, in Chromium, reaches neither the board, its storage, its cookies nor the API, and the API
// refuses what a sandboxed page sends (Origin: null). axe on every state; screenshots at 1440 and
// 390 px, light and dark.
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { PLUGIN_EXAMPLES_DIR, PROJECT_DIR } from '../../src/paths.ts';
import { checkAccessibility, newLoginLink, screenshot, startBoard } from '../helpers/browser.ts';
import { sidewaysOverflow } from '../helpers/sideways.ts';
import { waitFor } from '../helpers/wait.ts';

const board = await startBoard();
const C = (await board.api('POST', '/api/companies', { name: 'Plugins Co' })).id as string;
const scratch = await mkdtemp(path.join(os.tmpdir(), 'boardroom-ui-plugins-'));
after(() => rm(scratch, { recursive: true, force: true }));

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const KITCHEN_SINK = JSON.parse(
  await readFile(path.join(PLUGIN_EXAMPLES_DIR, 'kitchen-sink', 'boardroom.plugin.json'), 'utf8'),
) as { capabilities: string[] };

/** Whether the server lists UI contributions (GET /api/plugins/ui-contributions, another part of issue 27). */
async function hasContributions(): Promise<boolean> {
  const res = await fetch(`${board.baseUrl}/api/plugins/ui-contributions?companyId=${C}`, {
    headers: { authorization: `Bearer ${board.ownerToken}` },
  });
  const body = (await res.json().catch(() => ({}))) as { error?: string; details?: { path?: string }[] };
  // Without it, a 404 "route … not found", or GET /api/plugins/{pluginId}'s 400 ("ui-contributions" is no id).
  const missing =
    (res.status === 404 && /^route /.test(body.error ?? '')) ||
    (res.status === 400 && (body.details ?? []).some((detail) => detail.path === '/pluginId'));
  return !missing;
}

/** The page's visible text holds no UUID and no raw capability key. */
async function assertWords(page: Page, where: string) {
  const text = await page.locator('main').innerText();
  assert.ok(!UUID.test(text), `${where}: a UUID in the visible text`);
  for (const key of ['issues.read', 'http.outbound', 'ui.frame', 'upgrade_pending'])
    assert.ok(!text.includes(key), `${where}: the raw key ${key} in the visible text`);
}

const companyPlugin = async (pluginId: string) =>
  (await board.api<any[]>('GET', `/api/companies/${C}/plugins`)).find((p) => p.pluginId === pluginId);

describe('plugins', () => {
  it('installs the kitchen-sink example from the examples list, shows what it asks for in words, turns it on with consent, and shows its health and logs', async () => {
    const page = await board.signedInPage({ width: 1440, height: 900 });
    await page.goto(`/c/${C}/plugins`);
    await page.getByRole('heading', { name: 'Plugins', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'No plugins installed' }).waitFor();
    await checkAccessibility(page, 'the empty plugins page');

    // The sidebar leads here too.
    assert.equal(
      await page
        .getByRole('navigation', { name: 'Main' })
        .first()
        .getByRole('link', { name: 'Plugins' })
        .getAttribute('href'),
      `/c/${C}/plugins`,
    );

    await page.getByRole('link', { name: 'Installed plugins' }).first().click();
    await page.getByRole('heading', { name: 'Installed plugins', level: 1 }).waitFor();
    const examples = page.getByRole('region', { name: 'Examples' });
    await examples.getByRole('heading', { name: 'Kitchen sink' }).waitFor();
    await checkAccessibility(page, 'the installed plugins page before any install');
    await examples.getByRole('button', { name: 'Install Kitchen sink' }).click();

    // What it asks for, in words, before any company turns it on.
    const installed = page.getByRole('status').filter({ hasText: 'Installed Kitchen sink' });
    await installed.waitFor();
    const asks = installed.getByRole('group', { name: 'What Kitchen sink asks for' });
    for (const sentence of [
      'Read issues',
      'Write comments (their mentions wake nobody)',
      'Run scheduled jobs',
      'Connect to api.example.com',
      'Use the secrets its settings name, without ever seeing their values',
      'Show its own page in a sealed-off frame',
    ])
      await asks.getByText(sentence, { exact: true }).waitFor();
    await installed.getByText('No company runs it until its board turns it on').waitFor();
    const card = page.getByRole('article', { name: 'Kitchen sink' });
    await card.getByText('Available').waitFor();
    await examples.getByText('Installed', { exact: true }).waitFor();
    await assertWords(page, 'the installed plugins page');
    await checkAccessibility(page, 'the installed plugins page after the install');
    const [plugin] = await board.api<any[]>('GET', '/api/plugins');
    assert.equal(plugin.pluginKey, 'boardroom.kitchen-sink');
    assert.equal((await companyPlugin(plugin.id)).status, 'disabled');

    // The company's board turns it on, consenting to exactly what it asks for.
    await page.getByRole('link', { name: "This company's plugins" }).click();
    const companyCard = page.getByRole('article', { name: 'Kitchen sink' });
    await companyCard.getByText('Off', { exact: true }).waitFor();
    await companyCard.getByRole('button', { name: 'Turn on…' }).click();
    const consent = page.getByRole('dialog', { name: 'Turn on Kitchen sink for this company?' });
    await consent.getByText('Read issues', { exact: true }).waitFor();
    await consent.getByText('Connect to api.example.com', { exact: true }).waitFor();
    await checkAccessibility(page, 'the consent dialog');
    await screenshot(page, 'plugins-consent');
    await consent.getByRole('button', { name: 'Allow and turn on' }).click();
    await companyCard.getByText('On', { exact: true }).waitFor();
    const enabled = await companyPlugin(plugin.id);
    assert.equal(enabled.status, 'enabled');
    assert.deepEqual([...enabled.capabilities].sort(), [...KITCHEN_SINK.capabilities].sort());

    // With the data route (another part of issue 27), the dashboard's widget calls the worker, so it runs.
    const contributions = await hasContributions();
    if (contributions) {
      await page.goto(`/c/${C}/dashboard`);
      await page
        .getByRole('region', { name: /Kitchen sink/ })
        .first()
        .waitFor();
      await page.goto(`/c/${C}/plugins`);
    }

    await companyCard.getByRole('link', { name: 'Details of Kitchen sink' }).click();
    await page.getByRole('heading', { name: 'Kitchen sink', level: 1 }).waitFor();
    await page.getByRole('group', { name: 'What this company allowed' }).getByText('Read issues').waitFor();
    const health = page.getByRole('region', { name: 'Health' });
    await health.getByText('Confinement').waitFor();
    await health
      .getByText(
        /^(Sealed sandbox: no network, no other files|Separate unprivileged user \(no sealed sandbox on this server\)|Plain process: no sandbox available on this server)$/,
      )
      .waitFor();
    await health.getByText(contributions ? 'Running' : 'Not running (starts when needed)', { exact: true }).waitFor();
    await health.getByText('Restarts after crashes').waitFor();
    const logs = page.getByRole('region', { name: 'Recent logs' });
    if (contributions)
      await logs.getByRole('list', { name: 'Log lines, oldest first' }).getByText('Boardroom').first().waitFor();
    else await logs.getByText('Nothing logged for this company on this server yet.').waitFor();
    await assertWords(page, 'the plugin page');
    await checkAccessibility(page, 'the plugin page');
  });

  it("shows a plugin's detail tabs on the pages of the records they attach to (an issue, an agent)", async () => {
    // Kitchen sink is on for the company (the test above); its Sink tabs render its summary blocks.
    const agent = await board.api<{ id: string }>('POST', `/api/companies/${C}/agents`, {
      name: 'Tab Agent',
      role: 'engineer',
      adapterType: 'process',
      adapterConfig: {},
    });
    const issue = await board.api<{ id: string }>('POST', `/api/companies/${C}/issues`, { title: 'Tabbed issue' });
    const page = await board.signedInPage({ width: 1440, height: 900 });
    for (const [where, url] of [
      ['the issue page', `/c/${C}/issues/${issue.id}`],
      ['the agent page', `/c/${C}/agents/${agent.id}`],
    ] as const) {
      await page.goto(url);
      const tabs = page.getByRole('region', { name: 'From plugins' });
      await tabs.getByRole('tab', { name: 'Sink' }).waitFor();
      await tabs.getByRole('tabpanel').getByText('in this company').waitFor();
      await assertWords(page, where);
    }
    await page.close();
  });

  it('explains an upgrade that asks for more, and allows it again from the card', async () => {
    const dir = path.join(scratch, 'grower');
    await cp(path.join(PROJECT_DIR, 'test', 'fixtures', 'plugins', 'frame'), dir, { recursive: true });
    const manifestFile = path.join(dir, 'boardroom.plugin.json');
    const manifest = JSON.parse(await readFile(manifestFile, 'utf8'));
    const write = (version: string, capabilities: string[]) =>
      writeFile(
        manifestFile,
        JSON.stringify({
          ...manifest,
          id: 'boardroom-test.grower',
          displayName: 'Grower',
          version,
          capabilities,
          ui: { slots: [] },
        }),
      );
    await write('1.0.0', ['issues.read']);
    const plugin = await board.api('POST', '/api/plugins/install', { packageName: dir, isLocalPath: true });
    await board.api('POST', `/api/companies/${C}/plugins/${plugin.id}/enable`, { capabilities: ['issues.read'] });
    await write('1.1.0', ['issues.read', 'comments.write']);
    await board.api('POST', `/api/plugins/${plugin.id}/upgrade`, {});
    assert.equal((await companyPlugin(plugin.id)).status, 'upgrade_pending');

    const page = await board.signedInPage({ width: 1440, height: 900 });
    await page.goto(`/c/${C}/plugins`);
    const card = page.getByRole('article', { name: 'Grower' });
    await card.getByText('Waiting for consent', { exact: true }).waitFor();
    await card.getByText('Version 1.1.0 asks for more than this company allowed').waitFor();
    await assertWords(page, 'the plugins page with an upgrade pending');
    await checkAccessibility(page, 'the plugins page with an upgrade pending');
    await card.getByRole('button', { name: 'Review and allow' }).click();
    const consent = page.getByRole('dialog', { name: 'Turn on Grower for this company?' });
    // What the upgrade adds is marked.
    await consent.getByRole('listitem').filter({ hasText: 'Write comments' }).getByText('New').waitFor();
    assert.equal(await consent.getByRole('listitem').filter({ hasText: 'Read issues' }).getByText('New').count(), 0);
    await consent.getByRole('button', { name: 'Allow and turn on' }).click();
    await card.getByText('On', { exact: true }).waitFor();
    assert.deepEqual((await companyPlugin(plugin.id)).capabilities.sort(), ['comments.write', 'issues.read']);

    // The owner turns it off on the instance, then uninstalls it after confirming.
    await page.goto(`/c/${C}/plugins/installed`);
    const installed = page.getByRole('article', { name: 'Grower' });
    await installed.getByRole('button', { name: 'Turn off on the instance' }).click();
    await installed.getByText('Turned off on the instance', { exact: true }).waitFor();
    await installed.getByRole('button', { name: 'Uninstall…' }).click();
    const confirm = page.getByRole('dialog', { name: 'Uninstall Grower?' });
    await checkAccessibility(page, 'the uninstall confirmation');
    await confirm.getByRole('button', { name: 'Uninstall' }).click();
    await confirm.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'Grower' }).waitFor({ state: 'detached' });
    assert.equal(await companyPlugin(plugin.id), undefined);
  });

  it('renders every block type with the board’s components; actions ask first when they say confirm, and failures say what the server answered', async () => {
    const page = await board.signedInPage({ width: 1440, height: 900 });
    await page.goto('/_design#plugin-blocks');
    const section = page.locator('#plugin-blocks');
    await section.getByRole('heading', { name: 'Plugin blocks' }).waitFor();
    // metric: money from cents, a count, a percentage, a duration.
    for (const text of ['$1,234.56', '42', '61.7%', '12:34', 'of $2,000.00'])
      await section.getByText(text, { exact: true }).first().waitFor();
    // table: units per column, booleans and nulls in words.
    const table = section.getByRole('region', { name: 'Spend by agent' });
    for (const text of ['$842.10', 'Yes', 'No', '–'])
      await table.getByRole('cell', { name: text, exact: true }).first().waitFor();
    // list: a path of the company, as a link inside the board.
    assert.equal(
      await section.getByRole('link', { name: 'BRD-12 is blocked for 3 days' }).getAttribute('href'),
      '/c/00000000-0000-4000-8000-00000000c0de/issues/BRD-12',
    );
    // key/value.
    await section.getByRole('region', { name: 'This week' }).getByText('1:02:05').waitFor();
    // markdown through the board's renderer: no HTML from the plugin.
    await section.getByText('up 12%').waitFor();
    assert.equal(await section.locator('.plugin-blocks script').count(), 0);
    assert.equal(await section.getByRole('link', { name: 'docs' }).getAttribute('rel'), 'noopener noreferrer nofollow');
    // charts: drawn as images named in words, each with its numbers for screen readers.
    await section.getByRole('img', { name: 'Runs per agent: This week' }).waitFor();
    await section.getByRole('img', { name: 'Daily spend: Spend, Budget per day' }).waitFor();
    await checkAccessibility(page, 'the plugin blocks');

    // A form from the action's params schema; the action says confirm, so it asks first.
    const form = section.getByRole('form', { name: 'Post a greeting' });
    assert.equal(await form.getByLabel('Text').inputValue(), 'Hello');
    await form.getByLabel('Issue').fill('BRD-12');
    await form.getByRole('button', { name: 'Post' }).click();
    const ask = page.getByRole('dialog', { name: 'Post?' });
    await ask.getByText('The plugin asks you to confirm this action before it runs.').waitFor();
    await ask.getByRole('button', { name: 'Post' }).click();
    // The made-up plugin does not exist: the server's answer is shown, with what to do.
    const formError = form.getByRole('alert').filter({ hasText: 'The action failed' });
    await formError.waitFor();
    assert.match(await formError.innerText(), /not found|refused/);

    // A button without confirm runs at once; one with confirm can be cancelled, and then nothing is sent.
    let actionCalls = 0;
    page.on('request', (request) => {
      if (request.url().includes('/actions/clear-cache')) actionCalls++;
    });
    await section.getByRole('button', { name: 'Clear the cache' }).click();
    await page.getByRole('dialog', { name: 'Clear the cache?' }).getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('dialog', { name: 'Clear the cache?' }).waitFor({ state: 'detached' });
    assert.equal(actionCalls, 0);
    await section.getByRole('button', { name: 'Refresh now' }).click();
    await section.getByRole('alert').filter({ hasText: 'Refresh now failed' }).waitFor();

    // A bridge error (502) says the worker's story and what to do.
    const bridge = section.getByRole('alert').filter({ hasText: 'Budget radar could not be shown' });
    await bridge.getByText('the worker failed: TypeError').waitFor();
    await bridge.getByText("The plugin failed. Its logs on the plugin's page (Plugins) say why").waitFor();
    await screenshot(page, 'plugins-blocks');
  });

  it('keeps a frame page away from the board, its storage, its cookies and the API; the API refuses Origin: null', async () => {
    const plugin = await board.api('POST', '/api/plugins/install', {
      packageName: path.join(PROJECT_DIR, 'test', 'fixtures', 'plugins', 'frame'),
      isLocalPath: true,
    });
    await board.api('POST', `/api/companies/${C}/plugins/${plugin.id}/enable`, { capabilities: ['ui.frame'] });
    // A context of its own, outside the board's console guard: the refusals this test provokes are
    // what the browser logs as errors (CSP and CORS). Signed in, so there is a session to protect.
    const context = await board.browser.newContext({ baseURL: board.baseUrl, viewport: { width: 1280, height: 800 } });
    try {
      const page = await context.newPage();
      await page.goto(
        await newLoginLink(board.dataDir, {
          DATABASE_URL: board.databaseUrl,
          BOARDROOM_DEPLOYMENT_MODE: 'authenticated',
          BOARDROOM_REQUIRE_BUNDLE: '1',
        }),
      );
      await page.waitForURL((url) => !url.pathname.startsWith('/api/auth'));
      const frameUrl = `/plugin-frames/${plugin.id}/ui/index.html`;

      let frameResults: Record<string, unknown>;
      if (await hasContributions()) {
        // Through the board: its company page, the channel (context, resize, toast, navigate).
        // A toast stays 5 s: watched from before the page opens, so a slow frame cannot outlast it.
        const toastShown = page
          .getByRole('region', { name: 'Notifications' })
          .getByText('connected to probe')
          .waitFor({ timeout: 30_000 });
        await page.goto(`/c/${C}/plugins/${plugin.id}/pages/probe`);
        const iframe = page.locator('iframe.plugin-frame');
        assert.equal(await iframe.getAttribute('sandbox'), 'allow-scripts allow-forms');
        const frame = page.frameLocator('iframe.plugin-frame');
        await frame.getByText('"context"').waitFor();
        await toastShown;
        // 420 px, its 1 px border inside or outside (the board sizes boxes border-box).
        await waitFor(
          'the frame resized to 420 px',
          async () => Math.abs(((await iframe.boundingBox())?.height ?? 0) - 421) <= 1,
          30_000,
        );
        frameResults = JSON.parse(await frame.locator('#out').innerText());
        assert.deepEqual(frameResults.context, {
          companyId: C,
          pluginId: plugin.id,
          slotKey: 'probe',
          entityId: null,
          theme: 'light',
        });
        await frame.getByRole('button', { name: 'Go to issues' }).click();
        await page.waitForURL(`**/c/${C}/issues`);
      } else {
        // Without the contributions route yet: the same sandbox the board uses, put in by hand.
        await page.goto(`/c/${C}/plugins`);
        await page.evaluate((src) => {
          const iframe = document.createElement('iframe');
          iframe.setAttribute('sandbox', 'allow-scripts allow-forms');
          iframe.src = src;
          document.body.append(iframe);
        }, frameUrl);
        const frame = page.frameLocator('iframe[sandbox]');
        await waitFor('the frame probe to finish', async () => {
          const text = await frame.locator('#out').innerText();
          return text.includes('"api"') && text;
        });
        frameResults = JSON.parse(await frame.locator('#out').innerText());
      }
      // Its script ran (script-src 'self' from its own path), and reached nothing of the board's.
      assert.equal(frameResults.parent, 'blocked');
      assert.equal(frameResults.storage, 'blocked');
      assert.equal(frameResults.cookie, 'blocked');
      assert.equal(frameResults.api, 'blocked');

      // A sandboxed page the CSP does not cover (a srcdoc frame) does reach the API: it is refused for its Origin.
      await page.goto(`/c/${C}/plugins`);
      // The browser hides a refused cross-origin answer from the page (CORS), so the server's request log says it.
      const refusals = () =>
        board.server
          .output()
          .split('\n')
          .filter((line) => line.includes('"url":"/api/companies"') && line.includes('"statusCode":403')).length;
      const before = refusals();
      await page.evaluate(() => {
        const iframe = document.createElement('iframe');
        iframe.setAttribute('sandbox', 'allow-scripts');
        iframe.srcdoc = `<script>fetch('${location.origin}/api/companies', { credentials: 'include' }).catch(() => {});</script>`;
        document.body.append(iframe);
      });
      await waitFor('the API to refuse the sandboxed page (403)', () => refusals() > before, 15_000);
    } finally {
      await context.close();
    }
  });

  it('at 1440 and 390 px, light and dark: axe passes, nothing scrolls sideways; screenshots', async () => {
    const kitchen = (await board.api<any[]>('GET', '/api/plugins')).find(
      (p) => p.pluginKey === 'boardroom.kitchen-sink',
    );
    const pages: [string, string][] = [
      ['plugins', `/c/${C}/plugins`],
      ['plugins-installed', `/c/${C}/plugins/installed`],
      ['plugin', `/c/${C}/plugins/${kitchen.id}`],
    ];
    const problems: string[] = [];
    for (const viewport of [
      { width: 1440, height: 900 },
      { width: 390, height: 844 },
    ]) {
      const page = await board.signedInPage(viewport);
      for (const [name, where] of pages) {
        await page.goto(where);
        await page.getByRole('heading', { level: 1 }).waitFor();
        await page
          .locator('.loading')
          .waitFor({ state: 'detached' })
          .catch(() => undefined);
        for (const scheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme: scheme });
          await screenshot(page, `pages/${name}-${viewport.width}-${scheme}`);
        }
        if (viewport.width < 720) {
          const overflow = await sidewaysOverflow(page);
          if (overflow.document > 0 || overflow.main > 0)
            problems.push(`${name}: document +${overflow.document} px, page +${overflow.main} px; ${overflow.widest}`);
        }
        await checkAccessibility(page, `${name} at ${viewport.width} px`).catch((error: Error) =>
          problems.push(error.message),
        );
      }
    }
    assert.deepEqual(problems, []);
  });
});
