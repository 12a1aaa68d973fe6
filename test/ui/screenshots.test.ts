// Every main page of the board with a realistic company in it, photographed at 1440 and 390 px wide in
// the light and the dark scheme (`pages/<page>-<1440|390>-<light|dark>.png` in the screenshots
// directory: `SCREENSHOTS_DIR=docs/screenshots` refreshes the committed ones), and checked while
// there: axe finds no serious or critical violation in either scheme, and nothing scrolls sideways
// at 390 px. The company: five agents, a goal, a project, 15 issues across the statuses and
// priorities, comments from the board and from an agent, a finished run, a live run (a `process`
// agent that works until a file appears, so its issue says "Scout is working on this"), a pending
// approval, budgets, a routine with a schedule, spend across models, a secret.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { checkAccessibility, screenshot, startBoard } from '../helpers/browser.ts';
import { tempDir } from '../helpers/server-process.ts';
import { sidewaysOverflow } from '../helpers/sideways.ts';
import { waitFor } from '../helpers/wait.ts';

const board = await startBoard();
const WIDTHS = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;
const SCHEMES = ['light', 'dark'] as const;

// The agents' script: checks out the issue it was woken for, says so in a comment, prints its work,
// then (with `wait`) works on until the `done` file appears, or ends at once.
const dir = await tempDir('screenshots-agent-');
const DONE = path.join(dir, 'done');
const script = path.join(dir, 'agent.mjs');
await writeFile(
  script,
  `import { existsSync } from 'node:fs';
const env = process.env;
const [mode, comment, ...lines] = process.argv.slice(2);
const call = (method, url, body) => fetch(env.SERVICE_API_URL + url, {
  method,
  headers: { authorization: 'Bearer ' + env.SERVICE_API_KEY, 'x-service-run-id': env.SERVICE_RUN_ID, 'content-type': 'application/json' },
  body: JSON.stringify(body),
});
if (env.SERVICE_TASK_ID) {
  await call('POST', '/api/issues/' + env.SERVICE_TASK_ID + '/checkout', { agentId: env.SERVICE_AGENT_ID, expectedStatuses: ['todo'] });
  if (comment) await call('POST', '/api/issues/' + env.SERVICE_TASK_ID + '/comments', { body: comment });
}
for (const line of lines) console.log(line);
if (mode === 'wait') await new Promise((resolve) => { const timer = setInterval(() => { if (existsSync(${JSON.stringify(DONE)})) { clearInterval(timer); resolve(); } }, 100); });
`,
);

let C = '';
/** Where each photographed page is, under /c/:companyId/. */
const pages: [name: string, where: string][] = [];

