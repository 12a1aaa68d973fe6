// A run's workspace and events on its page, and the live dot on the issues list, in a real browser.
// Dev (a `process` agent) works in a real git repository: it checks its issue out, rewrites two lines
// of README.md and adds one, then waits until the test lets it go. While it is live, its issue's row
// in the list and its card on the board carry a live dot named "Dev is working on this"; once it has
// finished the dot goes. The run page then shows the directory (short), the branch and "1 file
// changed, +3 −2", and the run's events as sentences: queued, started, Dev checked the issue out,
// finished. Breaker exits 3: its events end with the failure in words. axe light and dark, 390 px
// without sideways scrolling, no UUID in the text.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { CHECKOUT_ON_WAKE } from '../helpers/agent-scripts.ts';
import { checkAccessibility, screenshot, startBoard } from '../helpers/browser.ts';
import { newGitRepo } from '../helpers/git-repo.ts';
import { tempDir } from '../helpers/server-process.ts';
import { waitFor } from '../helpers/wait.ts';

const board = await startBoard();
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

const work = await tempDir('run-details-');
const repo = path.join(work, 'shop-repo');
const release = path.join(work, 'release');
await newGitRepo(repo, 'feature/run-page', 'one\ntwo\nthree\nfour\nfive\n');

// Checks out the issue it was woken for and edits README.md (1 file, +3 −2); then (dev) waits for
// the release file (at most 90 s), or (breaker) exits 3.
const script = path.join(work, 'agent.mjs');
await writeFile(
  script,
  `import { existsSync, writeFileSync } from 'node:fs';
${CHECKOUT_ON_WAKE}if (process.argv[2] === 'fail') { console.error('cannot go on'); process.exit(3); }
writeFileSync('README.md', 'one\\nTWO\\nthree\\nFOUR\\nfive\\nsix\\n');
const started = Date.now();
while (!existsSync(${JSON.stringify(release)}) && Date.now() - started < 90_000) await new Promise((r) => setTimeout(r, 100));
console.log('released');
`,
);

let C: string;
let dev: { id: string };
let breaker: { id: string };
let devIssue: { id: string; identifier: string };
let failIssue: { id: string; identifier: string };

before(async () => {
  C = (await board.api('POST', '/api/companies', { name: 'Workshop' })).id;
  const agent = (name: string, args: string[], cwd?: string) =>
    board.api('POST', `/api/companies/${C}/agents`, {
      name,
      role: 'engineer',
      adapterType: 'process',
      adapterConfig: { command: process.execPath, args: [script, ...args], timeoutSec: 120, ...(cwd && { cwd }) },
    });
  dev = await agent('Dev', [], repo);
  breaker = await agent('Breaker', ['fail']);
  devIssue = await board.api('POST', `/api/companies/${C}/issues`, { title: 'Tidy the readme', status: 'todo' });
  failIssue = await board.api('POST', `/api/companies/${C}/issues`, { title: 'Break the build', status: 'todo' });
});

const runsOf = (agentId: string) => board.api<any[]>('GET', `/api/companies/${C}/heartbeat-runs?agentId=${agentId}`);
const finishedRunOf = (agentId: string) =>
  waitFor(
    'the run to finish',
    async () => {
      const [run] = await runsOf(agentId);
      return run && !['queued', 'running'].includes(run.status) ? run : null;
    },
    30_000,
  );

async function noSidewaysScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  assert.ok(widths[0]! <= widths[1]!, `the page is ${widths[0]} px wide in a ${widths[1]} px window`);
}

async function noUuidInText(page: Page): Promise<void> {
  assert.doesNotMatch(await page.locator('main').innerText(), UUID);
}

