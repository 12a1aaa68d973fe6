// The activity page in a real browser: entries as sentences ("Ada Auditor counted AUD-1", "You moved
// AUD-1 to Done") with no JSON and no id in the text; a details drawer in words, opened and closed by
// keyboard; entries of one run under that run's header (linking to the run page); filter chips kept
// in the URL (through a reload); a CSV export of the current filter; new entries live. axe light and
// dark.
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { checkAccessibility, screenshot, startBoard } from '../helpers/browser.ts';
import { tempDir } from '../helpers/server-process.ts';
import { waitFor } from '../helpers/wait.ts';

const board = await startBoard();
const work = await tempDir('boardroom-ui-activity-');
const company = await board.api('POST', '/api/companies', { name: 'Audit Co' });
const C = company.id;
const script = path.join(work, 'ok.mjs');
await writeFile(script, "process.stdout.write('done\\n');\n");
const agent = await board.api('POST', `/api/companies/${C}/agents`, {
  name: 'Ada Auditor',
  role: 'engineer',
  adapterType: 'process',
  adapterConfig: { command: process.execPath, args: [script], timeoutSec: 60 },
});
const issue = await board.api('POST', `/api/companies/${C}/issues`, { title: 'Count the spoons' });
const approval = await board.api('POST', `/api/companies/${C}/approvals`, {
  type: 'request_board_approval',
  requestedByAgentId: agent.id,
  payload: { title: 'Buy more spoons' },
});
await board.api('POST', `/api/agents/${agent.id}/wakeup`, { reason: 'count them', payload: { issueId: issue.id } });
const run = await waitFor(
  'the run finished',
  async () => {
    const runs = await board.api<any[]>('GET', `/api/companies/${C}/heartbeat-runs?agentId=${agent.id}`);
    return runs.find((one) => one.status === 'succeeded');
  },
  60_000,
);
/** An entry by the agent itself (actorType agent) in its run, through the board-only activity route. */
async function agentEntry(action: string, details: Record<string, unknown>) {
  const res = await fetch(`${board.baseUrl}/api/companies/${C}/activity`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${board.ownerToken}`,
      'content-type': 'application/json',
      'x-service-run-id': run.runId,
    },
    body: JSON.stringify({
      actorType: 'agent',
      actorId: agent.id,
      agentId: agent.id,
      action,
      entityType: 'issue',
      entityId: issue.id,
      details,
    }),
  });
  assert.equal(res.status, 201, await res.text());
}
await agentEntry('spoons.counted', { identifier: issue.identifier, title: issue.title, spoons: 12, costCents: 250 });
await agentEntry('spoons.polished', { identifier: issue.identifier, assigneeAgentId: agent.id });
// A status change by the board.
await board.api('PATCH', `/api/issues/${issue.id}`, { status: 'done' });

const feed = (page: Page) => page.getByRole('list', { name: 'Activity entries, newest first' });
const entry = (page: Page, text: string | RegExp) => feed(page).getByRole('listitem').filter({ hasText: text }).last();
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

/** Picks `value` in the "+ Filter" popover's pickers. */
async function addFilter(page: Page, kind: string, value: string) {
  await page.getByRole('button', { name: 'Filter', exact: true }).click();
  const popover = page.getByRole('dialog', { name: 'Add a filter' });
  await popover.getByRole('combobox', { name: 'Filter by' }).click();
  await page.getByRole('option', { name: new RegExp(`^${kind}( selected)?$`) }).click();
  await popover.getByRole('combobox', { name: kind }).click();
  await page.getByRole('option', { name: new RegExp(`^${value}( selected)?$`) }).click();
  await popover.waitFor({ state: 'detached' });
}

describe('activity', () => {
  it('reads as sentences, with a details drawer opened and closed by keyboard and run entries under their run', async () => {
    const page = await board.signedInPage();
    await page.goto(`/c/${C}/activity`);
    const moved = entry(page, `moved ${issue.identifier} to Done`);
    await moved.waitFor();
    assert.match(
      (await moved.locator('.activity-sentence').textContent()) ?? '',
      new RegExp(`^You moved ${issue.identifier} to Done$`),
    );
    const counted = entry(page, `Ada Auditor counted ${issue.identifier}`);
    await counted.waitFor();
    // The subject and the actor are links; no id and no JSON in the page's text.
    assert.equal(
      await counted.getByRole('link', { name: issue.identifier, exact: true }).getAttribute('href'),
      `/c/${C}/issues/${issue.id}`,
    );
    assert.equal(
      await counted.getByRole('link', { name: 'Ada Auditor' }).getAttribute('href'),
      `/c/${C}/agents/${agent.id}`,
    );
    const text = (await page.locator('main').textContent()) ?? '';
    assert.ok(!UUID.test(text) && !text.includes('{"'), text);

    // The agent's entries in its run (and the engine's about it) are under one header that leads to the run page.
    const group = feed(page).getByRole('list', { name: /^Ada Auditor's run: \d+ entries$/ });
    await group.getByText(`Ada Auditor counted ${issue.identifier}`).waitFor();
    await group.getByText(`Ada Auditor polished ${issue.identifier}`).waitFor();
    assert.equal(
      await feed(page).getByRole('link', { name: "Ada Auditor's run" }).first().getAttribute('href'),
      `/c/${C}/runs/${run.runId}`,
    );
    await checkAccessibility(page, 'the activity page');
    await screenshot(page, 'activity');
    await page.emulateMedia({ colorScheme: 'dark' });
    await checkAccessibility(page, 'the activity page, dark');
    await screenshot(page, 'activity-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // The details drawer, by keyboard: in words, ids only as links; Escape closes it and focus returns.
    const details = counted.getByRole('button', { name: `Details: Ada Auditor counted ${issue.identifier}` });
    await details.focus();
    await page.keyboard.press('Enter');
    const drawer = page.getByRole('dialog', { name: `Ada Auditor counted ${issue.identifier}` });
    await drawer.getByText('Spoons', { exact: true }).waitFor();
    await drawer.getByText('12', { exact: true }).waitFor();
    await drawer.getByText('$2.50', { exact: true }).waitFor();
    assert.equal(
      await drawer.getByRole('link', { name: 'Open run' }).getAttribute('href'),
      `/c/${C}/runs/${run.runId}`,
    );
    const drawerText = (await drawer.textContent()) ?? '';
    assert.ok(!UUID.test(drawerText) && !drawerText.includes('{'), drawerText);
    await checkAccessibility(page, 'the details drawer');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
    assert.ok(
      await details.evaluate((button) => button === document.activeElement),
      'focus back on the Details button',
    );

    // The drawer of an id field names the agent and links it.
    await entry(page, `Ada Auditor polished ${issue.identifier}`)
      .getByRole('button', { name: /^Details/ })
      .click();
    const polished = page.getByRole('dialog', { name: `Ada Auditor polished ${issue.identifier}` });
    assert.equal(
      await polished.getByRole('link', { name: 'Ada Auditor' }).last().getAttribute('href'),
      `/c/${C}/agents/${agent.id}`,
    );
    await page.keyboard.press('Escape');
  });

  it('filter chips change the URL and the list, survive a reload, and are removed one by one', async () => {
    const page = await board.signedInPage();
    await page.goto(`/c/${C}/activity`);
    await entry(page, 'asked for Board approval').waitFor();

    await addFilter(page, 'Actor kind', 'Agents');
    await page.waitForURL(/actorType=agent/);
    await waitFor('only agent entries', async () => (await entry(page, 'moved').count()) === 0);
    await entry(page, `Ada Auditor counted ${issue.identifier}`).waitFor();

    await addFilter(page, 'Action', 'Spoons counted');
    await page.waitForURL(/action=spoons.counted/);
    await waitFor('only the counted entry', async () => (await feed(page).locator('.activity-entry').count()) === 1);

    await page.reload();
    await page.getByRole('button', { name: 'Remove filter Actor kind: Agents' }).waitFor();
    await page.getByRole('button', { name: 'Remove filter Action: Spoons counted' }).waitFor();
    await entry(page, `Ada Auditor counted ${issue.identifier}`).waitFor();
    assert.equal(await feed(page).locator('.activity-entry').count(), 1);
    await checkAccessibility(page, 'the activity page, filtered');

    await page.getByRole('button', { name: 'Remove filter Action: Spoons counted' }).click();
    await page.waitForURL((url) => !url.search.includes('action='));
    await entry(page, `Ada Auditor polished ${issue.identifier}`).waitFor();
    await page.getByRole('button', { name: 'Remove filter Actor kind: Agents' }).click();
    await page.waitForURL((url) => url.search === '');
    await entry(page, `moved ${issue.identifier} to Done`).waitFor();

    // About: approvals; the entry leads to the approval.
    await addFilter(page, 'About', 'Approval');
    await page.waitForURL(/entityType=approval/);
    const asked = entry(page, 'You asked for Board approval');
    await asked.getByRole('link', { name: 'Board approval' }).click();
    await page.waitForURL(new RegExp(`/c/${C}/approvals/${approval.id}$`));
  });

  it('exports the current filter as CSV, and new entries appear live', async () => {
    const page = await board.signedInPage();
    await page.goto(`/c/${C}/activity?entityType=issue`);
    await entry(page, `Ada Auditor counted ${issue.identifier}`).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    assert.match(download.suggestedFilename(), /^activity-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile((await download.path()) ?? '', 'utf8');
    const lines = csv.trim().split('\r\n');
    assert.equal(lines[0], 'time,actor,sentence,action,entity_type,entity_id,run_id,details');
    const expected = await board.api<any[]>('GET', `/api/companies/${C}/activity?entityType=issue&limit=1000`);
    assert.equal(lines.length - 1, expected.length, 'one row per entry of the filter');
    assert.ok(
      lines.some((line) => line.includes(`Ada Auditor counted ${issue.identifier}`) && line.includes(run.runId)),
    );
    assert.ok(!lines.some((line) => line.includes('approval.created')), 'only the filter: no approval entries');
    await page.getByText('Exported').first().waitFor();

    // At 390 px: nothing scrolls sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await entry(page, `Ada Auditor counted ${issue.identifier}`).waitFor();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    assert.ok(overflow <= 0, `no sideways scrolling (${overflow}px)`);
    await screenshot(page, 'activity-narrow');
    await page.setViewportSize({ width: 1280, height: 800 });

    // Live: an entry written now shows up without a reload, within the filter.
    const fresh = await board.api('POST', `/api/companies/${C}/issues`, { title: 'Polish the forks' });
    await feed(page).getByRole('link', { name: fresh.identifier, exact: true }).waitFor({ timeout: 15_000 });
  });
});
