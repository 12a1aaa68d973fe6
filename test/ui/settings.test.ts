// Company settings in a real browser: a company branded with an uploaded SVG logo (its script and
// onload handler gone from what is shown), a brand colour, a rename the switcher shows at once and
// one made elsewhere that arrives live; a rename the server refuses, shown at the field; archive and
// restore; delete behind the typed company name, then home. axe in every state.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { checkAccessibility, screenshot, startBoard } from '../helpers/browser.ts';
import { waitFor } from '../helpers/wait.ts';

const board = await startBoard();
let companyId = '';
let otherId = '';
let page: Page;

const EVIL_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64" onload="alert(1)"><script>alert(2)</script><rect width="64" height="64" fill="#0f766e"/><circle cx="32" cy="32" r="16" fill="#fff"/></svg>`;

const switcherLabel = () => page.getByRole('combobox', { name: 'Company' }).textContent();

before(async () => {
  otherId = (await board.api('POST', '/api/companies', { name: 'Other Works' })).id;
  companyId = (await board.api('POST', '/api/companies', { name: 'Acme Robotics', description: 'Warehouse robots' }))
    .id;
  page = await board.signedInPage({ width: 1280, height: 900 });
  await page.goto(`/c/${companyId}/settings`);
  await page.getByRole('heading', { name: 'Branding' }).waitFor();
});

describe('company settings', () => {
  it('brands the company: an uploaded SVG shown sanitised, a brand colour, a rename the switcher shows at once', async () => {
    await checkAccessibility(page, 'company settings');
    // The FileInput's button opens the file chooser, as for a person.
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Upload a logo' }).click();
    await (await chooser).setFiles({ name: 'logo.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(EVIL_SVG) });
    const logo = page.getByRole('img', { name: 'Acme Robotics logo' });
    await logo.waitFor();
    await page.getByText('SVG as stored (sanitised)').click();
    const shown = (await page.getByLabel('Sanitised SVG source').textContent()) ?? '';
    assert.match(shown, /<rect/);
    assert.doesNotMatch(shown, /<script|alert|onload/i);
    // The image itself is the stored bytes: fetched as the page fetches them.
    const src = await logo.getAttribute('src');
    const served = await page.evaluate(async (url) => (await fetch(url!)).text(), src);
    assert.doesNotMatch(served, /<script|onload/i);
    const company = await board.api('GET', `/api/companies/${companyId}`);
    assert.equal(company.logoUrl, src);

    await page.getByLabel('Name', { exact: true }).fill('Acme Dynamics');
    await page.getByLabel('Brand colour', { exact: true }).fill('#0f766e');
    await page.getByRole('button', { name: 'Save branding' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await waitFor('the switcher shows the new name', async () => (await switcherLabel()) === 'Acme Dynamics');
    const saved = await board.api('GET', `/api/companies/${companyId}`);
    assert.equal(saved.name, 'Acme Dynamics');
    assert.equal(saved.brandColor, '#0f766e');
    assert.equal(await page.getByLabel('Brand colour picker').inputValue(), '#0f766e');
    await checkAccessibility(page, 'company settings, branded');
    await screenshot(page, 'company-settings');
  });

  it('shows a rename made elsewhere live, in the form and the switcher', async () => {
    await board.api('PATCH', `/api/companies/${companyId}/branding`, { name: 'Acme Holdings' });
    await waitFor(
      'the switcher shows the rename made through the API',
      async () => (await switcherLabel()) === 'Acme Holdings',
    );
    await page.reload();
    assert.equal(await page.getByLabel('Name', { exact: true }).inputValue(), 'Acme Holdings');
  });

  it('shows a refused rename and a malformed colour at their fields', async () => {
    await page.getByLabel('Brand colour', { exact: true }).fill('blue');
    await page.getByRole('button', { name: 'Save branding' }).click();
    await page.getByText('Enter a hex colour such as #0f766e or #abc.').waitFor();
    assert.equal(await page.getByLabel('Brand colour', { exact: true }).getAttribute('aria-invalid'), 'true');
    await page.getByLabel('Brand colour', { exact: true }).fill('#abc');

    await page.getByLabel('Name', { exact: true }).fill('x'.repeat(201));
    await page.getByRole('button', { name: 'Save branding' }).click();
    await page.getByRole('alert').filter({ hasText: 'Branding was not saved' }).waitFor();
    const name = page.getByLabel('Name', { exact: true });
    assert.equal(await name.getAttribute('aria-invalid'), 'true');
    const errorText = await page.locator('#company-name-error').textContent();
    assert.match(errorText ?? '', /200/);
    assert.match((await name.getAttribute('aria-describedby')) ?? '', /company-name-error/);
    await checkAccessibility(page, 'company settings, rename refused');
    assert.equal((await board.api('GET', `/api/companies/${companyId}`)).name, 'Acme Holdings');

    await name.fill('   ');
    await page.getByRole('button', { name: 'Save branding' }).click();
    await waitFor(
      'the empty name is refused too',
      async () => ((await page.locator('#company-name-error').textContent()) ?? '') !== errorText,
    );
    await name.fill('Acme Holdings');
  });

  it('archives after saying what it means, and makes the company active again', async () => {
    await page.getByRole('button', { name: 'Archive…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Archive Acme Holdings?' });
    await dialog.getByText(/data is kept|are kept/).waitFor();
    await checkAccessibility(page, 'archive dialog');
    await dialog.getByRole('button', { name: 'Archive company' }).click();
    await page.getByRole('status').filter({ hasText: 'is archived' }).waitFor();
    assert.equal((await board.api('GET', `/api/companies/${companyId}`)).status, 'archived');
    await checkAccessibility(page, 'company settings, archived');
    await page.getByRole('button', { name: 'Make active again' }).click();
    await page.getByRole('button', { name: 'Archive…' }).waitFor();
    assert.equal((await board.api('GET', `/api/companies/${companyId}`)).status, 'active');
  });

  it('deletes only once the company name is typed, then goes home', async () => {
    await page.getByRole('button', { name: 'Delete…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Acme Holdings?' });
    const confirm = dialog.getByRole('button', { name: 'Delete company' });
    await dialog.getByLabel(/Type Acme Holdings to confirm/).fill('Acme');
    assert.equal(await confirm.isDisabled(), true);
    await checkAccessibility(page, 'delete dialog');
    await dialog.getByLabel(/Type Acme Holdings to confirm/).fill('Acme Holdings');
    await confirm.click();
    await waitFor('left the deleted company', async () => !page.url().includes(companyId));
    await board.api('GET', `/api/companies/${companyId}`, undefined, 404);
    await waitFor('home led to the remaining company', async () => page.url().includes(otherId));
  });
});
