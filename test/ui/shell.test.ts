// The board's frame in a real browser: sign-in (a bad link, a good one, sign-out from the user menu), the redirect of an
// empty instance to onboarding, the company frame with its sidebar, and a 401 anywhere leading back
// to sign-in rather than to a blank page.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkAccessibility, screenshot, startBoard } from '../helpers/browser.ts';

const board = await startBoard();

describe('board shell', () => {
  it('sends a visitor without a session to the sign-in page, which explains how to get a link', async () => {
    const page = await board.anonymousPage();
    await page.goto('/c/00000000-0000-4000-8000-000000000000/issues');
    await page.waitForURL(/\/sign-in\?next=/);
    await page.getByRole('heading', { name: 'Sign in to Boardroom' }).waitFor();
    assert.match((await page.textContent('main')) ?? '', /login-url/);
    await checkAccessibility(page, 'the sign-in page');
    await screenshot(page, 'sign-in');
  });

  it('a used link leads to the sign-in page saying so', async () => {
    const page = await board.anonymousPage();
    await page.goto('/api/auth/login?token=login_made_up');
    await page.waitForURL(/\/sign-in\?reason=link-invalid/);
    await page.getByRole('alert').filter({ hasText: 'already used or expired' }).waitFor();
  });

  it('signs in with a link, shows onboarding on an empty instance, then the company frame', async () => {
    const page = await board.signedInPage();
    await page.waitForURL(/\/onboarding$/);
    const company = await board.api('POST', '/api/companies', { name: 'Acme' });
    await page.goto('/');
    await page.waitForURL(new RegExp(`/c/${company.id}/dashboard$`));
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: /Issues/ })
      .waitFor();
    await page.getByText('Live', { exact: true }).waitFor();
    await checkAccessibility(page, 'the company frame');
  });

  it('signing out ends the session: the sign-in page says so and the board asks for a link again', async () => {
    const page = await board.signedInPage();
    // Sign out is in the user menu at the bottom of the sidebar.
    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL(/\/sign-in\?reason=signed-out/);
    await page.getByText('You are signed out.').waitFor();
    await page.goto('/');
    await page.waitForURL(/\/sign-in\?next=/);
  });
});
