// A run's own page in a real browser: a `process` agent prints coloured lines (some on stderr) while
// it works on an issue; the dashboard's "Dev's run" leads to its page, whose transcript renders the
// colours (no raw escape codes), follows the newest line while live and stops following when the
// reader scrolls up ("Jump to latest" brings it back); what it wrote on stderr is marked and red, and
// the All / Output / Errors filter shows one stream; the issue it checked out is listed. A second
// agent exits 3: its page, reached from the issue's runs, says why in words with the exit code, and
// offers Retry. An unknown run says so with a way back. axe light and dark, 390 px without sideways
// scrolling, no UUID in the text.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { CHECKOUT_ON_WAKE } from '../helpers/agent-scripts.ts';
import { checkAccessibility, screenshot, startBoard } from '../helpers/browser.ts';
import { tempDir } from '../helpers/server-process.ts';
import { waitFor } from '../helpers/wait.ts';

const board = await startBoard();
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

// Checks out the issue it was woken for, prints a red and a bold green line and a line on stderr,
// then (worker) a numbered line every 150 ms for 45 s, or (breaker) exits 3 at once.
const script = path.join(await tempDir('run-ui-agent-'), 'agent.mjs');
await writeFile(
  script,
  `${CHECKOUT_ON_WAKE}console.log('\\x1b[31mred alert\\x1b[0m and \\x1b[1;32mbold green\\x1b[0m');
console.error('a warning é✓ on stderr');
if (process.argv[2] === 'fail') { console.error('\\x1b[31mcannot go on\\x1b[0m'); process.exit(3); }
let n = 0;
const timer = setInterval(() => { n += 1; console.log('working, line ' + n); if (n >= 300) clearInterval(timer); }, 150);
`,
);

let C: string;
let dev: { id: string };
let breaker: { id: string };
let workIssue: { id: string; identifier: string };
let failIssue: { id: string; identifier: string };

before(async () => {
  C = (await board.api('POST', '/api/companies', { name: 'Runway' })).id;
  const agent = (name: string, args: string[]) =>
    board.api('POST', `/api/companies/${C}/agents`, {
      name,
      role: 'engineer',
      adapterType: 'process',
      adapterConfig: { command: process.execPath, args: [script, ...args], timeoutSec: 90 },
    });
  dev = await agent('Dev', []);
  breaker = await agent('Breaker', ['fail']);
  workIssue = await board.api('POST', `/api/companies/${C}/issues`, { title: 'Ship the run page', status: 'todo' });
  failIssue = await board.api('POST', `/api/companies/${C}/issues`, { title: 'Break the build', status: 'todo' });
});

const runsOf = (agentId: string) => board.api<any[]>('GET', `/api/companies/${C}/heartbeat-runs?agentId=${agentId}`);

async function noSidewaysScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  assert.ok(widths[0]! <= widths[1]!, `the page is ${widths[0]} px wide in a ${widths[1]} px window`);
}

async function noUuidInText(page: Page): Promise<void> {
  const text = await page.locator('main').innerText();
  assert.doesNotMatch(text, UUID);
}

/** Distance of the log's scroll position from its end, in px. */
const fromEnd = (page: Page) =>
  page
    .getByTestId('run-transcript')
    .evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight);

