// The issues page in a real browser: creating (API and dialog), filters kept in the address, keyset
// pages loaded by scrolling, live rows, the board's refused drag (the server's reason shown inline,
// the card back in its column), a keyboard move, and a session ending while the page is open.
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
    await dialog.getByLabel('Priority').selectOption('high');
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
    const list = page.getByRole('list', { name: 'Issues' });
    await list.locator('[data-issue-id]').first().waitFor();
    assert.ok((await rendered(page)) < 80, `only the rows on screen are in the DOM (${await rendered(page)})`);
    assert.equal(pageRequests.filter((url) => url.includes('cursor=')).length, 0, 'one page at first');

    // Scroll to the end until the oldest issue (the last row) is there: that takes the next pages.
    const scroller = page.locator('.issue-list');
    await waitFor('the last issue is reached by scrolling', async () => {
      await scroller.evaluate((el) => el.scrollTo(0, el.scrollHeight));
      return (await page.locator(`[data-issue-id="${oldest.id}"]`).count()) === 1;
    });
    assert.ok(
      pageRequests.some((url) => url.includes('cursor=')),
      'a later page was fetched with a cursor',
    );
    // The keyboard walks the rows: ArrowUp from the last row focuses the one above it.
    const lastRow = page.locator('[data-issue-id]').last();
    const lastId = await lastRow.getAttribute('data-issue-id');
    await lastRow.locator('a').focus();
    await page.keyboard.press('ArrowUp');
    const focusedId = await page.evaluate(() =>
      document.activeElement?.closest('[data-issue-id]')?.getAttribute('data-issue-id'),
    );
    assert.ok(focusedId && focusedId !== lastId, 'ArrowUp moved the focus to another row');
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
    await page.getByLabel('Status').selectOption('blocked');
    await page.getByLabel('Project').selectOption(project.id);
    await page.getByLabel('Goal').selectOption(goal.id);
    await page.getByLabel('Group by').selectOption('status');
    await page.getByLabel('Search').fill('hero');
    await page.waitForURL((url) => url.searchParams.get('q') === 'hero');
    await waitFor('only the matching issue is listed', async () => (await rendered(page)) === 1);

    await page.reload();
    await page.locator(`[data-issue-id="${match.id}"]`).waitFor();
    assert.equal(await rendered(page), 1);
    assert.equal(await page.getByLabel('Status').inputValue(), 'blocked');
    assert.equal(await page.getByLabel('Project').inputValue(), project.id);
    assert.equal(await page.getByLabel('Goal').inputValue(), goal.id);
    assert.equal(await page.getByLabel('Group by').inputValue(), 'status');
    assert.equal(await page.getByLabel('Search').inputValue(), 'hero');
    await page.getByRole('heading', { name: /^Blocked/ }).waitFor();
    const url = new URL(page.url());
    assert.deepEqual(Object.fromEntries(url.searchParams), {
      status: 'blocked',
      project: project.id,
      goal: goal.id,
      group: 'status',
      q: 'hero',
    });

    // Filters matching nothing say so, and offer to clear them.
    await page.getByLabel('Search').fill('nothing like this');
    await page.getByRole('heading', { name: 'No issues match these filters' }).waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await waitFor('every issue again', async () => (await rendered(page)) === 3);
    // `me`: the signed-in board user, who has nothing assigned here.
    await page.getByLabel('Assignee').selectOption('me');
    await page.waitForURL((url) => url.searchParams.get('assignee') === 'me');
    await page.getByRole('heading', { name: 'No issues match these filters' }).waitFor();
    await page.getByLabel('Assignee').selectOption('');
    await waitFor('every issue again, without the assignee filter', async () => (await rendered(page)) === 3);
    await page.getByLabel('Group by').selectOption('none');
    await checkAccessibility(page, 'the issues list');

    // A link naming a project that is not there (deleted, or another company's): the select says so
    // rather than "Any" over a list it filters.
    await page.goto(`/c/${company.id}/issues?project=${randomUUID()}`);
    await page.getByRole('heading', { name: 'No issues match these filters' }).waitFor();
    // The option reads 'Loading…' until the projects list answers, which may come after the issues.
    await waitFor(
      "the project select saying 'Unknown project'",
      async () => (await page.getByLabel('Project').locator('option:checked').textContent()) === 'Unknown project',
    );
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
      const shipping = page.getByRole('listitem').filter({ hasText: 'Ship the pricing page' });
      await shipping.getByRole('img', { name: 'Blocked' }).waitFor();
      await shipping.getByRole('img', { name: 'Critical priority' }).waitFor();
      assert.ok(await shipping.getByText('Ship the pricing page').isVisible(), `the title shows at ${width} px`);
      const changelog = page.getByRole('listitem').filter({ hasText: 'Write the changelog' });
      await changelog.getByRole('img', { name: 'Todo' }).waitFor();
      await changelog.getByRole('img', { name: 'Low priority' }).waitFor();
      if (width === 1440) {
        await changelog.getByRole('img', { name: 'Dev' }).waitFor();
        // The relative time is whole, not cut off: its box is as wide as its text.
        const time = changelog.locator('time');
        assert.match((await time.textContent()) ?? '', /ago|now/);
        assert.ok(await time.evaluate((el) => el.scrollWidth <= el.clientWidth), 'the time is not cut off');
      }
      const text = (await page.getByRole('list', { name: 'Issues' }).textContent()) ?? '';
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
      await checkAccessibility(page, `the issues list with icons at ${width} px, dark`);
      await screenshot(page, `${name}-dark`);
      await page.close();
    }
  });

  it('the board refuses a drag the SPEC forbids with the server reason next to the card, and moves a card by keyboard', async () => {
    const company = await newCompany('Board Co');
    const card = await newIssue(company.id, { title: 'Draft the pricing page', status: 'todo' });
    await newIssue(company.id, { title: 'Collect customer quotes', status: 'backlog' });
    await newIssue(company.id, { title: 'Ship the changelog', status: 'done' });

    const page = await board.signedInPage();
    await page.goto(`/c/${company.id}/issues`);
    await page.getByRole('button', { name: 'Board' }).click();
    await page.waitForURL((url) => url.searchParams.get('view') === 'board');
    const column = (name: string) => page.getByRole('region', { name, exact: true });
    const inTodo = column('Todo').locator(`[data-issue-id="${card.id}"]`);
    await inTodo.waitFor();

    // in_progress is reached only through checkout: the server answers 422 and the card comes back.
    await inTodo.dragTo(column('In progress'));
    const reason = inTodo.getByRole('alert');
    await reason.waitFor();
    assert.match(await reason.innerText(), /Not moved to In progress:.*in_progress requires a checkout/s);
    await inTodo.waitFor();
    assert.equal(await column('In progress').locator('[data-issue-id]').count(), 0);
    assert.equal((await board.api('GET', `/api/issues/${card.id}`)).status, 'todo');
    await checkAccessibility(page, 'the issues board with a refused move');
    await screenshot(page, 'issues-board');

    // By keyboard: the card's "Move to…" menu, arrows, Enter. The card lands in In review with the focus.
    await inTodo.getByRole('button', { name: `Move ${card.identifier} to…` }).focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await menu.waitFor();
    await menu.getByRole('menuitem', { name: 'In review' }).focus();
    await page.keyboard.press('Enter');
    const inReview = column('In review').locator(`[data-issue-id="${card.id}"]`);
    await inReview.waitFor();
    await waitFor(
      'the move is saved',
      async () => (await board.api('GET', `/api/issues/${card.id}`)).status === 'in_review',
    );
    await waitFor('the moved card keeps the focus', () =>
      page.evaluate(
        (id) => document.activeElement?.closest('[data-issue-id]')?.getAttribute('data-issue-id') === id,
        card.id,
      ),
    );
    assert.equal(await inTodo.count(), 0);
    assert.equal(await page.getByRole('alert').count(), 0, 'the refusal is gone once a move succeeds');

    // A drag the SPEC allows (any status to done) moves the card and saves it.
    await inReview.dragTo(column('Done'));
    await column('Done').locator(`[data-issue-id="${card.id}"]`).waitFor();
    await waitFor(
      'the drag is saved',
      async () => (await board.api('GET', `/api/issues/${card.id}`)).status === 'done',
    );
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
      .getByLabel('Status')
      .selectOption('done', { timeout: 20_000 })
      .catch(() => undefined);
    await page.waitForURL(/\/sign-in/);
    await page.getByRole('heading', { name: 'Sign in to Boardroom' }).waitFor();
  });
});
