// Real git repositories for tests of workspaces and runs: a fresh repository with one commit, and git
// run in it with a fixed author (the machine may have none configured).
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';

/** git in `cwd` with a test author; its output trimmed. */
export const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.test', ...args], {
    cwd,
    encoding: 'utf8',
  }).trim();

/** A new repository at `repo` on `branch` with README.md holding `readme`, committed; returns that commit. */
export async function newGitRepo(repo: string, branch: string, readme: string): Promise<string> {
  execFileSync('git', ['init', '--quiet', '-b', branch, repo]);
  await writeFile(path.join(repo, 'README.md'), readme);
  git(repo, 'add', 'README.md');
  git(repo, 'commit', '--quiet', '-m', 'initial');
  return git(repo, 'rev-parse', 'HEAD');
}
