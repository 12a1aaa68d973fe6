// Skills in a real browser: a skill imported from a local folder (the import's result and a warning
// shown), seen in the library, its files viewed and edited (a refused SKILL.md shows the server's
// reason), attached to an agent whose desired skills then hold it (through the API), and detached;
// a code-host skill (against a local stand-in for the code host's API and raw host) checked for an
// update from the library and updated from its page. axe on every state visited.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { checkAccessibility, screenshot, startBoard } from '../helpers/browser.ts';

// The code host: one repository, acme/playbooks, whose main branch moves when a test commits.
const commits = new Map<string, Record<string, string>>();
let main = '';
function commit(files: Record<string, string>): string {
  main = createHash('sha1')
    .update(`${JSON.stringify(files)}\0${commits.size}`)
    .digest('hex');
  commits.set(main, files);
  return main;
}
const codeHost = createServer((req, res) => {
  const parts = new URL(req.url ?? '/', 'http://x').pathname.split('/').filter(Boolean);
  const json = (status: number, body: unknown) =>
    void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  if (parts[0] === 'api' && parts.slice(2, 4).join('/') === 'acme/playbooks') {
    if (parts.length === 4) return json(200, { default_branch: 'main' });
    if (parts[4] === 'commits')
      return parts[5] === 'main' ? json(200, { sha: main }) : json(422, { message: 'No commit found' });
    const files = commits.get(parts[6] ?? '');
    if (parts[4] === 'git' && files)
      return json(200, {
        sha: parts[6],
        truncated: false,
        tree: Object.entries(files).map(([p, text]) => ({ path: p, type: 'blob', size: Buffer.byteLength(text) })),
      });
  }
  const text = parts[0] === 'raw' ? commits.get(parts[3] ?? '')?.[parts.slice(4).join('/')] : undefined;
  if (text !== undefined) return void res.writeHead(200, { 'content-type': 'text/plain' }).end(text);
  json(404, { message: 'Not Found' });
});
await new Promise<void>((resolve) => codeHost.listen(0, '127.0.0.1', resolve));
const host = `http://127.0.0.1:${(codeHost.address() as AddressInfo).port}`;
after(() => new Promise((resolve) => codeHost.close(resolve)));

const board = await startBoard({
  BOARDROOM_CODEHOST_API_URL: `${host}/api`,
  BOARDROOM_CODEHOST_RAW_URL: `${host}/raw`,
});
const company = await board.api('POST', '/api/companies', { name: 'Skills Co' });
const C = company.id;
const agent = await board.api('POST', `/api/companies/${C}/agents`, {
  name: 'Rita Researcher',
  role: 'engineer',
  adapterType: 'process',
  adapterConfig: {},
});
await board.api('POST', `/api/companies/${C}/agents`, {
  name: 'Otto Ops',
  role: 'engineer',
  adapterType: 'process',
  adapterConfig: {},
});

async function skillFolder(): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'board-skill-'));
  const folder = path.join(root, 'market-research');
  await mkdir(path.join(folder, 'references'), { recursive: true });
  await writeFile(
    path.join(folder, 'SKILL.md'),
    '---\nname: Market Research\ndescription: How to size a market from public sources.\n---\n\n# Market research\n\nStart with the census tables.\n',
  );
  await writeFile(path.join(folder, 'references', 'sources.md'), '# Sources\n\n- National statistics office\n');
  return folder;
}

