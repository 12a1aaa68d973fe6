// The board inbox in a real browser: a hire approved in place with a note and the agent it creates,
// approvals rejected and sent back for revision in place, a failed run retried, a budget stop read as
// a sentence and answered by raising the budget, mark read (one and all) with the sidebar count
// following live, and the inbox at 390 px wide and in dark. axe on every state visited.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { checkAccessibility, screenshot, startBoard } from '../helpers/browser.ts';
import { tempDir } from '../helpers/server-process.ts';
import { waitFor } from '../helpers/wait.ts';

const board = await startBoard();
const work = await tempDir('boardroom-ui-inbox-');

// A company that requires board approval for new agents, and an agent allowed to hire.
const company = await board.api('POST', '/api/companies', { name: 'Inbox Co', requireBoardApprovalForNewAgents: true });
const C = company.id;
const hirer = await board.api('POST', `/api/companies/${C}/agents`, {
  name: 'Hannah Hirer',
  role: 'ceo',
  adapterType: 'process',
  adapterConfig: {},
  permissions: { canCreateAgents: true },
});
const hirerKey = (await board.api('POST', `/api/agents/${hirer.id}/keys`, { name: 'test' })).token as string;

/** A call as the hiring agent (agents hire through POST agent-hires). */
async function asHirer(method: string, url: string, body: unknown) {
  const res = await fetch(`${board.baseUrl}${url}`, {
    method,
    headers: { authorization: `Bearer ${hirerKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  assert.ok(res.ok, `${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

const inboxApi = () => board.api<{ items: any[]; unreadCount: number }>('GET', `/api/companies/${C}/inbox`);
const sidebarInbox = (page: Page) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Inbox/ });
const unreadList = (page: Page) => page.getByRole('list', { name: 'Unread inbox items' });

/** The unread count the sidebar shows (0 when it shows none). */
async function sidebarCount(page: Page): Promise<number> {
  const text = (await sidebarInbox(page).textContent()) ?? '';
  return Number(text.replace('Inbox', '').trim() || 0);
}

describe('board inbox', () => {
  it('a hire approval approved from the inbox creates the agent', async () => {
    const hire = await asHirer('POST', `/api/companies/${C}/agent-hires`, {
      name: 'Scout',
      role: 'researcher',
      title: 'Market researcher',
      adapterType: 'process',
      reportsTo: hirer.id,
      budgetMonthlyCents: 4200,
    });
    const blocked = await board.api('POST', `/api/companies/${C}/issues`, {
      title: 'Waiting on the lawyers',
      status: 'blocked',
    });
    assert.equal(blocked.status, 'blocked');
    const page = await board.signedInPage();
    await page.goto(`/c/${C}/inbox`);
    const item = unreadList(page).getByRole('link', { name: 'Hire an agent: Scout' });
    await item.waitFor();
    await unreadList(page)
      .getByRole('link', { name: /Waiting on the lawyers/ })
      .waitFor();
    await checkAccessibility(page, 'the inbox');
    await screenshot(page, 'inbox');

    await page.emulateMedia({ colorScheme: 'dark' });
    await checkAccessibility(page, 'the inbox, dark');
    await screenshot(page, 'inbox-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // Approve in place, with a note: the row then says so and leads to the hired agent.
    const row = unreadList(page).getByRole('listitem').filter({ hasText: 'Hire an agent: Scout' });
    await row.getByRole('button', { name: 'Approve' }).click();
    const popover = page.getByRole('dialog', { name: 'Approve: Hire an agent: Scout' });
    await popover.getByLabel('Note').fill('Welcome aboard, Scout.');
    await checkAccessibility(page, 'the approve popover');
    await popover.getByRole('button', { name: 'Approve' }).click();
    await popover.waitFor({ state: 'detached' });
    await row.getByText('Approved by you').waitFor();
    const scoutLink = row.getByRole('link', { name: 'open Scout' });
    assert.equal(await scoutLink.getAttribute('href'), `/c/${C}/agents/${hire.agent.id}`);
    assert.equal(await row.getByRole('button', { name: 'Approve' }).count(), 0, 'no decision left to take');
    await checkAccessibility(page, 'the inbox after a decision');

    const approval = await board.api('GET', `/api/approvals/${hire.approval.id}`);
    assert.equal(approval.status, 'approved');
    assert.equal(approval.decisionNote, 'Welcome aboard, Scout.');
    const agent = await board.api('GET', `/api/agents/${hire.agent.id}`);
    assert.equal(agent.status, 'idle', 'the draft is an agent now');
    const listed = await board.api<any[]>('GET', `/api/companies/${C}/agents`);
    assert.ok(listed.some((a) => a.id === hire.agent.id && a.name === 'Scout'));

    // The decided approval's page says who decided and the note; its card leads to the agent.
    await page.goto(`/c/${C}/approvals/${hire.approval.id}`);
    await page.getByText('Welcome aboard, Scout.').waitFor();
    assert.equal(
      await page.getByLabel('Proposed agent').getByRole('link', { name: 'Scout' }).getAttribute('href'),
      `/c/${C}/agents/${hire.agent.id}`,
    );
    await screenshot(page, 'approval-hire');

    // The new agent in the org chart (a report of the agent who hired it, which now has reports to
    // open and close), and a link to it.
    await page.goto(`/c/${C}/org`);
    const chart = page.getByRole('tree', { name: 'Org chart' });
    const scoutNode = chart.getByRole('treeitem', { name: /^Scout / });
    await scoutNode.waitFor();
    assert.equal(await chart.getByRole('treeitem', { name: /^Hannah Hirer / }).getAttribute('aria-expanded'), 'true');
    await scoutNode.getByRole('link', { name: /Scout/ }).first().click();
    await page.waitForURL(new RegExp(`/c/${C}/agents/${hire.agent.id}`));

    // The decided approval has left the inbox (opening it had marked it read already).
    await page.goto(`/c/${C}/inbox?view=all`);
    await page
      .getByRole('list', { name: 'All inbox items' })
      .getByRole('link', { name: /Waiting on the lawyers/ })
      .waitFor();
    assert.equal(await page.getByRole('link', { name: 'Hire an agent: Scout' }).count(), 0);
  });

  it('rejects one approval and sends another back for revision in place, each with a note', async () => {
    const offsite = await board.api('POST', `/api/companies/${C}/approvals`, {
      type: 'request_board_approval',
      payload: { title: 'Team offsite in Madeira' },
    });
    const pricing = await board.api('POST', `/api/companies/${C}/approvals`, {
      type: 'request_board_approval',
      payload: { title: 'Raise prices by 5%' },
    });
    const page = await board.signedInPage();
    await page.goto(`/c/${C}/inbox`);
    const offsiteRow = unreadList(page).getByRole('listitem').filter({ hasText: 'Team offsite in Madeira' });
    const pricingRow = unreadList(page).getByRole('listitem').filter({ hasText: 'Raise prices by 5%' });

    await offsiteRow.getByRole('button', { name: 'Reject' }).click();
    const reject = page.getByRole('dialog', { name: 'Reject: Board approval: Team offsite in Madeira' });
    await reject.getByLabel('Note').fill('Not this year.');
    await reject.getByRole('button', { name: 'Reject' }).click();
    await offsiteRow.getByText('Rejected by you').waitFor();

    await pricingRow.getByRole('button', { name: 'Request revision' }).click();
    const revise = page.getByRole('dialog', { name: 'Request revision: Board approval: Raise prices by 5%' });
    // Keyboard: the note field has the focus; Escape closes and leaves the decision open.
    await revise.getByLabel('Note').waitFor();
    await page.keyboard.press('Escape');
    await revise.waitFor({ state: 'detached' });
    await pricingRow.getByRole('button', { name: 'Request revision' }).click();
    await revise.getByLabel('Note').fill('Show the churn estimate first.');
    await revise.getByRole('button', { name: 'Request revision' }).click();
    await pricingRow.getByText('Revision requested by you').waitFor();
    assert.equal(
      await pricingRow.getByRole('link', { name: 'open Board approval: Raise prices by 5%' }).getAttribute('href'),
      `/c/${C}/approvals/${pricing.id}`,
    );

    const rejected = await board.api('GET', `/api/approvals/${offsite.id}`);
    assert.equal(rejected.status, 'rejected');
    assert.equal(rejected.decisionNote, 'Not this year.');
    const revised = await board.api('GET', `/api/approvals/${pricing.id}`);
    assert.equal(revised.status, 'revision_requested');
    assert.equal(revised.decisionNote, 'Show the churn estimate first.');
  });

  it('a decision refused because another board member decided first says why and the row catches up', async () => {
    const hedge = await board.api('POST', `/api/companies/${C}/approvals`, {
      type: 'request_board_approval',
      payload: { title: 'Hedge the euro' },
    });
    const page = await board.signedInPage();
    await page.goto(`/c/${C}/inbox`);
    const row = unreadList(page).getByRole('listitem').filter({ hasText: 'Hedge the euro' });
    await row.getByRole('button', { name: 'Approve' }).click();
    await board.api('POST', `/api/approvals/${hedge.id}/reject`, { decisionNote: 'Too risky.' });
    const refused = row.getByRole('alert').filter({ hasText: /The decision was refused/ });
    // Two orders are right, and a loaded machine decides which one comes: the click lands first and
    // the server refuses it (the row says why), or the live update lands first and the row, decided
    // elsewhere, offers no decision any more (the open popover goes with it).
    const clicked = await page
      .getByRole('dialog', { name: 'Approve: Board approval: Hedge the euro' })
      .getByRole('button', { name: 'Approve' })
      .click({ timeout: 10_000 })
      .then(
        () => true,
        () => false,
      );
    if (clicked) {
      await refused.waitFor();
      await refused.getByText(/open it to see who decided/).waitFor();
    } else {
      await waitFor(
        'the row caught up',
        async () => (await row.getByRole('button', { name: 'Approve' }).count()) === 0,
      );
    }
    assert.equal((await board.api('GET', `/api/approvals/${hedge.id}`)).status, 'rejected');
  });

  it('a failed run says why in words, and is retried from the inbox: the agent is woken again and a new run exists', async () => {
    const script = path.join(work, 'fail.mjs');
    await writeFile(script, "process.stderr.write('the build broke\\n'); process.exit(1);\n");
    const worker = await board.api('POST', `/api/companies/${C}/agents`, {
      name: 'Flaky Worker',
      role: 'engineer',
      adapterType: 'process',
      adapterConfig: { command: process.execPath, args: [script], timeoutSec: 60 },
    });
    const issue = await board.api('POST', `/api/companies/${C}/issues`, { title: 'Ship the release' });
    await board.api('POST', `/api/agents/${worker.id}/wakeup`, { reason: 'first try', payload: { issueId: issue.id } });
    const runsOf = () => board.api<any[]>('GET', `/api/companies/${C}/heartbeat-runs?agentId=${worker.id}`);
    const [failed] = await waitFor(
      'the first run failed',
      async () => {
        const runs = await runsOf();
        return runs.length === 1 && runs[0].status === 'failed' && runs;
      },
      60_000,
    );

    const page = await board.signedInPage();
    await page.goto(`/c/${C}/inbox`);
    const row = unreadList(page).getByRole('listitem').filter({ hasText: 'Flaky Worker' });
    await row.getByRole('link', { name: new RegExp(`Flaky Worker on ${issue.identifier}`) }).waitFor();
    await row.getByText('Failed', { exact: true }).waitFor();
    // Why it failed, in words (the code's meaning and what to do), then the run's own detail; never the code.
    await row.getByText("The agent's process ended with an error (a non-zero exit code).").waitFor();
    await row.getByText("Read the run's transcript for the process's own reason, fix it, then retry.").waitFor();
    await row.getByText('Detail: process exited with code 1').waitFor();
    assert.ok(!((await row.textContent()) ?? '').includes(failed.errorCode), 'the row does not show the code');
    await checkAccessibility(page, 'the inbox with a failed run');
    await screenshot(page, 'inbox-failed-run');

    // The agent's runs panel says the same.
    await page.goto(`/c/${C}/agents/${worker.id}/runs`);
    await page.getByText("The agent's process ended with an error (a non-zero exit code).").waitFor();
    await page.getByText('Detail: process exited with code 1').waitFor();
    // The agent's banner and the run's source in words: no run id, no enum key.
    await page.getByText('The last run failed: process exited with code 1').waitFor();
    await page.getByRole('cell', { name: 'On demand' }).waitFor();
    const text = (await page.locator('main').textContent()) ?? '';
    assert.ok(!/[0-9a-f]{8}-[0-9a-f]{4}-/.test(text) && !text.includes('on_demand'), text);
    await screenshot(page, 'agent-runs-failed');

    await page.goto(`/c/${C}/inbox`);
    await row.getByRole('button', { name: 'Retry' }).click();
    const runs = await waitFor(
      'a new run after the retry',
      async () => {
        const list = await runsOf();
        return list.length >= 2 && list;
      },
      60_000,
    );
    assert.ok(
      runs.some((run) => run.runId !== failed.runId && run.issueId === issue.id),
      'the new run is about the same issue',
    );
    // The retried failure leaves the inbox (the new run may fail too: that is a new item).
    await waitFor(
      'the first failure left the inbox',
      async () => !(await inboxApi()).items.some((i) => i.key === `run:${failed.runId}`),
      60_000,
    );
  });

  it('mark read moves an item to "All" only and the sidebar count drops live; a new item raises it live', async () => {
    const page = await board.signedInPage();
    await page.goto(`/c/${C}/inbox`);
    const row = unreadList(page).getByRole('listitem').filter({ hasText: 'Waiting on the lawyers' });
    await row.waitFor();
    const before = (await inboxApi()).unreadCount;
    await waitFor('the sidebar shows the unread count', async () => (await sidebarCount(page)) === before);

    await row.getByRole('button', { name: /^Mark read/ }).click();
    await row.waitFor({ state: 'detached' });
    await waitFor('the sidebar count dropped', async () => (await sidebarCount(page)) === before - 1);
    // The page drops the row at once; the mark reaches the server a moment later.
    await waitFor(
      'the mark stored',
      async () =>
        (await inboxApi()).items.find((i) => i.kind === 'issue' && i.title === 'Waiting on the lawyers').read === true,
    );
    await page.getByRole('link', { name: /^All/ }).click();
    await page.waitForURL(/view=all/);
    await page
      .getByRole('list', { name: 'All inbox items' })
      .getByRole('link', { name: /Waiting on the lawyers/ })
      .waitFor();
    await checkAccessibility(page, 'the inbox, all items');

    // Something new waits: the count rises without a reload (the live stream).
    await board.api('POST', `/api/companies/${C}/issues`, { title: 'Vendor contract stuck', status: 'blocked' });
    await waitFor('the sidebar count rose live', async () => (await sidebarCount(page)) === before, 30_000);

    // Mark all read: nothing unread, no count.
    await page.getByRole('link', { name: /^Unread/ }).click();
    await page.getByRole('button', { name: 'Mark all read' }).click();
    await page.getByText(/All caught up/).waitFor();
    await waitFor('the sidebar count is gone', async () => (await sidebarCount(page)) === 0);
    // As for one mark: the page clears at once, the marks reach the server a moment later.
    await waitFor('the marks stored', async () => (await inboxApi()).unreadCount === 0);
    await checkAccessibility(page, 'the inbox, all caught up');
  });

  it('a budget stop is resolved from the inbox: the budget raised and the agent resumed', async () => {
    const spender = await board.api('POST', `/api/companies/${C}/agents`, {
      name: 'Sam Spender',
      role: 'engineer',
      adapterType: 'process',
      adapterConfig: {},
    });
    await board.api('POST', `/api/companies/${C}/budgets/policies`, {
      scopeType: 'agent',
      scopeId: spender.id,
      amount: 100,
    });
    await board.api('POST', `/api/companies/${C}/cost-events`, {
      agentId: spender.id,
      provider: 'acme',
      model: 'm1',
      costCents: 150,
      occurredAt: new Date().toISOString(),
    });
    await waitFor(
      'the agent is stopped',
      async () => (await board.api('GET', `/api/agents/${spender.id}`)).status === 'paused',
      30_000,
    );

    const page = await board.signedInPage();
    await page.goto(`/c/${C}/inbox`);
    const row = unreadList(page).getByRole('listitem').filter({ hasText: 'Budget stop' });
    // One row for the stop and its override approval, as a sentence with money.
    await row.getByRole('link', { name: 'Sam Spender reached 150% of a $1.00 monthly budget' }).waitFor();
    await row.getByText('Limit $1.00 · spent $1.50').waitFor();
    assert.equal(await row.count(), 1);
    const text = (await row.textContent()) ?? '';
    for (const raw of ['scopeId', 'policyId', 'incidentId', '150 of 100', 'billed_cents'])
      assert.ok(!text.includes(raw), `no ${raw} in ${text}`);
    assert.ok(!/[0-9a-f]{8}-[0-9a-f]{4}-/.test(text), text);
    assert.equal(
      await unreadList(page)
        .getByRole('link', { name: /^Budget override/ })
        .count(),
      0,
      'the override approval is folded into the stop',
    );

    await row.getByRole('button', { name: 'Raise budget and resume' }).click();
    const popover = page.getByRole('dialog', { name: 'Raise budget and resume: Sam Spender' });
    const amount = popover.getByLabel('New budget (USD)');
    assert.equal(await amount.inputValue(), '2', 'a sensible raise is proposed: above the spend');
    // Not above the spend: said at the field, nothing sent.
    await amount.fill('1.00');
    await popover.getByRole('button', { name: 'Raise budget and resume' }).click();
    await popover.getByText('Enter an amount above what was spent: $1.50.').waitFor();
    await checkAccessibility(page, 'the raise popover with a refusal');
    await amount.fill('5.00');
    await popover.getByRole('button', { name: 'Raise budget and resume' }).click();
    await popover.waitFor({ state: 'detached' });
    await row.getByText('Budget raised to $5.00 by you').waitFor();
    assert.equal(await row.getByRole('link', { name: 'open Sam Spender' }).count(), 1);
    await waitFor(
      'the agent resumed',
      async () => (await board.api('GET', `/api/agents/${spender.id}`)).status !== 'paused',
      30_000,
    );
    const overview = await board.api('GET', `/api/companies/${C}/budgets/overview`);
    const policy = overview.policies.find((p: any) => p.scopeType === 'agent' && p.scopeId === spender.id);
    assert.equal(policy.amount, 500, 'the policy raised to $5.00');
    assert.ok(
      !(await inboxApi()).items.some(
        (i) => i.kind === 'budget_incident' && i.scopeId === spender.id && i.incidentKind === 'hard',
      ),
    );
  });

  it('is usable at 390 px wide: items, their actions and the way to an approval', async () => {
    await board.api('POST', `/api/companies/${C}/approvals`, {
      type: 'request_board_approval',
      payload: {
        title: 'Open a Lisbon office',
        summary: 'Closer to **customers**.',
        recommendedAction: 'Approve',
        risks: ['Hiring takes time'],
      },
    });
    const page = await board.signedInPage({ width: 390, height: 844 });
    await page.goto(`/c/${C}/inbox`);
    const link = unreadList(page).getByRole('link', { name: 'Board approval: Open a Lisbon office' });
    await link.waitFor();
    const button = unreadList(page).getByRole('button', { name: /^Mark read: Board approval/ });
    const approve = unreadList(page)
      .getByRole('listitem')
      .filter({ hasText: 'Open a Lisbon office' })
      .getByRole('button', { name: 'Approve' });
    for (const target of [link, button, approve]) {
      const box = await target.boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `fits the screen: ${JSON.stringify(box)}`);
    }
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    assert.ok(overflow <= 0, `no sideways scrolling of the page (${overflow}px)`);
    await checkAccessibility(page, 'the inbox at 390 px');
    await screenshot(page, 'inbox-narrow');
  });
});
