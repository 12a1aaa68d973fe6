// The first journey of the board: a fresh instance, signed in, lands on onboarding; a company, a
// `process` agent (its command and arguments asked by the adapter's schema), an issue assigned to
// it; then the agent's first run, its transcript appearing line by line as the agent prints.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkAccessibility, screenshot, startBoard } from '../helpers/browser.ts';
import { steppingAgent } from '../helpers/stepping-agent.ts';

const board = await startBoard();

describe('onboarding', () => {
  it('leads from an empty instance to a first run of a process agent whose transcript appears live', async () => {
    const agentScript = await steppingAgent([
      ['Reading ACM-1: Write the launch plan'],
      ['Drafted the outline (4 sections)'],
      ['Plan written; handing back to the board'],
    ]);
    const [command, scriptPath] = [agentScript.adapterConfig.command, agentScript.adapterConfig.args[0]!];
    const page = await board.signedInPage();
    await page.waitForURL(/\/onboarding$/);

    // Company: a missing name is refused on the spot, a bad budget too.
    await page.getByRole('heading', { name: 'Your company' }).waitFor();
    assert.ok(
      await page.getByLabel('Name').evaluate((element) => element === document.activeElement),
      'the first field has focus',
    );
    await checkAccessibility(page, 'onboarding, company step');
    await page.getByLabel(/Monthly budget/).fill('lots');
    await page.getByRole('button', { name: 'Create company' }).click();
    await page.getByText('Give the company a name.').waitFor();
    await page.getByText('Write an amount in dollars').waitFor();
    await checkAccessibility(page, 'onboarding, company step with errors');
    await page.getByLabel('Name').fill('Acme Robotics');
    await page.getByLabel(/Description/).fill('Warehouse robots, built by agents');
    await page.getByLabel(/Monthly budget/).fill('500');
    await page.getByRole('button', { name: 'Create company' }).click();

    // Agent: the adapters of the instance, the process adapter's command asked for.
    await page.getByRole('heading', { name: 'Your first agent' }).waitFor();
    const processAdapter = page.getByRole('radio', { name: /Local process/ });
    await processAdapter.waitFor();
    for (const cli of ['claude_local', 'codex_local'])
      await page.getByRole('radio', { name: new RegExp(cli) }).waitFor();
    assert.ok((await page.getByText(/CLI (detected|not found)/).count()) > 0, 'local CLIs say whether they were found');
    await page.getByLabel('Name').fill('Ada');
    await processAdapter.check();
    await page.getByRole('button', { name: 'Create agent' }).click();
    await page.getByText('The process adapter needs a command.').waitFor();
    await checkAccessibility(page, 'onboarding, agent step');
    await page.getByLabel(/^command/).fill(command);
    await page.getByLabel(/^args/).fill(scriptPath!);
    await page.getByRole('button', { name: 'Create agent' }).click();

    // Issue; going back shows the agent as created, and forward again reuses it.
    await page.getByRole('heading', { name: 'A first issue for Ada' }).waitFor();
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByText('was created').waitFor();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'A first issue for Ada' }).waitFor();
    await checkAccessibility(page, 'onboarding, issue step');
    await page.getByLabel('Title').fill('Write the launch plan');
    await page.getByRole('button', { name: 'Create issue and wake the agent' }).click();

    // The first run: status and transcript, live.
    await page.getByRole('heading', { name: /Ada's first run on/ }).waitFor();
    const transcript = page.getByTestId('run-transcript');
    await transcript.filter({ hasText: 'Reading ACM-1' }).waitFor({ timeout: 30_000 });
    await page.getByRole('status').filter({ hasText: 'Run status: Running' }).waitFor();
    assert.doesNotMatch((await transcript.textContent()) ?? '', /Drafted the outline/);
    await agentScript.go(1);
    await transcript.filter({ hasText: 'Drafted the outline' }).waitFor({ timeout: 10_000 });
    await checkAccessibility(page, 'onboarding, first run');
    await screenshot(page, 'onboarding');
    await agentScript.go(2);
    await transcript.filter({ hasText: 'Plan written' }).waitFor({ timeout: 10_000 });
    await agentScript.go(3);
    await page.getByRole('status').filter({ hasText: 'Run status: Succeeded' }).waitFor({ timeout: 15_000 });

    await page.getByRole('link', { name: 'Go to the dashboard' }).click();
    await page.waitForURL(/\/c\/[0-9a-f-]+\/dashboard$/);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    const [company] = await board.api('GET', '/api/companies');
    assert.equal(company.name, 'Acme Robotics');
    assert.equal(company.budgetMonthlyCents, 50_000);
  });

  it("shows the server's refusal on the step that caused it", async () => {
    const page = await board.signedInPage();
    await page.goto('/onboarding');
    await page.getByLabel('Name').fill('Too rich');
    // An amount the form reads but the server refuses (over its bound of 2,000,000,000 cents).
    await page.getByLabel(/Monthly budget/).fill('99999999999');
    await page.getByRole('button', { name: 'Create company' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'The company could not be created' });
    await alert.waitFor();
    assert.match((await alert.textContent()) ?? '', /budget/i);
    await checkAccessibility(page, 'onboarding, server error');
  });
});