describe('run page', () => {
  let runId: string;

  it('the dashboard\'s "Dev\'s run" leads to the run page; the transcript renders colours and follows', async () => {
    await board.api('POST', `/api/agents/${dev.id}/wakeup`, { reason: 'ship it', payload: { issueId: workIssue.id } });
    const page = await board.signedInPage({ width: 1440, height: 900 });
    await page.goto(`/c/${C}/dashboard`);
    // The "Now" row and the recent activity's "Dev's run" both lead to the run page; the row's is followed.
    const links = page.getByRole('link', { name: "Dev's run" });
    await links.first().waitFor({ timeout: 30_000 });
    const hrefs = await links.evaluateAll((all) => all.map((link) => link.getAttribute('href')));
    assert.equal(new Set(hrefs).size, 1, `every "Dev's run" link leads to the one run: ${hrefs.join(', ')}`);
    await page.locator('.live-run-agent').click();
    await page.waitForURL(/\/runs\/[0-9a-f-]{36}$/);
    runId = new URL(page.url()).pathname.split('/').at(-1)!;
    assert.equal((await runsOf(dev.id))[0].runId, runId);
    await page.getByRole('heading', { level: 1, name: "Dev's run" }).waitFor();
    await page.getByText('Running', { exact: true }).first().waitFor();
    await page.getByText('On demand', { exact: true }).first().waitFor();
    await page.getByRole('button', { name: 'Cancel run' }).waitFor();

    const log = page.getByTestId('run-transcript');
    await log.getByText(/working, line 3\b/).waitFor({ timeout: 30_000 });
    const text = (await log.innerText()) ?? '';
    assert.match(text, /checkout answered 200/);
    assert.match(text, /a warning é✓ on stderr/, 'what the run wrote on stderr is in its transcript');
    assert.ok(!text.includes('\x1b') && !text.includes('[31m') && !text.includes('[0m'), 'no raw escape codes');
    assert.equal(await log.locator('.ansi-1').first().innerText(), 'red alert');
    assert.equal(await log.locator('.ansi-2.ansi-bold').first().innerText(), 'bold green');

    // Follow: the log has outgrown its box and its newest line stays in view as lines come.
    await waitFor(
      'the log outgrows its box',
      async () => await log.evaluate((element) => element.scrollHeight > element.clientHeight * 1.5),
      60_000,
    );
    assert.ok((await fromEnd(page)) < 24, 'the transcript follows the newest line');
    const seenLines = await log.locator('.transcript-line').count();
    await waitFor('more lines', async () => (await log.locator('.transcript-line').count()) > seenLines + 3, 20_000);
    assert.ok((await fromEnd(page)) < 24, 'still at the newest line after more came');
    assert.ok(await log.locator('.transcript-line').last().isVisible(), 'the newest line is visible');

    // Scrolled up, it stays where the reader is; "Jump to latest" brings the newest line back.
    await log.evaluate((element) => {
      element.scrollTop = 0;
    });
    const jump = page.getByRole('button', { name: 'Jump to latest' });
    await jump.waitFor();
    const linesNow = await log.locator('.transcript-line').count();
    await waitFor(
      'more lines while scrolled up',
      async () => (await log.locator('.transcript-line').count()) > linesNow + 3,
      20_000,
    );
    assert.equal(await log.evaluate((element) => element.scrollTop), 0, 'a reader who scrolled up is left there');
    await jump.click();
    await jump.waitFor({ state: 'detached' });
    assert.ok((await fromEnd(page)) < 24, 'back at the newest line');

    // stderr apart: its line is marked (data-stream, a hidden "stderr:" word) and in the danger tone.
    const warning = log.locator('.transcript-line', { hasText: 'a warning é✓ on stderr' });
    assert.equal(await warning.getAttribute('data-stream'), 'stderr');
    // Byte ranges, not characters: the stderr text ends exactly at its line, with é and ✓ in it.
    assert.equal(await warning.locator('.transcript-stderr').textContent(), 'stderr: a warning é✓ on stderr');
    const firstWork = log.locator('.transcript-line', { hasText: /^working, line 1$/ });
    assert.equal(await firstWork.getAttribute('data-stream'), 'stdout');
    assert.equal(await warning.locator('.transcript-stream-marker').innerText(), 'stderr:');
    const danger = await page.evaluate(() => {
      const probe = document.createElement('span');
      probe.style.color = 'var(--danger)';
      document.body.append(probe);
      const color = getComputedStyle(probe).color;
      probe.remove();
      return color;
    });
    assert.equal(await warning.locator('.transcript-stderr').evaluate((el) => getComputedStyle(el).color), danger);
    const checkout = log.locator('.transcript-line', { hasText: 'checkout answered 200' });
    assert.equal(await checkout.getAttribute('data-stream'), 'stdout');
    assert.equal(await checkout.locator('.transcript-stderr').count(), 0);
    await page.getByText('Written on stderr').waitFor();

    // The filter: Errors shows only what came on stderr, Output only stdout, All both again.
    const filter = page.getByRole('tablist', { name: 'Show' });
    await filter.getByRole('tab', { name: /Errors/ }).click();
    const errors = page.getByTestId('run-transcript');
    await errors.getByText('a warning é✓ on stderr').waitFor();
    const errorsText = await errors.innerText();
    assert.doesNotMatch(errorsText, /checkout answered|working, line|red alert/, 'no stdout line under Errors');
    assert.equal(await errors.locator('.transcript-line[data-stream="stdout"]').count(), 0);
    await checkAccessibility(page, 'a live run, errors only');
    await filter.getByRole('tab', { name: 'Output' }).click();
    await page.getByTestId('run-transcript').getByText('checkout answered 200').waitFor();
    assert.doesNotMatch(await page.getByTestId('run-transcript').innerText(), /a warning/);
    await filter.getByRole('tab', { name: 'All' }).click();
    await page.getByTestId('run-transcript').getByText('a warning é✓ on stderr').waitFor();

    // The issue the run checked out.
    await page
      .getByRole('region', { name: 'Issues' })
      .getByRole('link', { name: new RegExp(`${workIssue.identifier} Ship the run page`) })
      .waitFor();
    await noUuidInText(page);
    await checkAccessibility(page, 'a live run (light)');
    await screenshot(page, 'run-page');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'dark'));
    await checkAccessibility(page, 'a live run (dark)');
    await screenshot(page, 'run-page-dark');
  });

  it('at 390 px the run page does not scroll sideways', async () => {
    const page = await board.signedInPage({ width: 390, height: 844 });
    await page.goto(`/c/${C}/runs/${runId}`);
    await page
      .getByTestId('run-transcript')
      .getByText(/working, line/)
      .first()
      .waitFor({ timeout: 30_000 });
    await noSidewaysScroll(page);
    await noUuidInText(page);
    await checkAccessibility(page, 'a run at 390 px');
    await screenshot(page, 'run-page-narrow');
    // Done with the live run: cancelled from its page.
    await page.getByRole('button', { name: 'Cancel run' }).click();
    await page.getByText('Cancelled', { exact: true }).first().waitFor({ timeout: 15_000 });
  });

  it("a failed run, from the issue's runs: its error in words, its exit code, Retry", async () => {
    await board.api('POST', `/api/agents/${breaker.id}/wakeup`, { reason: 'try', payload: { issueId: failIssue.id } });
    await waitFor('the run fails', async () => (await runsOf(breaker.id))[0]?.status === 'failed', 30_000);
    const failed = (await runsOf(breaker.id))[0];
    const page = await board.signedInPage({ width: 1440, height: 900 });
    await page.goto(`/c/${C}/issues/${failIssue.identifier}`);
    // The issue's runs: a finished run's transcript is collapsed to its last line.
    const item = page.getByRole('listitem', { name: /by Breaker: Failed/ });
    await item.getByText('cannot go on').waitFor({ timeout: 15_000 });
    await item.getByRole('link', { name: /Breaker's run/ }).click();
    await page.waitForURL(`**/c/${C}/runs/${failed.runId}`);
    await page.getByRole('heading', { level: 1, name: "Breaker's run" }).waitFor();
    const why = page.getByRole('region', { name: 'Why it failed' });
    await why.getByText("The agent's process ended with an error (a non-zero exit code).").waitFor();
    assert.doesNotMatch(await why.innerText(), /process_exit_nonzero/);
    await why.getByText('Exit code', { exact: true }).waitFor();
    assert.equal(await why.locator('dd.run-page-bad').innerText(), '3');
    await page.getByRole('button', { name: 'Retry' }).waitFor();
    await page.getByTestId('run-transcript').getByText('cannot go on').waitFor();
    const lastWords = page.getByTestId('run-transcript').locator('.transcript-line', { hasText: 'cannot go on' });
    assert.equal(await lastWords.getAttribute('data-stream'), 'stderr', 'what it said on stderr is marked');
    assert.doesNotMatch(await page.getByTestId('run-transcript').innerText(), /\x1b|\[31m/);
    await page
      .getByRole('region', { name: 'Issues' })
      .getByRole('link', { name: new RegExp(failIssue.identifier) })
      .waitFor();
    await noUuidInText(page);
    await checkAccessibility(page, 'a failed run');
    await screenshot(page, 'run-failed');
  });

  it('an unknown run says so, with a way back', async () => {
    const page = await board.signedInPage();
    await page.goto(`/c/${C}/runs/00000000-0000-4000-8000-000000000000`);
    await page.getByRole('heading', { level: 1, name: 'Run not found' }).waitFor();
    await page.getByRole('alert').waitFor();
    await page.getByRole('link', { name: 'Back to the dashboard' }).click();
    await page.waitForURL(`**/c/${C}/dashboard`);
  });
});
