// An unknown address in a real browser: under a company it shows in the company's frame (the sidebar
// stays), says so in words and offers the dashboard and Back; at 390 px nothing scrolls sideways.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkAccessibility, screenshot, startBoard } from '../helpers/browser.ts';

const board = await startBoard();

describe('not found', () => {
  it('keeps the sidebar and leads back to the dashboard or the page before', async () => {
    const company = await board.api('POST', '/api/companies', { name: 'Northwind Labs' });
    const C = company.id;
    const page = await board.signedInPage({ width: 1440, height: 900 });
    await page.goto(`/c/${C}/issues`);
    await page.getByRole('heading', { level: 1, name: 'Issues' }).waitFor();
    await page.goto(`/c/${C}/no-such-page`);
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: /Dashboard/ })
      .waitFor();
    await page.getByText('/no-such-page', { exact: true }).waitFor();
    assert.equal(await page.getByText(C).count(), 0, 'no company id in the text');
    await checkAccessibility(page, 'the not-found page');
    await screenshot(page, 'not-found');

    await page.getByRole('button', { name: 'Back' }).click();
    await page.waitForURL(new RegExp(`/c/${C}/issues$`));
    await page.goForward();
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    await page.getByRole('link', { name: 'Go to the dashboard' }).click();
    await page.waitForURL(new RegExp(`/c/${C}/dashboard$`));

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/c/${C}/a/rather/long/address/that/does/not/exist/anywhere/on/the/board`);
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= 390, `the page is ${wide} px wide`);
  });
});
