// The activity page in a real browser: filters by what an entry is about, who acted and the action,
// kept in the URL through a reload; entries link to their issue, agent, approval, and a run to its
// own page; new entries appear live. axe on the filtered states.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { checkAccessibility, startBoard } from '../helpers/browser.ts';
import { tempDir } from '../helpers/server-process.ts';
import { waitFor } from '../helpers/wait.ts';

const board = await startBoard();
const work = await tempDir('boardroom-ui-activity-');
const company = await board.api('POST', '/api/companies', { name: 'Audit Co' });
const C = company.id;
const script = path.join(work, 'ok.mjs');
await writeFile(script, "process.stdout.write('done\\n');\n");
const agent = await board.api('POST', `/api/companies/${C}/agents`, {
  name: 'Ada Auditor',
  role: 'engineer',
  adapterType: 'process',
  adapterConfig: { command: process.execPath, args: [script], timeoutSec: 60 },
});
const issue = await board.api('POST', `/api/companies/${C}/issues`, { title: 'Count the spoons' });
const approval = await board.api('POST', `/api/companies/${C}/approvals`, {
  type: 'request_board_approval',
  requestedByAgentId: agent.id,
  payload: { title: 'Buy more spoons' },
});
await board.api('POST', `/api/agents/${agent.id}/wakeup`, { reason: 'count them', payload: { issueId: issue.id } });
await waitFor(
  'the run finished',
  async () => {
    const runs = await board.api<any[]>('GET', `/api/companies/${C}/heartbeat-runs?agentId=${agent.id}`);
    return runs.some((run) => run.status === 'succeeded');
  },
  60_000,
);
// An entry by the agent itself (actorType agent), through the board-only activity route.
await board.api('POST', `/api/companies/${C}/activity`, {
  actorType: 'agent',
  actorId: agent.id,
  agentId: agent.id,
  action: 'spoons.counted',
  entityType: 'issue',
  entityId: issue.id,
  details: { identifier: issue.identifier, title: issue.title, spoons: 12 },
});

const table = (page: import('playwright-core').Page) => page.getByRole('table', { name: /Activity entries/ });

describe('activity', () => {
  it('filters survive a reload and the entries link to what they are about', async () => {
    const page = await board.signedInPage();
    await page.goto(`/c/${C}/activity`);
    await table(page).getByRole('cell', { name: 'issue.created' }).waitFor();
    await checkAccessibility(page, 'the activity page');

    await page.getByLabel('About').selectOption('issue');
    await page.waitForURL(/entityType=issue/);
    await page.getByLabel('Actor').selectOption({ label: 'Ada Auditor' });
    await page.waitForURL(new RegExp(`actor=agent%3A${agent.id}|actor=agent:${agent.id}`));
    await table(page).getByRole('cell', { name: 'spoons.counted' }).waitFor();
    await waitFor("only the agent's issue entries", async () => (await table(page).getByRole('row').count()) === 2);

    await page.reload();
    await table(page).getByRole('cell', { name: 'spoons.counted' }).waitFor();
    assert.equal(await page.getByLabel('About').inputValue(), 'issue');
    // The Actor choices (the company's agents) may load after the entries: the select shows the
    // filter from the address once its option exists.
    await waitFor(
      'the Actor filter restored',
      async () => (await page.getByLabel('Actor').inputValue()) === `agent:${agent.id}`,
    );
    assert.equal(await table(page).getByRole('row').count(), 2, 'header and one entry');
    await checkAccessibility(page, 'the activity page, filtered');

    // The issue entry leads to its issue; the actor to the agent.
    const row = table(page).getByRole('row').filter({ hasText: 'spoons.counted' });
    assert.equal(
      await row.getByRole('link', { name: `${issue.identifier} Count the spoons` }).getAttribute('href'),
      `/c/${C}/issues/${issue.id}`,
    );
    assert.equal(
      await row.getByRole('link', { name: 'Ada Auditor' }).getAttribute('href'),
      `/c/${C}/agents/${agent.id}`,
    );

    // The action filter, by the board this time: exact match, applied on submit.
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.waitForURL((url) => url.search === '');
    await page.getByLabel('Action').fill('approval.created');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/action=approval.created/);
    const approvalRow = table(page).getByRole('row').filter({ hasText: 'approval.created' });
    await approvalRow.waitFor();
    // The unfiltered rows stay on screen until the filtered read answers.
    await waitFor(
      'only the header and the approval row',
      async () => (await table(page).getByRole('row').count()) === 2,
    );
    await page.reload();
    await approvalRow.waitFor();
    assert.equal(await page.getByLabel('Action').inputValue(), 'approval.created');
    await approvalRow.getByRole('link', { name: /approval/ }).click();
    await page.waitForURL(new RegExp(`/c/${C}/approvals/${approval.id}$`));
    await page.getByRole('heading', { name: 'Board approval: Buy more spoons' }).waitFor();
  });

  it('a run entry links to its run page, an agent entry to the agent; new entries appear live', async () => {
    const page = await board.signedInPage();
    await page.goto(`/c/${C}/activity?entityType=heartbeat_run`);
    const runRow = table(page).getByRole('row').filter({ hasText: 'heartbeat_run.succeeded' });
    await runRow.waitFor();
    const [run] = await board.api<any[]>(
      'GET',
      `/api/companies/${C}/heartbeat-runs?agentId=${agent.id}&status=succeeded`,
    );
    assert.equal(await runRow.getByRole('link', { name: /^run / }).getAttribute('href'), `/c/${C}/runs/${run.runId}`);
    // Entries involving the agent include its runs, which the engine wrote (the actor is the system).
    await page.getByLabel('Involving').selectOption({ label: 'Ada Auditor' });
    await page.waitForURL(new RegExp(`agentId=${agent.id}`));
    await runRow.waitFor();
    assert.equal(await page.getByLabel('About').inputValue(), 'heartbeat_run');

    await page.goto(`/c/${C}/activity?entityType=agent`);
    const agentRow = table(page).getByRole('row').filter({ hasText: 'agent.created' });
    await agentRow.waitFor();
    assert.equal(
      await agentRow.getByRole('link', { name: 'Ada Auditor' }).last().getAttribute('href'),
      `/c/${C}/agents/${agent.id}`,
    );

    // Live: an entry written now shows up without a reload, within the filter.
    await page.goto(`/c/${C}/activity?entityType=issue`);
    await table(page).getByRole('cell', { name: 'issue.created' }).first().waitFor();
    const fresh = await board.api('POST', `/api/companies/${C}/issues`, { title: 'Polish the forks' });
    await table(page)
      .getByRole('link', { name: `${fresh.identifier} Polish the forks` })
      .waitFor({ timeout: 15_000 });
  });
});
