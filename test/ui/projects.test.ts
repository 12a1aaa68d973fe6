// Goals and projects in a real browser: the goal tree (create, add a sub-goal, edit); the project
// list and a project's detail with its goals, issues (and the issues page filtered to it), budget
// bar, and workspaces whose runtime service is started, shows its output, is restarted and stopped,
// while a workspace without a command has its start refused with the server's reason. axe on every
// page and state visited.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkAccessibility, pickOption, screenshot, startBoard } from '../helpers/browser.ts';
import { tempDir } from '../helpers/server-process.ts';

const board = await startBoard();
const work = await tempDir('boardroom-ui-projects-');
const company = await board.api('POST', '/api/companies', { name: 'Structure Co' });
const C = company.id;

describe('goals', () => {
  it('builds a goal tree: a top-level goal, a sub-goal under it, then an edit', async () => {
    const page = await board.signedInPage();
    await page.goto(`/c/${C}/goals`);
    await page.getByText('No goals yet.').waitFor();
    await checkAccessibility(page, 'the empty goals page');

    await page.getByRole('button', { name: 'New goal' }).click();
    let dialog = page.getByRole('dialog', { name: 'New goal' });
    await dialog.getByLabel('Title').fill('Grow revenue');
    await checkAccessibility(page, 'the new goal dialog');
    await dialog.getByRole('button', { name: 'Create goal' }).click();
    const tree = page.getByRole('list', { name: 'Goal tree' });
    await tree.locator('strong', { hasText: 'Grow revenue' }).waitFor();

    await page.getByRole('button', { name: 'Add sub-goal to Grow revenue' }).click();
    dialog = page.getByRole('dialog', { name: 'New sub-goal of Grow revenue' });
    await dialog.getByLabel('Title').fill('Launch in Spain');
    // The parent is chosen already: the picker shows its title.
    await dialog.getByRole('combobox', { name: 'Parent goal' }).getByText('Grow revenue').waitFor();
    await dialog.getByRole('button', { name: 'Create goal' }).click();
    await page
      .getByRole('list', { name: 'Sub-goals of Grow revenue' })
      .locator('strong', { hasText: 'Launch in Spain' })
      .waitFor();
    const goals = await board.api('GET', `/api/companies/${C}/goals`);
    const parent = goals.find((goal: { title: string }) => goal.title === 'Grow revenue');
    const child = goals.find((goal: { title: string }) => goal.title === 'Launch in Spain');
    assert.equal(child.parentId, parent.id);

    await page.getByRole('button', { name: 'Edit Launch in Spain' }).click();
    dialog = page.getByRole('dialog', { name: 'Edit Launch in Spain' });
    // A goal cannot be moved under itself.
    await dialog.getByRole('combobox', { name: 'Parent goal' }).click();
    await page.getByRole('listbox').getByRole('option', { name: 'Grow revenue' }).waitFor();
    assert.equal(await page.getByRole('listbox').getByRole('option', { name: 'Launch in Spain' }).count(), 0);
    await page.keyboard.press('Escape');
    await pickOption(dialog, 'Status', 'Active');
    await dialog.getByRole('button', { name: 'Save goal' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('list', { name: 'Sub-goals of Grow revenue' }).getByText('Active', { exact: true }).waitFor();
    assert.equal((await board.api('GET', `/api/goals/${child.id}`)).status, 'active');
    await checkAccessibility(page, 'a goal tree with a sub-goal');
  });
});

describe('projects', () => {
  it('lists projects and creates one', async () => {
    const page = await board.signedInPage();
    await page.goto(`/c/${C}/projects`);
    await page.getByText('No projects yet.').waitFor();
    await checkAccessibility(page, 'the empty projects list');
    await page.getByRole('button', { name: 'New project' }).click();
    const dialog = page.getByRole('dialog', { name: 'New project' });
    await dialog.getByLabel('Name').fill('Website');
    await pickOption(dialog, 'Status', 'In progress');
    await dialog.getByRole('button', { name: 'Create project' }).click();
    await page.waitForURL(/\/projects\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { name: 'Website' }).waitFor();
    await page.goto(`/c/${C}/projects`);
    await page.getByRole('link', { name: 'Website' }).waitFor();
    await checkAccessibility(page, 'the projects list');
    await screenshot(page, 'projects');
  });

  it('shows a project with goals, issues, budget and workspaces; runs a runtime service and refuses one without a command', async () => {
    const [goal] = await board.api('GET', `/api/companies/${C}/goals`);
    const project = await board.api('POST', `/api/companies/${C}/projects`, {
      name: 'Backend',
      status: 'in_progress',
      goalIds: [goal.id],
    });
    const issue = await board.api('POST', `/api/companies/${C}/issues`, {
      title: 'Add a health check',
      projectId: project.id,
    });
    await board.api('POST', `/api/companies/${C}/issues`, { title: 'Not in the project' });
    await board.api('POST', `/api/companies/${C}/budgets/policies`, {
      scopeType: 'project',
      scopeId: project.id,
      amount: 5000,
    });
    // About 28 KB of output, more than the panel shows, then a line a second later: the panel shows
    // the newest output and follows it.
    const serviceCommand = `"${process.execPath}" -e "console.log('service up'); for (let i = 0; i < 400; i++) console.log('warming the cache ' + '.'.repeat(50) + ' ' + i); setTimeout(() => console.log('ready on port 4000'), 1500); setInterval(() => {}, 1000)"`;
    await board.api('POST', `/api/projects/${project.id}/workspaces`, {
      name: 'api',
      cwd: work,
      runtimeConfig: { command: serviceCommand },
    });
    await board.api('POST', `/api/projects/${project.id}/workspaces`, { name: 'docs', cwd: work });

    const page = await board.signedInPage();
    await page.goto(`/c/${C}/projects/${project.id}`);
    await page.getByRole('heading', { name: 'Backend' }).waitFor();
    await page.getByRole('region', { name: 'Goals' }).getByRole('link', { name: 'Grow revenue' }).waitFor();
    const issues = page.getByRole('region', { name: 'Issues' });
    await issues.getByRole('link', { name: `${issue.identifier} Add a health check` }).waitFor();
    assert.equal(await issues.getByText('Not in the project').count(), 0);
    await page.getByRole('region', { name: 'Budget' }).getByText('$0.00 of $50.00').waitFor();
    const api = page.getByRole('listitem', { name: 'Workspace api' });
    const docs = page.getByRole('listitem', { name: 'Workspace docs' });
    await api.getByText('not started').waitFor();
    await checkAccessibility(page, 'a project with workspaces');

    // A workspace without a command: start is refused, with the server's reason.
    await docs.getByRole('button', { name: 'Start' }).click();
    await docs.getByRole('alert').filter({ hasText: 'The runtime service was not changed' }).waitFor();
    await checkAccessibility(page, 'a refused runtime-service start');

    // The other one starts, shows its output, restarts and stops.
    await api.getByRole('button', { name: 'Start' }).click();
    await api.getByText('Running', { exact: true }).waitFor({ timeout: 30_000 });
    await api.getByRole('button', { name: 'Logs' }).click();
    const output = api.getByLabel('Runtime service output');
    await output.filter({ hasText: 'ready on port 4000' }).waitFor({ timeout: 30_000 });
    assert.equal(
      await output.filter({ hasText: 'service up' }).count(),
      0,
      'the oldest output is beyond the last 16,384 characters',
    );
    await api.getByText(/Showing the last 16,384 of 2\d,\d{3} characters written\./).waitFor();
    await screenshot(page, 'project-detail');
    const pid = (await board.api('GET', `/api/projects/${project.id}/workspaces`)).find(
      (w: { name: string }) => w.name === 'api',
    ).runtimeService.pid;
    await api.getByRole('button', { name: 'Restart' }).click();
    await api.getByText(new RegExp(`pid (?!${pid}\\b)\\d+`)).waitFor({ timeout: 30_000 });
    await api.getByText('Running', { exact: true }).waitFor({ timeout: 30_000 });
    await api.getByRole('button', { name: 'Stop' }).click();
    await api.getByText('Stopped', { exact: true }).waitFor({ timeout: 30_000 });
    await checkAccessibility(page, 'a project after its runtime service stopped');

    // Edit: rename docs, give it a command and make it primary.
    await docs.getByRole('button', { name: 'Edit workspace docs' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit workspace docs' });
    await edit.getByLabel('Name').fill('handbook');
    await edit.getByLabel('Runtime service command').fill('npm run docs');
    await edit.getByLabel(/Primary workspace/).check();
    await checkAccessibility(page, 'the edit workspace dialog');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'detached' });
    const handbook = page.getByRole('listitem', { name: 'Workspace handbook' });
    await handbook.getByText('primary', { exact: true }).waitFor();
    const stored = (await board.api('GET', `/api/projects/${project.id}/workspaces`)) as {
      name: string;
      isPrimary: boolean;
      runtimeConfig: { command?: string } | null;
    }[];
    assert.deepEqual(
      stored.map((w) => [w.name, w.isPrimary, w.runtimeConfig?.command ?? null]),
      [
        ['api', false, serviceCommand],
        ['handbook', true, 'npm run docs'],
      ],
    );

    // Delete api, after a confirmation that says what it does.
    await api.getByRole('button', { name: 'Delete workspace api' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete workspace api?' });
    await confirm.getByText('its directory and repository are not touched').waitFor();
    await confirm.getByRole('button', { name: 'Delete workspace' }).click();
    // (While the dialog is open the page behind it is hidden from roles: wait for it to close first.)
    await confirm.waitFor({ state: 'detached' });
    await api.waitFor({ state: 'detached' });
    assert.deepEqual(
      ((await board.api('GET', `/api/projects/${project.id}/workspaces`)) as { name: string }[]).map((w) => w.name),
      ['handbook'],
    );

    // The only workspace stays primary: the server's refusal is shown in the dialog.
    await handbook.getByRole('button', { name: 'Edit workspace handbook' }).click();
    const last = page.getByRole('dialog', { name: 'Edit workspace handbook' });
    await last.getByLabel(/Primary workspace/).uncheck();
    await last.getByRole('button', { name: 'Save' }).click();
    await last
      .getByRole('alert')
      .filter({ hasText: 'The workspace was not changed' })
      .getByText(/primary/)
      .waitFor();
    await last.getByRole('button', { name: 'Cancel' }).click();

    await issues.getByRole('link', { name: 'All issues of this project' }).click();
    await page.waitForURL(new RegExp(`/issues\\?project=${project.id}$`));
    await page.getByRole('link', { name: /Add a health check/ }).waitFor();
  });
});
