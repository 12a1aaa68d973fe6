// Git for isolated execution workspaces: execFile (never a shell: paths and branch names are data,
// not command text), a deadline per command, bounded output, and one worktree change at a time per
// repository, because git takes the repository's own locks (index.lock, worktrees/) and a second
// `git worktree add` racing the first fails instead of waiting.
import { execFile } from 'node:child_process';

/** Every git command gets this long; `worktree add` checks out a tree, the slowest of them. */
export const GIT_TIMEOUT_MS = 30_000;
/** Output kept from one command; the work-product reads limit their own lines well below this. */
const GIT_MAX_BUFFER = 1024 * 1024;

export class GitError extends Error {}

export function git(cwd: string, args: string[], timeoutMs = GIT_TIMEOUT_MS): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      args,
      // No prompt can ever wait for a terminal; LC_ALL=C keeps messages parseable.
      {
        cwd,
        timeout: timeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer: GIT_MAX_BUFFER,
        env: { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' },
      },
      (err, stdout, stderr) => {
        if (!err) return resolve(stdout);
        const code = err as NodeJS.ErrnoException & { killed?: boolean };
        if (code.code === 'ENOENT')
          return reject(new GitError('git is not installed on this server (not found on PATH)'));
        if (code.killed) return reject(new GitError(`git ${args[0]} took longer than ${timeoutMs} ms`));
        reject(
          new GitError(
            `git ${args[0]} failed: ${String(stderr || err.message)
              .trim()
              .slice(0, 500)}`,
          ),
        );
      },
    );
  });
}

/** Exit status 0 or not, for the `--verify --quiet` style questions. */
export async function gitSucceeds(cwd: string, args: string[]): Promise<boolean> {
  try {
    await git(cwd, args);
    return true;
  } catch {
    return false;
  }
}

// Per-repository queue (keyed by the repository's top-level path). In-process: replicas that share
// a repository on one filesystem are not serialised against each other; git's own lock then makes
// the loser fail, and its run fails with that message (documented in docs/engine.md).
const queues = new Map<string, Promise<unknown>>();

export function withRepoLock<T>(repo: string, work: () => Promise<T>): Promise<T> {
  const previous = queues.get(repo) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(work);
  const tail = next.catch(() => undefined);
  queues.set(repo, tail);
  void tail.then(() => {
    if (queues.get(repo) === tail) queues.delete(repo);
  });
  return next;
}