before(async () => {
  const company = await board.api('POST', '/api/companies', {
    name: 'Acme Robotics',
    description: 'Warehouse robots, built by agents',
    budgetMonthlyCents: 500_000,
  });
  C = company.id;
  const agent = (name: string, role: string, title: string, args: string[] = ['quick', ''], budget = 100_000) =>
    board.api('POST', `/api/companies/${C}/agents`, {
      name,
      role,
      title,
      adapterType: 'process',
      adapterConfig: { command: process.execPath, args: [script, ...args], timeoutSec: 600 },
      budgetMonthlyCents: budget,
    });
  const ada = await agent('Ada', 'ceo', 'Chief executive');
  const scout = await agent(
    'Scout',
    'engineer',
    'Robotics engineer',
    [
      'wait',
      'Picked this up. Starting with the aisle 3 map, then the planner.',
      'Checking out the issue and reading its comments',
      'Loaded the aisle 3 map: 412 pick locations, 9 one-way lanes',
      'Running the planner tests: 212 passed, 0 failed',
      'Comparing routes against last week: 14% shorter on average',
    ],
    20_000,
  );
  const quill = await agent('Quill', 'engineer', 'Technical writer', [
    'quick',
    'The release notes draft is in the document; 14 changes since v0.8.',
    'Collected 14 merged changes since v0.8',
    'Drafted the release notes',
    'Done: notes ready for review',
  ]);
  const vega = await agent('Vega', 'engineer', 'Data engineer');
  await agent('Orion', 'designer', 'Product designer');
  for (const [manager, report] of [
    [ada, scout],
    [ada, quill],
    [ada, vega],
  ])
    await board.api('PATCH', `/api/agents/${report.id}`, { reportsTo: manager.id });
  await board.api('POST', `/api/agents/${vega.id}/pause`);

  const goal = await board.api('POST', `/api/companies/${C}/goals`, {
    title: 'Ship the picking fleet to three warehouses',
    description: 'Lisbon, Porto and Rotterdam by the end of the quarter.',
  });
  await board.api('POST', `/api/companies/${C}/goals`, { title: 'Halve the cost of a pick' });
  const project = await board.api('POST', `/api/companies/${C}/projects`, {
    name: 'Pick-path planner',
    description: 'Shorter routes for the picking robots, aisle by aisle.',
    goalIds: [goal.id],
  });
  const issue = (title: string, fields: object = {}) =>
    board.api('POST', `/api/companies/${C}/issues`, { title, projectId: project.id, goalId: goal.id, ...fields });
  // Unassigned or assigned to an agent that is paused or not woken by the status: no runs but the two below.
  const label = async (name: string, color: string): Promise<string> =>
    (await board.api('POST', `/api/companies/${C}/labels`, { name, color }, 201)).id;
  const hardware = await label('Hardware', 'warning');
  const safety = await label('Safety', 'danger');
  const planning = await label('Planning', 'violet');
  const plan = await issue('Quarterly plan for the picking fleet', {
    status: 'done',
    priority: 'high',
    labelIds: [planning],
  });
  await issue('Calibrate the lidar on unit 7', { status: 'in_review', priority: 'medium', labelIds: [hardware] });
  await issue('Order spare grippers', { status: 'blocked', priority: 'high', labelIds: [hardware] });
  await issue('Map the Rotterdam warehouse', { status: 'backlog', priority: 'low' });
  await issue('Battery swap schedule for the night shift', { status: 'backlog', priority: 'medium' });
  await issue('Collision report for unit 3', {
    status: 'todo',
    priority: 'critical',
    assigneeAgentId: vega.id,
    labelIds: [safety, hardware],
  });
  await issue('Dashboards for pick latency', { status: 'todo', priority: 'medium', assigneeAgentId: vega.id });
  await issue('Safety review of the new grippers', { status: 'in_review', priority: 'high', labelIds: [safety] });
  await issue('Retire the old route tables', { status: 'cancelled', priority: 'low' });
  await issue('Hire a hardware designer', { status: 'todo', priority: 'medium' });
  await issue('Label the Porto shelves', { status: 'done', priority: 'low' });
  await issue('Charging dock firmware 2.4', { status: 'backlog', priority: 'high' });
  await issue('Weekly cost report', { status: 'done', priority: 'medium' });
  await board.api('POST', `/api/issues/${plan.id}/comments`, { body: 'Approved for **Q3**; Lisbon goes first.' }, 201);

  // Quill's run finishes; Scout's stays live until the `done` file appears.
  const notes = await issue('Release notes for v0.9', {
    status: 'todo',
    priority: 'medium',
    assigneeAgentId: quill.id,
  });
  const finished = await waitFor(
    "Quill's run to finish",
    async () =>
      (await board.api<any[]>('GET', `/api/companies/${C}/heartbeat-runs?agentId=${quill.id}`)).find(
        (run) => run.status === 'succeeded',
      ),
    60_000,
  );
  const planner = await issue('Pick-path planner for aisle 3', {
    status: 'todo',
    priority: 'high',
    assigneeAgentId: scout.id,
    labelIds: [planning],
    description: [
      'Routes in aisle 3 cross each other at the charging docks. Plan them so that:',
      '',
      '- [x] no two robots meet in a one-way lane',
      '- [ ] a route is at most 10% longer than the shortest',
      '- [ ] the planner answers in under 5 ms',
    ].join('\n'),
  });
  await waitFor(
    "Scout's live run to comment on its issue",
    async () =>
      (await board.api<any[]>('GET', `/api/issues/${planner.id}/comments`)).some((c) => c.authorAgentId === scout.id),
    60_000,
  );
  await board.api(
    'POST',
    `/api/issues/${planner.id}/comments`,
    { body: 'Keep the charging docks clear between 02:00 and 03:00: the night shift swaps batteries then.' },
    201,
  );

  const approval = await board.api('POST', `/api/companies/${C}/approvals`, {
    type: 'request_board_approval',
    requestedByAgentId: scout.id,
    issueIds: [planner.id],
    payload: {
      title: 'Buy two more lidar units for aisle 3',
      summary: 'The planner needs a second view of the charging docks. **$2,400** in total.',
      recommendedAction: 'Approve the purchase',
      risks: ['Delivery takes three weeks'],
    },
  });
  // The company's and each agent's monthly budget came with them; the project gets one of its own.
  await board.api('POST', `/api/companies/${C}/budgets/policies`, {
    scopeType: 'project',
    scopeId: project.id,
    amount: 50_000,
  });
  for (const [who, model, cents] of [
    [ada, 'claude-sonnet', 8_412],
    [scout, 'claude-sonnet', 12_380],
    [scout, 'gpt-5', 4_120],
    [quill, 'claude-haiku', 1_233],
    [vega, 'gpt-5', 2_650],
  ] as const)
    await board.api('POST', `/api/companies/${C}/cost-events`, {
      agentId: who.id,
      provider: 'acme-llm',
      model,
      costCents: cents,
      occurredAt: new Date().toISOString(),
    });
  const routine = await board.api(
    'POST',
    `/api/companies/${C}/routines`,
    { title: 'Weekly cost report', description: 'Spend by agent and model, with the trend.', assigneeAgentId: ada.id },
    201,
  );
  await board.api(
    'POST',
    `/api/routines/${routine.id}/triggers`,
    { kind: 'schedule', label: 'Mondays at nine', cronExpression: '0 9 * * 1', timezone: 'Europe/Lisbon' },
    201,
  );
  await board.api('POST', `/api/companies/${C}/secrets`, { name: 'WAREHOUSE_API_TOKEN', value: 'not-a-real-token' });

  pages.push(
    ['dashboard', 'dashboard'],
    ['inbox', 'inbox'],
    ['issues', 'issues'],
    ['issues-board', 'issues?view=board'],
    ['issue-live-run', `issues/${planner.identifier}`],
    ['issue-finished-run', `issues/${notes.identifier}`],
    ['run', `runs/${finished.runId}`],
    ['agents', 'agents'],
    ['agent', `agents/${scout.id}`],
    ['approvals', 'approvals'],
    ['approval', `approvals/${approval.id}`],
    ['projects', 'projects'],
    ['project', `projects/${project.id}`],
    ['goals', 'goals'],
    ['routines', 'routines'],
    ['routine', `routines/${routine.id}`],
    ['costs', 'costs'],
    ['budgets', 'budgets'],
    ['activity', 'activity'],
    ['secrets', 'secrets'],
    ['skills', 'skills'],
    ['org', 'org'],
    ['settings', 'settings'],
  );
});

