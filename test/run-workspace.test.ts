// A run's page reads two things this file holds the server to: where the run worked and what it
// changed there (GET /api/heartbeat-runs/{id} `workspace`: the directory, its kind, the branch and
// `git diff --shortstat` against the commit it started from, taken by real git as the run ends),
// and the run's own timeline (GET /api/companies/{id}/activity?runId=). The agents are real
// processes working in a real temporary git repository.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { git, newGitRepo } from './helpers/git-repo.ts';
import { newAgent } from './helpers/factories.ts';
import { waitFor } from './helpers/wait.ts';
import { describeRunWorkspace, withRunDiffStat } from '../src/engine/run-workspace.ts';

const AGENTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'agents');
const COMMITTER = path.join(AGENTS, 'git-committer.mjs');

// Rewrites two of README.md's five lines and adds a sixth (1 file, 3 insertions, 2 deletions), and
// leaves a new untracked file (git diff does not count it).
const EDIT_README = `
const fs = require('node:fs');
fs.writeFileSync('README.md', 'one\\nTWO\\nthree\\nFOUR\\nfive\\nsix\\n');
fs.writeFileSync('untracked-' + process.env.SERVICE_RUN_ID + '.txt', 'not counted\\n');
`;

let t: TestApp;
let board: string;
let companyId: string;
let tmp: string;

/** A fresh repository on `branch` with README.md (five lines) committed; returns its path and commit. */
async function newRepo(name: string, branch: string): Promise<{ repo: string; commit: string }> {
  const repo = path.join(tmp, name);
  return { repo, commit: await newGitRepo(repo, branch, 'one\ntwo\nthree\nfour\nfive\n') };
}

const get = async (url: string) => {
  const res = await t.request('GET', url, { token: board });
  assert.equal(res.status, 200, `${url}: ${JSON.stringify(res.body)}`);
  return res.body;
};

/** Wakes the agent and returns its run, through the API, once it has finished. */
async function finishedRun(agentId: string): Promise<any> {
  const wake = await t.request('POST', `/api/agents/${agentId}/wakeup`, { token: board, body: {} });
  assert.equal(wake.status, 202, JSON.stringify(wake.body));
  const listed = await waitFor(
    'the run to finish',
    async () => {
      const [run] = await get(`/api/companies/${companyId}/heartbeat-runs?agentId=${agentId}&limit=1`);
      return run && !['queued', 'running'].includes(run.status) ? run : null;
    },
    30_000,
  );
  return get(`/api/heartbeat-runs/${listed.runId}`);
}

