// In local_trusted mode the board needs no sign-in: a visitor is the local board user at once, and
// there is no sign-out to offer.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkAccessibility, startBoard } from '../helpers/browser.ts';

const board = await startBoard({ BOARDROOM_DEPLOYMENT_MODE: 'local_trusted' });

describe('board in local_trusted mode', () => {
  it('opens without a sign-in, onboarding on an empty instance, then the company', async () => {
    const page = await board.anonymousPage();
    await page.goto('/');
    await page.waitForURL(/\/onboarding$/);
    await checkAccessibility(page, 'onboarding in local_trusted mode');
    const company = await board.api('POST', '/api/companies', { name: 'Solo' });
    await page.goto('/');
    await page.waitForURL(new RegExp(`/c/${company.id}/dashboard$`));
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Sign out' }).count(), 0);
  });
});
