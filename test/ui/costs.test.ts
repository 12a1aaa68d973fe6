// The costs page in a real browser, and the journey "a budget that hard-stops a running run, seen
// from the costs page": a process agent prints lines while the board reports its spend; the costs
// page shows the spend rise live; when the agent's hard-stop budget is reached its live run's
// transcript ends and the agent shows paused by budget, on its page and on the costs page. Also the
// window and grouping in the URL, subscription usage apart from metered spend, and the page at
// 390 px. axe on every state visited.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { checkAccessibility, screenshot, startBoard } from '../helpers/browser.ts';
import { tempDir } from '../helpers/server-process.ts';

const board = await startBoard();

/** A process agent's script: a line every 200 ms for up to 40 s, so a stop lands mid-run. */
const script = path.join(await tempDir('costs-ui-'), 'agent.mjs');
await writeFile(
  script,
  [
    'for await (const _ of process.stdin) {}',
    'for (let i = 1; i <= 200; i++) {',
    '  console.log(`working: step ${i}`);',
    '  await new Promise((resolve) => setTimeout(resolve, 200));',
    '}',
  ].join('\n'),
);

const company = await board.api('POST', '/api/companies', { name: 'Costs Co' });
const C = company.id;
const spender = await board.api('POST', `/api/companies/${C}/agents`, {
  name: 'Spender',
  role: 'engineer',
  adapterType: 'process',
  adapterConfig: { command: process.execPath, args: [script], timeoutSec: 60 },
});
const helper = await board.api('POST', `/api/companies/${C}/agents`, {
  name: 'Helper',
  role: 'engineer',
  adapterType: 'process',
  adapterConfig: { command: 'true' },
});

const report = (agentId: string, costCents: number, fields: Record<string, unknown> = {}) =>
  board.api('POST', `/api/companies/${C}/cost-events`, {
    agentId,
    provider: 'anthropic',
    model: 'claude-sonnet-4',
    costCents,
    inputTokens: 12_000,
    outputTokens: 800,
    billingType: 'metered_api',
    occurredAt: new Date().toISOString(),
    ...fields,
  });

/** The by-agent table's row of an agent. */
const agentRow = (page: Page, name: string) =>
  page.getByRole('table', { name: /^Spend by agent/ }).getByRole('row', { name: new RegExp(`^${name}`) });

