// The work product of an isolated execution workspace: its branch against the base commit, plus
// what the agent left in the worktree without committing (staged, unstaged and untracked files), so
// an agent that edits without committing does not show `filesChanged: 0`.
//
// Totals come from `git diff --shortstat` (exact however large the diff); the file list from
// `--numstat -z` (raw paths, at most MAX_DIFF_FILES listed). Renames are not detected: a renamed
// file is one deletion and one addition, so a path means the same thing in every list. Untracked
// files are not known to git's diff: their lines are counted here as insertions, within bounds.
import { access, lstat, open } from 'node:fs/promises';
import path from 'node:path';
import type { executionWorkspaces } from '../../db/schema/index.ts';
import { git } from './git.ts';

/** Bounds of a snapshot: the issue detail embeds it. */
const MAX_COMMITS = 50;
export const MAX_DIFF_FILES = 100;
/** An untracked file larger than this counts as changed with unknown line counts, as git shows a binary file. */
export const MAX_UNTRACKED_FILE_BYTES = 1024 * 1024;
/** Untracked bytes read per snapshot, and files counted: past either, files still count as changed, with unknown lines. */
const MAX_UNTRACKED_READ_BYTES = 8 * 1024 * 1024;
const MAX_UNTRACKED_COUNTED = 2000;
/** git's own binary test: a NUL byte in the first 8000 bytes. */
const BINARY_PROBE_BYTES = 8000;

type Workspace = Pick<
  typeof executionWorkspaces.$inferSelect,
  'repoPath' | 'path' | 'branch' | 'baseRef' | 'baseCommit'
>;

interface Totals {
  filesChanged: number;
  insertions: number;
  deletions: number;
}
interface FileStat {
  path: string;
  insertions: number | null;
  deletions: number | null;
  uncommitted: boolean;
}

// Every diff here: no renames, and no optional index refresh in the agent's worktree.
const DIFF = ['--no-optional-locks', 'diff', '--no-renames', '--no-ext-diff'];

async function shortstat(cwd: string, revisions: string[]): Promise<Totals> {
  const line = (await git(cwd, [...DIFF, '--shortstat', ...revisions, '--'])).trim();
  const total = (re: RegExp) => Number(re.exec(line)?.[1] ?? 0);
  return {
    filesChanged: total(/(\d+) files? changed/),
    insertions: total(/(\d+) insertions?/),
    deletions: total(/(\d+) deletions?/),
  };
}

/** `--numstat -z` records: "insertions\tdeletions\tpath", `-` for a binary file's counts. */
async function numstat(
  cwd: string,
  revisions: string[],
): Promise<{ path: string; insertions: number | null; deletions: number | null }[]> {
  const records = (await git(cwd, [...DIFF, '--numstat', '-z', ...revisions, '--'])).split('\0').filter(Boolean);
  return records.map((record) => {
    const [ins, del, ...name] = record.split('\t');
    return {
      path: name.join('\t'),
      insertions: ins === '-' ? null : Number(ins),
      deletions: del === '-' ? null : Number(del),
    };
  });
}

/** Lines of a text file as git counts them (a last line without a newline counts); null for a binary one. */
async function linesOf(file: string, size: number): Promise<number | null> {
  const handle = await open(file, 'r');
  try {
    const data = Buffer.alloc(size);
    const { bytesRead } = await handle.read(data, 0, size, 0);
    const text = data.subarray(0, bytesRead);
    if (text.subarray(0, BINARY_PROBE_BYTES).includes(0)) return null;
    let lines = 0;
    for (let at = text.indexOf(10); at !== -1; at = text.indexOf(10, at + 1)) lines++;
    return text.length > 0 && text[text.length - 1] !== 10 ? lines + 1 : lines;
  } finally {
    await handle.close();
  }
}