describe('run details', () => {
  it("the issue's row and card carry a live dot while Dev's run is live, and lose it when it ends", async () => {
    const page = await board.signedInPage({ width: 1440, height: 900 });
    await page.goto(`/c/${C}/issues`);
    const row = page.locator(`[data-issue-id="${devIssue.id}"]`);
    await row.waitFor();
    const dot = row.getByRole('img', { name: 'Dev is working on this' });
    assert.equal(await dot.count(), 0, 'no dot before any run');

    await board.api('POST', `/api/agents/${dev.id}/wakeup`, { reason: 'tidy up', payload: { issueId: devIssue.id } });
    await dot.waitFor({ timeout: 30_000 });
    const other = page.locator(`[data-issue-id="${failIssue.id}"]`);
    assert.equal(
      await other.getByRole('img', { name: /working on this|about to start/ }).count(),
      0,
      'an issue no one works on has no dot',
    );
    await checkAccessibility(page, 'the issues list with a live run');
    await screenshot(page, 'issues-live-dot');

    // The board view: the card carries it too.
    await page.getByRole('group', { name: 'View' }).getByRole('button', { name: /board/i }).click();
    const card = page.locator(`.issue-card[data-issue-id="${devIssue.id}"]`);
    await card.getByRole('img', { name: 'Dev is working on this' }).waitFor({ timeout: 30_000 });
    await page.getByRole('group', { name: 'View' }).getByRole('button', { name: /list/i }).click();
    await dot.waitFor({ timeout: 30_000 });

    await writeFile(release, 'go');
    await finishedRunOf(dev.id);
    await dot.waitFor({ state: 'detached', timeout: 30_000 });
    await page.context().close();
  });

  it("the run page shows where Dev worked, what it changed, and the run's events", async () => {
    const [run] = await runsOf(dev.id);
    assert.equal(run.status, 'succeeded');
    const page = await board.signedInPage({ width: 1440, height: 1000 });
    await page.goto(`/c/${C}/runs/${run.runId}`);
    await page.getByRole('heading', { level: 1, name: "Dev's run" }).waitFor();

    const workspace = page.getByRole('region', { name: 'Workspace' });
    await workspace.getByText('feature/run-page').waitFor();
    const text = await workspace.innerText();
    // Three folders deep it is short enough to show whole (a deeper one shows its last two).
    assert.ok(text.includes(repo), `the directory: ${text}`);
    assert.match(text, /The agent's working directory/);
    assert.match(text, /1 file changed, \+3\s+added\s+−2\s+removed/, 'the diff stat, its numbers named for readers');
    assert.equal(await workspace.locator('[title]').first().getAttribute('title'), repo, 'the full path on hover');

    const events = page.getByRole('region', { name: 'Events' });
    const items = events.locator('.timeline-item');
    await waitFor('the run to have its four events', async () => (await items.count()) >= 4, 20_000);
    const sentences = (await items.allInnerTexts()).map((line) => line.replace(/\s*·.*$/s, '').trim());
    assert.deepEqual(
      sentences,
      [
        "The engine queued Dev's run (on demand)",
        "The engine started Dev's run",
        `Dev checked out ${devIssue.identifier}`,
        "The engine finished Dev's run",
      ],
      sentences.join('\n'),
    );
    await events.getByRole('link', { name: devIssue.identifier }).waitFor();
    await noUuidInText(page);
    await checkAccessibility(page, 'a finished run with its workspace and events (light)');
    await screenshot(page, 'run-page-workspace');
    await page.context().close();

    const narrow = await board.signedInPage({ width: 390, height: 844 });
    await narrow.emulateMedia({ colorScheme: 'dark' });
    await narrow.goto(`/c/${C}/runs/${run.runId}`);
    await narrow.getByRole('region', { name: 'Workspace' }).getByText('feature/run-page').waitFor();
    await narrow.evaluate(() => document.documentElement.setAttribute('data-theme', 'dark'));
    await noSidewaysScroll(narrow);
    await checkAccessibility(narrow, 'a run with its workspace and events at 390 px (dark)');
    await screenshot(narrow, 'run-page-workspace-narrow-dark');
    await narrow.context().close();
  });

  it("a failed run's events end with why it failed, in words; a directory not in git says so", async () => {
    await board.api('POST', `/api/agents/${breaker.id}/wakeup`, { reason: 'try', payload: { issueId: failIssue.id } });
    const run = await finishedRunOf(breaker.id);
    assert.equal(run.status, 'failed');
    assert.ok(run.errorHelp?.meaning, 'the API has the failure in words');
    const page = await board.signedInPage({ width: 1440, height: 900 });
    await page.goto(`/c/${C}/runs/${run.runId}`);
    const events = page.getByRole('region', { name: 'Events' });
    const last = events.locator('.timeline-item').last();
    await last.getByText("The engine saw the failure of Breaker's run", { exact: false }).waitFor({ timeout: 20_000 });
    assert.match(await last.innerText(), new RegExp(run.errorHelp.meaning.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    assert.doesNotMatch(await events.innerText(), /process_exit_nonzero/, 'never the code itself');
    const workspace = page.getByRole('region', { name: 'Workspace' });
    await workspace.getByText('Not a git repository').waitFor();
    await workspace.getByText("The agent's own directory").waitFor();
    await noUuidInText(page);
    await checkAccessibility(page, 'a failed run with its events');
    await page.context().close();
  });
});
