// Export and import in a real browser: the export preview's file tree, the .zip built in the browser
// (read back in Node with the server's zip reader), that zip imported as a new company with the plan
// shown before apply (agents arrive paused, the supplied input becomes a secret), a plan with errors
// blocking apply (the zip dropped on the field), a `../` path refused by the server, an unreadable zip
// and a ZIP bomb refused by the browser, axe.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { before, describe, it } from 'node:test';
import { zipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { readZip, writeZip } from '../../src/lib/zip.ts';
import { checkAccessibility, screenshot, startBoard } from '../helpers/browser.ts';

const board = await startBoard();
const LIMITS = { maxEntries: 5000, maxEntryBytes: 10 << 20, maxTotalBytes: 25 << 20 };
let companyId = '';
let page: Page;
let zipBytes: Buffer;
const CENTRAL = Buffer.from([0x50, 0x4b, 0x01, 0x02]); // a central directory header's signature

const zipUpload = (name: string, buffer: Buffer) => ({ name, mimeType: 'application/zip', buffer });
/** Chooses a bundle as a person does: the FileInput's button opens the file chooser. */
async function chooseBundle(file: { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Bundle (.zip)' }).click();
  await (await chooser).setFiles(file);
}

before(async () => {
  companyId = (await board.api('POST', '/api/companies', { name: 'Acme Robotics', description: 'We build robots.' }))
    .id;
  const ceo = await board.api('POST', `/api/companies/${companyId}/agents`, {
    name: 'Ada',
    role: 'ceo',
    title: 'Chief executive',
    adapterType: 'process',
    adapterConfig: { command: 'true', env: { OPENAI_API_KEY: 'sk-not-leaving' } },
  });
  await board.api('POST', `/api/companies/${companyId}/agents`, {
    name: 'Bob',
    role: 'engineer',
    reportsTo: ceo.id,
    adapterType: 'process',
    adapterConfig: { command: 'true' },
  });
  for (const title of ['Wire the arm', 'Calibrate sensors', 'Write the manual'])
    await board.api('POST', `/api/companies/${companyId}/issues`, { title, description: `About: ${title}` });
  page = await board.signedInPage({ width: 1440, height: 1300 });
});

describe('export and import', () => {
  it('previews the export as a file tree with kinds, sizes, counts and warnings', async () => {
    await page.goto(`/c/${companyId}/portability`);
    await page.getByRole('heading', { name: 'Export and import', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    const preview = page.getByRole('region', { name: 'Export preview' });
    await preview.getByText(/2 agents, 0 projects, 0 goals, 3 issues/).waitFor();
    const tree = preview.getByRole('group', { name: /Files of the bundle/ });
    await tree.getByText('COMPANY.md', { exact: true }).waitFor();
    // The agents folder is open; each agent's own folder starts closed and opens with the keyboard.
    await tree.getByText('agents/', { exact: true }).waitFor();
    const ada = tree.locator('summary', { hasText: 'ada/' });
    assert.equal(await tree.getByText('AGENTS.md').first().isVisible(), false);
    await ada.focus();
    await page.keyboard.press('Enter');
    const agentFile = tree.locator('li.file-tree-file', { hasText: 'AGENTS.md' }).first();
    await agentFile.waitFor();
    assert.match(await agentFile.innerText(), /^AGENTS\.md\s*agent\s*\d+(\.\d)? (B|KB)$/);
    assert.equal(await tree.getByText('TASK.md').count(), 3);
    // The plain env value with a sensitive name does not leave: it is an input, with a warning.
    await preview.getByText(/Inputs to supply at import: OPENAI_API_KEY/).waitFor();
    await preview
      .getByText(/warning/)
      .first()
      .waitFor();
    await checkAccessibility(page, 'the export preview');
  });

  it("downloads the bundle as <rootPath>.zip, built in the browser, which the server's reader reads", async () => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download .zip' }).click(),
    ]);
    const exported = await board.api('POST', `/api/companies/${companyId}/exports`, {
      include: { company: true, agents: true, projects: true, goals: true, issues: true, skills: true, routines: true },
    });
    assert.equal(download.suggestedFilename(), `${exported.rootPath}.zip`);
    zipBytes = await readFile((await download.path())!);
    const entries = new Map(readZip(zipBytes, LIMITS).map((entry) => [entry.name, entry.data.toString('utf8')]));
    assert.match(entries.get(`${exported.rootPath}/COMPANY.md`) ?? '', /name: Acme Robotics/);
    assert.ok(
      [...entries.keys()].some((name) => /\/agents\/[^/]+\/AGENTS\.md$/.test(name)),
      [...entries.keys()].join(', '),
    );
    // The reader held every entry to its declared size; the markdown was deflated, not only stored.
    const methods: number[] = [];
    for (let at = zipBytes.indexOf(CENTRAL); at >= 0; at = zipBytes.indexOf(CENTRAL, at + 46))
      methods.push(zipBytes.readUInt16LE(at + 10));
    assert.equal(methods.length, entries.size);
    assert.ok(methods.includes(8), `methods: ${methods.join(',')}`);
    // Every file of the bundle, byte for byte.
    assert.equal(entries.size, Object.keys(exported.files).length);
    for (const [path, file] of Object.entries(exported.files))
      if (typeof file === 'string') assert.equal(entries.get(`${exported.rootPath}/${path}`), file, path);
    await page
      .getByRole('status')
      .filter({ hasText: `Downloaded ${exported.rootPath}.zip` })
      .waitFor();
  });

  it('imports that zip as a new company: the plan first, then apply, paused agents, a link to it', async () => {
    await page.getByLabel('A new company').check();
    await chooseBundle(zipUpload('acme.zip', zipBytes));
    await page.getByText(/acme\.zip: \d+ files under /).waitFor();
    await page.getByLabel(/New company name/).fill('Acme Copy');
    // Only three strategies for a new company; the plan is asked for, nothing is written yet.
    await page.getByRole('combobox', { name: 'When a record already exists' }).click();
    assert.deepEqual(await page.getByRole('listbox').getByRole('option').allInnerTexts(), [
      'Rename: create beside it (Name 2)',
      'Skip: keep the existing one',
      'Replace: overwrite it',
    ]);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Preview import' }).click();
    const plan = page.getByRole('region', { name: 'Import plan' });
    await plan.getByText('A new company', { exact: false }).waitFor();
    await plan.getByText('Acme Copy').first().waitFor();
    const agents = plan.getByRole('table', { name: /Agents \(2\)/ });
    await agents.getByRole('row', { name: /ada create Ada/i }).waitFor();
    await plan.getByRole('table', { name: /Issues \(3\)/ }).waitFor();
    const companies = await board.api('GET', '/api/companies');
    assert.equal(
      (companies.items ?? companies).some((c: { name: string }) => c.name === 'Acme Copy'),
      false,
      'the preview wrote nothing',
    );
    await plan.getByLabel(/OPENAI_API_KEY/).fill('sk-new-instance');
    assert.equal(await plan.getByLabel(/OPENAI_API_KEY/).getAttribute('type'), 'password');
    await checkAccessibility(page, 'the import plan');
    await screenshot(page, 'export-import');

    await plan.getByRole('button', { name: 'Apply import' }).click();
    const result = page.getByRole('status').filter({ hasText: 'Imported as the new company Acme Copy' });
    await result.waitFor();
    assert.match(await result.innerText(), /agents: 2 created/);
    assert.match(await result.innerText(), /issues: 3 created/);
    await checkAccessibility(page, 'the import result');
    await result.getByRole('link', { name: 'Open Acme Copy' }).click();
    await page.waitForURL((url) => /\/c\/[0-9a-f-]{36}\//.test(url.pathname) && !url.pathname.includes(companyId));
    const newId = page.url().match(/\/c\/([0-9a-f-]{36})/)![1]!;
    assert.notEqual(newId, companyId);
    assert.equal((await board.api('GET', `/api/companies/${newId}`)).name, 'Acme Copy');
    const imported = await board.api('GET', `/api/companies/${newId}/agents`);
    const list: { name: string; status: string }[] = imported.items ?? imported;
    assert.deepEqual(list.map((agent) => agent.name).sort(), ['Ada', 'Bob']);
    assert.ok(
      list.every((agent) => agent.status === 'paused'),
      JSON.stringify(list.map((agent) => agent.status)),
    );
    const secrets = await board.api('GET', `/api/companies/${newId}/secrets`);
    assert.ok((secrets.items ?? secrets).some((secret: { name: string }) => secret.name === 'OPENAI_API_KEY'));
  });

  it('into this company: no replace strategy; colliding records renamed as the plan said', async () => {
    await page.goto(`/c/${companyId}/portability`);
    await page.getByLabel('This company').check();
    await page.getByRole('combobox', { name: 'When a record already exists' }).click();
    assert.deepEqual(await page.getByRole('listbox').getByRole('option').allInnerTexts(), [
      'Rename: create beside it (Name 2)',
      'Skip: keep the existing one',
    ]);
    await page.keyboard.press('Escape');
    await chooseBundle(zipUpload('acme.zip', zipBytes));
    await page.getByText(/acme\.zip: \d+ files/).waitFor();
    await page.getByRole('button', { name: 'Preview import' }).click();
    const plan = page.getByRole('region', { name: 'Import plan' });
    // With rename, the company's own settings stay: only replace overwrites them.
    await plan.getByText('Into this company, its settings unchanged').waitFor();
    const ada = plan.getByRole('table', { name: /Agents/ }).getByRole('row', { name: /^ada create Ada 2/ });
    await ada.waitFor();
    assert.notEqual((await ada.innerText()).split('\t').at(-1)?.trim(), '', 'a renamed record says why');
    await plan.getByRole('button', { name: 'Apply import' }).click();
    await page.getByRole('status').filter({ hasText: 'Imported into Acme Robotics' }).waitFor();
    const agents = await board.api('GET', `/api/companies/${companyId}/agents`);
    assert.deepEqual((agents.items ?? agents).map((agent: { name: string }) => agent.name).sort(), [
      'Ada',
      'Ada 2',
      'Bob',
      'Bob 2',
    ]);
    await checkAccessibility(page, 'an import into this company, applied');
  });

  it('a dropped zip whose plan has errors cannot be applied', async () => {
    await page.goto(`/c/${companyId}/portability`);
    await page.getByLabel('This company').check();
    const broken = writeZip([
      { name: 'broken/COMPANY.md', data: Buffer.from('---\nschema: agentcompanies/v1\nname: Broken\n---\n') },
      {
        name: 'broken/agents/eve/AGENTS.md',
        data: Buffer.from('---\nname: Eve\nreportsTo: nobody\nadapter:\n  type: process\n---\n'),
      },
    ]);
    // Dropped on the field rather than chosen: the drop path reads the same way.
    const transfer = await page.evaluateHandle(`(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([Uint8Array.from(atob('${broken.toString('base64')}'), (c) => c.charCodeAt(0))], 'broken.zip', { type: 'application/zip' }));
      return transfer;
    })()`);
    await page.getByText('A .zip export; or drop one here.').dispatchEvent('drop', { dataTransfer: transfer });
    await page.getByText('broken.zip: 2 files under broken/').waitFor();
    await page.getByRole('button', { name: 'Preview import' }).click();
    const plan = page.getByRole('region', { name: 'Import plan' });
    await plan
      .getByRole('alert')
      .filter({ hasText: /Apply is blocked/ })
      .getByText(/nobody/)
      .waitFor();
    assert.equal(await plan.getByRole('button', { name: 'Apply import' }).isDisabled(), true);
    await checkAccessibility(page, 'an import plan with errors');
  });

  it("shows the server's refusal of a `../` path, and the browser's of a file that is no zip", async () => {
    const escaping = writeZip([
      { name: 'COMPANY.md', data: Buffer.from('---\nname: Evil\n---\n') },
      { name: '../outside.md', data: Buffer.from('no') },
    ]);
    await page.getByLabel('A new company').check();
    await chooseBundle(zipUpload('escape.zip', escaping));
    await page.getByText('escape.zip: 2 files').waitFor();
    await page.getByRole('button', { name: 'Preview import' }).click();
    const refusal = page.getByRole('alert').filter({ hasText: 'The bundle was refused' });
    await refusal.waitFor();
    assert.match(await refusal.innerText(), /\.\./);
    assert.equal(await page.getByRole('region', { name: 'Import plan' }).count(), 0);
    await checkAccessibility(page, 'a refused bundle');

    await chooseBundle({
      name: 'notes.zip',
      mimeType: 'application/zip',
      buffer: Buffer.from('just some text, not an archive'),
    });
    await page
      .getByRole('alert')
      .filter({ hasText: 'The zip could not be read' })
      .getByText('this is not a ZIP archive')
      .waitFor();
    assert.equal(await page.getByRole('button', { name: 'Preview import' }).isDisabled(), true);

    // A ZIP bomb (32 MiB of zeros at level 9, ~32 kB) is refused by its declared size, before inflating.
    await chooseBundle(
      zipUpload('bomb.zip', Buffer.from(zipSync({ 'bomb/zeros.txt': [new Uint8Array(32 << 20), { level: 9 }] }))),
    );
    await page
      .getByRole('alert')
      .filter({ hasText: 'The zip could not be read' })
      .getByText('bomb/zeros.txt is 33554432 bytes; at most 10485760')
      .waitFor();
    assert.equal(await page.getByRole('button', { name: 'Preview import' }).isDisabled(), true);
  });
});
