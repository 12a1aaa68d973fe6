// The budgets page in a real browser: a policy created and edited through its dialog, each first
// refused by the server with the problem shown at its field; the usage bar following spend live; a
// hard stop's incident resolved by raising the budget (the agent resumes). axe on every state.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkAccessibility, pickOption, screenshot, startBoard } from '../helpers/browser.ts';
import { waitFor } from '../helpers/wait.ts';

const board = await startBoard();
const company = await board.api('POST', '/api/companies', { name: 'Budget Co' });
const C = company.id;
const ada = await board.api('POST', `/api/companies/${C}/agents`, {
  name: 'Ada Analyst',
  role: 'engineer',
  adapterType: 'process',
  adapterConfig: { command: 'true' },
});
await board.api('POST', `/api/companies/${C}/projects`, { name: 'Apollo' });

const spend = (costCents: number) =>
  board.api('POST', `/api/companies/${C}/cost-events`, {
    agentId: ada.id,
    provider: 'anthropic',
    model: 'm1',
    costCents,
    occurredAt: new Date().toISOString(),
  });

describe('budgets page', () => {
  it('creates and edits a policy, shows server errors at their fields, and resolves a hard stop', async () => {
    const page = await board.signedInPage();
    await page.goto(`/c/${C}/budgets`);
    await page.getByText('No open incidents').waitFor();
    await page.getByText('No agent budget.').waitFor();
    await checkAccessibility(page, 'the budgets page, no policies');

    // Create: a warn threshold the server refuses, shown at its field.
    await page.getByRole('button', { name: 'New budget…' }).click();
    let dialog = page.getByRole('dialog', { name: 'New budget policy' });
    await pickOption(dialog, 'Applies to', 'An agent');
    await pickOption(dialog, 'Agent', 'Ada Analyst');
    await dialog.getByLabel('Budget (USD)').fill('10');
    await dialog.getByLabel('Warn at (percent)').fill('150');
    await dialog.getByRole('button', { name: 'Create budget' }).click();
    const warn = dialog.getByLabel('Warn at (percent)');
    await waitFor('the warn field marked invalid', async () => (await warn.getAttribute('aria-invalid')) === 'true');
    const problem = await page.locator(`#${await warn.getAttribute('aria-describedby')}`).textContent();
    assert.match(problem ?? '', /99/, `the server's message at the field: ${problem}`);
    await dialog.getByRole('alert').getByText('The budget was not created').waitFor();
    await checkAccessibility(page, 'the new budget dialog with a field error');
    await warn.fill('50');
    await dialog.getByRole('button', { name: 'Create budget' }).click();
    await dialog.waitFor({ state: 'detached' });
    const agents = page.getByRole('region', { name: 'Agents' });
    await agents.getByRole('img', { name: 'Ada Analyst spend budget: $0.00 of $10.00 (0%)' }).waitFor();
    const policy = (await board.api('GET', `/api/companies/${C}/budgets/overview`)).policies.find(
      (p: any) => p.scopeId === ada.id,
    );
    assert.deepEqual(
      [policy.amount, policy.warnPercent, policy.hardStopEnabled, policy.windowKind],
      [1000, 50, true, 'calendar_month_utc'],
    );

    // Live: spend moves the bar.
    await spend(300);
    await agents
      .getByRole('img', { name: 'Ada Analyst spend budget: $3.00 of $10.00 (30%)' })
      .waitFor({ timeout: 10_000 });

    // Edit: an amount the server refuses, then a valid one.
    await agents.getByRole('button', { name: 'Edit the budget of Ada Analyst' }).click();
    dialog = page.getByRole('dialog', { name: 'Edit the agent budget of Ada Analyst' });
    const amount = dialog.getByLabel('Budget (USD)');
    assert.equal(await amount.inputValue(), '10.00');
    await amount.fill('0');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await waitFor(
      'the amount field marked invalid',
      async () => (await amount.getAttribute('aria-invalid')) === 'true',
    );
    assert.ok(
      ((await page.locator(`#${await amount.getAttribute('aria-describedby')}`).textContent()) ?? '').length > 0,
    );
    await dialog.getByRole('alert').getByText('The budget was not changed').waitFor();
    await checkAccessibility(page, 'the edit budget dialog with a field error');
    await amount.fill('20');
    await dialog.getByLabel('Warn at (percent)').fill('90');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await agents.getByRole('img', { name: 'Ada Analyst spend budget: $3.00 of $20.00 (15%)' }).waitFor();
    await agents
      .getByRole('row', { name: /Ada Analyst/ })
      .getByRole('cell', { name: '90%' })
      .waitFor();

    // A hard stop: the incident appears live; resolving it raises the budget and resumes Ada.
    await spend(1800);
    const incidents = page.getByRole('region', { name: 'Open incidents' });
    const row = incidents.getByRole('row', { name: /Ada Analyst/ });
    await row.getByText('Stopped').waitFor({ timeout: 15_000 });
    await row.getByText('$21.00 of $20.00').waitFor();
    await page.getByText('Agents paused by a budget1').waitFor();
    assert.equal((await board.api('GET', `/api/agents/${ada.id}`)).pauseReason, 'budget');
    await checkAccessibility(page, 'the budgets page with an open incident');
    await screenshot(page, 'budgets');

    await row.getByRole('button', { name: 'Resolve…' }).click();
    const resolve = page.getByRole('dialog', { name: 'Resolve the budget stop of Ada Analyst' });
    await resolve.getByLabel('New budget (USD)').fill('40');
    await resolve.getByRole('button', { name: 'Resolve' }).click();
    await resolve.waitFor({ state: 'detached' });
    await page.getByText('No open incidents').waitFor({ timeout: 10_000 });
    await agents
      .getByRole('img', { name: 'Ada Analyst spend budget: $21.00 of $40.00 (52.5%)' })
      .waitFor({ timeout: 10_000 });
    const resumed = await board.api('GET', `/api/agents/${ada.id}`);
    assert.equal(resumed.status, 'idle');
    await checkAccessibility(page, 'the budgets page after the incident was resolved');
    await page.close();
  });
});