/** Untracked, not ignored files of the worktree with their lines as insertions (null: binary, too large, or past the budget). */
async function untrackedFiles(worktree: string): Promise<{ path: string; insertions: number | null }[]> {
  const paths = (await git(worktree, ['--no-optional-locks', 'ls-files', '--others', '--exclude-standard', '-z']))
    .split('\0')
    .filter(Boolean);
  let budget = MAX_UNTRACKED_READ_BYTES;
  const out: { path: string; insertions: number | null }[] = [];
  for (const [i, rel] of paths.entries()) {
    let insertions: number | null = null;
    // A trailing slash is a nested repository, listed as one entry.
    if (i < MAX_UNTRACKED_COUNTED && !rel.endsWith('/')) {
      const file = path.join(worktree, rel);
      const stat = await lstat(file).catch(() => null);
      if (stat?.isSymbolicLink())
        insertions = 1; // git stores a link as one line, its target
      else if (stat?.isFile() && stat.size <= MAX_UNTRACKED_FILE_BYTES && stat.size <= budget) {
        budget -= stat.size;
        insertions = await linesOf(file, stat.size).catch(() => null);
      }
    }
    out.push({ path: rel, insertions });
  }
  return out;
}

const hasWorktree = (ws: Workspace) =>
  access(path.join(ws.path, '.git')).then(
    () => true,
    () => false,
  );

/**
 * The branch against its base commit: commits ahead (newest first, at most MAX_COMMITS listed) and
 * the diff stat. With `worktree` (the default) and the worktree on disk, the diff stat is of the
 * worktree as it is, committed or not, against the base, and `uncommitted` (plus each file's flag)
 * says what of it is not committed yet; otherwise it is of the branch's commits alone.
 */
export async function workProductOf(ws: Workspace, { worktree = true } = {}): Promise<Record<string, unknown>> {
  const repo = ws.repoPath;
  const head = (await git(repo, ['rev-parse', '--verify', `refs/heads/${ws.branch}`])).trim();
  const range = `${ws.baseCommit}..${head}`;
  const commitsAhead = Number((await git(repo, ['rev-list', '--count', range])).trim());
  const log = await git(repo, ['log', `--max-count=${MAX_COMMITS}`, '--format=%H%x1f%an%x1f%aI%x1f%s', range]);
  const commits = log
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [sha, author, authoredAt, subject] = line.split('\x1f');
      return { sha, author, authoredAt, subject: (subject ?? '').slice(0, 300) };
    });
  const live = worktree && (await hasWorktree(ws));
  // Against the base: the worktree's files as they are (staged or not), else the branch's tip.
  const [cwd, revisions] = live ? [ws.path, [ws.baseCommit]] : [repo, [ws.baseCommit, head]];
  const committedAndTracked = await shortstat(cwd, revisions);
  const pending = live ? await shortstat(ws.path, ['HEAD']) : { filesChanged: 0, insertions: 0, deletions: 0 };
  const untracked = live ? await untrackedFiles(ws.path).catch(() => null) : [];
  let filesTruncated = untracked === null; // more untracked paths than git's output bound
  const untrackedLines = (untracked ?? []).reduce((sum, f) => sum + (f.insertions ?? 0), 0);
  const addUntracked = (t: Totals): Totals => ({
    filesChanged: t.filesChanged + (untracked?.length ?? 0),
    insertions: t.insertions + untrackedLines,
    deletions: t.deletions,
  });

  let files: FileStat[] = [];
  try {
    const pendingPaths = new Set(
      live ? (await git(ws.path, [...DIFF, '--name-only', '-z', 'HEAD', '--'])).split('\0').filter(Boolean) : [],
    );
    const tracked = (await numstat(cwd, revisions)).map((f) => ({
      ...f,
      path: f.path.slice(0, 1000),
      uncommitted: pendingPaths.has(f.path),
    }));
    const added = (untracked ?? []).map((f) => ({
      path: f.path.slice(0, 1000),
      insertions: f.insertions,
      deletions: f.insertions === null ? null : 0,
      uncommitted: true,
    }));
    const all = [...tracked, ...added];
    filesTruncated ||= all.length > MAX_DIFF_FILES;
    files = all.slice(0, MAX_DIFF_FILES);
  } catch {
    filesTruncated = true; // a diff too large for the output bound: the totals still hold
  }
  return {
    type: 'git_branch',
    branch: ws.branch,
    baseRef: ws.baseRef,
    baseCommit: ws.baseCommit,
    headCommit: head,
    commitsAhead,
    commits,
    diffStat: { ...addUntracked(committedAndTracked), files, filesTruncated, uncommitted: addUntracked(pending) },
    capturedAt: new Date().toISOString(),
  };
}
