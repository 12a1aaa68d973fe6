// Approvals in a real browser: the list and its status filter (kept in the URL), the detail with a
// readable payload and its raw JSON, comments, request revision and reject with notes, a resubmission
// by the board with the request edited, a decision
// refused because the approval was decided meanwhile (who decided, when, and the state now), and a decision
// at 390 px wide; on the list, decisions in place and a budget override as a sentence answered by a
// raise of the budget. axe on every state visited, light and dark.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { checkAccessibility, screenshot, startBoard } from '../helpers/browser.ts';
import { waitFor } from '../helpers/wait.ts';

const board = await startBoard();
const company = await board.api('POST', '/api/companies', { name: 'Approvals Co' });
const C = company.id;
const requester = await board.api('POST', `/api/companies/${C}/agents`, {
  name: 'Cora CEO',
  role: 'ceo',
  adapterType: 'process',
  adapterConfig: {},
});
const issue = await board.api('POST', `/api/companies/${C}/issues`, { title: 'Plan the Lisbon office' });

const file = (title: string, extra: Record<string, unknown> = {}) =>
  board.api('POST', `/api/companies/${C}/approvals`, {
    type: 'request_board_approval',
    requestedByAgentId: requester.id,
    issueIds: [issue.id],
    payload: {
      title,
      summary: 'Closer to **customers** in Europe.',
      recommendedAction: 'Approve the lease',
      risks: ['Hiring takes time', 'Currency risk'],
      ...extra,
    },
  });

const decision = (page: Page) => page.getByRole('region', { name: 'Decision' });

