// Instance settings in a real browser: the server's version, the doctor checks, every built-in
// adapter with the environment result the server reports; an external adapter installed from a
// local path, configured, disabled and removed; a refused install shown with the server's reason.
// axe in every state.
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { checkAccessibility, screenshot, startBoard } from '../helpers/browser.ts';
import { waitFor } from '../helpers/wait.ts';

const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'adapter-package');
const TYPE = 'fixture_echo';

const board = await startBoard();
let companyId = '';
let page: Page;

const card = (type: string) =>
  page.getByRole('article').filter({ has: page.getByRole('heading', { name: new RegExp(`\\b${type}\\b`) }) });
const checksOf = async (type: string) =>
  (
    await page
      .getByRole('list', { name: `${type} environment checks` })
      .getByRole('listitem')
      .allTextContents()
  ).map((text) => text.replace(/\s+/g, ' ').trim());

before(async () => {
  companyId = (await board.api('POST', '/api/companies', { name: 'Instance Co' })).id;
  page = await board.signedInPage({ width: 1280, height: 900 });
  await page.goto(`/c/${companyId}/instance`);
  await page.getByRole('heading', { name: 'Adapters' }).waitFor();
});

describe('instance settings', () => {
  it('shows the version, the doctor checks and every built-in adapter with its environment result', async () => {
    const health = await board.api('GET', '/api/health');
    await page.getByText(health.version, { exact: true }).waitFor();
    const doctor = page.getByRole('list', { name: 'Doctor checks' }).getByRole('listitem');
    await doctor.first().waitFor();
    const doctorLines = await doctor.allTextContents();
    assert.deepEqual(
      doctorLines.map((line) => line.split(' ').slice(0, 2).join(' ')),
      ['ok node', 'ok data', 'ok database'],
    );
    assert.match(doctorLines[1]!, new RegExp(`${board.dataDir.replaceAll('/', '\\/')} \\(writable\\)`));

    const adapters: {
      type: string;
      builtin: boolean;
      environment: { ok: boolean; checks: { name: string; ok: boolean; detail: string }[] };
    }[] = await board.api('GET', '/api/adapters');
    const builtins = adapters.filter((adapter) => adapter.builtin);
    assert.ok(builtins.some((adapter) => adapter.type === 'claude_local'));
    await page.getByRole('list', { name: 'claude_local environment checks' }).waitFor({ timeout: 20_000 });
    for (const adapter of builtins) {
      const article = card(adapter.type);
      assert.match((await article.textContent()) ?? '', /built-in/);
      // What the page shows is what the server reported (details that hold a version or a time may
      // differ between two runs of the checks, so names and outcomes are compared, plus one detail).
      const shown = await checksOf(adapter.type);
      assert.deepEqual(
        shown.map((line) => line.split(' ').slice(0, 2).join(' ')),
        adapter.environment.checks.map((check) => `${check.ok ? 'ok' : 'fail'} ${check.name.split(' ')[0]}`),
        adapter.type,
      );
      assert.match(
        (await article.textContent()) ?? '',
        adapter.environment.ok ? /Environment: ready/ : /Environment: not ready/,
      );
    }
    const claudeCheck = adapters
      .find((adapter) => adapter.type === 'claude_local')!
      .environment.checks.find((check) => check.name === 'config');
    if (claudeCheck) assert.ok((await checksOf('claude_local')).some((line) => line.includes(claudeCheck.detail)));
    await checkAccessibility(page, 'instance settings');
    await screenshot(page, 'instance-settings');
  });

  it('refuses an install the server cannot use, with its reason', async () => {
    await page.getByLabel('Package name or local path').fill(path.join(FIXTURE, 'no-such-folder'));
    await page.getByRole('button', { name: 'Install', exact: true }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'The adapter was not installed' });
    await alert.waitFor({ timeout: 20_000 });
    assert.match((await alert.textContent()) ?? '', /no-such-folder|not|cannot/i);
    await checkAccessibility(page, 'instance settings, install refused');
  });

  it('installs an external adapter from a local path, configures it, disables it and removes it', async () => {
    await page.getByLabel('Package name or local path').fill(FIXTURE);
    await page.getByRole('button', { name: 'Install', exact: true }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `(${TYPE})` })
      .waitFor({ timeout: 30_000 });
    const article = card(TYPE);
    await article.waitFor();
    assert.match((await article.textContent()) ?? '', /external/);
    assert.match((await article.textContent()) ?? '', new RegExp(`local path ${FIXTURE.replaceAll('/', '\\/')}`));
    assert.deepEqual(await checksOf(TYPE), ['ok config greeting=(none)']);

    await article.getByRole('button', { name: 'Configure' }).click();
    await article.getByLabel('greeting').fill('bonjour');
    await article.getByRole('button', { name: 'Save instance config' }).click();
    await waitFor(
      'the environment check ran with the new config',
      async () => (await checksOf(TYPE))[0] === 'ok config greeting=bonjour',
    );
    await checkAccessibility(page, 'instance settings, adapter config open');

    await article.getByRole('button', { name: `Disable ${TYPE}` }).click();
    await article.getByRole('button', { name: `Enable ${TYPE}` }).waitFor();
    assert.match((await article.textContent()) ?? '', /disabled/);
    const listed = (await board.api('GET', '/api/adapters')).find((adapter: { type: string }) => adapter.type === TYPE);
    assert.equal(listed.status.disabled, true);
    assert.equal(listed.status.enabled, false);

    await article.getByRole('button', { name: 'Reload' }).click();
    await article.getByRole('status').filter({ hasText: 'Reloaded.' }).waitFor();

    await article.getByRole('button', { name: 'Remove…' }).click();
    const dialog = page.getByRole('dialog', { name: `Remove ${TYPE}?` });
    await checkAccessibility(page, 'remove adapter dialog');
    await dialog.getByRole('button', { name: 'Remove adapter' }).click();
    // While the modal is open the page behind it is hidden from the accessibility tree: wait for it to close.
    await dialog.waitFor({ state: 'hidden' });
    await waitFor(
      'the adapter left the list',
      async () =>
        (await page.getByRole('heading', { name: 'Adapters' }).isVisible()) && (await card(TYPE).count()) === 0,
    );
    assert.equal(
      (await board.api('GET', '/api/adapters')).some((adapter: { type: string }) => adapter.type === TYPE),
      false,
    );
  });
});
