// Live changes that concern the viewer, said as toasts: on an issue page, a run of that issue finishing
// ("Dev's run on X-1 succeeded", with a button to the run's page) and a status change by another actor
// (an agent, through its own key); the viewer's own change raises none; a burst of changes is said in
// one toast ("5 changes on X-1"), never more than a few at once. axe, light and dark, screenshots.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { checkAccessibility, screenshot, startBoard } from '../helpers/browser.ts';

const board = await startBoard();
let C: string;
let dev: { id: string };
let breaker: { id: string };
let devKey: string;

before(async () => {
  C = (await board.api('POST', '/api/companies', { name: 'Toast Works' })).id;
  const agent = (name: string, code: string) =>
    board.api('POST', `/api/companies/${C}/agents`, {
      name,
      role: 'engineer',
      adapterType: 'process',
      adapterConfig: { command: process.execPath, args: ['-e', code], timeoutSec: 60 },
    });
  dev = await agent('Dev', "console.log('done')");
  breaker = await agent('Breaker', "console.error('disk full'); process.exit(3)");
  devKey = (await board.api('POST', `/api/agents/${dev.id}/keys`, { name: 'toasts' })).token;
});

/** A change made by the agent Dev, through its own key: another actor than the viewer. */
async function asDev(method: string, url: string, body: unknown): Promise<void> {
  const res = await fetch(`${board.baseUrl}${url}`, {
    method,
    headers: { authorization: `Bearer ${devKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.ok(res.ok, `${method} ${url}: ${res.status} ${await res.text()}`);
}

const toasts = (page: Page) => page.getByRole('region', { name: 'Notifications' }).getByRole('listitem');
const toastWith = (page: Page, text: string | RegExp) => toasts(page).filter({ hasText: text });

async function openIssue(page: Page, title: string) {
  const issue = await board.api('POST', `/api/companies/${C}/issues`, { title, status: 'todo' });
  await page.goto(`/c/${C}/issues/${issue.identifier}`);
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
  // The stream is open: what happens next reaches the page live (at 390 px the sign is in the hidden sidebar).
  await page.getByText('Live', { exact: true }).waitFor({ state: 'attached', timeout: 20_000 });
  return issue as { id: string; identifier: string };
}

describe('live toasts', () => {
  it("a run of the issue on show finishing raises a toast leading to the run's page", async () => {
    const page = await board.signedInPage({ width: 1440, height: 900 });
    const issue = await openIssue(page, 'Ship the toasts');

    await board.api('POST', `/api/agents/${dev.id}/wakeup`, { reason: 'ship it', payload: { issueId: issue.id } });
    const done = toastWith(page, `Dev's run on ${issue.identifier} succeeded`);
    await done.waitFor({ timeout: 30_000 });
    await screenshot(page, 'live-toast');
    await checkAccessibility(page, 'a live toast (light)');
    const runs = await board.api<any[]>('GET', `/api/companies/${C}/heartbeat-runs?agentId=${dev.id}`);
    await done.getByRole('button', { name: 'Open run' }).click();
    await page.waitForURL(new RegExp(`/c/${C}/runs/${runs[0].runId}$`));

    // A failure says so, with why.
    await page.goto(`/c/${C}/issues/${issue.identifier}`);
    await page.getByRole('heading', { level: 1, name: 'Ship the toasts' }).waitFor();
    await page.getByText('Live', { exact: true }).waitFor({ timeout: 20_000 });
    await board.api('POST', `/api/agents/${breaker.id}/wakeup`, { reason: 'break', payload: { issueId: issue.id } });
    await toastWith(page, new RegExp(`Breaker's run on ${issue.identifier} failed`)).waitFor({ timeout: 30_000 });
  });

  it("a change by another actor raises a toast; the viewer's own does not", async () => {
    const page = await board.signedInPage({ width: 1440, height: 900 });
    const issue = await openIssue(page, 'Watch the status');

    // The viewer's own change (the owner's key is the signed-in user), then the agent's.
    await board.api('PATCH', `/api/issues/${issue.id}`, { status: 'blocked' });
    await asDev('PATCH', `/api/issues/${issue.id}`, { status: 'in_review' });
    await toastWith(page, `${issue.identifier} moved to In review by Dev`).waitFor({ timeout: 30_000 });
    // Entries come in order: the agent's was said, so the viewer's own had been heard, and said nothing.
    assert.equal(await toastWith(page, /moved to Blocked/).count(), 0, 'no toast for the viewer’s own change');
  });

  it('a burst of changes is said in one toast, never more than a few at once', async () => {
    const page = await board.signedInPage({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: 'dark' });
    const issue = await openIssue(page, 'Busy issue');
    for (const status of ['blocked', 'in_review', 'todo', 'blocked', 'in_review'])
      await asDev('PATCH', `/api/issues/${issue.id}`, { status });
    await toastWith(page, new RegExp(`\\d changes on ${issue.identifier}`))
      .first()
      .waitFor({ timeout: 30_000 });
    assert.ok((await toasts(page).count()) <= 3, `${await toasts(page).count()} toasts at once`);
    await screenshot(page, 'live-toast-narrow-dark');
    await checkAccessibility(page, 'a collapsed live toast (dark, 390 px)');
  });
});
