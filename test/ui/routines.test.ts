// Routines in a real browser: a routine created from the board, a cron trigger with a timezone whose
// previewed first fire time is the nextRunAt the server then reports, "Run now" and the run's issue
// opened from the run history; a webhook trigger showing its URL (once); the policies explained in
// place; the title and description each run's issue gets edited, and a variable declared for a
// placeholder and asked for on Run now; the list and the detail usable at 390 px. axe on every
// state visited.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { checkAccessibility, pickOption, screenshot, startBoard } from '../helpers/browser.ts';
import { tempDir } from '../helpers/server-process.ts';
import { waitFor } from '../helpers/wait.ts';

const board = await startBoard();
const work = await tempDir('boardroom-ui-routines-');
const company = await board.api('POST', '/api/companies', { name: 'Routine Co' });
const C = company.id;
const script = path.join(work, 'ok.mjs');
await writeFile(script, "process.stdout.write('done\\n');\n");
await board.api('POST', `/api/companies/${C}/agents`, {
  name: 'Rita Reporter',
  role: 'engineer',
  adapterType: 'process',
  adapterConfig: { command: process.execPath, args: [script], timeoutSec: 60 },
});

const triggers = (page: Page) => page.getByRole('region', { name: 'Triggers' });

async function assertNoSidewaysScroll(page: Page, what: string) {
  const overflow = await page.evaluate(
    () =>
      Math.max(document.documentElement.scrollWidth, document.querySelector('main')?.scrollWidth ?? 0) -
      document.documentElement.clientWidth,
  );
  assert.ok(overflow <= 0, `${what}: no sideways scrolling (${overflow}px)`);
}