describe('costs page', () => {
  it('a hard-stop budget stops a running run while the costs page shows the spend rise live', async () => {
    // 5 USD for Spender this month, hard stop on.
    await board.api('POST', `/api/companies/${C}/budgets/policies`, {
      scopeType: 'agent',
      scopeId: spender.id,
      amount: 500,
      hardStopEnabled: true,
    });
    const costs = await board.signedInPage();
    await costs.goto(`/c/${C}/costs`);
    await costs.getByText(/No spend in this window/).waitFor();
    await checkAccessibility(costs, 'the costs page, no spend yet');

    const agentPage = await board.signedInPage();
    await agentPage.goto(`/c/${C}/agents/${spender.id}/runs`);
    await board.api('POST', `/api/agents/${spender.id}/wakeup`, { reason: 'costs journey' });
    const transcript = agentPage.getByTestId('run-transcript');
    await transcript.getByText('working: step 3').waitFor({ timeout: 30_000 });

    await report(spender.id, 200);
    await agentRow(costs, 'Spender').getByRole('cell', { name: '$2.00' }).waitFor({ timeout: 10_000 });
    await costs.getByRole('img', { name: /^Spend by agent, month to date/ }).waitFor();
    await report(helper.id, 40, {
      billingType: 'subscription_included',
      costCents: 0,
      inputTokens: 50_000,
      outputTokens: 2_000,
    });
    await report(spender.id, 150);
    await agentRow(costs, 'Spender').getByRole('cell', { name: '$3.50' }).waitFor({ timeout: 10_000 });
    await costs
      .getByRole('navigation', { name: 'Window' })
      .getByRole('link', { name: /Month to date\s*\$3\.50/ })
      .waitFor();
    // Subscription usage is apart: tokens, no cost.
    const billing = costs.getByRole('region', { name: 'Metered spend and subscription usage' });
    await billing.getByRole('row', { name: /Included in a subscription \$0\.00 50K/ }).waitFor({ timeout: 10_000 });
    await billing.getByRole('row', { name: /Metered API \$3\.50/ }).waitFor();
    assert.ok((await transcript.textContent())!.includes('working'), 'the run is still live');
    assert.equal(await agentPage.getByText(/^Run ended:/).count(), 0);
    await checkAccessibility(costs, 'the costs page with live spend');

    // The crossing: 3.50 + 2.00 reaches the 5.00 budget.
    await report(spender.id, 200);
    await agentPage.getByText(/^Run ended: /).waitFor({ timeout: 15_000 });
    await agentPage.getByText('Paused by budget').waitFor({ timeout: 10_000 });
    const spenderRow = agentRow(costs, 'Spender');
    await spenderRow.getByRole('cell', { name: '$5.50' }).waitFor({ timeout: 10_000 });
    await spenderRow.getByText('Paused by budget').waitFor({ timeout: 10_000 });
    const run = (await board.api<any[]>('GET', `/api/companies/${C}/heartbeat-runs?agentId=${spender.id}`))[0];
    assert.equal(run.status, 'cancelled');
    assert.equal((await board.api('GET', `/api/agents/${spender.id}`)).pauseReason, 'budget');
    await checkAccessibility(costs, 'the costs page after a budget stop');
    await checkAccessibility(agentPage, 'the stopped run on the agent page');
    await screenshot(costs, 'costs');
    await agentPage.close();
    await costs.close();
  });

  it('window and grouping live in the URL; groupings by provider, biller, model and project', async () => {
    const project = await board.api('POST', `/api/companies/${C}/projects`, { name: 'Apollo' });
    await report(helper.id, 75, {
      provider: 'openai',
      model: 'gpt-5',
      biller: 'openrouter',
      projectId: project.id,
      occurredAt: new Date(Date.now() - 3 * 86_400_000).toISOString(),
    });
    const page = await board.signedInPage();
    await page.goto(`/c/${C}/costs`);
    await page.getByRole('navigation', { name: 'Group by' }).getByRole('link', { name: 'Biller' }).click();
    await page.waitForURL(/by=biller/);
    await page
      .getByRole('table', { name: /^Spend by biller/ })
      .getByRole('row', { name: /^openrouter \$0\.75/ })
      .waitFor();
    await page
      .getByRole('navigation', { name: 'Window' })
      .getByRole('link', { name: /Last 24 hours/ })
      .click();
    await page.waitForURL(/window=24h/);
    await page.getByRole('table', { name: 'Spend by biller, last 24 hours' }).waitFor();
    assert.equal(await page.getByRole('row', { name: /^openrouter/ }).count(), 0, 'three days ago is outside 24 hours');
    await page.reload();
    await page
      .getByRole('navigation', { name: 'Window' })
      .getByRole('link', { name: /Last 24 hours/ })
      .and(page.locator('[aria-current="page"]'))
      .waitFor();

    await page.goto(`/c/${C}/costs?window=7d&by=model`);
    const models = page.getByRole('table', { name: 'Spend by model, last 7 days' });
    await models.getByRole('row', { name: /^gpt-5 \(openai\) \$0\.75/ }).waitFor();
    await models.getByRole('row', { name: /^claude-sonnet-4 \(anthropic\) \$5\.50/ }).waitFor();
    await page.getByRole('navigation', { name: 'Group by' }).getByRole('link', { name: 'Project' }).click();
    await page
      .getByRole('table', { name: 'Spend by project, last 7 days' })
      .getByRole('row', { name: /^Apollo \$0\.75/ })
      .waitFor();
    await page.getByRole('navigation', { name: 'Group by' }).getByRole('link', { name: 'Provider' }).click();
    await page
      .getByRole('table', { name: 'Spend by provider, last 7 days' })
      .getByRole('row', { name: /^anthropic \$5\.50/ })
      .waitFor();
    await checkAccessibility(page, 'the costs page by provider over 7 days');
    await page.close();
  });

  it('is usable at 390 px: no sideways scroll, the windows and groupings reachable', async () => {
    const page = await board.signedInPage({ width: 390, height: 844 });
    await page.goto(`/c/${C}/costs`);
    await page.getByRole('img', { name: /^Spend by agent/ }).waitFor();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
    const chart = await page.getByRole('img', { name: /^Spend by agent/ }).boundingBox();
    assert.ok(chart && chart.width > 250 && chart.x + chart.width <= 390, `chart box ${JSON.stringify(chart)}`);
    await page.getByRole('navigation', { name: 'Group by' }).getByRole('link', { name: 'Project' }).click();
    await page.waitForURL(/by=project/);
    await page
      .getByRole('navigation', { name: 'Window' })
      .getByRole('link', { name: /Last 7 days/ })
      .click();
    await page.getByRole('table', { name: 'Spend by project, last 7 days' }).waitFor();
    await checkAccessibility(page, 'the costs page at 390 px');
    await screenshot(page, 'costs-narrow');
    await page.close();
  });
});