before(async () => {
  try {
    execFileSync('git', ['--version']);
  } catch {
    throw new Error('git is required by these tests (apt-get install git) and was not found on PATH');
  }
  tmp = await mkdtemp(path.join(os.tmpdir(), 'boardroom-run-workspace-'));
  t = await startTestApp({ engine: { pollMs: 200 } });
  const c = await t.newCompany();
  board = c.token;
  companyId = c.company.id;
});
after(async () => {
  await t?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe("a run's workspace and diff stat", () => {
  it('records the directory, its kind, the branch and the uncommitted edits against the starting commit', async () => {
    const { repo, commit } = await newRepo('edited', 'feature/run-page');
    const { agent } = await newAgent(t, board, companyId, {
      adapterConfig: { command: process.execPath, args: ['-e', EDIT_README], cwd: repo, timeoutSec: 60 },
    });
    const run = await finishedRun(agent.id);
    assert.equal(run.status, 'succeeded', JSON.stringify(run));
    assert.deepEqual(run.workspace, {
      cwd: repo,
      kind: 'agent_cwd',
      git: {
        branch: 'feature/run-page',
        baseCommit: commit,
        diffStat: { filesChanged: 1, insertions: 3, deletions: 2 },
      },
    });
  });

  it('counts the commits the run made, not only what is left uncommitted', async () => {
    const { repo, commit } = await newRepo('committed', 'main');
    const { agent } = await newAgent(t, board, companyId, {
      adapterConfig: { command: process.execPath, args: [COMMITTER, 'work'], cwd: repo, timeoutSec: 60 },
    });
    const run = await finishedRun(agent.id);
    assert.equal(run.status, 'succeeded', JSON.stringify(run));
    assert.notEqual(git(repo, 'rev-parse', 'HEAD'), commit, 'the agent committed');
    assert.deepEqual(run.workspace.git, {
      branch: 'main',
      baseCommit: commit,
      diffStat: { filesChanged: 1, insertions: 2, deletions: 0 },
    });
  });

  it("a directory that is not a git work tree: the agent's own directory, no git, and the run still succeeds", async () => {
    const { agent } = await newAgent(t, board, companyId, {
      adapterConfig: { command: process.execPath, args: ['-e', 'process.exit(0)'], timeoutSec: 60 },
    });
    const run = await finishedRun(agent.id);
    assert.equal(run.status, 'succeeded', JSON.stringify(run));
    assert.equal(run.workspace.kind, 'agent_home');
    assert.ok(run.workspace.cwd.endsWith(path.join('agents', agent.id, 'workspace')), run.workspace.cwd);
    assert.equal(run.workspace.git, null);
  });

  it('a failed run keeps what it changed, and a detached HEAD has no branch', async () => {
    const { repo, commit } = await newRepo('detached', 'main');
    git(repo, 'checkout', '--quiet', '--detach');
    const script = `${EDIT_README}\nprocess.exit(3);`;
    const { agent } = await newAgent(t, board, companyId, {
      adapterConfig: { command: process.execPath, args: ['-e', script], cwd: repo, timeoutSec: 60 },
    });
    const run = await finishedRun(agent.id);
    assert.equal(run.status, 'failed');
    assert.equal(run.errorCode, 'process_exit_nonzero');
    assert.deepEqual(run.workspace.git, {
      branch: null,
      baseCommit: commit,
      diffStat: { filesChanged: 1, insertions: 3, deletions: 2 },
    });
  });

  it("git that does not answer at the run's end: the diff stat is null and the run still succeeds", async () => {
    const { repo, commit } = await newRepo('slow', 'main');
    // A git on PATH that answers every question but the diff, which it never finishes (the engine's
    // 5 s deadline kills it); the rest goes to the real git.
    const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    const bin = path.join(tmp, 'slow-git-bin');
    await mkdir(bin);
    await writeFile(
      path.join(bin, 'git'),
      `#!/bin/sh\nfor arg in "$@"; do [ "$arg" = diff ] && exec sleep 60; done\nexec ${realGit} "$@"\n`,
      { mode: 0o755 },
    );
    const { agent } = await newAgent(t, board, companyId, {
      adapterConfig: { command: process.execPath, args: ['-e', EDIT_README], cwd: repo, timeoutSec: 60 },
    });
    const path0 = process.env.PATH;
    process.env.PATH = `${bin}${path.delimiter}${path0}`;
    try {
      const run = await finishedRun(agent.id);
      assert.equal(run.status, 'succeeded', JSON.stringify(run));
      assert.deepEqual(run.workspace.git, { branch: 'main', baseCommit: commit, diffStat: null });
    } finally {
      process.env.PATH = path0;
    }
  });

  it('a directory that does not exist, or a repository without a commit, is no git work tree', async () => {
    const missing = path.join(tmp, 'no-such-dir');
    assert.deepEqual(await describeRunWorkspace(missing, 'agent_cwd'), { cwd: missing, kind: 'agent_cwd', git: null });
    const empty = path.join(tmp, 'unborn');
    execFileSync('git', ['init', '--quiet', empty]);
    assert.deepEqual(await describeRunWorkspace(empty, 'agent_cwd'), { cwd: empty, kind: 'agent_cwd', git: null });
    const notGit = { cwd: empty, kind: 'agent_cwd' as const, git: null };
    assert.deepEqual(await withRunDiffStat(notGit), notGit, 'nothing to diff');
  });
});

describe("a run's own timeline: GET activity?runId=", () => {
  it("lists the run's start and end, what was recorded under the run and about it; nothing of other runs", async () => {
    const { agent } = await newAgent(t, board, companyId, {
      adapterConfig: { command: process.execPath, args: ['-e', 'process.exit(0)'], timeoutSec: 60 },
    });
    const run = await finishedRun(agent.id);
    const record = async (entityType: string, entityId: string, runHeader?: string) => {
      const res = await t.request('POST', `/api/companies/${companyId}/activity`, {
        token: board,
        body: { action: 'test.noted', actorId: 'tester', entityType, entityId },
        headers: runHeader ? { 'x-service-run-id': runHeader } : {},
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.id as string;
    };
    const underRun = await record('company', companyId, run.runId);
    const aboutRun = await record('heartbeat_run', run.runId);
    const otherRun = await record('company', companyId, randomUUID());
    const unrelated = await record('company', companyId);

    const entries = await get(`/api/companies/${companyId}/activity?runId=${run.runId}`);
    const ids = entries.map((e: { id: string }) => e.id);
    assert.ok(ids.includes(underRun), 'an entry recorded under the run');
    assert.ok(ids.includes(aboutRun), 'an entry about the run, recorded outside it');
    assert.ok(!ids.includes(otherRun) && !ids.includes(unrelated), 'nothing of another run or of none');
    const lifecycle = entries
      .filter((e: { entityId: string }) => e.entityId === run.runId)
      .map((e: { action: string }) => e.action)
      .sort();
    assert.deepEqual(lifecycle, ['heartbeat_run.started', 'heartbeat_run.succeeded', 'test.noted']);
    const times = entries.map((e: { createdAt: string }) => e.createdAt);
    assert.deepEqual(times, [...times].sort().reverse(), 'newest first');

    const bounded = await get(`/api/companies/${companyId}/activity?runId=${run.runId}&limit=1`);
    assert.equal(bounded.length, 1, 'limit bounds it');
    const combined = await get(`/api/companies/${companyId}/activity?runId=${run.runId}&action=heartbeat_run.started`);
    assert.deepEqual(
      combined.map((e: { action: string }) => e.action),
      ['heartbeat_run.started'],
      'filters combine',
    );
  });

  it('a runId that is not a UUID is 400', async () => {
    const res = await t.request('GET', `/api/companies/${companyId}/activity?runId=not-a-run`, { token: board });
    assert.equal(res.status, 400, JSON.stringify(res.body));
  });

  it('reads through the run index and the entity index, not the whole company trail', async () => {
    const runId = randomUUID();
    const client = await t.database.pool.connect();
    try {
      await client.query('begin');
      // A company trail of 20,000 entries of other runs (and of none), so the planner sees real selectivity.
      await client.query(
        `insert into activity_log (company_id, actor_type, actor_id, action, entity_type, entity_id, run_id)
         select $1::uuid, 'system', 'engine', 'test.filler', 'company', $1::text, case when g % 2 = 0 then gen_random_uuid()::text end
         from generate_series(1, 20000) g`,
        [companyId],
      );
      await client.query('analyze activity_log');
      const plan = (
        await client.query(
          `explain select * from activity_log where company_id = $1 and (run_id = $2 or (entity_type = 'heartbeat_run' and entity_id = $2)) order by created_at desc limit 500`,
          [companyId, runId],
        )
      ).rows
        .map((row: Record<string, string>) => row['QUERY PLAN'])
        .join('\n');
      assert.match(plan, /activity_company_run_idx/, plan);
      assert.match(plan, /activity_company_entity_idx/, plan);
    } finally {
      await client.query('rollback');
      client.release();
    }
  });
});
