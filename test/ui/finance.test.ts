// The finance page in a real browser: an event recorded and shown in the list and the summary; a
// server validation error shown at its field; a submit whose answer was lost to a network error
// (the server had recorded it) retried without a second event. axe on every state.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkAccessibility, pickOption, screenshot, startBoard } from '../helpers/browser.ts';
import { waitFor } from '../helpers/wait.ts';

const board = await startBoard();
const company = await board.api('POST', '/api/companies', { name: 'Finance Co' });
const C = company.id;
const events = () => board.api<any[]>('GET', `/api/companies/${C}/costs/finance-events?limit=500`);

describe('finance page', () => {
  it('records an event, shows it in the list and the summary, and a retried submit is not duplicated', async () => {
    const page = await board.signedInPage();
    await page.goto(`/c/${C}/finance`);
    await page.getByText('No finance events yet').waitFor();
    await page.getByText('None recorded yet.').waitFor();
    await checkAccessibility(page, 'the finance page, empty');

    const form = page.getByRole('region', { name: 'Record a finance event' });
    await form.getByLabel('Kind', { exact: true }).fill('platform_fee');
    await form.getByLabel('Amount', { exact: true }).fill('120.50');
    await form.getByLabel('Currency').fill('XYZ');
    await form.getByLabel(/^Biller/).fill('openrouter');
    await form.getByRole('button', { name: 'Record' }).click();
    const currency = form.getByLabel('Currency');
    await waitFor(
      'the currency field marked invalid',
      async () => (await currency.getAttribute('aria-invalid')) === 'true',
    );
    assert.match(
      (await page.locator(`#${await currency.getAttribute('aria-describedby')}`).textContent()) ?? '',
      /ISO 4217/,
    );
    await checkAccessibility(page, 'the finance form with a field error');
    await currency.fill('USD');
    await form.getByRole('button', { name: 'Record' }).click();
    await form.getByRole('status').getByText('Recorded: platform_fee, debit $120.50.').waitFor();
    const list = page.getByRole('region', { name: 'Events' });
    await list.getByRole('row', { name: /platform_fee openrouter −\$120\.50 debit/ }).waitFor();
    const summary = page.getByRole('region', { name: 'Summary' });
    await summary
      .getByRole('table', { name: 'Totals per currency' })
      .getByRole('row', { name: 'USD $120.50 $0.00 $120.50 1' })
      .waitFor();
    await summary
      .getByRole('table', { name: 'Totals by biller' })
      .getByRole('row', { name: /^openrouter USD \$120\.50/ })
      .waitFor();

    // The first submit reaches the server, which records it, but its answer is lost.
    let lost = 0;
    await page.route('**/api/companies/*/finance-events', async (route) => {
      await route.fetch();
      lost++;
      await route.abort('failed');
    });
    await form.getByLabel('Kind', { exact: true }).fill('credit_refund');
    await pickOption(form, 'Direction', 'Credit: money in');
    await form.getByLabel('Amount', { exact: true }).fill('30');
    await form.getByRole('button', { name: 'Record' }).click();
    await form.getByRole('alert').getByText('The finance event was not recorded').waitFor();
    await form.getByText('Submitting again is safe').waitFor();
    assert.equal(lost, 1);
    assert.equal((await events()).filter((e) => e.kind === 'credit_refund').length, 1, 'the server did record it');
    await checkAccessibility(page, 'the finance form after a network error');

    await page.unroute('**/api/companies/*/finance-events');
    await form.getByRole('button', { name: 'Record' }).click();
    await form
      .getByRole('status')
      .getByText(/^Already recorded: credit_refund, credit \$30\.00\./)
      .waitFor();
    assert.equal(
      (await events()).filter((e) => e.kind === 'credit_refund').length,
      1,
      'the retry recorded nothing again',
    );
    await list.getByRole('row', { name: /credit_refund/ }).waitFor();
    assert.equal(await list.getByRole('row', { name: /credit_refund/ }).count(), 1);
    await summary
      .getByRole('table', { name: 'Totals per currency' })
      .getByRole('row', { name: 'USD $120.50 $30.00 $90.50 2' })
      .waitFor();
    await summary
      .getByRole('table', { name: 'Totals by kind' })
      .getByRole('row', { name: /^credit_refund USD \$0\.00 \$30\.00/ })
      .waitFor();

    // Recorded elsewhere: the page follows live.
    await board.api('POST', `/api/companies/${C}/finance-events`, {
      kind: 'credit_purchase',
      direction: 'debit',
      amountCents: 5_000,
      currency: 'EUR',
      occurredAt: new Date().toISOString(),
    });
    await summary
      .getByRole('table', { name: 'Totals per currency' })
      .getByRole('row', { name: /^EUR €50\.00/ })
      .waitFor({ timeout: 10_000 });
    await list.getByRole('row', { name: /credit_purchase/ }).waitFor();
    await checkAccessibility(page, 'the finance page with events');
    await screenshot(page, 'finance');
    await page.close();
  });
});