describe('approvals', () => {
  it('lists pending approvals, then all with the filter in the URL (kept on reload)', async () => {
    const pending = await file('Open a Lisbon office');
    const decided = await file('Rename the company');
    await board.api('POST', `/api/approvals/${decided.id}/approve`, { decisionNote: 'fine' });

    const page = await board.signedInPage();
    await page.goto(`/c/${C}/approvals`);
    await page.getByRole('link', { name: 'Board approval: Open a Lisbon office' }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Board approval: Rename the company' }).count(), 0);
    await checkAccessibility(page, 'the approvals list');

    await page.getByRole('navigation', { name: 'Approval status' }).getByRole('link', { name: 'All' }).click();
    await page.waitForURL(/\?status=all$/);
    await page.getByRole('link', { name: 'Board approval: Rename the company' }).waitFor();
    await page.reload();
    await page.getByRole('link', { name: 'Board approval: Rename the company' }).waitFor();
    await page.getByRole('link', { name: 'Board approval: Open a Lisbon office' }).waitFor();
    assert.equal(
      await page
        .getByRole('navigation', { name: 'Approval status' })
        .getByRole('link', { name: 'All' })
        .getAttribute('aria-current'),
      'page',
    );
    await page.getByRole('navigation', { name: 'Approval status' }).getByRole('link', { name: 'Approved' }).click();
    await page.waitForURL(/\?status=approved$/);
    await page.getByRole('link', { name: 'Board approval: Rename the company' }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Board approval: Open a Lisbon office' }).count(), 0);

    // The detail: payload readable, raw JSON on demand, linked issue, requester.
    await page.goto(`/c/${C}/approvals/${pending.id}`);
    await page.getByRole('heading', { name: 'Board approval: Open a Lisbon office' }).waitFor();
    await page.getByText('Recommended action:').waitFor();
    await page.getByRole('listitem').filter({ hasText: 'Currency risk' }).waitFor();
    await page.getByRole('strong').filter({ hasText: 'customers' }).waitFor();
    await page.getByRole('link', { name: 'Cora CEO' }).waitFor();
    const linked = page.getByRole('link', { name: new RegExp(`${issue.identifier} Plan the Lisbon office`) });
    await linked.waitFor();
    assert.equal(await linked.getAttribute('href'), `/c/${C}/issues/${issue.id}`);
    await page.getByText('Raw JSON').click();
    await page.getByText('"recommendedAction": "Approve the lease"').waitFor();
    await checkAccessibility(page, 'an approval with its raw JSON open');
  });

  it('comments, requests a revision with a note, then rejects with a note', async () => {
    const approval = await file('Buy a boat');
    const page = await board.signedInPage();
    await page.goto(`/c/${C}/approvals/${approval.id}`);
    await page.getByLabel('Add a comment').fill('Which **boat**, exactly?');
    await page.getByRole('button', { name: 'Comment' }).click();
    await page.getByRole('strong').filter({ hasText: 'boat' }).waitFor();
    const comments = await board.api<any[]>('GET', `/api/approvals/${approval.id}/comments`);
    assert.deepEqual(
      comments.map((c) => c.body),
      ['Which **boat**, exactly?'],
    );

    await decision(page).getByLabel('Decision note').fill('Tell us the running costs.');
    await decision(page).getByRole('button', { name: 'Request revision' }).click();
    await decision(page).getByText('Decision recorded.').waitFor();
    await decision(page).getByText('Tell us the running costs.').waitFor();
    await page.getByText('Revision requested', { exact: true }).first().waitFor();
    // From revision_requested only approve and reject remain.
    await decision(page).getByRole('button', { name: 'Request revision' }).waitFor({ state: 'detached' });
    let stored = await board.api('GET', `/api/approvals/${approval.id}`);
    assert.deepEqual([stored.status, stored.decisionNote], ['revision_requested', 'Tell us the running costs.']);
    await checkAccessibility(page, 'an approval in revision');

    await decision(page).getByLabel('Decision note').fill('Not this year.');
    await decision(page).getByRole('button', { name: 'Reject' }).click();
    await decision(page).getByText('Not this year.').waitFor();
    await decision(page).getByRole('button', { name: 'Approve' }).waitFor({ state: 'detached' });
    stored = await board.api('GET', `/api/approvals/${approval.id}`);
    assert.deepEqual([stored.status, stored.decisionNote], ['rejected', 'Not this year.']);
  });

  it('resubmits an approval waiting on a revision with its request edited; text that is not JSON is refused before anything is sent', async () => {
    const approval = await file('Lease a van', { amountCents: 120_000 });
    await board.api('POST', `/api/approvals/${approval.id}/request-revision`, { decisionNote: 'Cheaper, please.' });
    const page = await board.signedInPage();
    await page.goto(`/c/${C}/approvals/${approval.id}`);
    const form = decision(page).getByRole('form', { name: 'Resubmit' });
    const editor = form.getByLabel('Request (JSON)');
    await editor.waitFor();
    const asStored = JSON.parse(await editor.inputValue());
    assert.deepEqual(asStored, approval.payload);

    await editor.fill('{ "title": "Lease a van", ');
    await form.getByRole('button', { name: 'Resubmit' }).click();
    await form.getByRole('alert').filter({ hasText: 'The payload is not valid JSON' }).waitFor();
    assert.equal((await board.api('GET', `/api/approvals/${approval.id}`)).status, 'revision_requested');
    await checkAccessibility(page, 'a resubmission refused as not JSON');

    await editor.fill(JSON.stringify({ ...asStored, amountCents: 90_000 }, null, 2));
    await form.getByRole('button', { name: 'Resubmit' }).click();
    await form.waitFor({ state: 'detached' });
    // Pending again: every decision is open, request revision included.
    await decision(page).getByRole('button', { name: 'Request revision' }).waitFor();
    const stored = await board.api('GET', `/api/approvals/${approval.id}`);
    assert.deepEqual([stored.status, stored.payload], ['pending', { ...asStored, amountCents: 90_000 }]);
  });

  it('a decision on an approval decided meanwhile says who decided, when and the state now, and the page catches up', async () => {
    const approval = await file('Hire a band');
    const page = await board.signedInPage();
    // No live stream on this page: it keeps showing the approval as pending while another board
    // member decides it, as a page between two refreshes does.
    await page.route('**/api/companies/*/events**', () => undefined);
    await page.goto(`/c/${C}/approvals/${approval.id}`);
    await decision(page).getByRole('button', { name: 'Approve' }).waitFor();
    await board.api('POST', `/api/approvals/${approval.id}/reject`, { decisionNote: 'decided elsewhere' });

    await decision(page).getByLabel('Decision note').fill('Yes!');
    await decision(page).getByRole('button', { name: 'Approve' }).click();
    const alert = decision(page).getByRole('alert');
    await alert.getByText('The decision was refused: another board member decided first.').waitFor();
    // Read again on its own (no reload asked): who, when and the state now.
    await alert.getByText(/They decided (just now|.* ago); the approval is now rejected\./).waitFor();
    assert.equal(await alert.getByText(/reload/i).count(), 0);
    await decision(page).getByText('decided elsewhere').waitFor();
    assert.equal((await board.api('GET', `/api/approvals/${approval.id}`)).status, 'rejected');
    await checkAccessibility(page, 'a refused decision');
  });

  it('an approval can be decided at 390 px wide', async () => {
    const approval = await file('Sponsor a meetup');
    const page = await board.signedInPage({ width: 390, height: 844 });
    await page.goto(`/c/${C}/approvals/${approval.id}`);
    const approve = decision(page).getByRole('button', { name: 'Approve' });
    await approve.waitFor();
    for (const target of [
      approve,
      decision(page).getByLabel('Decision note'),
      decision(page).getByRole('button', { name: 'Reject' }),
    ]) {
      const box = await target.boundingBox();
      assert.ok(
        box && box.x >= 0 && box.x + box.width <= 390 && box.y < 844,
        `visible without scrolling sideways or down: ${JSON.stringify(box)}`,
      );
    }
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    assert.ok(overflow <= 0, `no sideways scrolling (${overflow}px)`);
    await checkAccessibility(page, 'an approval at 390 px');
    await screenshot(page, 'approval-narrow');
    await decision(page).getByLabel('Decision note').fill('Good for hiring.');
    await approve.click();
    await decision(page).getByText('Decision recorded.').waitFor();
    await approve.waitFor({ state: 'detached' });
    await decision(page).getByText('Good for hiring.').waitFor();
    assert.equal((await board.api('GET', `/api/approvals/${approval.id}`)).status, 'approved');
  });

  it('decides in place on the list: approve with a note, then the row says so and leads to the approval', async () => {
    const approval = await file('Print business cards');
    const page = await board.signedInPage();
    await page.goto(`/c/${C}/approvals`);
    const list = page.getByRole('list', { name: /^Pending approvals/ });
    const row = list.getByRole('listitem').filter({ hasText: 'Print business cards' });
    await row.getByRole('button', { name: 'Approve' }).waitFor();
    await row.getByRole('img', { name: 'Cora CEO' }).waitFor();
    await checkAccessibility(page, 'the approvals list');
    await screenshot(page, 'approvals');
    await page.emulateMedia({ colorScheme: 'dark' });
    await checkAccessibility(page, 'the approvals list, dark');
    await page.emulateMedia({ colorScheme: 'light' });

    await row.getByRole('button', { name: 'Approve' }).click();
    const popover = page.getByRole('dialog', { name: 'Approve: Board approval: Print business cards' });
    await popover.getByLabel('Note').fill('Matte, please.');
    await popover.getByRole('button', { name: 'Approve' }).click();
    await row.getByText('Approved by you').waitFor();
    assert.equal(
      await row.getByRole('link', { name: 'open Board approval: Print business cards' }).getAttribute('href'),
      `/c/${C}/approvals/${approval.id}`,
    );
    const decided = await board.api('GET', `/api/approvals/${approval.id}`);
    assert.equal(decided.status, 'approved');
    assert.equal(decided.decisionNote, 'Matte, please.');
  });

  it('a budget override reads as a sentence with money and is answered by raising the budget', async () => {
    const gus = await board.api('POST', `/api/companies/${C}/agents`, {
      name: 'Gus',
      role: 'engineer',
      adapterType: 'process',
      adapterConfig: {},
    });
    await board.api('POST', `/api/companies/${C}/budgets/policies`, {
      scopeType: 'agent',
      scopeId: gus.id,
      amount: 1500,
    });
    await board.api('POST', `/api/companies/${C}/cost-events`, {
      agentId: gus.id,
      provider: 'acme',
      model: 'm1',
      costCents: 1605,
      occurredAt: new Date().toISOString(),
    });
    const override = await waitFor(
      'the override approval',
      async () =>
        (await board.api<any[]>('GET', `/api/companies/${C}/approvals?status=pending`)).find(
          (a) => a.type === 'budget_override_required',
        ),
      30_000,
    );
    const page = await board.signedInPage();
    await page.goto(`/c/${C}/approvals`);
    const row = page.getByRole('listitem').filter({ hasText: 'Budget override' });
    await row.getByRole('link', { name: 'Budget override: Gus reached 107% of a $15.00 monthly budget' }).waitFor();
    await row.getByText(/Limit \$15\.00 · spent \$16\.05/).waitFor();
    const text = (await row.textContent()) ?? '';
    for (const raw of ['scopeId', 'policyId', 'incidentId', '1605', '1500', 'billed_cents'])
      assert.ok(!text.includes(raw), `no ${raw} in ${text}`);
    assert.ok(!/[0-9a-f]{8}-[0-9a-f]{4}-/.test(text), text);
    await row.getByRole('button', { name: 'Keep paused' }).waitFor();
    await checkAccessibility(page, 'a budget override on the list');

    await row.getByRole('button', { name: 'Raise budget and resume' }).click();
    const popover = page.getByRole('dialog', { name: 'Raise budget and resume: Gus' });
    await popover.getByLabel('New budget (USD)').fill('30');
    await popover.getByRole('button', { name: 'Raise budget and resume' }).click();
    await row.getByText('Budget raised to $30.00 by you').waitFor();
    await waitFor(
      'Gus resumed',
      async () => (await board.api('GET', `/api/agents/${gus.id}`)).status !== 'paused',
      30_000,
    );
    const overview = await board.api('GET', `/api/companies/${C}/budgets/overview`);
    assert.equal(overview.policies.find((p: any) => p.scopeId === gus.id).amount, 3000);
    assert.equal((await board.api('GET', `/api/approvals/${override.id}`)).status, 'approved');
  });
});
