// Every page of the board at 390 px, with data in it: nothing scrolls sideways (neither the document
// nor the page's own scroller; a table may scroll inside its own box), axe finds no serious or critical
// violation, and the navigation is the bottom tab bar whose More sheet holds the rest of the places,
// the company switcher and the user menu.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { checkAccessibility, screenshot, startBoard } from '../helpers/browser.ts';
import { tempDir } from '../helpers/server-process.ts';
import { sidewaysOverflow } from '../helpers/sideways.ts';
import { waitFor } from '../helpers/wait.ts';

const NARROW = { width: 390, height: 844 };
const board = await startBoard();
const LONG = 'Reconcile the warehouse pick-path planner with the supplier feed for aisle three before the audit';

// Made at the top level: a temp dir made inside a hook is removed when the hook ends.
const script = path.join(await tempDir('narrow-ui-'), 'agent.mjs');
await writeFile(
  script,
  [
    'for await (const _ of process.stdin) {}',
    `console.log(${JSON.stringify(`${'a-very-long-unbroken-log-line-'.repeat(12)} done`)});`,
  ].join('\n'),
);

let C = '';
const at: Record<string, string> = {};

before(async () => {
  C = (await board.api('POST', '/api/companies', { name: 'Narrow Co' })).id;
  const agent = await board.api('POST', `/api/companies/${C}/agents`, {
    name: 'Nara Narrowfield-Longname',
    role: 'engineer',
    title: 'Senior platform engineer for distributed warehouses',
    adapterType: 'process',
    adapterConfig: { command: process.execPath, args: [script], env: { LOG_LEVEL: 'debug' } },
    budgetMonthlyCents: 5_000,
  });
  at.agent = agent.id;
  const issue = await board.api('POST', `/api/companies/${C}/issues`, {
    title: LONG,
    description: `A long body with a URL https://example.com/${'x'.repeat(120)} and a table:\n\n| a | b |\n|---|---|\n| 1 | 2 |`,
    status: 'todo',
    priority: 'high',
    assigneeAgentId: agent.id,
  });
  at.issue = issue.identifier;
  const run = await waitFor(
    'the assigned issue to wake a run that finishes',
    async () => {
      const runs = await board.api<any[]>('GET', `/api/companies/${C}/heartbeat-runs?agentId=${agent.id}`);
      return runs.find((r) => r.status === 'succeeded');
    },
    45_000,
  );
  at.run = run.runId;
  at.approval = (
    await board.api('POST', `/api/companies/${C}/approvals`, {
      type: 'request_board_approval',
      requestedByAgentId: agent.id,
      issueIds: [issue.id],
      payload: { title: `Approve: ${LONG}`, summary: 'A long **summary**.', recommendedAction: 'Approve' },
    })
  ).id;
  at.routine = (
    await board.api('POST', `/api/companies/${C}/routines`, { title: `Weekly ${LONG}`, assigneeAgentId: agent.id }, 201)
  ).id;
  await board.api('POST', `/api/companies/${C}/goals`, { title: `Goal: ${LONG}` });
  at.project = (
    await board.api('POST', `/api/companies/${C}/projects`, { name: 'Warehouse platform modernisation' })
  ).id;
  await board.api('POST', `/api/companies/${C}/secrets`, {
    name: 'SUPPLIER_FEED_API_TOKEN_FOR_PRODUCTION',
    value: 's3cret',
  });
  await board.api('POST', `/api/companies/${C}/cost-events`, {
    agentId: agent.id,
    provider: 'anthropic',
    model: 'claude-sonnet-with-a-long-model-name',
    costCents: 1_234,
    occurredAt: new Date().toISOString(),
  });
  await board.api('POST', `/api/companies/${C}/finance-events`, {
    kind: 'credit_purchase',
    direction: 'debit',
    amountCents: 5_000,
    currency: 'EUR',
    occurredAt: new Date().toISOString(),
  });
  at.skill = (await board.api<any[]>('GET', `/api/companies/${C}/skills`))[0].id;
});

