// The issues page in a real browser: creating (API and dialog), filter chips kept in the address,
// keyset pages loaded by scrolling, live rows, sorting by the column headers, j/k/x and a bulk status
// change, the board's moves by keyboard and by drag (a refused one rolled back with the server's
// reason in a toast), and a session ending while the page is open.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { checkAccessibility, screenshot, startBoard } from '../helpers/browser.ts';
import { waitFor } from '../helpers/wait.ts';

const board = await startBoard();

async function newCompany(name: string) {
  return board.api('POST', '/api/companies', { name });
}

const newIssue = (companyId: string, body: Record<string, unknown>) =>
  board.api('POST', `/api/companies/${companyId}/issues`, body);

/** Rows or cards currently in the DOM. */
const rendered = (page: Page) => page.locator('[data-issue-id]').count();

/** "+ Filter", a field, then its values (a field taking several keeps the list open: Escape closes it). */
async function addFilter(page: Page, field: string, values: string[]) {
  await page.getByRole('button', { name: 'Filter', exact: true }).click();
  await page.getByRole('option', { name: field, exact: true }).click();
  for (const value of values) await page.getByRole('option', { name: value, exact: true }).click();
  if (await page.getByRole('dialog', { name: `Filter by ${field.toLowerCase()}` }).isVisible())
    await page.keyboard.press('Escape');
}

/** Picks an option of a Select (the board's replacement for a native select) named `label`. */
async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** The issue ids of the list's rows, top to bottom, as rendered. */
const rowOrder = (page: Page) =>
  page.locator('[role="grid"] [data-issue-id]').evaluateAll((rows) =>
    rows
      .map((row) => ({ id: row.getAttribute('data-issue-id'), index: Number(row.getAttribute('data-index')) }))
      .sort((a, b) => a.index - b.index)
      .map((row) => row.id),
  );

/** Colour transitions done (axe measures contrast mid-transition otherwise); the live pulse runs on. */
const settled = (page: Page) =>
  waitFor('the colours have settled', () =>
    page.evaluate(() => document.getAnimations().every((animation) => !(animation instanceof CSSTransition))),
  );

/** The issue id of the row or card holding the focus. */
const focusedIssue = (page: Page) =>
  page.evaluate(() => document.activeElement?.closest('[data-issue-id]')?.getAttribute('data-issue-id') ?? null);

