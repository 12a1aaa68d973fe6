// Secrets in a real browser: one created (the value typed into a password field, then cleared),
// referenced in an agent's env, rotated; afterwards neither value is anywhere in the page (its HTML
// or any input), and the list shows version 2 and the reference. The "use in an agent" helper gives
// the exact binding. axe on every state visited.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { checkAccessibility, pickOption, screenshot, startBoard } from '../helpers/browser.ts';

const board = await startBoard();
const company = await board.api('POST', '/api/companies', { name: 'Secrets Co' });
const C = company.id;
const agent = await board.api('POST', `/api/companies/${C}/agents`, {
  name: 'Paula Payments',
  role: 'engineer',
  adapterType: 'process',
  adapterConfig: {},
});

const FIRST = 'sk-first-3f9c1d7e52a8b604';
const SECOND = 'sk-second-a41be09d7c6f2258';

/** Neither value in the HTML, nor in any input or textarea (values are not part of page.content()). */
async function assertNoValues(page: Page, where: string) {
  const html = await page.content();
  const inputs = await page
    .locator('input, textarea')
    .evaluateAll((elements) => elements.map((e) => (e as HTMLInputElement).value));
  for (const value of [FIRST, SECOND]) {
    assert.ok(!html.includes(value), `${where}: the page's HTML holds a secret value`);
    assert.ok(!inputs.some((v) => v.includes(value)), `${where}: an input holds a secret value`);
  }
}

const storedSecret = async (id: string) =>
  (
    await board.api<{ id: string; name: string; description: string | null; latestVersion: number }[]>(
      'GET',
      `/api/companies/${C}/secrets`,
    )
  ).find((s) => s.id === id);