describe('the board at 390 px', () => {
  it('no page scrolls sideways, and axe passes on each', async () => {
    const pages: [string, string][] = [
      ['dashboard', 'dashboard'],
      ['inbox', 'inbox'],
      ['issues', 'issues'],
      ['an issue', `issues/${at.issue}`],
      ['agents', 'agents'],
      ['an agent', `agents/${at.agent}`],
      ["an agent's runs", `agents/${at.agent}/runs`],
      ["an agent's configuration", `agents/${at.agent}/configuration`],
      ["an agent's keys", `agents/${at.agent}/keys`],
      ['org', 'org'],
      ['approvals', 'approvals'],
      ['an approval', `approvals/${at.approval}`],
      ['activity', 'activity'],
      ['costs', 'costs'],
      ['budgets', 'budgets'],
      ['finance', 'finance'],
      ['routines', 'routines'],
      ['a routine', `routines/${at.routine}`],
      ['goals', 'goals'],
      ['projects', 'projects'],
      ['a project', `projects/${at.project}`],
      ['skills', 'skills'],
      ['a skill', `skills/${at.skill}`],
      ['secrets', 'secrets'],
      ['settings', 'settings'],
      ['portability', 'portability'],
      ['instance', 'instance'],
      ['a run', `runs/${at.run}`],
    ];
    const page = await board.signedInPage(NARROW);
    const problems: string[] = [];
    for (const [name, where] of pages) {
      await page.goto(`/c/${C}/${where}`);
      await page.locator('main h1').first().waitFor();
      await waitFor(
        `${name} to finish loading`,
        async () => (await page.locator('main .loading').count()) === 0,
        20_000,
      );
      const overflow = await sidewaysOverflow(page);
      if (overflow.document > 0 || overflow.main > 0)
        problems.push(`${name}: document +${overflow.document} px, page +${overflow.main} px; ${overflow.widest}`);
      // Every page is visited before failing, so one run names every problem.
      await checkAccessibility(page, `${name} at 390 px`).catch((error: Error) => problems.push(error.message));
    }
    assert.deepEqual(problems, [], 'pages that scroll sideways or fail axe at 390 px');
  });

  it('navigates by the bottom tab bar; More opens a sheet with the rest, the company switcher and the user menu', async () => {
    const page = await board.signedInPage(NARROW);
    await page.goto(`/c/${C}/dashboard`);
    const tabs = page.getByRole('navigation', { name: 'Main' });
    for (const label of ['Dashboard', 'Inbox', 'Issues', 'Agents'])
      await tabs.getByRole('link', { name: new RegExp(`^${label}`) }).waitFor();
    // At the bottom of the screen, full width.
    const box = await tabs.boundingBox();
    assert.ok(
      box && Math.abs(box.y + box.height - NARROW.height) <= 1 && box.width === NARROW.width,
      JSON.stringify(box),
    );
    await tabs.getByRole('link', { name: /^Issues/ }).click();
    await page.waitForURL(new RegExp(`/c/${C}/issues$`));

    await tabs.getByRole('button', { name: 'More' }).click();
    const sheet = page.getByRole('dialog', { name: 'More' });
    await sheet.getByRole('combobox', { name: 'Company' }).waitFor();
    await sheet.getByRole('button', { name: /Account menu/ }).waitFor();
    // The tabs' places are not repeated in the sheet; the rest are there.
    assert.equal(await sheet.getByRole('link', { name: /^Issues/ }).count(), 0);
    await sheet.getByRole('link', { name: 'Secrets' }).waitFor();
    await checkAccessibility(page, 'the More sheet');
    await screenshot(page, 'nav-narrow');
    await page.emulateMedia({ colorScheme: 'dark' });
    await checkAccessibility(page, 'the More sheet, dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await sheet.getByRole('link', { name: 'Secrets' }).click();
    await page.waitForURL(new RegExp(`/c/${C}/secrets$`));
    assert.equal(await page.getByRole('dialog', { name: 'More' }).count(), 0);

    // Wide again: the sidebar, no tab bar.
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.locator('.sidebar').waitFor();
    assert.equal(await page.locator('.tab-bar').isVisible(), false);
  });
});
