// The issue page in a real browser: one timeline (description, comments, run cards, status changes,
// documents, oldest first) with the composer at its foot; a mention typed with the autocomplete wakes
// a `process` agent whose run card and live transcript appear in the timeline, with "Scribe is
// working on this" at the top until the run ends; the run cancelled from the page ends `cancelled`
// within 5 s; a failed run says why in words, its exit code, and offers Retry; a stale document edit
// is shown as a conflict and resolved; attachments (upload, size limit, image preview); title,
// description and properties (PropertyRows, `s` by keyboard) edited, a refused transition explained;
// no UUID or enum key in the text; axe light and dark, and the page at 390 px wide.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { CHECKOUT_ON_WAKE } from '../helpers/agent-scripts.ts';
import { checkAccessibility, screenshot, startBoard } from '../helpers/browser.ts';
import { newGitRepo } from '../helpers/git-repo.ts';
import { tempDir } from '../helpers/server-process.ts';
import { waitFor } from '../helpers/wait.ts';

/** Small enough to test the limit with a few hundred KB, large enough for the test image. */
const UPLOAD_LIMIT = 100_000;
const board = await startBoard({ BOARDROOM_MAX_UPLOAD_BYTES: String(UPLOAD_LIMIT) });

/** A 2x2 red PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==',
  'base64',
);

let companyId: string;
let agent: { id: string; name: string };
let issue: { id: string; identifier: string };
/** The issue the agent is woken for and works on (tests a and c). */
let workIssue: { id: string; identifier: string };

// Checks out the issue it was woken for (as an agent does), then prints a line every 200 ms for
// 40 s: a run that holds the issue and stays live while the page is looked at. (The directory is
// made at the top level: one made in a hook is removed when the hook ends.)
const script = path.join(await tempDir('issue-ui-agent-'), 'slow.mjs');
await writeFile(
  script,
  `${CHECKOUT_ON_WAKE}let n = 0;
const timer = setInterval(() => { n += 1; console.log('working on it, line ' + n); if (n >= 200) clearInterval(timer); }, 200);
`,
);

/** What the page shows as text: no id or enum key may be in it (a transcript is the agent's own words). */
async function assertWordsOnly(page: Page): Promise<void> {
  const text = await page.locator('main').evaluate((main) => {
    const copy = main.cloneNode(true) as HTMLElement;
    for (const log of copy.querySelectorAll('[data-testid="run-transcript"], .transcript-collapsed')) log.remove();
    return copy.innerText;
  });
  assert.doesNotMatch(text, /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}/, 'no UUID in the text');
  assert.doesNotMatch(text, /\b(in_progress|in_review|todo|backlog|timed_out|process_exit_nonzero)\b/, 'no enum key');
}

/** The run card of an agent's run in the timeline ("Run by Scribe: Running"). */
const runCard = (page: Page, agentName: string, status: string) =>
  page.getByRole('listitem', { name: `Run by ${agentName}: ${status}` });

before(async () => {
  companyId = (await board.api('POST', '/api/companies', { name: 'Acme' })).id;
  agent = await board.api('POST', `/api/companies/${companyId}/agents`, {
    name: 'Scribe',
    role: 'engineer',
    adapterType: 'process',
    adapterConfig: { command: process.execPath, args: [script], timeoutSec: 60 },
  });
  workIssue = await board.api('POST', `/api/companies/${companyId}/issues`, {
    title: 'Draft the changelog',
    status: 'todo',
  });
  issue = await board.api('POST', `/api/companies/${companyId}/issues`, {
    title: 'Write the launch post',
    description: 'A **short** post.',
    status: 'todo',
  });
});

async function openIssue(page: Page, target = issue): Promise<void> {
  await page.goto(`/c/${companyId}/issues/${target.identifier}`);
  await page
    .getByRole('heading', { level: 1, name: /Write the launch post|Launch post|Draft the changelog/ })
    .waitFor();
}

