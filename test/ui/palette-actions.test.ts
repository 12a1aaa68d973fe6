// The palette's actions in context, by keyboard only (Ctrl+K, typing, arrows, Enter, Escape): on an
// issue "Set status…" and "Assign to…" open a second step and change the issue (checked through the
// API), a refused change says the server's reason in an error toast, Escape in a step goes back; on an
// agent its lifecycle actions (pause, resume, wake); on an open approval Approve and Reject, after
// which the approval and the approvals list say "Approved by you". axe light and dark, screenshots.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { checkAccessibility, screenshot, startBoard } from '../helpers/browser.ts';
import { waitFor } from '../helpers/wait.ts';

const board = await startBoard();
let C: string;
let dev: { id: string };
let issue: { id: string; identifier: string };

before(async () => {
  C = (await board.api('POST', '/api/companies', { name: 'Palette Works' })).id;
  dev = await board.api('POST', `/api/companies/${C}/agents`, {
    name: 'Dev',
    role: 'engineer',
    adapterType: 'process',
    // A wake runs a process that ends at once.
    adapterConfig: { command: process.execPath, args: ['-e', ''] },
  });
  issue = await board.api('POST', `/api/companies/${C}/issues`, { title: 'Tidy the release notes', status: 'todo' });
});

const palette = (page: Page) => page.getByRole('dialog', { name: 'Command palette' });
const input = (page: Page) => palette(page).getByRole('combobox');
/** The option cmdk has selected: what Enter picks. */
const selected = (page: Page) => palette(page).locator('[cmdk-item][data-selected="true"]');
const toastWith = (page: Page, text: string | RegExp) =>
  page.getByRole('region', { name: 'Notifications' }).getByRole('listitem').filter({ hasText: text });

async function openPalette(page: Page): Promise<void> {
  await page.keyboard.press('Control+k');
  await input(page).waitFor();
}

/** Types into the palette and presses Enter once the option wanted is the selected one. */
async function choose(page: Page, typed: string, option: RegExp): Promise<void> {
  await page.keyboard.type(typed);
  await waitFor(`"${option}" selected`, async () => option.test((await selected(page).textContent()) ?? ''), 20_000);
  await page.keyboard.press('Enter');
}

