// Keyboard reach in a real browser: Ctrl-K opens the command palette with focus in its input, an
// issue found by its identifier opens with Enter, a page by its name, an agent by its name; Escape
// closes; `?` lists the shortcuts; `g` then a key goes to a page; bare keys do nothing while typing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkAccessibility, screenshot, startBoard } from '../helpers/browser.ts';

const board = await startBoard();

describe('command palette and shortcuts', () => {
  it('jumps to an issue, a page and an agent from Ctrl-K', async () => {
    const company = await board.api('POST', '/api/companies', { name: 'Acme Robotics' });
    const C = company.id;
    await board.api('POST', `/api/companies/${C}/agents`, {
      name: 'Scout',
      role: 'engineer',
      title: 'Robotics engineer',
      adapterType: 'process',
      adapterConfig: {},
    });
    const scout = (await board.api('GET', `/api/companies/${C}/agents`))[0];
    for (const title of ['Calibrate the lidar on unit 7', 'Order spare grippers'])
      await board.api('POST', `/api/companies/${C}/issues`, { title });
    const target = await board.api('POST', `/api/companies/${C}/issues`, { title: 'Pick-path planner for aisle 3' });

    const page = await board.signedInPage();
    await page.goto(`/c/${C}/dashboard`);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();

    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    const input = palette.getByRole('combobox', { name: /Search pages, agents, issues/ });
    await input.waitFor();
    assert.ok(await input.evaluate((element) => element === document.activeElement), 'focus is in the palette input');
    await palette.getByRole('option', { name: /Create issue/ }).waitFor();
    await palette.getByRole('option', { name: /Switch company/ }).waitFor();
    await checkAccessibility(page, 'the command palette');
    await screenshot(page, 'command-palette');

    await input.fill(target.identifier);
    await palette.getByRole('option', { name: new RegExp(`${target.identifier} Pick-path planner`) }).waitFor();
    await page.waitForFunction(
      (identifier) => document.querySelector('[cmdk-item][data-selected="true"]')?.textContent?.includes(identifier),
      target.identifier,
    );
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/c/${C}/issues/${target.id}$`));
    await palette.waitFor({ state: 'detached' });

    await page.keyboard.press('Control+k');
    await input.fill('approvals');
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/c/${C}/approvals$`));

    await page.keyboard.press('Control+k');
    await input.fill('Scout');
    await palette.getByRole('option', { name: /Scout/ }).waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/c/${C}/agents/${scout.id}$`));

    await page.keyboard.press('Control+k');
    await input.waitFor();
    await page.keyboard.press('Escape');
    await palette.waitFor({ state: 'detached' });

    // "Create issue" hands over to the create dialog (the issues page's; its form is tested there).
    await page.keyboard.press('Control+k');
    await input.fill('create issue');
    await page.keyboard.press('Enter');
    await palette.waitFor({ state: 'detached' });

    // Switch company: a second page of the palette.
    const other = await board.api('POST', '/api/companies', { name: 'Globex' });
    await page.keyboard.press('Control+k');
    await input.fill('switch');
    await page.keyboard.press('Enter');
    await palette.getByRole('option', { name: 'Globex' }).waitFor();
    await input.fill('Globex');
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/c/${other.id}/dashboard$`));
  });

  it('lists the shortcuts on ?, goes to a page on g then a key, and leaves keys typed into fields alone', async () => {
    const company = await board.api('POST', '/api/companies', { name: 'Initech' });
    const page = await board.signedInPage();
    await page.goto(`/c/${company.id}/dashboard`);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();

    await page.keyboard.press('?');
    const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await sheet.getByRole('cell', { name: 'Open the command palette (⌘K on a Mac)' }).waitFor();
    await sheet.getByRole('cell', { name: 'Create an issue' }).waitFor();
    // The page keys are listed too, not only the global ones.
    await sheet.getByRole('cell', { name: 'On an issue: open its status picker' }).waitFor();
    await checkAccessibility(page, 'the keyboard shortcuts');
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'detached' });

    await page.keyboard.press('g');
    await page.keyboard.press('v');
    await page.waitForURL(/\/activity$/);

    // Typed into a field, `g` `d` is text, not navigation.
    await page.getByRole('combobox', { name: 'Company' }).first().focus();
    await page.keyboard.press('Control+k');
    const input = page.getByRole('combobox', { name: /Search pages, agents, issues/ });
    await input.waitFor();
    await page.keyboard.type('gd');
    assert.equal(await input.inputValue(), 'gd');
    assert.match(page.url(), /\/activity$/);

    // A new company from the palette: onboarding, with a way back.
    await input.fill('new company');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/onboarding$/);
    await page.getByRole('link', { name: 'Back to Initech' }).click();
    await page.waitForURL(new RegExp(`/c/${company.id}/dashboard$`));
  });
  it('ranks an exact name first, then prefixes, and offers the last opened entities when nothing is typed', async () => {
    const company = await board.api('POST', '/api/companies', { name: 'Northwind Labs' });
    const C = company.id;
    const dev = await board.api('POST', `/api/companies/${C}/agents`, {
      name: 'Dev',
      role: 'engineer',
      adapterType: 'process',
      adapterConfig: {},
    });
    const issue = await board.api('POST', `/api/companies/${C}/issues`, { title: 'Set up the dev environment' });
    const page = await board.signedInPage();
    await page.goto(`/c/${C}/dashboard`);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    const input = palette.getByRole('combobox', { name: /Search pages, agents, issues/ });
    const options = () => palette.getByRole('option').allTextContents();

    // Nothing opened yet: no recent items.
    await page.keyboard.press('Control+k');
    await palette.getByRole('option', { name: /Create issue/ }).waitFor();
    assert.equal(await palette.getByRole('group', { name: 'Recent' }).count(), 0);

    // "dev": the agent Dev (exact) above an issue with the word dev above pages matched loosely.
    await input.fill('dev');
    await palette.getByRole('option', { name: /Set up the dev environment/ }).waitFor();
    const ranked = await options();
    const at = (text: string) => ranked.findIndex((option) => option.includes(text));
    assert.equal(at('Dev'), 0, ranked.join(' | '));
    assert.ok(at('Set up the dev environment') > 0, ranked.join(' | '));
    if (at('Instance settings') !== -1) assert.ok(at('Instance settings') > at('Set up the dev environment'));
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/c/${C}/agents/${dev.id}$`));
    // The page shown is the page opened (the address changes a render before; leaving at once
    // would leave before the page was there to remember).
    await page.getByRole('heading', { level: 1, name: 'Dev' }).waitFor();

    // The issue opened by its address, not from the palette: recent too, newest first.
    await page.goto(`/c/${C}/issues/${issue.id}`);
    await page.getByRole('heading', { level: 1, name: 'Set up the dev environment' }).waitFor();
    await page.keyboard.press('Control+k');
    const recent = palette.getByRole('group', { name: 'Recent' });
    await recent.getByRole('option', { name: /Set up the dev environment/ }).waitFor();
    await recent.getByRole('option', { name: /Dev agent/ }).waitFor();
    const listed = await recent.getByRole('option').allTextContents();
    assert.ok(listed[0]?.includes('Set up the dev environment') && listed[1]?.includes('Dev'), listed.join(' | '));
    await checkAccessibility(page, 'the command palette with recent items');
    // On an issue the page's actions come first; the arrows reach the recent items below them.
    const selected = palette.locator('[cmdk-item][data-selected="true"]');
    for (let step = 0; step < 10 && !(await selected.textContent())?.includes('Dev'); step++)
      await page.keyboard.press('ArrowDown');
    assert.match((await selected.textContent()) ?? '', /Dev/);
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/c/${C}/agents/${dev.id}$`));
  });
});
