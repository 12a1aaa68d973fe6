// GitHub-flavoured markdown in an issue description, in a real browser: a task list's boxes render
// (read-only, ticked as written, no "[ ]" left as text), a table too wide for 390 px (an unbreakable
// path in it) scrolls inside its own box,
// strikethrough and autolinks work, and raw HTML (a <script>, an <img onerror>) never runs or renders.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkAccessibility, startBoard } from '../helpers/browser.ts';

const board = await startBoard();

const DESCRIPTION = [
  'Launch checklist:',
  '',
  '- [x] Write the post',
  '- [ ] Ship it',
  '',
  '| Channel | Audience | Owner | Due | Notes that run long so the table is wider than a phone screen |',
  '| --- | --- | --- | --- | --- |',
  '| Blog | Everyone | Quill | Friday | `packages/warehouse/robots/pick-path-planner/src/aisle-three.ts` |',
  '',
  'Old plan: ~~ship on Monday~~. See https://example.com/launch for more.',
  '',
  '<script>window.pwned = "script"</script>',
  '<img src="x" onerror="window.pwned = \'img\'">',
  '[click](javascript:window.pwned="link")',
].join('\n');

describe('markdown', () => {
  it('renders task lists, tables, strikethrough and autolinks, and never runs raw HTML', async () => {
    const company = await board.api('POST', '/api/companies', { name: 'Markdown Works' });
    const issue = await board.api('POST', `/api/companies/${company.id}/issues`, {
      title: 'Launch post',
      description: DESCRIPTION,
    });
    const page = await board.signedInPage({ width: 390, height: 844 });
    await page.goto(`/c/${company.id}/issues/${issue.identifier}`);
    await page.getByRole('heading', { level: 1, name: 'Launch post' }).waitFor();
    const body = page.locator('.markdown').filter({ hasText: 'Launch checklist' });
    await body.waitFor();

    const boxes = body.getByRole('checkbox');
    assert.equal(await boxes.count(), 2);
    assert.equal(await boxes.nth(0).isChecked(), true);
    assert.equal(await boxes.nth(1).isChecked(), false);
    assert.equal(await boxes.nth(0).isDisabled(), true);
    const text = (await body.textContent()) ?? '';
    assert.ok(!text.includes('[ ]') && !text.includes('[x]'), text);

    const table = body.getByRole('region', { name: 'Table' });
    await table.getByRole('columnheader', { name: 'Channel' }).waitFor();
    const [inner, box, right] = await table.evaluate((element) => [
      element.scrollWidth,
      element.clientWidth,
      element.getBoundingClientRect().right,
    ]);
    assert.ok(inner! > box!, `the table scrolls inside its box (${inner} px in ${box} px)`);
    assert.ok(right! <= 390, `the box ends at ${right} px`);
    const page390 = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(page390 <= 390, `the page is ${page390} px wide`);

    assert.equal(await body.locator('del').textContent(), 'ship on Monday');
    assert.equal(
      await body.getByRole('link', { name: 'https://example.com/launch' }).getAttribute('href'),
      'https://example.com/launch',
    );
    // Raw HTML: dropped, never run; a javascript: link is no link.
    assert.equal(await body.locator('script, img').count(), 0);
    assert.equal(await body.getByRole('link', { name: 'click' }).count(), 0);
    assert.equal(await page.evaluate(() => (window as unknown as { pwned?: string }).pwned), undefined);
    await checkAccessibility(page, 'an issue description with a task list and a table');
  });
});
