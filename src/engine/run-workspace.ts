// Where a run worked and what it changed there, as the run page shows it: the directory and its kind
// when the work starts, and, when the directory is a git work tree, its branch and starting commit;
// when the work ends, `git diff --shortstat` against that commit (commits made during the run and
// uncommitted edits of tracked files; new untracked files are not counted).
//
// Every git call has a short deadline (a huge repository must never hold a run's start or end), and
// nothing here fails a run: no git, not a repository, an unborn HEAD, a timeout all record `git: null`
// (at the start) or `diffStat: null` (at the end).
import type { RunDiffStat, RunWorkspaceKind, RunWorkspaceRecord } from '../db/schema/index.ts';
import { git } from '../modules/execution-workspaces/git.ts';

/** How long one git question may take before the run goes on without its answer. */
export const WORKSPACE_GIT_TIMEOUT_MS = 5_000;

/** The directory, its kind and (for a git work tree) its branch and HEAD commit, read as the work starts. */
export async function describeRunWorkspace(
  cwd: string,
  kind: RunWorkspaceKind,
  timeoutMs = WORKSPACE_GIT_TIMEOUT_MS,
): Promise<RunWorkspaceRecord> {
  try {
    // One call: the commit, then the branch's short name ("HEAD" when detached).
    const [baseCommit, branch] = (await git(cwd, ['rev-parse', 'HEAD', '--abbrev-ref', 'HEAD'], timeoutMs))
      .trim()
      .split('\n');
    if (!baseCommit || !/^[0-9a-f]{40,64}$/.test(baseCommit)) return { cwd, kind, git: null };
    return { cwd, kind, git: { branch: branch && branch !== 'HEAD' ? branch : null, baseCommit, diffStat: null } };
  } catch {
    return { cwd, kind, git: null };
  }
}

/** The record with what the run changed since its starting commit; unchanged when git cannot say in time. */
export async function withRunDiffStat(
  record: RunWorkspaceRecord,
  timeoutMs = WORKSPACE_GIT_TIMEOUT_MS,
): Promise<RunWorkspaceRecord> {
  if (!record.git) return record;
  try {
    // --no-optional-locks: reading the stat must not rewrite the index the agent may still use.
    const out = await git(
      record.cwd,
      ['--no-optional-locks', 'diff', '--shortstat', record.git.baseCommit, '--'],
      timeoutMs,
    );
    return { ...record, git: { ...record.git, diffStat: parseShortstat(out) } };
  } catch {
    return record;
  }
}

/** " 3 files changed, 12 insertions(+), 4 deletions(-)"; empty output is no change. */
export function parseShortstat(out: string): RunDiffStat {
  const count = (pattern: RegExp) => Number(pattern.exec(out)?.[1] ?? 0);
  return {
    filesChanged: count(/(\d+) files? changed/),
    insertions: count(/(\d+) insertions?\(\+\)/),
    deletions: count(/(\d+) deletions?\(-\)/),
  };
}
