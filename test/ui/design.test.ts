// The design system in a real browser: /_design shows every primitive, with no serious accessibility
// violation in light or dark; the overlays work by keyboard (Menu, Combobox, Dialog), toasts appear,
// call back and go; and in the company frame the user menu switches the theme (kept over a reload)
// and the company switcher moves to another company.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { waitFor } from '../helpers/wait.ts';
import { checkAccessibility, screenshot, startBoard } from '../helpers/browser.ts';

const board = await startBoard();

async function openDesign(viewport?: { width: number; height: number }): Promise<Page> {
  const page = await board.anonymousPage(viewport);
  await page.goto('/_design');
  await page.getByRole('heading', { name: 'Design system' }).waitFor();
  return page;
}

/** Waits until the focused element's text matches (focus returns a frame after an overlay closes). */
async function waitForFocusOn(page: Page, text: RegExp): Promise<void> {
  await page.waitForFunction(
    (source) => new RegExp(source).test(document.activeElement?.textContent ?? ''),
    text.source,
  );
}

describe('design system', () => {
  it('shows every primitive without a serious accessibility violation, light and dark, and at 390 px', async () => {
    // Tall, so the screenshots show most of the page.
    const page = await openDesign({ width: 1440, height: 2400 });
    for (const section of [
      'Buttons',
      'Menu',
      'Combobox and Select',
      'Dialog and Sheet',
      'Toast',
      'Banner',
      'File input',
    ])
      await page.getByRole('heading', { name: section, exact: true }).waitFor();

    await page.getByRole('combobox', { name: 'Theme' }).click();
    await page.getByRole('option', { name: 'Light' }).click();
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'light');
    await checkAccessibility(page, '/_design in light');
    await screenshot(page, 'design-light');

    await page.getByRole('combobox', { name: 'Theme' }).click();
    await page.getByRole('option', { name: 'Dark' }).click();
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
    await checkAccessibility(page, '/_design in dark');
    await screenshot(page, 'design-dark');

    const narrow = await openDesign({ width: 390, height: 844 });
    const width = await narrow.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `the page is ${width} px wide at 390 px`);
    await screenshot(narrow, 'design-narrow');
  });

  it('a menu works by keyboard: arrows move, Enter picks, Escape closes and returns focus', async () => {
    const page = await openDesign();
    const trigger = page.getByRole('button', { name: 'Issue actions' });
    await trigger.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await menu.waitFor();
    // The menu moves focus to its first item once open; an arrow pressed before that starts from nothing.
    await waitFor('the first item focused', () =>
      page.evaluate(() => document.activeElement?.getAttribute('role') === 'menuitem'),
    );
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await menu.waitFor({ state: 'detached' });
    await page.getByText('Picked: Duplicate').waitFor();
    await waitForFocusOn(page, /^Issue actions$/);

    await page.keyboard.press('Enter');
    await menu.waitFor();
    await menu.getByRole('menuitem', { name: 'Delete' }).waitFor();
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    await waitForFocusOn(page, /^Issue actions$/);
  });

  it('a combobox filters as you type, Enter picks, Escape closes and returns focus; in a form it submits its value', async () => {
    const page = await openDesign();
    const status = page.getByRole('combobox', { name: 'Status' }).first();
    await status.focus();
    // Typing on the closed trigger opens the list searching for it.
    await page.keyboard.type('pro');
    const options = page.getByRole('option');
    await page.waitForFunction(() => document.querySelectorAll('[role="option"]').length === 1);
    assert.deepEqual(await options.allTextContents(), ['In progress']);
    await page.keyboard.press('Enter');
    await options.first().waitFor({ state: 'detached' });
    assert.match((await status.textContent()) ?? '', /In progress/);
    await waitForFocusOn(page, /In progress/);

    await page.keyboard.press('Enter');
    await page.getByRole('option', { name: 'Backlog' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('option').first().waitFor({ state: 'detached' });
    await waitForFocusOn(page, /In progress/);

    // Multiple: picking keeps the list open and toggles.
    await page.getByRole('combobox', { name: 'Labels' }).click();
    await page.keyboard.type('doc');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    assert.match((await page.getByRole('combobox', { name: 'Labels' }).textContent()) ?? '', /2 selected/);

    // Labelled by a <label>, it submits with the form.
    await page.getByLabel('Status', { exact: true }).last().click();
    await page.getByRole('option', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Submitted status: done').waitFor();
  });

  it('a dialog traps focus and closes on Escape, returning focus to what opened it', async () => {
    const page = await openDesign();
    const open = page.getByRole('button', { name: 'Open dialog' });
    await open.click();
    const dialog = page.getByRole('dialog', { name: 'Rename the issue' });
    await dialog.waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'design-title');
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      assert.ok(await dialog.evaluate((element) => element.contains(document.activeElement)), 'focus left the dialog');
    }
    await checkAccessibility(page, 'an open dialog');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await waitForFocusOn(page, /^Open dialog$/);

    await page.getByRole('button', { name: 'Open side sheet' }).click();
    const sheet = page.getByRole('dialog', { name: 'Properties' });
    await sheet.waitFor();
    await sheet.getByRole('button', { name: 'Close' }).click();
    await sheet.waitFor({ state: 'detached' });
  });

  it('a toast appears in a polite region, its action calls back and dismisses it, and Dismiss removes one', async () => {
    const page = await openDesign();
    const region = page.getByRole('region', { name: 'Notifications' });
    assert.equal(await region.locator('[aria-live="polite"]').count(), 1);
    await page.getByRole('button', { name: 'With undo' }).click();
    const undoToast = region.getByRole('listitem').filter({ hasText: 'Status changed to Done' });
    await undoToast.waitFor();
    await undoToast.getByRole('button', { name: 'Undo' }).click();
    await undoToast.waitFor({ state: 'detached' });
    await page.getByText('Undone 1 times').waitFor();

    await page.getByRole('button', { name: 'Error', exact: true }).click();
    const errorToast = region.getByRole('listitem').filter({ hasText: 'Could not save' });
    await errorToast.getByRole('button', { name: 'Dismiss' }).click();
    await errorToast.waitFor({ state: 'detached' });

    // Left alone, a toast goes by itself.
    await page.getByRole('button', { name: 'Success', exact: true }).click();
    const done = region.getByRole('listitem').filter({ hasText: 'Issue created' });
    await done.waitFor();
    await page.mouse.move(0, 0);
    await done.waitFor({ state: 'detached', timeout: 20_000 });
  });

  it('the user menu switches the theme, kept over a reload; the company switcher moves to the other company', async () => {
    const acme = await board.api('POST', '/api/companies', { name: 'Acme', brandColor: '#0f766e' });
    const globex = await board.api('POST', '/api/companies', { name: 'Globex' });
    const page = await board.signedInPage();
    await page.goto(`/c/${acme.id}/dashboard`);
    const account = page.getByRole('button', { name: /Account menu/ });
    await account.click();
    await page.getByRole('menuitemradio', { name: 'Dark' }).click();
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
    await page.reload();
    await account.waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
    await account.click();
    assert.equal(await page.getByRole('menuitemradio', { name: 'Dark' }).getAttribute('aria-checked'), 'true');
    await page.getByRole('menuitemradio', { name: 'System' }).click();
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), undefined);

    // The shortcut sheet opens from the menu too.
    await account.click();
    await page.getByRole('menuitem', { name: /Keyboard shortcuts/ }).click();
    const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await sheet.waitFor();
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'detached' });

    const switcher = page.getByRole('combobox', { name: 'Company' });
    assert.match((await switcher.textContent()) ?? '', /Acme/);
    await switcher.click();
    await page.getByRole('option', { name: 'Acme' }).waitFor();
    await checkAccessibility(page, 'the company switcher open');
    await screenshot(page, 'company-switcher');
    await page.keyboard.type('glo');
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/c/${globex.id}/dashboard$`));
    // The address changes before the page renders the new company: wait for the switcher to follow.
    await switcher.filter({ hasText: 'Globex' }).waitFor();

    // At 390 px the switcher and the user menu move into the tab bar's More sheet, without widening
    // the page (test/ui/narrow.test.ts walks every page and the sheet itself).
    const narrow = await board.signedInPage({ width: 390, height: 844 });
    await narrow.goto(`/c/${acme.id}/dashboard`);
    await narrow.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'More' }).click();
    await narrow
      .getByRole('dialog', { name: 'More' })
      .getByRole('button', { name: /Account menu/ })
      .waitFor();
    const width = await narrow.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `the company frame is ${width} px wide at 390 px`);
  });
});