describe('skills', () => {
  it('imports a local folder, shows it in the library, edits a file, and attaches it to an agent', async () => {
    const folder = await skillFolder();
    const page = await board.signedInPage();
    await page.goto(`/c/${C}/skills`);
    await page.getByRole('heading', { name: 'Skills', level: 1 }).waitFor();
    // The bundled skill the server ships is in the library from the start.
    await page.getByRole('cell', { name: 'boardroom/skills/boardroom-api' }).waitFor();
    await checkAccessibility(page, 'the skills library');

    await page.getByLabel('Source').fill(folder);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const result = page.getByRole('status').filter({ hasText: 'imported from' });
    await result.getByText(`1 skill imported from ${folder}`).waitFor();
    await result.getByText('(added)').waitFor();
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'Market Research' }) });
    await row.getByText('Local folder').waitFor();
    await row.getByText('Markdown only').waitFor();
    assert.match((await row.getByRole('cell').first().textContent()) ?? '', /^local\/[0-9a-f]{12}\/market-research$/);
    await checkAccessibility(page, 'the skills library after an import');
    await screenshot(page, 'skills');

    // An import that finds nothing says why.
    await page.getByLabel('Source').fill(path.join(folder, 'nowhere'));
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'Nothing was imported' }).waitFor();

    // The detail: the file tree, a file, editing it (a refused SKILL.md keeps the text and says why).
    await page.getByRole('link', { name: 'Market Research' }).click();
    await page.getByRole('heading', { name: 'Market Research', level: 1 }).waitFor();
    await page.getByLabel('Contents of SKILL.md').getByText('Start with the census tables.').waitFor();
    await page.getByRole('navigation', { name: 'Skill files' }).getByRole('button', { name: 'sources.md' }).click();
    await page.getByLabel('Contents of references/sources.md').getByText('National statistics office').waitFor();
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Contents of references/sources.md').fill('# Sources\n\n- Trade association reports\n');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByLabel('Contents of references/sources.md').getByText('Trade association reports').waitFor();
    await page.getByRole('navigation', { name: 'Skill files' }).getByRole('button', { name: 'SKILL.md' }).click();
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Contents of SKILL.md').fill('---\nname: [unclosed\n---\n');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('alert').filter({ hasText: 'SKILL.md was not saved' }).waitFor();
    await checkAccessibility(page, 'a skill file refused by the server');
    await page.getByRole('button', { name: 'Cancel' }).click();
    // The updates section answers for a local skill with the server's reason.
    await page.getByRole('region', { name: 'Updates' }).locator('p').waitFor();
    await page.getByRole('region', { name: 'Agents' }).getByText('Not attached to any agent.').waitFor();
    await checkAccessibility(page, 'a skill detail');

    // Attach to one agent: its desired skills hold the key, and its sync state shows.
    const skills = await board.api<any[]>('GET', `/api/companies/${C}/skills`);
    const skill = skills.find((s) => s.name === 'Market Research');
    const agents = page.getByRole('region', { name: 'Agents' });
    await agents.getByRole('checkbox', { name: 'Rita Researcher' }).check();
    await agents.getByRole('button', { name: 'Attach' }).click();
    const attachedRow = agents.getByRole('row').filter({ has: page.getByRole('link', { name: 'Rita Researcher' }) });
    await attachedRow.getByText('Stored only: this adapter does not load skills').waitFor();
    await attachedRow.getByText('Stored', { exact: true }).waitFor();
    const snapshot = await board.api<any>('GET', `/api/agents/${agent.id}/skills`);
    assert.ok(snapshot.desiredSkills.includes(skill.key), JSON.stringify(snapshot.desiredSkills));
    assert.ok(snapshot.desiredSkills.includes('boardroom/skills/boardroom-api'), 'the required bundled skill is kept');
    assert.equal(await agents.getByRole('checkbox', { name: 'Rita Researcher' }).count(), 0);
    await agents.getByRole('checkbox', { name: 'Otto Ops' }).waitFor();
    await checkAccessibility(page, 'a skill attached to an agent');

    await agents.getByRole('button', { name: 'Detach from Rita Researcher' }).click();
    await agents.getByText('Not attached to any agent.').waitFor();
    const after = await board.api<any>('GET', `/api/agents/${agent.id}/skills`);
    assert.ok(!after.desiredSkills.includes(skill.key));
  });

  it("shows an import's warnings, and why nothing was imported when every skill was skipped", async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'board-skills-'));
    const write = async (folder: string, frontmatter: string) => {
      await mkdir(path.join(root, folder), { recursive: true });
      await writeFile(path.join(root, folder, 'SKILL.md'), `---\n${frontmatter}\n---\n\nBody.\n`);
    };
    await write('mixed/pricing', 'name: Pricing');
    await write('mixed/impostor', 'name: Impostor\nkey: boardroom/skills/boardroom-api');
    await write('only-impostor/impostor', 'name: Impostor\nkey: boardroom/skills/boardroom-api');
    const page = await board.signedInPage();
    await page.goto(`/c/${C}/skills`);
    await page.getByLabel('Source').fill(path.join(root, 'mixed'));
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const result = page.getByRole('status').filter({ hasText: 'imported from' });
    await result.getByText('1 skill imported from').waitFor();
    await result.getByRole('link', { name: 'Pricing' }).waitFor();
    await result.getByText('Warnings').waitFor();
    await result.getByRole('listitem').filter({ hasText: 'boardroom/skills/boardroom-api' }).waitFor();
    await checkAccessibility(page, 'an import with warnings');

    await page.getByLabel('Source').fill(path.join(root, 'only-impostor'));
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const refused = page.getByRole('alert').filter({ hasText: 'Nothing was imported' });
    await refused.getByRole('listitem').filter({ hasText: 'boardroom/skills/boardroom-api' }).waitFor();
    await checkAccessibility(page, 'an import where every skill was skipped');
  });

  it('creates a managed skill, writes a new file in it, and deletes it', async () => {
    const page = await board.signedInPage();
    await page.goto(`/c/${C}/skills`);
    await page.getByLabel('Name').fill('Weekly Report');
    await page.getByLabel('Description').fill('How to write the weekly report.');
    await page.getByRole('button', { name: 'Create and edit' }).click();
    await page.getByRole('heading', { name: 'Weekly Report', level: 1 }).waitFor();
    await page.getByText('Managed here').waitFor();
    await page.getByLabel('New file').fill('references/template.md');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByLabel('Contents of references/template.md').fill('# This week\n');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('navigation', { name: 'Skill files' }).getByRole('button', { name: 'template.md' }).waitFor();
    await page.getByLabel('Contents of references/template.md').getByText('# This week').waitFor();

    await page.getByRole('button', { name: 'Delete skill' }).click();
    await page.getByRole('dialog', { name: 'Delete Weekly Report?' }).getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL(new RegExp(`/c/${C}/skills$`));
    await page.getByRole('heading', { name: 'Skills', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Weekly Report' }).waitFor({ state: 'detached' });
    const skills = await board.api<any[]>('GET', `/api/companies/${C}/skills`);
    assert.ok(!skills.some((s) => s.name === 'Weekly Report'));
  });

  it('imports from the code host, finds an update from the library, and installs it from the skill page', async () => {
    const skillMd = (step: string) =>
      `---\nname: Onboarding\ndescription: Bring a new hire up to speed.\n---\n\n# Onboarding\n\n${step}\n`;
    const first = commit({ 'skills/onboarding/SKILL.md': skillMd('Send the welcome pack.') });
    const page = await board.signedInPage();
    await page.goto(`/c/${C}/skills`);
    await page.getByLabel('Source').fill('acme/playbooks');
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByRole('status').getByText('1 skill imported from acme/playbooks').waitFor();
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'Onboarding' }) });
    await row.getByText('GitHub').waitFor();
    await row.getByText(first.slice(0, 7)).waitFor();
    await row.getByRole('cell', { name: 'acme/playbooks/onboarding' }).waitFor();

    await row.getByRole('button', { name: 'Check Onboarding for an update' }).click();
    await row.getByText('Up to date').waitFor();

    const second = commit({ 'skills/onboarding/SKILL.md': skillMd('Book the first one-to-one.') });
    await page.reload();
    await row.getByRole('button', { name: 'Check Onboarding for an update' }).click();
    await row.getByRole('link', { name: 'Update available' }).click();
    const updates = page.getByRole('region', { name: 'Updates' });
    await updates.getByText('Update available').waitFor();
    await checkAccessibility(page, 'a code-host skill with an update');
    await updates.getByRole('button', { name: 'Install update' }).click();
    await updates.getByText(`Updated from ${first.slice(0, 7)} to ${second.slice(0, 7)}.`).waitFor();
    await updates.getByText('Up to date').waitFor();
    await page.getByLabel('Contents of SKILL.md').getByText('Book the first one-to-one.').waitFor();
  });
});