describe('secrets', () => {
  it('creates, references and rotates a secret without its value ever staying in the page', async () => {
    const page = await board.signedInPage();
    await page.goto(`/c/${C}/secrets`);
    await page.getByRole('heading', { name: 'Secrets', level: 1 }).waitFor();
    await page.getByText('No secrets yet.').waitFor();
    await checkAccessibility(page, 'the empty secrets page');

    await page.getByLabel('Name').fill('STRIPE_API_KEY');
    const valueField = page.getByLabel('Value');
    assert.equal(await valueField.getAttribute('type'), 'password');
    await valueField.fill(FIRST);
    await page.getByLabel('Description').fill('Payments for the shop');
    await page.getByRole('button', { name: 'Create secret' }).click();
    await page.getByRole('status').filter({ hasText: 'STRIPE_API_KEY created (version 1)' }).waitFor();
    const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'STRIPE_API_KEY' }) });
    await row.getByText('v1').waitFor();
    await row.getByText('Not referenced').waitFor();
    assert.equal(await valueField.inputValue(), '');
    await assertNoValues(page, 'after create');

    // The binding to paste, exactly as the server reads it.
    const [secret] = await board.api<any[]>('GET', `/api/companies/${C}/secrets`);
    await row.getByRole('button', { name: 'Use STRIPE_API_KEY in an agent' }).click();
    const use = page.getByRole('dialog', { name: 'Use STRIPE_API_KEY in an agent' });
    const snippet = JSON.parse((await use.getByLabel('Environment binding').textContent()) ?? '');
    assert.deepEqual(snippet, { STRIPE_API_KEY: { type: 'secret_ref', secretId: secret.id, version: 'latest' } });
    await pickOption(use, 'Agent', 'Paula Payments');
    assert.equal(
      await use.getByRole('link', { name: 'Open its configuration' }).getAttribute('href'),
      `/c/${C}/agents/${agent.id}/configuration`,
    );
    await checkAccessibility(page, 'the use-in-an-agent dialog');
    await use.getByRole('button', { name: 'Close' }).click();

    // Referenced through the API: the list follows live (the agent's update is an activity event).
    await board.api('PATCH', `/api/agents/${agent.id}`, { adapterConfig: { env: snippet } });
    await row.getByRole('link', { name: 'Paula Payments' }).waitFor();
    await row.getByText('STRIPE_API_KEY', { exact: true }).last().waitFor();

    await row.getByRole('button', { name: 'Rotate STRIPE_API_KEY' }).click();
    const rotate = page.getByRole('dialog', { name: 'Rotate STRIPE_API_KEY' });
    await rotate.getByText('becomes version 2').waitFor();
    assert.equal(await rotate.getByLabel('New value').getAttribute('type'), 'password');
    await rotate.getByLabel('New value').fill(SECOND);
    await checkAccessibility(page, 'the rotate dialog');
    await rotate.getByRole('button', { name: 'Rotate' }).click();
    await rotate.waitFor({ state: 'detached' });
    await row.getByText('v2').waitFor();
    await row.getByRole('link', { name: 'Paula Payments' }).waitFor();
    await assertNoValues(page, 'after rotate');
    await checkAccessibility(page, 'the secrets list with a referenced, rotated secret');
    await screenshot(page, 'secrets');

    // A reload (and the agent's configuration tab, which shows the env) show no value either.
    await page.reload();
    await row.getByText('v2').waitFor();
    await assertNoValues(page, 'after reload');
    await row.getByRole('link', { name: 'Paula Payments' }).click();
    await page.waitForURL(new RegExp(`/agents/${agent.id}/configuration$`));
    // The env binding shows the secret by name, never its id.
    await page
      .getByRole('combobox', { name: /^Secret for / })
      .getByText('STRIPE_API_KEY')
      .first()
      .waitFor();
    assert.equal(await page.getByText(secret.id).count(), 0);
    await assertNoValues(page, "on the agent's configuration tab");
  });

  it('refuses a duplicate name on the name field and clears the value anyway', async () => {
    await board.api('POST', `/api/companies/${C}/secrets`, { name: 'DUPLICATE', value: 'x-value-1' });
    const page = await board.signedInPage();
    await page.goto(`/c/${C}/secrets`);
    await page.getByLabel('Name').fill('DUPLICATE');
    await page.getByLabel('Value').fill('x-value-2');
    await page.getByRole('button', { name: 'Create secret' }).click();
    // Said on the name field, with what to do (no reload advised).
    const name = page.getByLabel('Name');
    const fieldError = page.locator('#secret-name-error');
    await fieldError.getByText('A secret named DUPLICATE already exists: choose another name').waitFor();
    assert.equal(await name.getAttribute('aria-invalid'), 'true');
    assert.equal(await name.getAttribute('aria-describedby'), 'secret-name-error');
    assert.equal(await page.getByText(/reload/i).count(), 0);
    assert.equal(await page.getByLabel('Value').inputValue(), '');
    await checkAccessibility(page, 'a refused secret');
  });

  it('renames and describes a secret (a taken name refused on the name field), then deletes it, naming who references it', async () => {
    const secret = await board.api('POST', `/api/companies/${C}/secrets`, {
      name: 'GITHUB_TOKEN',
      value: 'ghp-value-1',
      description: 'Old words',
    });
    await board.api('POST', `/api/companies/${C}/agents`, {
      name: 'Rex Releases',
      role: 'engineer',
      adapterType: 'process',
      adapterConfig: { env: { GH_TOKEN: { type: 'secret_ref', secretId: secret.id, version: 'latest' } } },
    });
    const page = await board.signedInPage();
    await page.goto(`/c/${C}/secrets`);
    const row = (name: string) =>
      page.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });

    await row('GITHUB_TOKEN').getByRole('button', { name: 'Edit GITHUB_TOKEN' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit GITHUB_TOKEN' });
    await edit.getByLabel('Name').fill('DUPLICATE');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit
      .locator('#edit-secret-name-error')
      .getByText('A secret named DUPLICATE already exists: choose another name.')
      .waitFor();
    assert.equal(await edit.getByLabel('Name').getAttribute('aria-invalid'), 'true');
    await edit.getByLabel('Name').fill('GH_RELEASE_TOKEN');
    await edit.getByLabel('Description').fill('Publishes releases');
    await checkAccessibility(page, 'the edit secret dialog');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'detached' });
    await row('GH_RELEASE_TOKEN').getByText('Publishes releases').waitFor();
    const stored = await storedSecret(secret.id);
    assert.deepEqual(
      [stored?.name, stored?.description, stored?.latestVersion],
      ['GH_RELEASE_TOKEN', 'Publishes releases', 1],
    );

    await row('GH_RELEASE_TOKEN').getByRole('button', { name: 'Delete GH_RELEASE_TOKEN' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete GH_RELEASE_TOKEN?' });
    await confirm.getByText('Rex Releases (GH_TOKEN)').waitFor();
    await checkAccessibility(page, 'the delete secret dialog');
    await screenshot(page, 'secret-delete');
    // Cancel is the default: Enter on the opened dialog deletes nothing.
    await page.keyboard.press('Enter');
    await confirm.waitFor({ state: 'detached' });
    assert.ok(await storedSecret(secret.id), 'Enter on the dialog deleted the secret');

    await row('GH_RELEASE_TOKEN').getByRole('button', { name: 'Delete GH_RELEASE_TOKEN' }).click();
    await confirm.getByRole('button', { name: 'Delete for good' }).click();
    await confirm.waitFor({ state: 'detached' });
    await row('GH_RELEASE_TOKEN').waitFor({ state: 'detached' });
    assert.equal(await storedSecret(secret.id), undefined);
  });
});
