// Labels in a real browser: the issue page's Labels picker creates a label by typing its name, applies
// and removes labels (stored through the API), the issues list shows them as chips and filters by one
// through the Label chip's searchable picker (names, never ids), in light and dark, and at 390 px
// nothing scrolls sideways.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { checkAccessibility, screenshot, startBoard } from '../helpers/browser.ts';
import { waitFor } from '../helpers/wait.ts';

const board = await startBoard();

const company = await board.api('POST', '/api/companies', { name: 'Label Co' });
const docs = await board.api('POST', `/api/companies/${company.id}/labels`, { name: 'Docs', color: 'info' });
const login = await board.api('POST', `/api/companies/${company.id}/issues`, { title: 'Fix the login redirect' });
const guide = await board.api('POST', `/api/companies/${company.id}/issues`, {
  title: 'Write the setup guide',
  labelIds: [docs.id],
});

const stored = async (issueId: string): Promise<string[]> =>
  (await board.api('GET', `/api/issues/${issueId}`)).labelIds;

/** Sideways overflow of the document and of the page scroller, in px past the viewport. */
const sideways = (page: Page) =>
  page.evaluate(() =>
    Math.max(
      document.documentElement.scrollWidth - window.innerWidth,
      (document.getElementById('main')?.scrollWidth ?? 0) - (document.getElementById('main')?.clientWidth ?? 0),
    ),
  );

const labelsButton = (page: Page) =>
  page.getByRole('complementary', { name: 'Properties' }).getByRole('button', { name: /^Labels/ });

describe('labels', () => {
  it('the issue page creates a label from its picker, applies and removes labels', async () => {
    const page = await board.signedInPage();
    await page.goto(`/c/${company.id}/issues/${login.identifier}`);
    await page.getByRole('heading', { level: 1, name: 'Fix the login redirect' }).waitFor();
    assert.match(await labelsButton(page).innerText(), /None/);

    await labelsButton(page).click();
    const search = page.getByRole('combobox', { name: 'Find or create a label' });
    await search.fill('Regression');
    await page.getByRole('option', { name: 'Create label “Regression”' }).click();
    await waitFor('the new label stored on the issue', async () => {
      const labels = await board.api<any[]>('GET', `/api/companies/${company.id}/labels`);
      const regression = labels.find((label) => label.name === 'Regression');
      return regression && (await stored(login.id)).includes(regression.id) && regression;
    });
    // The picker stays open with the new label chosen; an existing one is applied by a click.
    await page.getByRole('option', { name: /^Regression selected$/ }).waitFor();
    await search.fill('');
    await page.getByRole('option', { name: /^Docs$/ }).click();
    await waitFor('Docs applied', async () => (await stored(login.id)).includes(docs.id));
    await page.getByRole('option', { name: /^Docs selected$/ }).waitFor();
    await checkAccessibility(page, 'the issue page with the label picker open');
    await screenshot(page, 'issue-labels');

    // A second click removes it; a name the company has (whatever its case) offers no create.
    await page.getByRole('option', { name: /^Docs selected$/ }).click();
    await waitFor('Docs removed', async () => !(await stored(login.id)).includes(docs.id));
    await search.fill('regression');
    await page.getByRole('option', { name: /^Regression selected$/ }).waitFor();
    assert.equal(await page.getByRole('option', { name: /Create label/ }).count(), 0);
    await page.keyboard.press('Escape');
    await labelsButton(page).getByText('Regression').waitFor();
    assert.doesNotMatch(await labelsButton(page).innerText(), /Docs/);

    // The change is in the timeline, and the page passes axe in dark too.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'dark'));
    await checkAccessibility(page, 'the issue page with labels, dark');
    await page.close();
  });

  it('the issues list shows label chips and filters by a label picked by name', async () => {
    const regression = (await board.api<any[]>('GET', `/api/companies/${company.id}/labels`)).find(
      (label) => label.name === 'Regression',
    );
    assert.ok(regression, 'the first test created Regression');
    const page = await board.signedInPage();
    await page.goto(`/c/${company.id}/issues`);
    const row = (issueId: string) => page.locator(`[role="grid"] [data-issue-id="${issueId}"]`);
    await row(login.id).getByText('Regression').waitFor();
    await row(guide.id).getByText('Docs').waitFor();

    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await page.getByRole('option', { name: 'Label', exact: true }).click();
    await page.getByRole('combobox', { name: 'Label values' }).fill('regr');
    assert.equal(await page.getByRole('option', { name: 'Docs' }).count(), 0, 'the search narrows the names');
    await page.getByRole('option', { name: 'Regression', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('label') === regression.id);
    const chip = page.getByRole('group', { name: 'Filters' }).getByRole('button', { name: 'Label: Regression' });
    await chip.waitFor();
    await waitFor('only the labelled issue listed', async () => (await row(guide.id).count()) === 0);
    await row(login.id).waitFor();
    assert.equal(await page.getByPlaceholder(/UUID/).count(), 0, 'no free-text id field');
    await checkAccessibility(page, 'the issues list filtered by a label');
    await screenshot(page, 'issues-label-filter');

    // The chip reopens its picker: another label replaces the first.
    await chip.click();
    await page.getByRole('option', { name: 'Docs', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('label') === docs.id);
    await row(guide.id).waitFor();
    await waitFor('the other issue gone', async () => (await row(login.id).count()) === 0);

    await page.emulateMedia({ colorScheme: 'dark' });
    await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'dark'));
    await checkAccessibility(page, 'the issues list filtered by a label, dark');
    await page.close();
  });

  it('at 390 px the issue page and the filtered list do not scroll sideways', async () => {
    const page = await board.signedInPage({ width: 390, height: 844 });
    await page.goto(`/c/${company.id}/issues/${login.identifier}`);
    await labelsButton(page).getByText('Regression').waitFor();
    await labelsButton(page).click();
    await page.getByRole('combobox', { name: 'Find or create a label' }).waitFor();
    assert.ok((await sideways(page)) <= 0, `the issue page is ${await sideways(page)} px too wide`);
    await checkAccessibility(page, 'the issue page labels at 390 px');
    await page.keyboard.press('Escape');

    await page.goto(`/c/${company.id}/issues?label=${docs.id}`);
    await page.getByRole('group', { name: 'Filters' }).getByRole('button', { name: 'Label: Docs' }).waitFor();
    await page.locator(`[data-issue-id="${guide.id}"]`).waitFor();
    assert.ok((await sideways(page)) <= 0, `the list is ${await sideways(page)} px too wide`);
    await checkAccessibility(page, 'the issues list with a label filter at 390 px');
    await page.close();
  });
});
