// The agents pages in a real browser: the list (status, adapter, current run, spend against budget),
// the detail page's header actions (pause, resume, wake now, terminate, each refusal shown), its tabs
// (the tab in the URL, keyboard-operable), the overview (the live run's last lines, assigned issues,
// spend against budget, success rate), a live run's transcript, the configuration form (labels in
// words, a save checked through the API, an env secret picked by name, a server validation error
// shown at its field) and keys (shown once, revoked). axe runs on the list and on every tab.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { checkAccessibility, pickOption, screenshot, startBoard } from '../helpers/browser.ts';
import { tempDir } from '../helpers/server-process.ts';
import { waitFor } from '../helpers/wait.ts';

const board = await startBoard();
let companyId = '';
let lead: { id: string };
let worker: { id: string };
let secret: { id: string };
let page: Page;

/** A process agent's script: one line, a pause long enough to watch it live, a last line. */
async function agentScript(): Promise<string> {
  const script = path.join(await tempDir('agents-ui-'), 'agent.mjs');
  await writeFile(
    script,
    [
      'for await (const _ of process.stdin) {}',
      "console.log('step 1: reading the backlog');",
      'await new Promise((resolve) => setTimeout(resolve, 15000));',
      "console.log('step 2: all done');",
    ].join('\n'),
  );
  return script;
}

// Made at the top level: a temp dir made inside a hook is removed when the hook ends.
const script = await agentScript();

const agentPage = (agentId: string, tab = '') => `/c/${companyId}/agents/${agentId}${tab && `/${tab}`}`;
const agentStatus = async (agentId: string) => (await board.api('GET', `/api/agents/${agentId}`)).status as string;

before(async () => {
  const company = await board.api('POST', '/api/companies', { name: 'Agents Co' });
  companyId = company.id;
  lead = await board.api('POST', `/api/companies/${companyId}/agents`, {
    name: 'Lead',
    role: 'ceo',
    title: 'Chief executive',
    adapterType: 'process',
    adapterConfig: { command: 'true' },
    budgetMonthlyCents: 100_000,
  });
  worker = await board.api('POST', `/api/companies/${companyId}/agents`, {
    name: 'Worker',
    role: 'engineer',
    title: 'Backend engineer',
    reportsTo: lead.id,
    adapterType: 'process',
    adapterConfig: { command: process.execPath, args: [script], timeoutSec: 60 },
    budgetMonthlyCents: 5_000,
  });
  await board.api('POST', `/api/companies/${companyId}/cost-events`, {
    agentId: worker.id,
    provider: 'acme',
    model: 'm1',
    costCents: 1_250,
    occurredAt: new Date().toISOString(),
  });
  await board.api('POST', `/api/companies/${companyId}/issues`, {
    title: 'Plan the quarter',
    status: 'backlog',
    assigneeAgentId: lead.id,
  });
  secret = await board.api('POST', `/api/companies/${companyId}/secrets`, { name: 'OPENAI_KEY', value: 'sk-test-1' });
  page = await board.signedInPage();
});