describe('palette actions', () => {
  it('on an issue: set status and assignee in two steps, a refusal in words, Escape goes back', async () => {
    const page = await board.signedInPage({ width: 1440, height: 900 });
    await page.goto(`/c/${C}/issues/${issue.identifier}`);
    await page.getByRole('heading', { level: 1, name: 'Tidy the release notes' }).waitFor();

    // Nothing typed: the page's actions come first, in an "Actions" group.
    await openPalette(page);
    const actions = palette(page).getByRole('group', { name: 'Actions' });
    await actions.getByRole('option', { name: /Set status/ }).waitFor();
    await waitFor('"Set status…" selected', async () => /Set status/.test((await selected(page).textContent()) ?? ''));
    await screenshot(page, 'palette-actions');
    await checkAccessibility(page, 'the palette with actions (light)');
    await page.emulateMedia({ colorScheme: 'dark' });
    await checkAccessibility(page, 'the palette with actions (dark)');
    await page.emulateMedia({ colorScheme: 'light' });

    // Enter opens the statuses; Escape goes back to the first step, a second Escape closes.
    await page.keyboard.press('Enter');
    await palette(page).getByRole('option', { name: 'In review' }).waitFor();
    assert.equal(await palette(page).getByRole('option', { name: 'Todo', exact: true }).count(), 0, 'not its status');
    await page.keyboard.press('Escape');
    await actions.getByRole('option', { name: /Assign to/ }).waitFor();
    // Backspace in an empty step goes back too (once the first step has its selection again).
    await waitFor('"Set status…" selected again', async () =>
      /Set status/.test((await selected(page).textContent()) ?? ''),
    );
    await page.keyboard.press('Enter');
    await palette(page).getByRole('option', { name: 'In review' }).waitFor();
    await page.keyboard.press('Backspace');
    await actions.getByRole('option', { name: /Assign to/ }).waitFor();
    await page.keyboard.press('Escape');
    await palette(page).waitFor({ state: 'hidden' });

    // Set status… → "review" → Enter: moved, said, and the API agrees.
    await openPalette(page);
    await choose(page, 'status', /Set status/);
    await choose(page, 'review', /In review/);
    await toastWith(page, `${issue.identifier} is now In review`).waitFor({ timeout: 20_000 });
    await waitFor(
      'the issue in review',
      async () => (await board.api('GET', `/api/issues/${issue.id}`)).status === 'in_review',
      20_000,
    );
    // Undo (the toast's button) moves it back.
    await toastWith(page, `${issue.identifier} is now In review`).getByRole('button', { name: 'Undo' }).click();
    await waitFor(
      'the issue back to todo',
      async () => (await board.api('GET', `/api/issues/${issue.id}`)).status === 'todo',
      20_000,
    );

    // In progress goes only through a checkout: the server refuses, the toast says why.
    await openPalette(page);
    await choose(page, 'status', /Set status/);
    await choose(page, 'in progress', /In progress/);
    const refused = toastWith(page, `${issue.identifier} was not moved to In progress`);
    await refused.waitFor({ timeout: 20_000 });
    assert.match(await refused.innerText(), /checkout/i, 'the server reason is in the toast');
    assert.equal((await board.api('GET', `/api/issues/${issue.id}`)).status, 'todo');

    // Assign to… → Dev, then Assign to… → No one.
    await openPalette(page);
    await choose(page, 'assign', /Assign to/);
    await choose(page, 'dev', /Dev/);
    await toastWith(page, `${issue.identifier} assigned to Dev`).waitFor({ timeout: 20_000 });
    await waitFor(
      'Dev assigned',
      async () => (await board.api('GET', `/api/issues/${issue.id}`)).assigneeAgentId === dev.id,
      20_000,
    );
    await openPalette(page);
    await choose(page, 'assign', /Assign to/);
    await choose(page, 'no one', /No one/);
    await toastWith(page, `${issue.identifier} unassigned`).waitFor({ timeout: 20_000 });
    await waitFor(
      'nobody assigned',
      async () => (await board.api('GET', `/api/issues/${issue.id}`)).assigneeAgentId === null,
      20_000,
    );
  });

  it('on an agent: pause, resume and wake, whichever its status allows', async () => {
    const page = await board.signedInPage({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`/c/${C}/agents/${dev.id}`);
    await page.getByRole('heading', { level: 1, name: 'Dev' }).waitFor();

    await openPalette(page);
    await palette(page).getByRole('option', { name: 'Pause Dev' }).waitFor();
    assert.equal(await palette(page).getByRole('option', { name: 'Resume Dev' }).count(), 0);
    await screenshot(page, 'palette-actions-narrow-dark');
    await checkAccessibility(page, 'the palette on an agent (dark, 390 px)');
    await choose(page, 'pause', /Pause Dev/);
    await toastWith(page, 'Dev paused').waitFor({ timeout: 20_000 });
    await waitFor(
      'Dev paused',
      async () => (await board.api('GET', `/api/agents/${dev.id}`)).status === 'paused',
      20_000,
    );

    // Paused: Resume is offered, Pause and Wake are not.
    await openPalette(page);
    await palette(page).getByRole('option', { name: 'Resume Dev' }).waitFor({ timeout: 20_000 });
    assert.equal(await palette(page).getByRole('option', { name: 'Pause Dev' }).count(), 0);
    assert.equal(await palette(page).getByRole('option', { name: 'Wake Dev' }).count(), 0);
    await choose(page, 'resume', /Resume Dev/);
    await toastWith(page, 'Dev resumed').waitFor({ timeout: 20_000 });
    await waitFor(
      'Dev resumed',
      async () => (await board.api('GET', `/api/agents/${dev.id}`)).status !== 'paused',
      20_000,
    );

    await openPalette(page);
    await palette(page).getByRole('option', { name: 'Wake Dev' }).waitFor({ timeout: 20_000 });
    await choose(page, 'wake', /Wake Dev/);
    await toastWith(page, 'Dev woken').waitFor({ timeout: 20_000 });
    // The wake's own run (Dev may also run for the issue assigned to it earlier, once resumed).
    await waitFor(
      "the run Dev's wake asked for",
      async () =>
        (await board.api<any[]>('GET', `/api/companies/${C}/heartbeat-runs?agentId=${dev.id}`)).some(
          (run) => run.invocationSource === 'on_demand',
        ),
      30_000,
    );
  });

  it('on an approval: Approve and Reject, then "Approved by you" on the page and in the list', async () => {
    const file = (title: string) =>
      board.api('POST', `/api/companies/${C}/approvals`, {
        type: 'request_board_approval',
        payload: { title, summary: 'A decision for the board.' },
      });
    const lease = await file('Sign the office lease');
    const offsite = await file('Book the offsite');
    const page = await board.signedInPage({ width: 1440, height: 900 });

    await page.goto(`/c/${C}/approvals/${lease.id}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await openPalette(page);
    await palette(page).getByRole('option', { name: 'Approve' }).waitFor({ timeout: 20_000 });
    await choose(page, 'approve', /Approve/);
    await toastWith(page, /approved/).waitFor({ timeout: 20_000 });
    await waitFor(
      'the lease approved',
      async () => (await board.api('GET', `/api/approvals/${lease.id}`)).status === 'approved',
      20_000,
    );
    await page.getByText('Approved by you').waitFor({ timeout: 20_000 });

    // Decided: the palette offers no decision on it any more.
    await openPalette(page);
    await palette(page)
      .getByRole('option', { name: /Create issue/ })
      .waitFor();
    assert.equal(await palette(page).getByRole('option', { name: 'Approve' }).count(), 0);
    await page.keyboard.press('Escape');

    await page.goto(`/c/${C}/approvals/${offsite.id}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await openPalette(page);
    await choose(page, 'reject', /Reject/);
    await toastWith(page, /rejected/).waitFor({ timeout: 20_000 });
    await waitFor(
      'the offsite rejected',
      async () => (await board.api('GET', `/api/approvals/${offsite.id}`)).status === 'rejected',
      20_000,
    );
    await page.getByText('Rejected by you').waitFor({ timeout: 20_000 });

    // The approvals list says who decided, when, with a link to the approval.
    await page.goto(`/c/${C}/approvals?status=approved`);
    const row = page.getByRole('listitem').filter({ hasText: 'Sign the office lease' });
    await row.getByText('Approved by you').waitFor({ timeout: 20_000 });
    await row.locator('.decided-line time').waitFor();
    assert.equal(
      await row.getByRole('link', { name: 'open the approval' }).getAttribute('href'),
      `/c/${C}/approvals/${lease.id}`,
    );
    await checkAccessibility(page, 'the approved approvals');
  });
});