describe('issues page', () => {
  it('a company without issues explains how to start; the dialog creates one (title required, errors shown, Ctrl-Enter)', async () => {
    const company = await newCompany('Empty Co');
    const page = await board.signedInPage();
    await page.goto(`/c/${company.id}/issues`);
    await page.getByRole('heading', { name: 'No issues yet' }).waitFor();
    await checkAccessibility(page, 'the empty issues list');

    await page.getByRole('button', { name: 'Create the first issue' }).click();
    const dialog = page.getByRole('dialog', { name: 'New issue' });
    const title = dialog.getByLabel('Title');
    await waitFor('the title field has the focus', () => title.evaluate((el) => el === document.activeElement));
    await page.keyboard.press('Control+Enter');
    await dialog.getByRole('alert').filter({ hasText: 'A title is required.' }).waitFor();

    await title.fill('Write the launch post');
    await dialog.getByLabel('Description').fill('A **600-word** post for Friday.');
    await choose(page, 'Priority', 'High');
    await dialog.getByLabel('Parent issue').fill('NOPE-999');
    await page.keyboard.press('Control+Enter');
    await dialog.getByRole('alert').filter({ hasText: 'The issue was not created' }).waitFor();
    await checkAccessibility(page, 'the create dialog with an error');

    await dialog.getByLabel('Parent issue').fill('');
    await page.keyboard.press('Control+Enter');
    await page.waitForURL(new RegExp(`/c/${company.id}/issues/${company.issuePrefix}-1$`));
    const [created] = await board.api('GET', `/api/companies/${company.id}/issues`);
    assert.equal(created.title, 'Write the launch post');
    assert.equal(created.priority, 'high');
    assert.equal(created.description, 'A **600-word** post for Friday.');

    // Escape closes the dialog without creating anything.
    await page.goto(`/c/${company.id}/issues`);
    await page.getByRole('button', { name: 'New issue' }).click();
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    assert.equal((await board.api('GET', `/api/companies/${company.id}/issues`)).length, 1);
  });

  it('lists issues a page at a time as the reader scrolls, virtualised, and shows new ones live', async () => {
    const company = await newCompany('Many Co');
    // 250 issues, 25 at a time; the first batch's first is among the oldest, so among the last rows (same priority: newest first).
    const created: { id: string; identifier: string }[] = [];
    for (let i = 0; i < 250; i += 25) {
      created.push(
        ...(await Promise.all(
          Array.from({ length: 25 }, (_, j) => newIssue(company.id, { title: `Chore ${i + j + 1}`, status: 'todo' })),
        )),
      );
    }
    const oldest = created[0]!;
    const page = await board.signedInPage();
    const pageRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes(`/api/companies/${company.id}/issues?`)) pageRequests.push(request.url());
    });
    await page.goto(`/c/${company.id}/issues`);
    const list = page.getByRole('grid', { name: 'Issues' });
    await list.locator('[data-issue-id]').first().waitFor();
    assert.ok((await rendered(page)) < 80, `only the rows on screen are in the DOM (${await rendered(page)})`);
    assert.equal(pageRequests.filter((url) => url.includes('cursor=')).length, 0, 'one page at first');

    // Scroll to the end until the oldest issue (the last row) is there: that takes the next pages.
    const scroller = page.locator('.dt-body');
    await waitFor('the last issue is reached by scrolling', async () => {
      await scroller.evaluate((el) => el.scrollTo(0, el.scrollHeight));
      return (await page.locator(`[data-issue-id="${oldest.id}"]`).count()) === 1;
    });
    assert.ok(
      pageRequests.some((url) => url.includes('cursor=')),
      'a later page was fetched with a cursor',
    );
    // The keyboard walks the rows: k (or ArrowUp) from the last row focuses the one above it.
    const lastId = (await rowOrder(page)).at(-1);
    await page.locator(`[data-issue-id="${lastId}"]`).focus();
    await page.keyboard.press('k');
    const focusedId = await focusedIssue(page);
    assert.ok(focusedId && focusedId !== lastId, 'k moved the focus to another row');
    const link = page.locator(`[data-issue-id="${oldest.id}"] a`);
    assert.equal(await link.getAttribute('href'), `/c/${company.id}/issues/${oldest.identifier}`);

    // Live: an issue created elsewhere appears at the top without a reload.
    await scroller.evaluate((el) => el.scrollTo(0, 0));
    const fresh = await newIssue(company.id, { title: 'Arrived while watching', priority: 'critical' });
    await page.locator(`[data-issue-id="${fresh.id}"]`).waitFor({ timeout: 10_000 });
  });

  it('keeps the view, grouping and filters in the address: a reload shows the same', async () => {
    const company = await newCompany('Filter Co');
    const project = await board.api('POST', `/api/companies/${company.id}/projects`, { name: 'Website' });
    const goal = await board.api('POST', `/api/companies/${company.id}/goals`, { title: 'Launch' });
    const match = await newIssue(company.id, {
      title: 'Fix the hero image',
      status: 'blocked',
      projectId: project.id,
      goalId: goal.id,
    });
    await newIssue(company.id, { title: 'Fix the footer', status: 'todo', projectId: project.id });
    await newIssue(company.id, { title: 'Hire a designer', status: 'blocked' });

    const page = await board.signedInPage();
    await page.goto(`/c/${company.id}/issues`);
    await page.locator('[data-issue-id]').first().waitFor();
    assert.equal(await rendered(page), 3);
    await addFilter(page, 'Status', ['Blocked']);
    await page.waitForURL((url) => url.searchParams.get('status') === 'blocked');
    await addFilter(page, 'Project', ['Website']);
    await addFilter(page, 'Goal', ['Launch']);
    await choose(page, 'Group by', 'Status');
    await page.getByLabel('Search').fill('hero');
    await page.waitForURL((url) => url.searchParams.get('q') === 'hero');
    await waitFor('only the matching issue is listed', async () => (await rendered(page)) === 1);

    await page.reload();
    await page.locator(`[data-issue-id="${match.id}"]`).waitFor();
    assert.equal(await rendered(page), 1);
    const chips = page.getByRole('group', { name: 'Filters' });
    await chips.getByRole('button', { name: 'Status: Blocked' }).waitFor();
    await chips.getByRole('button', { name: 'Project: Website' }).waitFor();
    await chips.getByRole('button', { name: 'Goal: Launch' }).waitFor();
    assert.equal(await page.getByRole('combobox', { name: 'Group by' }).innerText(), 'Status');
    assert.equal(await page.getByLabel('Search').inputValue(), 'hero');
    await page
      .getByRole('gridcell', { name: /^Blocked/ })
      .first()
      .waitFor();
    const url = new URL(page.url());
    assert.deepEqual(Object.fromEntries(url.searchParams), {
      status: 'blocked',
      project: project.id,
      goal: goal.id,
      group: 'status',
      q: 'hero',
    });
    // A chip's × removes that filter, from the address too.
    await chips.getByRole('button', { name: 'Remove the goal filter' }).click();
    await page.waitForURL((url) => !url.searchParams.has('goal'));
    assert.equal(await chips.getByRole('button', { name: /^Goal:/ }).count(), 0);
    // A second status widens the filter: both chosen values show on the one chip.
    await chips.getByRole('button', { name: 'Status: Blocked' }).click();
    await page.getByRole('option', { name: 'Todo', exact: true }).click();
    await page.keyboard.press('Escape');
    await page.waitForURL((url) => url.searchParams.get('status') === 'blocked,todo');
    await chips.getByRole('button', { name: 'Status: Blocked, Todo' }).waitFor();

    // Filters matching nothing say so, and offer to clear them.
    await page.getByLabel('Search').fill('nothing like this');
    await page.getByRole('heading', { name: 'No issues match these filters' }).waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await waitFor('every issue again', async () => (await rendered(page)) === 3);
    // `me`: the signed-in board user, who has nothing assigned here.
    await addFilter(page, 'Assignee', ['Me']);
    await page.waitForURL((url) => url.searchParams.get('assignee') === 'me');
    await page.getByRole('heading', { name: 'No issues match these filters' }).waitFor();
    await chips.getByRole('button', { name: 'Remove the assignee filter' }).click();
    await waitFor('every issue again, without the assignee filter', async () => (await rendered(page)) === 3);
    await choose(page, 'Group by', 'No grouping');
    assert.equal(await page.locator('select').count(), 0, 'no native select on the page');
    await checkAccessibility(page, 'the issues list');

    // A link naming a project that is not there (deleted, or another company's): the chip says so
    // rather than showing an id.
    await page.goto(`/c/${company.id}/issues?project=${randomUUID()}`);
    await page.getByRole('heading', { name: 'No issues match these filters' }).waitFor();
    await page
      .getByRole('group', { name: 'Filters' })
      .getByRole('button', { name: 'Project: Unknown project' })
      .waitFor();
    // A link naming a label the company does not have (deleted since): named in words, never an id, removable.
    await page.goto(`/c/${company.id}/issues?label=${randomUUID()}`);
    await page
      .getByRole('group', { name: 'Filters' })
      .getByRole('button', { name: 'Label: A deleted label' })
      .waitFor();
    assert.equal(await page.getByPlaceholder('Label UUID').count(), 0, 'no free-text label id field');
    await page.getByRole('button', { name: 'Remove the label filter' }).click();
    await page.waitForURL((url) => !url.searchParams.has('label'));
  });

  it('sorts by a column header (aria-sort, rows reordered, kept in the address); j/k move, x selects, a bulk status change saves both', async () => {
    const company = await newCompany('Sort Co');
    const b = await newIssue(company.id, { title: 'Banana bread', status: 'todo', priority: 'high' });
    const a = await newIssue(company.id, { title: 'Apple pie', status: 'todo', priority: 'low' });
    const c = await newIssue(company.id, { title: 'Cherry tart', status: 'backlog', priority: 'medium' });
    const page = await board.signedInPage();
    await page.goto(`/c/${company.id}/issues`);
    await page.locator('[data-issue-id]').first().waitFor();
    // The list's own order: priority first.
    assert.deepEqual(await rowOrder(page), [b.id, c.id, a.id]);
    const title = page.getByRole('columnheader', { name: 'Title' });
    assert.equal(await title.getAttribute('aria-sort'), 'none');
    await title.getByRole('button').click();
    await waitFor('sorted by title, A to Z', async () => (await title.getAttribute('aria-sort')) === 'ascending');
    assert.deepEqual(await rowOrder(page), [a.id, b.id, c.id]);
    assert.equal(new URL(page.url()).searchParams.get('sort'), 'title');
    // By keyboard: the header's button takes Enter.
    await title.getByRole('button').focus();
    await page.keyboard.press('Enter');
    await waitFor('sorted by title, Z to A', async () => (await title.getAttribute('aria-sort')) === 'descending');
    assert.deepEqual(await rowOrder(page), [c.id, b.id, a.id]);
    await page.reload();
    await page.locator('[data-issue-id]').first().waitFor();
    assert.equal(await page.getByRole('columnheader', { name: 'Title' }).getAttribute('aria-sort'), 'descending');
    assert.deepEqual(await rowOrder(page), [c.id, b.id, a.id]);

    // j/k move the focused row; x selects it.
    await page.locator(`[data-issue-id="${c.id}"]`).focus();
    await page.keyboard.press('j');
    assert.equal(await focusedIssue(page), b.id);
    await page.keyboard.press('k');
    assert.equal(await focusedIssue(page), c.id);
    await page.keyboard.press('x');
    await page.keyboard.press('j');
    await page.keyboard.press('x');
    const bulk = page.getByRole('region', { name: 'Selected issues' });
    await bulk.getByText('2 selected').waitFor();
    assert.equal(await page.locator('[aria-selected="true"]').count(), 2);
    await checkAccessibility(page, 'the issues list with two selected');
    await screenshot(page, 'issues-bulk');
    await bulk.getByRole('button', { name: 'Set status' }).click();
    await page.getByRole('menuitem', { name: 'Done' }).click();
    await waitFor('both selected issues are done', async () => {
      const [one, two] = await Promise.all([c, b].map((issue) => board.api('GET', `/api/issues/${issue.id}`)));
      return one.status === 'done' && two.status === 'done';
    });
    assert.equal((await board.api('GET', `/api/issues/${a.id}`)).status, 'todo', 'the unselected one is untouched');
    await bulk.waitFor({ state: 'detached' });
    await page.locator(`[data-issue-id="${c.id}"]`).getByText('Done').waitFor();
  });

  it('rows show status, priority and assignee as icons named in words, no ids, in light and dark, wide and narrow', async () => {
    const company = await newCompany('Icons Co');
    const dev = await board.api('POST', `/api/companies/${company.id}/agents`, {
      name: 'Dev',
      role: 'engineer',
      adapterType: 'process',
      adapterConfig: { command: 'true' },
    });
    await newIssue(company.id, { title: 'Ship the pricing page', status: 'blocked', priority: 'critical' });
    await newIssue(company.id, {
      title: 'Write the changelog',
      status: 'todo',
      priority: 'low',
      assigneeAgentId: dev.id,
    });
    await newIssue(company.id, { title: 'Plan the offsite', status: 'backlog', priority: 'medium' });

    for (const width of [1440, 390]) {
      const page = await board.signedInPage({ width, height: 900 });
      await page.goto(`/c/${company.id}/issues`);
      const shipping = page.getByRole('row').filter({ hasText: 'Ship the pricing page' });
      await shipping.getByRole('img', { name: 'Blocked' }).waitFor();
      await shipping.getByRole('img', { name: 'Critical priority' }).waitFor();
      assert.ok(await shipping.getByText('Ship the pricing page').isVisible(), `the title shows at ${width} px`);
      const changelog = page.getByRole('row').filter({ hasText: 'Write the changelog' });
      await changelog.getByRole('img', { name: 'Todo' }).waitFor();
      await changelog.getByRole('img', { name: 'Low priority' }).waitFor();
      if (width === 1440) {
        await changelog.getByRole('img', { name: 'Dev' }).waitFor();
        // The relative time is whole, not cut off: its box is as wide as its text.
        const time = changelog.locator('time');
        assert.match((await time.textContent()) ?? '', /ago|now/);
        assert.ok(await time.evaluate((el) => el.scrollWidth <= el.clientWidth), 'the time is not cut off');
      }
      const text = (await page.getByRole('grid', { name: 'Issues' }).textContent()) ?? '';
      assert.doesNotMatch(text, /[0-9a-f]{8}-[0-9a-f]{4}-/, 'no row shows an id');
      assert.doesNotMatch(text, /\b(backlog|in_progress|critical)\b/, 'no row shows an enum key');
      assert.ok(
        await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
        'nothing scrolls sideways',
      );
      const name = width === 1440 ? 'issues-list' : 'issues-list-narrow';
      await checkAccessibility(page, `the issues list with icons at ${width} px`);
      await screenshot(page, name);
      await page.emulateMedia({ colorScheme: 'dark' });
      await settled(page);
      await checkAccessibility(page, `the issues list with icons at ${width} px, dark`);
      await screenshot(page, `${name}-dark`);
      await page.close();
    }
  });

  it('the board moves a card by keyboard and by drag, and a refused move goes back with the reason in a toast', async () => {
    const company = await newCompany('Board Co');
    const card = await newIssue(company.id, { title: 'Draft the pricing page', status: 'todo' });
    await newIssue(company.id, { title: 'Collect customer quotes', status: 'backlog' });
    await newIssue(company.id, { title: 'Ship the changelog', status: 'done' });

    const page = await board.signedInPage();
    await page.goto(`/c/${company.id}/issues`);
    await page.getByRole('button', { name: 'Board' }).click();
    await page.waitForURL((url) => url.searchParams.get('view') === 'board');
    const column = (name: string) => page.getByRole('region', { name, exact: true });
    const cardIn = (name: string) => column(name).locator(`[data-issue-id="${card.id}"]`);
    await cardIn('Todo').waitFor();
    assert.equal(await page.getByRole('button', { name: /Move .* to…/ }).count(), 0, 'no "Move to…" button per card');
    const status = async () => (await board.api('GET', `/api/issues/${card.id}`)).status;

    // in_progress is reached only through checkout: the server answers 422, the card comes back and a toast says why.
    await cardIn('Todo').dragTo(column('In progress'));
    const refusal = page.getByText(`${card.identifier} not moved to In progress`);
    await refusal.waitFor();
    await page
      .getByRole('region', { name: 'Notifications' })
      .getByRole('listitem')
      .filter({ hasText: /in_progress requires a checkout.*It is back in Todo\./ })
      .waitFor();
    await cardIn('Todo').waitFor();
    assert.equal(await column('In progress').locator('[data-issue-id]').count(), 0);
    assert.equal(await status(), 'todo');
    await checkAccessibility(page, 'the issues board with a refused move');
    await screenshot(page, 'issues-board');

    // A drag the SPEC allows moves the card and saves it.
    await cardIn('Todo').dragTo(column('Backlog'));
    await cardIn('Backlog').waitFor();
    await waitFor('the drag is saved', async () => (await status()) === 'backlog');
    assert.equal(await cardIn('Todo').count(), 0);

    // By keyboard: M on the focused card opens its status menu; the card lands in In review with the focus.
    await cardIn('Backlog').focus();
    await page.keyboard.press('m');
    await page.getByRole('menuitem', { name: 'In review' }).focus();
    await page.keyboard.press('Enter');
    await cardIn('In review').waitFor();
    await waitFor('the keyboard move is saved', async () => (await status()) === 'in_review');
    await waitFor('the moved card keeps the focus', async () => (await focusedIssue(page)) === card.id);
    await page
      .getByRole('status')
      .filter({ hasText: `${card.identifier} moved to In review.` })
      .waitFor();
    // Alt+ArrowRight: the next column.
    await page.keyboard.press('Alt+ArrowRight');
    await cardIn('Done').waitFor();
    await waitFor('the arrow move is saved', async () => (await status()) === 'done');
  });

  it('a session ended while the page is open leads the next fetch to sign-in, not a blank page', async () => {
    const company = await newCompany('Session Co');
    await newIssue(company.id, { title: 'Anything', status: 'todo' });
    const page = await board.signedInPage();
    await page.goto(`/c/${company.id}/issues`);
    await page.locator('[data-issue-id]').first().waitFor();
    const out = await page.context().request.post('/api/auth/logout');
    assert.equal(out.status(), 204);
    // The next fetch is either this filter's, or one the page makes itself (the live stream's first
    // refresh may still be on its way): whichever comes first leads to sign-in and takes the filter away.
    await page
      .getByLabel('Search')
      .fill('anything else', { timeout: 20_000 })
      .catch(() => undefined);
    await page.waitForURL(/\/sign-in/);
    await page.getByRole('heading', { name: 'Sign in to Boardroom' }).waitFor();
  });
});