describe('agents pages', () => {
  it("lists the agents with role, status, adapter and this month's spend against the budget", async () => {
    await page.goto(`/c/${companyId}/agents`);
    const row = page.getByRole('row', { name: /Worker/ });
    await row.getByText('$12.50').waitFor();
    const text = (await row.textContent()) ?? '';
    assert.match(text, /Backend engineer/);
    assert.match(text, /engineer/);
    assert.match(text, /Idle/);
    assert.match(text, /Process/);
    assert.match(text, /of \$50\.00 \(25%\)/);
    // Words, not keys or raw numbers: no id, no cents.
    assert.doesNotMatch(text, /[0-9a-f]{8}-[0-9a-f]{4}-|1250/);
    await row.getByRole('img', { name: 'Worker, idle' }).waitFor();
    assert.match((await page.getByRole('row', { name: /Lead/ }).textContent()) ?? '', /\$0\.00 of \$1,000\.00 \(0%\)/);
    await checkAccessibility(page, 'the agents list');
    await row.getByRole('link', { name: 'Worker' }).click();
    await page.waitForURL(new RegExp(`${agentPage(worker.id)}$`));
  });

  it('overview shows the org position with the manager linked; the tabs work from the keyboard and live in the URL', async () => {
    await page.goto(agentPage(worker.id));
    await page.getByRole('heading', { name: 'Worker', level: 1 }).waitFor();
    const chain = page.getByRole('navigation', { name: 'Chain of command' });
    await chain.getByRole('link', { name: 'Lead' }).waitFor();
    await page.getByText('No one reports to Worker.').waitFor();
    // Spend against the budget in money words, and honest emptiness before any run.
    await page.getByRole('img', { name: 'Spend this month: $12.50 of $50.00 (25%)' }).waitFor();
    await page.getByText('No finished runs yet.').waitFor();
    await page.getByText(/Not running, and no runs yet/).waitFor();
    await page.getByText('No issues are assigned to Worker.').waitFor();
    await page.getByText('Engineer', { exact: false }).first().waitFor();
    await checkAccessibility(page, 'the agent overview tab');

    await page.getByRole('tab', { name: 'Overview' }).focus();
    await page.keyboard.press('ArrowRight');
    // Radix moves the focus on the next tick; Enter then opens the focused tab.
    await waitFor('the Runs tab to take the focus', () =>
      page.evaluate(`document.activeElement?.textContent === 'Runs'`),
    );
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`${agentPage(worker.id, 'runs')}$`));
    await page.getByRole('tab', { name: 'Runs', selected: true }).waitFor();
    await page.getByText(/No runs yet/).waitFor();
    // The tab is in the URL: a reload opens it again.
    await page.reload();
    await page.getByRole('tab', { name: 'Runs', selected: true }).waitFor();

    await page.goto(agentPage(lead.id));
    const assigned = page.getByRole('region', { name: 'Assigned issues' });
    await assigned.getByRole('link', { name: 'Plan the quarter' }).waitFor();
    await page.getByRole('link', { name: 'Worker' }).click();
    await page.waitForURL(new RegExp(`${agentPage(worker.id)}$`));
  });

  it("pauses and resumes from the header; waking a paused agent shows the server's refusal", async () => {
    await page.goto(agentPage(worker.id));
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByRole('button', { name: 'Resume' }).waitFor();
    assert.equal(await agentStatus(worker.id), 'paused');
    await page.getByRole('button', { name: 'Wake now' }).click();
    const refusal = page.getByRole('alert').filter({ hasText: 'Worker could not be woken' });
    await refusal.waitFor();
    assert.match((await refusal.textContent()) ?? '', /paused/);
    await page.getByRole('button', { name: 'Resume' }).click();
    await page.getByRole('button', { name: 'Pause' }).waitFor();
    assert.equal(await agentStatus(worker.id), 'idle');
  });

  it('wake now starts a run: live on the list, its transcript live on the runs tab with cancel, then ended', async () => {
    await page.goto(agentPage(worker.id));
    await page.getByRole('button', { name: 'Wake now' }).click();
    await page.getByRole('status').filter({ hasText: 'Woken' }).waitFor();
    // The overview shows the live run with its last line and a way to its page.
    const now = page.getByRole('region', { name: 'Now' });
    await now.getByText('step 1: reading the backlog').waitFor({ timeout: 20_000 });
    await now.getByRole('link', { name: 'Open the run' }).waitFor();
    await page.setViewportSize({ width: 1440, height: 900 });
    await checkAccessibility(page, 'the agent overview with a live run');
    await screenshot(page, 'agent-detail');
    await page.emulateMedia({ colorScheme: 'dark' });
    await checkAccessibility(page, 'the agent overview with a live run, dark');
    await screenshot(page, 'agent-detail-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 800 });

    const list = await board.signedInPage();
    await list.goto(`/c/${companyId}/agents`);
    await list
      .getByRole('row', { name: /Worker/ })
      .getByRole('link', { name: /Running|Queued/ })
      .waitFor({ timeout: 20_000 });

    await page.getByRole('tab', { name: 'Runs' }).click();
    await page.waitForURL(new RegExp(`${agentPage(worker.id, 'runs')}$`));
    const transcript = page.getByTestId('run-transcript');
    await transcript.getByText('step 1: reading the backlog').waitFor({ timeout: 20_000 });
    // Still live: the run shows its cancel button while the script waits.
    await page.getByRole('button', { name: 'Cancel run' }).waitFor();
    await screenshot(page, 'agent-runs');
    await checkAccessibility(page, 'the runs tab with a live run');
    // Running looks unlike idle: the avatar says so, and the current run is a live pill that ticks.
    const running = list.getByRole('row', { name: /Worker/ });
    await running.getByRole('img', { name: 'Worker, running' }).waitFor({ timeout: 20_000 });
    await running
      .locator('.live-pill')
      .getByText(/Running · \d+:\d\d/)
      .waitFor();
    await list.getByRole('row', { name: /Lead/ }).getByRole('img', { name: 'Lead, idle' }).waitFor();
    await list.setViewportSize({ width: 1440, height: 900 });
    await checkAccessibility(list, 'the agents list with a running agent');
    await screenshot(list, 'agents');
    await list.emulateMedia({ colorScheme: 'dark' });
    await checkAccessibility(list, 'the agents list with a running agent, dark');
    await screenshot(list, 'agents-dark');
    await list.setViewportSize({ width: 390, height: 844 });
    await screenshot(list, 'agents-narrow');
    await list.emulateMedia({ colorScheme: 'light' });
    await list.setViewportSize({ width: 1280, height: 800 });
    await page.getByText('Run ended: Succeeded').waitFor({ timeout: 45_000 });
    await transcript.getByText('step 2: all done').waitFor();
    await page.getByRole('cell', { name: 'Succeeded' }).waitFor();
    // Once no longer live, the list shows no current run.
    await list
      .getByRole('row', { name: /Worker/ })
      .getByText('None')
      .waitFor({ timeout: 10_000 });
    await list.close();
  });

  it("a finished run's transcript opens on demand", async () => {
    await page.goto(agentPage(worker.id, 'runs'));
    await page.getByRole('button', { name: 'Show transcript' }).click();
    await page.getByTestId('run-transcript').getByText('step 2: all done').waitFor();
    await page.getByRole('button', { name: 'Hide transcript' }).click();
    assert.equal(await page.getByTestId('run-transcript').count(), 0);
  });

  it('the configuration form saves the adapter settings and shows a server validation error at its field', async () => {
    await page.goto(agentPage(worker.id, 'configuration'));
    // Labels in words, never the raw keys.
    const timeout = page.getByLabel('Timeout (seconds)', { exact: true });
    assert.equal(await timeout.inputValue(), '60');
    assert.equal(await page.getByLabel(/^Command/).inputValue(), process.execPath);
    assert.equal(await page.getByText('timeoutSec', { exact: true }).count(), 0);
    await timeout.fill('90');
    await page.getByRole('button', { name: 'Save adapter settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const saved = await board.api('GET', `/api/agents/${worker.id}`);
    assert.equal(saved.adapterConfig.timeoutSec, 90);
    assert.equal(saved.adapterConfig.command, process.execPath);
    assert.equal(saved.adapterConfig.args.length, 1);

    // An env variable bound to a secret picked by name: stored as the API's secret reference.
    const env = page.getByRole('group', { name: 'Environment variables' });
    await env.getByRole('button', { name: 'Add variable' }).click();
    await env.getByLabel('Name of variable 1').fill('OPENAI_API_KEY');
    await pickOption(env, 'Kind of OPENAI_API_KEY', 'Secret');
    await pickOption(env, 'Secret for OPENAI_API_KEY', 'OPENAI_KEY');
    await env.getByRole('button', { name: 'Add variable' }).click();
    await env.getByLabel('Name of variable 2').fill('LOG_LEVEL');
    await env.getByLabel('Value of LOG_LEVEL').fill('debug');
    await page.getByRole('button', { name: 'Save adapter settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    assert.deepEqual((await board.api('GET', `/api/agents/${worker.id}`)).adapterConfig.env, {
      OPENAI_API_KEY: { type: 'secret_ref', secretId: secret.id, version: 'latest' },
      LOG_LEVEL: 'debug',
    });
    await page.reload();
    await page.getByRole('combobox', { name: 'Secret for OPENAI_API_KEY' }).getByText('OPENAI_KEY').waitFor();

    // A client-side problem is shown at the field without a request.
    const other = page.getByLabel('Other settings (JSON)');
    const otherText = await other.inputValue();
    await other.fill('{ not json');
    await page.getByRole('button', { name: 'Save adapter settings' }).click();
    assert.equal(await other.getAttribute('aria-invalid'), 'true');
    await page.getByText(/^Not valid JSON/).waitFor();
    await other.fill(otherText);

    const concurrent = page.getByLabel('Max concurrent runs');
    await concurrent.fill('0');
    await page.getByRole('button', { name: 'Save runtime settings' }).click();
    await page.getByRole('alert').filter({ hasText: 'Runtime settings were not saved' }).waitFor();
    assert.equal(await concurrent.getAttribute('aria-invalid'), 'true');
    const describedBy = (await concurrent.getAttribute('aria-describedby')) ?? '';
    const descriptions = await Promise.all(
      describedBy.split(' ').map((id) => page.locator(`[id="${id}"]`).textContent()),
    );
    assert.ok(
      descriptions.some((d) => /1|greater|>=|too small/i.test(d ?? '') && !/Live runs at once/.test(d ?? '')),
      `no error next to the field: ${descriptions.join(' | ')}`,
    );
    await checkAccessibility(page, 'the configuration tab with a validation error');
    await screenshot(page, 'agent-configuration');

    await concurrent.fill('3');
    await page.getByLabel('Timer wakeups').check();
    await page.getByRole('button', { name: 'Save runtime settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const runtime = (await board.api('GET', `/api/agents/${worker.id}`)).runtimeConfig;
    assert.equal(runtime.maxConcurrentRuns, 3);
    assert.equal(runtime.heartbeat.enabled, true);
  });

  it('creates a key shown once, which works, then revokes it after confirmation', async () => {
    await page.goto(agentPage(worker.id, 'keys'));
    await page.getByText(/No keys yet/).waitFor();
    await page.getByLabel('New key name').fill('ci');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByText('You will not see this key again.', { exact: false }).waitFor();
    const token = await page.getByLabel('The new key').inputValue();
    assert.match(token, /^svc_agent_/);
    const me = (t: string) => fetch(`${board.baseUrl}/api/agents/me`, { headers: { authorization: `Bearer ${t}` } });
    assert.equal((await me(token)).status, 200);
    await page.getByRole('button', { name: 'Copy' }).waitFor();
    await checkAccessibility(page, 'the keys tab with a new token');
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByLabel('The new key').waitFor({ state: 'detached' });

    const row = page.getByRole('row', { name: /ci/ });
    await row.getByText('Active').waitFor();
    await row.getByRole('button', { name: 'Revoke key ci' }).click();
    const dialog = page.getByRole('dialog', { name: /Revoke the key/ });
    await dialog.getByRole('button', { name: 'Keep the key' }).click();
    assert.equal((await me(token)).status, 200);
    await row.getByRole('button', { name: 'Revoke key ci' }).click();
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await row.getByText('Revoked').waitFor();
    assert.equal((await me(token)).status, 401);
  });

  it("terminates after confirmation; the terminated agent's refusals are shown", async () => {
    const temp = await board.api('POST', `/api/companies/${companyId}/agents`, {
      name: 'Temp',
      adapterType: 'process',
      adapterConfig: { command: 'true' },
    });
    await page.goto(agentPage(temp.id));
    const more = page.getByRole('button', { name: 'More actions for Temp' });
    await more.click();
    await page.getByRole('menuitem', { name: 'Terminate…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Terminate Temp?' });
    await dialog.getByText(/cannot be undone/).waitFor();
    await checkAccessibility(page, 'the terminate confirmation');
    await dialog.getByRole('button', { name: 'Keep the agent' }).click();
    assert.equal(await agentStatus(temp.id), 'idle');

    await more.click();
    await page.getByRole('menuitem', { name: 'Terminate…' }).click();
    await dialog.getByRole('button', { name: 'Terminate Temp' }).click();
    await page.getByText('Terminated', { exact: true }).first().waitFor();
    assert.equal(await agentStatus(temp.id), 'terminated');
    assert.equal(await more.count(), 0);
    await page.getByRole('button', { name: 'Wake now' }).click();
    const refusal = page.getByRole('alert').filter({ hasText: 'Temp could not be woken' });
    await refusal.waitFor();
    assert.match((await refusal.textContent()) ?? '', /terminated/);

    await page.goto(`/c/${companyId}/agents`);
    await page.getByRole('row', { name: /Worker/ }).waitFor();
    assert.equal(await page.getByRole('row', { name: /Temp/ }).count(), 0);
  });
});