describe('issue page', () => {
  let runId: string;

  it('a mention picked in the composer wakes the agent; its run and live transcript appear on the issue', async () => {
    const page = await board.signedInPage({ width: 1440, height: 900 });
    await openIssue(page, workIssue);
    const composer = page.getByRole('textbox', { name: 'New comment' });
    await composer.click();
    await composer.pressSequentially('Please draft this, @scr');
    const mentions = page.getByRole('listbox', { name: 'Agents to mention' });
    await mentions.getByRole('option', { name: /@Scribe/ }).waitFor();
    await composer.press('Escape');
    await mentions.waitFor({ state: 'detached' });
    await composer.pressSequentially('i');
    await mentions.getByRole('option', { name: /@Scribe/, selected: true }).waitFor();
    // A busy machine's late frames: anything the composer put off to the next frame lands while the
    // rest is typed (it once moved the caret under the keys: "@Scribe thanks" came out scrambled).
    await page.evaluate(
      'window.requestAnimationFrame = (callback) => setTimeout(() => callback(performance.now()), 300)',
    );
    await composer.press('Enter');
    assert.equal(await composer.inputValue(), 'Please draft this, @Scribe ');
    await composer.pressSequentially('thanks', { delay: 100 });
    assert.equal(await composer.inputValue(), 'Please draft this, @Scribe thanks');
    const posted = page.waitForResponse(
      (response) => response.request().method() === 'POST' && response.url().endsWith('/comments'),
    );
    await page.getByRole('button', { name: 'Comment', exact: true }).click();
    assert.equal((await (await posted).json()).body, 'Please draft this, @Scribe thanks');
    const timeline = page.getByRole('region', { name: 'Timeline' });
    await timeline.getByText('Please draft this, @Scribe thanks').waitFor();

    const run = runCard(page, 'Scribe', 'Running');
    await run.waitFor({ timeout: 30_000 });
    await run.getByRole('link', { name: "Scribe's run" }).waitFor();
    await run
      .getByTestId('run-transcript')
      .getByText(/line 3/)
      .waitFor({ timeout: 30_000 });
    assert.match((await run.getByTestId('run-transcript').textContent()) ?? '', /checkout answered 200/);
    const runs = await board.api('GET', `/api/companies/${companyId}/heartbeat-runs?issueId=${workIssue.id}`);
    assert.equal(runs.length, 1);
    assert.equal(runs[0].agentId, agent.id);
    runId = runs[0].runId;
    // Live: "Scribe is working on this" at the top, with the time it has been at it. The run checked
    // the issue out: the properties name the holder in words, and the issue's own run list has it.
    await page.getByText('Scribe is working on this').waitFor();
    await page
      .getByRole('complementary', { name: 'Properties' })
      .getByText('Checked out by Scribe', { exact: true })
      .waitFor();
    assert.equal(await page.getByText(/Not checked out|through run/).count(), 0);
    await timeline.getByText(/checked it out, moving it to\s+In progress/).waitFor();
    const checkedOut = await board.api('GET', `/api/issues/${workIssue.id}/runs`);
    assert.deepEqual(
      checkedOut.map((r: { runId: string }) => r.runId),
      [runId],
    );
    // Comments written elsewhere (here: through the API) arrive without a reload.
    await board.api('POST', `/api/issues/${workIssue.id}/comments`, { body: 'Posted from **elsewhere**' }, 201);
    await timeline.locator('strong', { hasText: 'elsewhere' }).waitFor();
    // One timeline, oldest first: the description, the comment, the run it woke, the later comment.
    const order = await timeline
      .locator('.timeline > li')
      .evaluateAll((items) => items.map((item) => (item as HTMLElement).innerText));
    const at = (pattern: RegExp) => order.findIndex((text) => pattern.test(text));
    assert.ok(at(/opened the issue/) === 0, 'the description opens the timeline');
    assert.ok(at(/Please draft this/) > 0 && at(/Scribe's run/) > at(/Please draft this/), order.join(' | '));
    assert.ok(at(/Posted from elsewhere/) > at(/Scribe's run/), order.join(' | '));
    await assertWordsOnly(page);
    await checkAccessibility(page, 'the issue page with a live run');
    await page.locator('main').evaluate((main) => main.scrollTo(0, 0));
    await screenshot(page, 'issue-live-run');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'dark'));
    await checkAccessibility(page, 'the issue page with a live run (dark)');
    await screenshot(page, 'issue-live-run-dark');
  });

  it('a live run cancelled from the page ends cancelled, and the page shows it', async () => {
    const page = await board.signedInPage();
    await openIssue(page, workIssue);
    const run = runCard(page, 'Scribe', 'Running');
    await run
      .getByTestId('run-transcript')
      .getByText(/line \d+/)
      .first()
      .waitFor();
    const clickedAt = Date.now();
    await run.getByRole('button', { name: 'Cancel run' }).click();
    await runCard(page, 'Scribe', 'Cancelled').waitFor({ timeout: 30_000 });
    const shownAfter = Date.now() - clickedAt;
    const stored = await board.api('GET', `/api/heartbeat-runs/${runId}`);
    assert.equal(stored.status, 'cancelled');
    const endedAfter = new Date(stored.finishedAt).getTime() - clickedAt;
    console.log(`cancel: run ended ${endedAfter} ms and the page showed it ${shownAfter} ms after the click`);
    // The run has ended: nobody is working on the issue any more.
    await page.getByText('Scribe is working on this').waitFor({ state: 'detached' });
    // A transcript seen live stays open once its run ends, and says how it ended.
    await page.getByText('Run ended: Cancelled').waitFor();
    // Opened again, a finished run's transcript is collapsed to its last line, expanded on demand.
    await page.reload();
    const ended = runCard(page, 'Scribe', 'Cancelled');
    await ended.getByText(/line \d+/).waitFor();
    await ended.getByRole('button', { name: 'Show transcript' }).click();
    await ended.getByText('Run ended: Cancelled').waitFor();
  });

  it('a failed run card says why in words, its exit code, and retries', async () => {
    const breaker = await board.api('POST', `/api/companies/${companyId}/agents`, {
      name: 'Breaker',
      role: 'engineer',
      adapterType: 'process',
      adapterConfig: {
        command: process.execPath,
        args: ['-e', "console.error('cannot go on'); process.exit(3)"],
        timeoutSec: 60,
      },
    });
    const failIssue = await board.api('POST', `/api/companies/${companyId}/issues`, { title: 'Fix the feed' });
    await board.api('POST', `/api/agents/${breaker.id}/wakeup`, { payload: { issueId: failIssue.id } }, 202);
    await waitFor(
      'the run to fail',
      async () => {
        const runs = await board.api('GET', `/api/companies/${companyId}/heartbeat-runs?agentId=${breaker.id}`);
        return runs[0]?.status === 'failed';
      },
      30_000,
    );
    const page = await board.signedInPage();
    await page.goto(`/c/${companyId}/issues/${failIssue.identifier}`);
    const card = runCard(page, 'Breaker', 'Failed');
    await card.getByText("The agent's process ended with an error (a non-zero exit code).").waitFor();
    await card.getByText('The process exited with code 3.').waitFor();
    assert.doesNotMatch(await card.innerText(), /process_exit_nonzero/);
    await card.getByRole('button', { name: 'Retry' }).click();
    await card.getByRole('button', { name: 'Retry queued' }).waitFor();
    await waitFor('the retry run', async () => {
      const runs = await board.api('GET', `/api/companies/${companyId}/heartbeat-runs?agentId=${breaker.id}`);
      return runs.length === 2;
    });
  });

  it('a stale document edit shows a conflict; the merge is saved against the latest revision', async () => {
    await board.api(
      'PUT',
      `/api/issues/${issue.id}/documents/plan`,
      { title: 'Plan', body: '# Plan\n\n1. Draft\n' },
      201,
    );
    const page = await board.signedInPage();
    await openIssue(page);
    // The document's creation is in the timeline, linking to its card.
    await page.getByRole('region', { name: 'Timeline' }).getByRole('link', { name: 'Plan' }).waitFor();
    await page.getByRole('button', { name: 'Edit Plan' }).click();
    const editor = page.getByRole('textbox', { name: 'Plan (markdown)' });
    await editor.fill('# Plan\n\n1. Draft\n2. Mine: review\n');

    const current = await board.api('GET', `/api/issues/${issue.id}/documents/plan`);
    await board.api('PUT', `/api/issues/${issue.id}/documents/plan`, {
      body: '# Plan\n\n1. Draft\n2. Theirs: publish\n',
      baseRevisionId: current.latestRevisionId,
    });

    // The page hears of their revision live; the editor keeps the text being written.
    await page
      .getByRole('article', { name: 'Plan' })
      .getByRole('status')
      .filter({ hasText: 'Revision 2 was saved while you edit' })
      .waitFor();
    assert.equal(await editor.inputValue(), '# Plan\n\n1. Draft\n2. Mine: review\n');
    await page.getByRole('button', { name: 'Save document' }).click();
    const conflict = page.getByRole('region', { name: 'Conflict in Plan' });
    await conflict.getByRole('alert').filter({ hasText: 'Plan changed while you were editing' }).waitFor();
    const diff = conflict.getByRole('figure', { name: 'Their version (−) against yours (+)' });
    await diff.getByText('- 2. Theirs: publish').waitFor();
    await diff.getByText('+ 2. Mine: review').waitFor();
    await checkAccessibility(page, 'the issue page with a document conflict');

    await conflict.getByRole('button', { name: 'Edit a merge' }).click();
    const merged = '# Plan\n\n1. Draft\n2. Mine: review\n3. Theirs: publish\n';
    await conflict.getByRole('textbox', { name: 'Merged text' }).fill(merged);
    await conflict.getByRole('button', { name: 'Save merge' }).click();
    await conflict.waitFor({ state: 'detached' });
    const saved = await board.api('GET', `/api/issues/${issue.id}/documents/plan`);
    assert.equal(saved.body, merged);
    assert.equal(saved.latestRevisionNumber, 3);

    await page.getByRole('button', { name: 'History of Plan' }).click();
    const history = page.getByRole('figure', { name: 'Changes in revision 3' });
    await history.getByText('+ 3. Theirs: publish').waitFor();
    await history.getByText('- 2. Theirs: publish').waitFor();
  });

  it('uploads attachments, refuses one over the limit with the reason, and previews an image', async () => {
    const page = await board.signedInPage();
    await openIssue(page);
    // "+ Attach file" (the hidden file input behind it takes the files).
    await page.getByRole('button', { name: 'Attach file' }).waitFor();
    const upload = page.locator('input[type="file"]');
    await upload.setInputFiles({ name: 'pixel.png', mimeType: 'image/png', buffer: PNG });
    await page.getByRole('link', { name: 'pixel.png' }).waitFor();
    await upload.setInputFiles({
      name: 'big.bin',
      mimeType: 'application/octet-stream',
      buffer: Buffer.alloc(UPLOAD_LIMIT + 1000),
    });
    await page
      .getByRole('alert')
      .filter({ hasText: 'big.bin was not uploaded' })
      .filter({ hasText: String(UPLOAD_LIMIT) })
      .waitFor();
    const attachments = await board.api('GET', `/api/issues/${issue.id}/attachments`);
    assert.deepEqual(
      attachments.map((a: { name: string }) => a.name),
      ['pixel.png'],
    );

    await page.getByRole('button', { name: 'Preview pixel.png' }).click();
    const dialog = page.getByRole('dialog', { name: 'pixel.png' });
    const image = dialog.getByRole('img', { name: 'pixel.png' });
    await image.waitFor();
    await waitFor('the preview to load', () => image.evaluate((img) => (img as HTMLImageElement).naturalWidth === 2));
    await checkAccessibility(page, 'the image preview');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('edits title, description and properties inline; a refused transition shows the reason', async () => {
    const page = await board.signedInPage();
    await openIssue(page);
    await page.getByRole('button', { name: 'Edit title' }).click();
    await page.getByRole('textbox', { name: 'Title', exact: true }).fill('Launch post');
    await page.getByRole('textbox', { name: 'Title', exact: true }).press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Launch post' }).waitFor();

    await page.getByRole('button', { name: 'Edit description' }).click();
    const description = page.getByRole('textbox', { name: 'Description (markdown)' });
    await description.fill('A *short* post about **Friday**.');
    await description.press('Control+Enter');
    await page.getByRole('region', { name: 'Description' }).locator('strong', { hasText: 'Friday' }).waitFor();
    // Escape leaves an edit without saving it.
    await page.getByRole('button', { name: 'Edit description' }).click();
    await description.fill('thrown away');
    await description.press('Escape');
    await description.waitFor({ state: 'detached' });

    const properties = page.getByRole('complementary', { name: 'Properties' });
    await properties.getByRole('combobox', { name: 'Priority' }).click();
    await page.getByRole('option', { name: /High/ }).click();
    await properties.getByRole('combobox', { name: 'Assignee' }).click();
    await page.getByRole('option', { name: 'Me (board)' }).click();
    assert.equal(await page.locator('select').count(), 0, 'no native select on the page');
    await waitFor('the properties to be stored', async () => {
      const stored = await board.api('GET', `/api/issues/${issue.id}`);
      return stored.priority === 'high' && stored.assigneeUserId !== null && stored;
    });
    const stored = await board.api('GET', `/api/issues/${issue.id}`);
    assert.equal(stored.title, 'Launch post');
    assert.equal(stored.description, 'A *short* post about **Friday**.');

    // `s` opens the status picker (focus not in a text field); typing searches, Enter picks.
    const status = properties.getByRole('combobox', { name: 'Status' });
    const pickStatus = async (search: string) => {
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.keyboard.press('s');
      await page.getByRole('option', { name: /Todo/ }).waitFor();
      await page.keyboard.type(search);
      await page.keyboard.press('Enter');
    };
    await pickStatus('in progress');
    const refusal = page.getByRole('alert').filter({ hasText: 'The change was refused' });
    await refusal.waitFor();
    assert.match((await refusal.textContent()) ?? '', /checkout/);
    assert.match(await status.innerText(), /Todo/);
    await pickStatus('review');
    await refusal.waitFor({ state: 'detached' });
    await status.getByText('In review').waitFor();
    // The change is in the timeline, in words.
    await page
      .getByRole('region', { name: 'Timeline' })
      .getByText(/changed the status from Todo to\s+In review/)
      .waitFor();
    await page
      .getByRole('region', { name: 'Timeline' })
      .getByText(/assigned it to you/)
      .waitFor();
    // The change is said back in a toast with Undo, which moves the issue back where it was.
    const said = page
      .getByRole('region', { name: 'Notifications' })
      .getByRole('listitem')
      .filter({ hasText: /is now In review/ });
    await said.getByRole('button', { name: 'Undo' }).click();
    await status.getByText('Todo').waitFor();
    await waitFor(
      'the status undone',
      async () => (await board.api('GET', `/api/issues/${issue.id}`)).status === 'todo',
    );
    await pickStatus('review');
    await status.getByText('In review').waitFor();

    await page.getByRole('button', { name: 'Add sub-issue' }).click();
    await page.getByRole('textbox', { name: 'New sub-issue title' }).fill('Find a cover image');
    await page.getByRole('button', { name: 'Create sub-issue' }).click();
    await page
      .getByRole('region', { name: /Sub-issues/ })
      .getByRole('link', { name: /Find a cover image/ })
      .waitFor();

    await board.api('POST', `/api/companies/${companyId}/issues`, { title: 'Legal review of the post' });
    await properties.getByRole('button', { name: /Blocked by/ }).click();
    const blockerSearch = page.getByRole('combobox', { name: 'Add a blocker' });
    await blockerSearch.fill('Legal');
    await page.getByRole('option', { name: /Legal review of the post/ }).waitFor();
    await blockerSearch.press('Enter');
    await page.getByRole('button', { name: /Remove blocker/ }).waitFor();
    const after = await board.api('GET', `/api/issues/${issue.id}`);
    assert.equal(after.status, 'in_review');
    assert.deepEqual(
      after.blockedBy.map((b: { title: string }) => b.title),
      ['Legal review of the post'],
    );
    await page.keyboard.press('Escape');
    await properties.getByRole('button', { name: /Blocked by.*ACM-/ }).waitFor();
    await assertWordsOnly(page);
    await checkAccessibility(page, 'the issue page after edits');
  });

  it("shows the execution workspace's branch and diff stat after an agent committed in it", async () => {
    // A real repository, a project that gives each issue its own worktree, and an agent that commits.
    const repo = path.join(await tempDir('issue-ui-repo-'), 'repo');
    await newGitRepo(repo, 'main', '# repo\n');
    const project = await board.api('POST', `/api/companies/${companyId}/projects`, {
      name: 'Site',
      executionWorkspacePolicy: { mode: 'isolated' },
      workspace: { name: 'repo', cwd: repo },
    });
    const committer = await board.api('POST', `/api/companies/${companyId}/agents`, {
      name: 'Committer',
      role: 'engineer',
      adapterType: 'process',
      adapterConfig: {
        command: process.execPath,
        args: [
          path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'agents', 'git-committer.mjs'),
          'post',
        ],
        timeoutSec: 60,
      },
    });
    const branchIssue = await board.api('POST', `/api/companies/${companyId}/issues`, {
      title: 'Publish the post',
      projectId: project.id,
      status: 'todo',
    });
    await board.api('POST', `/api/agents/${committer.id}/wakeup`, { payload: { issueId: branchIssue.id } }, 202);
    await waitFor(
      'the commit to show in the issue detail',
      async () => (await board.api('GET', `/api/issues/${branchIssue.id}`)).workProducts.length === 1,
      30_000,
    );

    const page = await board.signedInPage();
    await page.goto(`/c/${companyId}/issues/${branchIssue.identifier}`);
    const work = page.getByRole('region', { name: 'Workspace' });
    await work.getByText(`boardroom/${branchIssue.identifier}`).waitFor();
    await work.getByText(/1 commit ahead · 1 file changed/).waitFor();
    await work.getByText(/^post-.*\.txt \+2 −0$/).waitFor();
  });

  it('a browser that believes it is offline (the server on this machine, no Wi-Fi) still posts and refreshes', async () => {
    const page = await board.signedInPage();
    await openIssue(page);
    // A string: a function would be compiled with helpers (tsx's __name) the page does not have.
    await page.evaluate(
      `Object.defineProperty(navigator, 'onLine', { configurable: true, get() { return false; } }); window.dispatchEvent(new Event('offline'));`,
    );
    const composer = page.getByRole('textbox', { name: 'New comment' });
    await composer.fill('Written while the laptop is offline');
    await page.getByRole('button', { name: 'Comment', exact: true }).click();
    await page
      .getByRole('region', { name: 'Timeline' })
      .getByText('Written while the laptop is offline')
      .waitFor({ timeout: 20_000 });
    // A change made elsewhere still arrives: the live refetch is not held back either.
    await board.api('POST', `/api/issues/${issue.id}/comments`, { body: 'And one from elsewhere' }, 201);
    await page
      .getByRole('region', { name: 'Timeline' })
      .getByText('And one from elsewhere')
      .waitFor({ timeout: 20_000 });
  });

  it('an unknown issue says so, with the way back', async () => {
    const page = await board.signedInPage();
    await page.goto(`/c/${companyId}/issues/ACM-999`);
    await page.getByRole('alert').filter({ hasText: 'The issue could not be loaded' }).waitFor();
    await page.getByRole('button', { name: 'Try again' }).waitFor();
  });

  it('is usable 390 px wide: properties under the title and before the comments, nothing wider than the screen', async () => {
    const page = await board.signedInPage({ width: 390, height: 844 });
    await openIssue(page);
    const title = await page.getByRole('heading', { level: 1, name: 'Launch post' }).boundingBox();
    const properties = await page.getByRole('complementary', { name: 'Properties' }).boundingBox();
    const comment = await page
      .getByRole('region', { name: 'Timeline' })
      .getByText('Written while the laptop is offline')
      .boundingBox();
    assert.ok(title && properties && properties.y > title.y + title.height, 'the properties come under the title');
    assert.ok(comment && properties.y + properties.height <= comment.y, 'the properties come before the comments');
    assert.ok(properties.x + properties.width <= 390, 'the properties fit the screen');
    const overflow = await page.evaluate(() =>
      Math.max(document.documentElement.scrollWidth, document.querySelector('main')?.scrollWidth ?? 0),
    );
    assert.ok(overflow <= 390, `the page is ${overflow} px wide`);
    await checkAccessibility(page, 'the issue page at 390 px');
    await screenshot(page, 'issue-narrow');
  });
});
