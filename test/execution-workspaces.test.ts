// Isolated execution workspaces (issue 10 section 4) with a real git repository made by the test
// and agents that commit through the engine (test/fixtures/agents/git-committer.mjs): one worktree
// and branch per issue, reused across runs, removed with the branch kept when the issue closes,
// checkout into the closed one 409, and the issue detail's branch, commits and diff stat.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { git, newGitRepo } from './helpers/git-repo.ts';
import { newAgent, newIssue } from './helpers/factories.ts';
import { waitFor } from './helpers/wait.ts';

const COMMITTER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'agents', 'git-committer.mjs');
const EDITOR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'agents', 'git-editor.mjs');

let t: TestApp;
let board: string;
let companyId: string;
let tmp: string;
let repo: string;
let baseCommit: string;
let project: any;

const sql = async (text: string, params: unknown[] = []) => (await t.database.pool.query(text, params)).rows;

before(async () => {
  try {
    execFileSync('git', ['--version']);
  } catch {
    throw new Error('git is required by these tests (apt-get install git) and was not found on PATH');
  }
  tmp = await mkdtemp(path.join(os.tmpdir(), 'boardroom-worktrees-'));
  repo = path.join(tmp, 'repo');
  baseCommit = await newGitRepo(repo, 'main', '# the shared repository\n');

  t = await startTestApp({ engine: { pollMs: 200, worktreeSweepMs: 200 } });
  const c = await t.newCompany();
  board = c.token;
  companyId = c.company.id;
  const res = await t.request('POST', `/api/companies/${companyId}/projects`, {
    token: board,
    body: { name: 'Isolated', executionWorkspacePolicy: { mode: 'isolated' }, workspace: { name: 'repo', cwd: repo } },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  project = res.body;
});
after(async () => {
  await t?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

const committer = (prefix: string) =>
  newAgent(t, board, companyId, {
    adapterConfig: { command: process.execPath, args: [COMMITTER, prefix], timeoutSec: 60 },
  });

/** Wakes the agent about the issue and returns its finished run. */
async function runOn(agentId: string, issueId: string): Promise<any> {
  const res = await t.request('POST', `/api/agents/${agentId}/wakeup`, {
    token: board,
    body: { payload: { issueId } },
  });
  assert.equal(res.status, 202, JSON.stringify(res.body));
  return waitFor(
    'the run to finish',
    async () =>
      (
        await sql("select * from heartbeat_runs where wakeup_request_id = $1 and status not in ('queued', 'running')", [
          res.body.id,
        ])
      )[0],
    30_000,
  );
}

const detail = async (issueId: string) => {
  const res = await t.request('GET', `/api/issues/${issueId}`, { token: board });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
};

describe('isolated execution workspaces', () => {
  let agentA: any;
  let agentB: any;
  let first: any;
  let firstPath: string;

  it('creates a worktree on branch boardroom/<identifier> on the first run; the shared checkout is untouched', async () => {
    agentA = (await committer('a')).agent;
    agentB = (await committer('b')).agent;
    first = await newIssue(t, board, companyId, { projectId: project.id, status: 'todo' });
    const run = await runOn(agentA.id, first.id);
    assert.equal(run.status, 'succeeded', run.error);
    const expected = path.join(t.config.dataDir, 'worktrees', project.id, first.identifier);
    assert.equal(run.result_json.cwd, expected);
    assert.equal(run.result_json.branch, `boardroom/${first.identifier}`);
    firstPath = expected;

    // The agent's commit is on the issue branch, not on main, and the repository's own tree is clean.
    assert.equal(git(repo, 'rev-parse', 'main'), baseCommit);
    assert.equal(git(repo, 'status', '--porcelain'), '');
    assert.equal(existsSync(path.join(repo, run.result_json.file)), false);
    assert.equal(git(repo, 'rev-list', '--count', `main..boardroom/${first.identifier}`), '1');

    const d = await detail(first.id);
    const ws = d.currentExecutionWorkspace;
    assert.equal(ws.mode, 'isolated');
    assert.equal(ws.path, expected);
    assert.equal(ws.branch, `boardroom/${first.identifier}`);
    assert.equal(ws.baseRef, 'HEAD');
    assert.equal(ws.baseCommit, baseCommit);
    assert.equal(ws.status, 'open');
    assert.equal(d.workProducts.length, 1);
    const wp = d.workProducts[0];
    assert.equal(wp.type, 'git_branch');
    assert.equal(wp.branch, ws.branch);
    assert.equal(wp.commitsAhead, 1);
    assert.equal(wp.commits[0].subject, `agent work ${run.result_json.file}`);
    assert.equal(wp.headCommit, git(repo, 'rev-parse', ws.branch));
    assert.deepEqual(
      { filesChanged: wp.diffStat.filesChanged, insertions: wp.diffStat.insertions, deletions: wp.diffStat.deletions },
      { filesChanged: 1, insertions: 2, deletions: 0 },
    );
    assert.deepEqual(wp.diffStat.files, [
      { path: run.result_json.file, insertions: 2, deletions: 0, uncommitted: false },
    ]);
    assert.deepEqual(
      wp.diffStat.uncommitted,
      { filesChanged: 0, insertions: 0, deletions: 0 },
      'everything is committed',
    );
  });

  it('reuses the same worktree on the next run of the issue, and the branch grows', async () => {
    const run = await runOn(agentA.id, first.id);
    assert.equal(run.status, 'succeeded', run.error);
    assert.equal(run.result_json.cwd, firstPath);
    const d = await detail(first.id);
    assert.equal(d.currentExecutionWorkspace.path, firstPath);
    assert.equal(d.workProducts[0].commitsAhead, 2);
    assert.equal(d.workProducts[0].diffStat.filesChanged, 2);
    assert.equal(
      (await sql('select count(*)::int as n from execution_workspaces where issue_id = $1', [first.id]))[0].n,
      1,
    );
  });

  it('two agents on two issues of one repository, at the same time, never share a working tree', async () => {
    const second = await newIssue(t, board, companyId, { projectId: project.id, status: 'todo' });
    const third = await newIssue(t, board, companyId, { projectId: project.id, status: 'todo' });
    const [runB, runA] = await Promise.all([runOn(agentB.id, second.id), runOn(agentA.id, third.id)]);
    assert.equal(runB.status, 'succeeded', runB.error);
    assert.equal(runA.status, 'succeeded', runA.error);
    const paths = new Set([firstPath, runB.result_json.cwd, runA.result_json.cwd]);
    assert.equal(paths.size, 3, 'three issues, three worktrees');
    assert.equal(runB.result_json.branch, `boardroom/${second.identifier}`);
    assert.equal(runA.result_json.branch, `boardroom/${third.identifier}`);
    // Each branch holds only its own agent's file.
    const files = (branch: string) => git(repo, 'diff', '--name-only', baseCommit, branch).split('\n');
    assert.deepEqual(files(`boardroom/${second.identifier}`), [runB.result_json.file]);
    assert.deepEqual(files(`boardroom/${third.identifier}`), [runA.result_json.file]);
    const worktrees = git(repo, 'worktree', 'list', '--porcelain');
    for (const p of paths) assert.ok(worktrees.includes(`worktree ${p}\n`), `${p} is a worktree of the repository`);
  });

  it('counts what the agent left uncommitted (staged, unstaged, untracked) in the diff stat, marked uncommitted, until the worktree is removed', async () => {
    const issue = await newIssue(t, board, companyId, { projectId: project.id, status: 'todo' });
    const editor = (
      await newAgent(t, board, companyId, {
        adapterConfig: { command: process.execPath, args: [EDITOR], timeoutSec: 60 },
      })
    ).agent;
    const edited = await runOn(editor.id, issue.id);
    assert.equal(edited.status, 'succeeded', edited.error);
    const { staged, notes, binary, big } = edited.result_json.files;
    const worktree = edited.result_json.cwd;
    assert.equal(
      git(worktree, 'status', '--porcelain').split('\n').length,
      5,
      'the worktree holds five changed files and no commit',
    );

    let wp = (await detail(issue.id)).workProducts[0];
    assert.equal(wp.commitsAhead, 0);
    // README.md +1, staged +1, notes +3 (a last line without newline counts); the binary and the 2 MiB file count as changed with unknown lines.
    const allPending = { filesChanged: 5, insertions: 5, deletions: 0 };
    assert.deepEqual(
      { filesChanged: wp.diffStat.filesChanged, insertions: wp.diffStat.insertions, deletions: wp.diffStat.deletions },
      allPending,
    );
    assert.deepEqual(wp.diffStat.uncommitted, allPending);
    const byPath = (files: any[]) =>
      Object.fromEntries(files.map((f) => [f.path, [f.insertions, f.deletions, f.uncommitted]]));
    assert.deepEqual(byPath(wp.diffStat.files), {
      'README.md': [1, 0, true],
      [staged]: [1, 0, true],
      [notes]: [3, 0, true],
      [binary]: [null, null, true],
      [big]: [null, null, true],
    });
    assert.equal(wp.diffStat.filesTruncated, false);

    // Another run commits its own file, and with it what was staged: both leave the uncommitted part.
    const committed = await runOn(agentA.id, issue.id);
    assert.equal(committed.status, 'succeeded', committed.error);
    wp = (await detail(issue.id)).workProducts[0];
    assert.equal(wp.commitsAhead, 1);
    assert.deepEqual(
      { filesChanged: wp.diffStat.filesChanged, insertions: wp.diffStat.insertions, deletions: wp.diffStat.deletions },
      { filesChanged: 6, insertions: 7, deletions: 0 },
    );
    assert.deepEqual(wp.diffStat.uncommitted, { filesChanged: 4, insertions: 4, deletions: 0 });
    assert.deepEqual(byPath(wp.diffStat.files), {
      'README.md': [1, 0, true],
      [staged]: [1, 0, false],
      [committed.result_json.file]: [2, 0, false],
      [notes]: [3, 0, true],
      [binary]: [null, null, true],
      [big]: [null, null, true],
    });

    // Closed and removed, the uncommitted changes are gone: the last snapshot counts the commits alone.
    assert.equal(
      (await t.request('PATCH', `/api/issues/${issue.id}`, { token: board, body: { status: 'done' } })).status,
      200,
    );
    await waitFor(
      'the worktree to be removed',
      async () =>
        (await sql('select removed_at from execution_workspaces where issue_id = $1', [issue.id]))[0]?.removed_at,
      15_000,
    );
    wp = (await detail(issue.id)).workProducts[0];
    assert.deepEqual(
      {
        filesChanged: wp.diffStat.filesChanged,
        insertions: wp.diffStat.insertions,
        uncommitted: wp.diffStat.uncommitted,
      },
      { filesChanged: 2, insertions: 3, uncommitted: { filesChanged: 0, insertions: 0, deletions: 0 } },
    );
    assert.deepEqual(byPath(wp.diffStat.files), {
      [staged]: [1, 0, false],
      [committed.result_json.file]: [2, 0, false],
    });
  });

  it('a snapshot stored before uncommitted changes were counted reads as commits only', async () => {
    const issue = await newIssue(t, board, companyId, { projectId: project.id, status: 'todo' });
    assert.equal((await runOn(agentA.id, issue.id)).status, 'succeeded');
    await sql(
      `update execution_workspaces set work_product = jsonb_set(work_product #- '{diffStat,uncommitted}', '{diffStat,files}', '[{"path": "old.txt", "insertions": 2, "deletions": 0}]') where issue_id = $1`,
      [issue.id],
    );
    const wp = (await detail(issue.id)).workProducts[0];
    assert.deepEqual(wp.diffStat.uncommitted, { filesChanged: 0, insertions: 0, deletions: 0 });
    assert.deepEqual(wp.diffStat.files, [{ path: 'old.txt', insertions: 2, deletions: 0, uncommitted: false }]);
  });

  it('closing the issue removes the worktree and keeps the branch; checkout into it is then 409 workspace_closed', async () => {
    const branch = `boardroom/${first.identifier}`;
    const tip = git(repo, 'rev-parse', branch);
    const done = await t.request('PATCH', `/api/issues/${first.id}`, { token: board, body: { status: 'done' } });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    await waitFor(
      'the worktree to be removed',
      async () =>
        (await sql('select removed_at from execution_workspaces where issue_id = $1', [first.id]))[0]?.removed_at,
      15_000,
    );
    assert.equal(existsSync(firstPath), false);
    assert.equal(git(repo, 'rev-parse', branch), tip, 'the branch and its commits are kept');
    assert.ok(!git(repo, 'worktree', 'list', '--porcelain').includes(firstPath));

    const d = await detail(first.id);
    assert.equal(d.currentExecutionWorkspace.status, 'closed');
    assert.ok(d.currentExecutionWorkspace.closedAt);
    assert.ok(d.currentExecutionWorkspace.removedAt);
    assert.equal(d.workProducts[0].commitsAhead, 2, 'the work product outlives the worktree');

    // Reopened, the issue still cannot be checked out: its isolated workspace is closed.
    assert.equal(
      (await t.request('PATCH', `/api/issues/${first.id}`, { token: board, body: { status: 'todo' } })).status,
      200,
    );
    const checkout = await t.request('POST', `/api/issues/${first.id}/checkout`, {
      token: board,
      body: { agentId: agentA.id, expectedStatuses: ['todo'] },
    });
    assert.equal(checkout.status, 409, JSON.stringify(checkout.body));
    assert.equal(checkout.body.details.reason, 'workspace_closed');
    // And a run woken about it fails clearly instead of working in the shared repository.
    const run = await runOn(agentA.id, first.id);
    assert.equal(run.status, 'failed');
    assert.match(run.error, /isolated execution workspace .* is closed/);
    assert.equal(existsSync(firstPath), false);
  });

  it('a project without the policy keeps running in its primary workspace, and an isolated one over a non-git directory fails the run', async () => {
    const plainDir = path.join(tmp, 'plain');
    execFileSync('mkdir', ['-p', plainDir]);
    const shared = await t.request('POST', `/api/companies/${companyId}/projects`, {
      token: board,
      body: { name: 'Shared', workspace: { cwd: plainDir } },
    });
    assert.equal(shared.status, 201);
    const notGit = await t.request('POST', `/api/companies/${companyId}/projects`, {
      token: board,
      body: { name: 'Not git', executionWorkspacePolicy: { mode: 'isolated' }, workspace: { cwd: plainDir } },
    });
    assert.equal(notGit.status, 201);
    const envAgent = (
      await newAgent(t, board, companyId, {
        adapterConfig: {
          command: process.execPath,
          args: ['-e', 'process.stdout.write(JSON.stringify({type:"result",cwd:process.cwd()})+"\\n")'],
        },
      })
    ).agent;

    const sharedIssue = await newIssue(t, board, companyId, { projectId: shared.body.id, status: 'todo' });
    const sharedRun = await runOn(envAgent.id, sharedIssue.id);
    assert.equal(sharedRun.status, 'succeeded', sharedRun.error);
    assert.equal(sharedRun.result_json.cwd, plainDir);
    assert.equal((await detail(sharedIssue.id)).currentExecutionWorkspace, null);
    assert.deepEqual((await detail(sharedIssue.id)).workProducts, []);

    const isolatedIssue = await newIssue(t, board, companyId, { projectId: notGit.body.id, status: 'todo' });
    const failed = await runOn(envAgent.id, isolatedIssue.id);
    assert.equal(failed.status, 'failed');
    assert.match(failed.error, /not a usable git repository/);
  });

  it('a policy mode other than shared or isolated is refused with 400 (a typo would silently share one checkout)', async () => {
    const bad = await t.request('POST', `/api/companies/${companyId}/projects`, {
      token: board,
      body: { name: 'Typo', executionWorkspacePolicy: { mode: 'isolatd' } },
    });
    assert.equal(bad.status, 400, JSON.stringify(bad.body));
    const patched = await t.request('PATCH', `/api/projects/${project.id}`, {
      token: board,
      body: { executionWorkspacePolicy: { mode: 'per-issue' } },
    });
    assert.equal(patched.status, 400, JSON.stringify(patched.body));
    const shared = await t.request('PATCH', `/api/projects/${project.id}`, {
      token: board,
      body: { executionWorkspacePolicy: { mode: 'shared', note: 'kept' } },
    });
    assert.equal(shared.status, 200, JSON.stringify(shared.body));
    assert.deepEqual(shared.body.executionWorkspacePolicy, { mode: 'shared', note: 'kept' });
  });
});
