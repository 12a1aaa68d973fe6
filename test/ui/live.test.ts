// The board's live layer in a real browser: events become refetches batched per query (at most one
// a second, whatever the event rate), and a dropped stream resumes from the last event it saw, so
// what happened while the board was offline still shows.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startBoard } from '../helpers/browser.ts';
import { waitFor } from '../helpers/wait.ts';

const board = await startBoard();
const company = await board.api('POST', '/api/companies', { name: 'Live Works' });

describe('live board', () => {
  it('a burst of 20 issue changes costs the open list one refetch a second, and the list ends complete', async () => {
    // Tall enough for every row: the list renders only the rows on screen.
    const page = await board.signedInPage({ width: 1280, height: 1400 });
    await page.goto(`/c/${company.id}/issues`);
    await page.getByText('Live', { exact: true }).waitFor();
    const listReads: number[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (request.method() === 'GET' && url.pathname === `/api/companies/${company.id}/issues`)
        listReads.push(Date.now());
    });
    const started = Date.now();
    const created = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        board.api('POST', `/api/companies/${company.id}/issues`, { title: `Burst ${i}` }),
      ),
    );
    for (const issue of created) await page.locator(`[data-issue-id="${issue.id}"]`).waitFor({ timeout: 15_000 });
    const seconds = (Date.now() - started) / 1000;
    // Reads of one query at least ~1 s apart: never more than one per started second, plus the first.
    assert.ok(listReads.length <= Math.ceil(seconds) + 1, `${listReads.length} list reads in ${seconds.toFixed(1)} s`);
    // 1 s apart in the page; seen from the test process, give or take its event delivery.
    for (let i = 1; i < listReads.length; i++)
      assert.ok(listReads[i]! - listReads[i - 1]! >= 750, `reads ${listReads[i]! - listReads[i - 1]!} ms apart`);
  });

  it('after a drop the stream resumes from the last event id, and what happened meanwhile shows', async () => {
    const page = await board.signedInPage();
    // Each open of the stream, when it was made, and the id it resumed from ('' for none).
    const streamOpens: { at: number; resumeFrom: Promise<string> }[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      // allHeaders: the headers as sent, Last-Event-ID included (headers() has only the page's own).
      if (url.pathname === `/api/companies/${company.id}/events`)
        streamOpens.push({
          at: Date.now(),
          resumeFrom: request
            .allHeaders()
            .then((headers) => headers['last-event-id'] ?? url.searchParams.get('lastEventId') ?? ''),
        });
    });
    await page.goto(`/c/${company.id}/issues`);
    await page.getByText('Live', { exact: true }).waitFor();
    // The list loaded first: the next issue can then only show through an event, so the stream has
    // an id to resume from.
    await page.locator('[data-issue-id]').first().waitFor();
    const first = await board.api('POST', `/api/companies/${company.id}/issues`, { title: 'Seen live' });
    await page.locator(`[data-issue-id="${first.id}"]`).waitFor();

    // The most common drop: the server restarts. What is written right after, before the page is
    // back, reaches it only through the resumed stream (or the refetch the drop triggers).
    const droppedAt = Date.now();
    await board.restart();
    const missed = await board.api('POST', `/api/companies/${company.id}/issues`, {
      title: 'Created while the page was away',
      priority: 'critical',
    });
    await page.getByText('Live', { exact: true }).waitFor({ timeout: 20_000 });
    await page.locator(`[data-issue-id="${missed.id}"]`).waitFor({ timeout: 10_000 });
    const reopens = await waitFor(
      'a reopened stream',
      () =>
        streamOpens.filter((open) => open.at > droppedAt).length > 0 &&
        streamOpens.filter((open) => open.at > droppedAt),
    );
    assert.equal(await streamOpens[0]!.resumeFrom, '', 'a page starts its stream live');
    const resumedFrom = await Promise.all(reopens.map((open) => open.resumeFrom));
    assert.ok(
      resumedFrom.every((id) => id !== ''),
      `every reopen names the last event: ${JSON.stringify(resumedFrom)}`,
    );
  });
});