/** Opens a page and waits until it has loaded everything it shows. */
async function open(page: Page, name: string, where: string): Promise<void> {
  await page.goto(`/c/${C}/${where}`);
  await page.locator('main h1').first().waitFor();
  await waitFor(
    `${name} to finish loading`,
    async () => (await page.locator('main .loading, main .skeleton').count()) === 0,
    20_000,
  );
  if (name === 'issue-live-run') await page.getByText('Scout is working on this').first().waitFor();
  // The live dot comes from the company's live runs, a query of its own.
  if (name === 'issues') await page.getByRole('img', { name: 'Scout is working on this' }).waitFor();
}

describe('screenshots of every main page', () => {
  // The live run ends (its script sees the file; cancelled if still running) before the server stops:
  // a suite's hook runs before the file's own, which stop the server and remove the temp dir.
  after(async () => {
    await writeFile(DONE, '');
    if (!C) return;
    const live = await board.api<{ runId: string }[]>('GET', `/api/companies/${C}/live-runs`);
    for (const { runId } of live)
      await board.api('POST', `/api/heartbeat-runs/${runId}/cancel`, {}).catch(() => undefined);
    await waitFor(
      'no live run',
      async () => (await board.api<unknown[]>('GET', `/api/companies/${C}/live-runs`)).length === 0,
      30_000,
    );
  });

  for (const viewport of WIDTHS)
    it(`at ${viewport.width} px, light and dark: axe passes${viewport.width < 720 ? ' and nothing scrolls sideways' : ''}`, async () => {
      const page = await board.signedInPage(viewport);
      const problems: string[] = [];
      for (const [name, where] of pages) {
        await open(page, name, where);
        for (const scheme of SCHEMES) {
          await page.emulateMedia({ colorScheme: scheme });
          await screenshot(page, `pages/${name}-${viewport.width}-${scheme}`);
        }
        if (viewport.width < 720) {
          const overflow = await sidewaysOverflow(page);
          if (overflow.document > 0 || overflow.main > 0)
            problems.push(`${name}: document +${overflow.document} px, page +${overflow.main} px; ${overflow.widest}`);
        }
        // Every page is visited before failing, so one run names every problem.
        await checkAccessibility(page, `${name} at ${viewport.width} px`).catch((error: Error) =>
          problems.push(error.message),
        );
      }
      assert.deepEqual(problems, [], `pages at ${viewport.width} px that fail axe or scroll sideways`);
    });
});