describe('routines', () => {
  let routineId = '';

  it('creates a routine, previews a Tokyo cron from the server, saves it with that nextRunAt, runs it now and opens its issue', async () => {
    const page = await board.signedInPage();
    await page.goto(`/c/${C}/routines`);
    await page.getByText('No routines yet.').waitFor();
    await checkAccessibility(page, 'the empty routines list');

    await page.getByRole('button', { name: 'New routine' }).click();
    const dialog = page.getByRole('dialog', { name: 'New routine' });
    await dialog.getByLabel('Title').fill('Morning report');
    await pickOption(dialog, 'Agent', 'Rita Reporter');
    // The policy help follows the choice.
    await dialog.getByText('a new run links to it instead of opening another').waitFor();
    await pickOption(dialog, 'When a run finds the last issue still open', 'Always a new issue');
    await dialog.getByText('Every run opens its own issue').waitFor();
    await checkAccessibility(page, 'the new routine dialog');
    await dialog.getByRole('button', { name: 'Create routine' }).click();
    await page.waitForURL(/\/routines\/[0-9a-f-]{36}$/);
    routineId = page.url().split('/').pop()!;
    await page.getByRole('heading', { name: 'Morning report' }).waitFor();
    await page.getByText('Schedule ticks missed while no server ran').waitFor();

    // A cron in Tokyo: the preview comes from the server (5 times), then the trigger is saved.
    await page.getByLabel('Cron expression').fill('30 6 * * *');
    await page.getByLabel('Timezone').fill('Asia/Tokyo');
    const preview = page.getByRole('list', { name: 'Next fire times in Asia/Tokyo' });
    await preview.waitFor();
    assert.equal(await preview.getByRole('listitem').count(), 5);
    const previewed = await preview.locator('time').first().getAttribute('datetime');
    assert.ok(previewed, 'the preview carries instants');
    assert.equal(new Date(previewed).getUTCHours(), 21, '06:30 in Tokyo is 21:30 UTC');
    await checkAccessibility(page, 'a routine with a schedule being previewed');
    await page.getByLabel('Label').fill('Every morning');
    await page.getByRole('button', { name: 'Add trigger' }).click();
    await triggers(page).getByRole('listitem').filter({ hasText: 'Every morning' }).waitFor();
    const detail = await board.api('GET', `/api/routines/${routineId}`);
    assert.equal(detail.triggers[0].timezone, 'Asia/Tokyo');
    assert.equal(
      detail.triggers[0].nextRunAt,
      previewed,
      "the preview's first time is the nextRunAt the server reports",
    );
    // The saved trigger's own preview starts at the same instant.
    const saved = triggers(page).getByRole('list', { name: 'Next fire times in Asia/Tokyo' });
    assert.equal(await saved.locator('time').first().getAttribute('datetime'), detail.triggers[0].nextRunAt);
    assert.equal(await page.getByTestId('next-run-at').getAttribute('datetime'), detail.triggers[0].nextRunAt);

    // A wrong expression: the server's reason in place.
    await page.getByLabel('Cron expression').fill('61 * * * *');
    await page.getByRole('alert').filter({ hasText: 'invalid cron expression' }).waitFor();
    await page.getByLabel('Cron expression').fill('');

    // Run now: the run is decided at once; its issue is linked from the run history.
    await page.getByRole('button', { name: 'Run now' }).click();
    await page.getByRole('status').filter({ hasText: 'Last manual run: issue created' }).waitFor();
    const history = page.getByRole('region', { name: 'Run history' });
    const row = history.getByRole('row').filter({ hasText: 'Run now' });
    const issueLink = row.getByRole('link', { name: /Morning report/ });
    await issueLink.waitFor();
    await checkAccessibility(page, 'a routine with a trigger and a run');
    await screenshot(page, 'routine-detail');
    const runs = await board.api('GET', `/api/routines/${routineId}/runs`);
    assert.equal(runs.length, 1);
    assert.equal(runs[0].status, 'issue_created');
    const issue = await board.api('GET', `/api/issues/${runs[0].linkedIssueId}`);
    await issueLink.click();
    await page.waitForURL(new RegExp(`/issues/${issue.identifier}$`));
    await page.getByRole('heading', { name: 'Morning report' }).waitFor();

    // The list: next fire time and the last run.
    await page.goto(`/c/${C}/routines`);
    const item = page.getByRole('listitem').filter({ hasText: 'Morning report' });
    await item.getByText('Issue created').waitFor();
    assert.equal(await item.locator('time').first().getAttribute('datetime'), detail.triggers[0].nextRunAt);
    await checkAccessibility(page, 'the routines list');
    await screenshot(page, 'routines');
  });

  it('adds a webhook trigger, shows its URL and secret once, rotates the secret and deletes the trigger', async () => {
    const page = await board.signedInPage();
    await page.goto(`/c/${C}/routines/${routineId}`);
    await pickOption(page, 'Kind', 'Webhook');
    await pickOption(page, 'Signing', 'HMAC-SHA256');
    await page.getByText('signs the body with the secret').waitFor();
    await page.getByRole('button', { name: 'Add trigger' }).click();
    const issued = page.getByRole('status').filter({ hasText: 'shown only this once' });
    await issued.waitFor();
    const url = await issued.locator('code').first().textContent();
    assert.match(url ?? '', /\/api\/routine-triggers\/public\/[^/]+\/fire$/);
    await checkAccessibility(page, 'a webhook trigger just created');
    // Fired at that URL with a good signature, it records a webhook run.
    const secret = (await issued.locator('code').nth(1).textContent()) ?? '';
    const { createHmac } = await import('node:crypto');
    const body = JSON.stringify({ payload: { note: 'hi' } });
    const fired = await fetch(url!, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-service-signature': createHmac('sha256', secret).update(body).digest('hex'),
      },
      body,
    });
    assert.equal(fired.status, 202);
    await page.getByRole('region', { name: 'Run history' }).getByRole('row').filter({ hasText: 'Webhook' }).waitFor();
    await issued.getByRole('button', { name: 'I have copied them' }).click();
    await issued.waitFor({ state: 'detached' });
    await triggers(page).getByText('rotate the secret to see the URL again').waitFor();
    assert.equal(await page.getByText(secret).count(), 0, 'the secret is gone once dismissed');

    // Rotating shows the same URL with a new secret, once more; the old secret stops working.
    const webhook = triggers(page).getByRole('listitem').filter({ hasText: 'HMAC-SHA256' });
    await webhook.getByRole('button', { name: 'Rotate secret' }).click();
    await issued.waitFor();
    assert.equal(await issued.locator('code').first().textContent(), url);
    const rotated = (await issued.locator('code').nth(1).textContent()) ?? '';
    assert.notEqual(rotated, secret);
    const stale = await fetch(url!, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-service-signature': createHmac('sha256', secret).update(body).digest('hex'),
      },
      body,
    });
    assert.equal(stale.status, 401);
    await issued.getByRole('button', { name: 'I have copied them' }).click();

    // Deleting asks once more, then the trigger is gone and its URL answers 404.
    await webhook.getByRole('button', { name: 'Delete', exact: true }).click();
    await webhook.getByRole('button', { name: 'Delete Webhook trigger' }).click();
    await webhook.waitFor({ state: 'detached' });
    assert.equal(
      (await fetch(url!, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).status,
      404,
    );
    await checkAccessibility(page, 'a routine after its webhook was deleted');

    // The work each run's issue gets: description saved through the API.
    await page.getByLabel('Issue description').fill('Summarise **yesterday**.');
    await page.getByRole('button', { name: 'Save the work' }).click();
    await waitFor(
      'the description saved',
      async () => (await board.api('GET', `/api/routines/${routineId}`)).description === 'Summarise **yesterday**.',
    );
    // Saved, the form starts from the saved values: nothing left to save.
    await page.getByRole('button', { name: 'Save the work' }).and(page.locator(':disabled')).waitFor();
    assert.equal(await page.getByLabel('Issue description').inputValue(), 'Summarise **yesterday**.');
  });

  it('declares a variable for a placeholder, refuses a placeholder left undeclared with the reason, and asks for the value on Run now', async () => {
    const [rita] = await board.api('GET', `/api/companies/${C}/agents`);
    const routine = await board.api(
      'POST',
      `/api/companies/${C}/routines`,
      { title: 'Deploy', assigneeAgentId: rita.id },
      201,
    );
    const page = await board.signedInPage();
    await page.goto(`/c/${C}/routines/${routine.id}`);
    await page.getByLabel('Issue title').fill('Deploy {{service}}');
    await page.getByRole('button', { name: 'Declare service' }).click();
    await page.getByLabel('Label of service').fill('Service');
    await page.getByLabel('service is required').check();
    await page.getByLabel('Default of service').fill('web');
    await checkAccessibility(page, 'a routine with a variable being declared');
    await page.getByRole('group', { name: 'Variables' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'routine-variables');
    await page.getByRole('button', { name: 'Save the work' }).click();
    await waitFor(
      'the title and its variable saved together',
      async () => (await board.api('GET', `/api/routines/${routine.id}`)).title === 'Deploy {{service}}',
    );
    assert.deepEqual((await board.api('GET', `/api/routines/${routine.id}`)).variables, [
      { name: 'service', label: 'Service', type: 'text', required: true, defaultValue: 'web' },
    ]);

    // The form starts again from the saved values once the page has them (an edit made before that
    // would be replaced by them): nothing left to save.
    await page.getByRole('button', { name: 'Save the work' }).and(page.locator(':disabled')).waitFor();
    // Removing the variable while the title still uses it: the page says so, the server refuses it.
    // On a loaded machine the saved values can arrive after the click and replace the edit (as said
    // above): remove it again until there is work to save.
    await waitFor('the variable removed, with work to save', async () => {
      const remove = page.getByRole('button', { name: 'Remove service' });
      if (await remove.isVisible()) await remove.click();
      return page.getByRole('button', { name: 'Save the work' }).isEnabled();
    });
    await page.getByRole('button', { name: 'Declare service' }).waitFor();
    await page.getByRole('button', { name: 'Save the work' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'The work was not saved' })
      .getByText(/service/)
      .waitFor();
    await page.reload();

    // Run now asks for the value, the default filled in.
    await page.getByRole('button', { name: 'Run now…' }).click();
    const ask = page.getByRole('dialog', { name: 'Run Deploy {{service}} now' });
    const value = ask.getByLabel('Service (required)');
    assert.equal(await value.inputValue(), 'web');
    await value.fill('api');
    await checkAccessibility(page, 'the run-now dialog asking for a variable');
    await screenshot(page, 'routine-run-variables');
    await ask.getByRole('button', { name: 'Run', exact: true }).click();
    await ask.waitFor({ state: 'detached' });
    await page.getByRole('status').filter({ hasText: 'Last manual run: issue created' }).waitFor();
    const [run] = await board.api('GET', `/api/routines/${routine.id}/runs`);
    assert.equal((await board.api('GET', `/api/issues/${run.linkedIssueId}`)).title, 'Deploy api');
  });

  it('is usable at 390 px: the list and the detail, Run now within reach', async () => {
    const page = await board.signedInPage({ width: 390, height: 844 });
    await page.goto(`/c/${C}/routines`);
    await page.getByRole('link', { name: 'Morning report' }).waitFor();
    await assertNoSidewaysScroll(page, 'the routines list');
    await checkAccessibility(page, 'the routines list at 390 px');
    await page.getByRole('link', { name: 'Morning report' }).click();
    const runNow = page.getByRole('button', { name: 'Run now' });
    await runNow.waitFor();
    const box = await runNow.boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `Run now on screen: ${JSON.stringify(box)}`);
    await page.getByRole('region', { name: 'Run history' }).getByRole('row').nth(1).waitFor();
    await assertNoSidewaysScroll(page, 'the routine detail');
    await checkAccessibility(page, 'a routine at 390 px');
    await screenshot(page, 'routine-narrow');
  });
});
