// Isolated execution workspaces (issue 10 section 4): a run about an issue of a project whose
// executionWorkspacePolicy is `{ "mode": "isolated" }` works in its own git worktree of the
// project's primary workspace repository, on branch `boardroom/<issue identifier>`, under
// <dataDir>/worktrees/<projectId>/<identifier>.
//
// Lifecycle: created by the first run of the issue (from the workspace's repoRef, else defaultRef,
// else the repository's HEAD at that moment; the resolved commit is recorded as baseCommit so the
// base never moves under the branch), reused by every later run, closed in the transaction that
// moves the issue to done or cancelled, and removed from disk (branch kept) by the engine's sweep
// once no run of the issue is live (a run that marks its own issue done is not pulled out from under
// its feet). One row per issue, ever: a closed workspace is not reopened, and a checkout into it
// answers 409 workspace_closed (SPEC checkout rules).
import { access, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, inArray, isNull, notExists, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import { executionWorkspaces, heartbeatRuns, issues, projects, projectWorkspaces } from '../../db/schema/index.ts';
import { LIVE_RUN_STATUSES } from '../../core/statuses.ts';
import { git, GitError, gitSucceeds, withRepoLock } from './git.ts';
import { workProductOf } from './work-product.ts';
import { oneRow } from '../../db/rows.ts';

export type ExecutionWorkspace = typeof executionWorkspaces.$inferSelect;

/** The one policy shape that asks for isolation; anything else (or no policy) keeps the shared primary workspace. */
export function isolationRequested(policy: Record<string, unknown> | null | undefined): boolean {
  return policy?.mode === 'isolated';
}

/** Identifiers are `<PREFIX>-<n>`; anything outside git's safe ref characters becomes `-` all the same. */
export const branchFor = (identifier: string) => `boardroom/${identifier.replace(/[^A-Za-z0-9._-]/g, '-')}`;

/** A run that asked for isolation and cannot have it fails with this message (never silently shares the repository). */
export class IsolationError extends Error {}

const exists = (p: string) =>
  access(p).then(
    () => true,
    () => false,
  );

/**
 * The working directory of a run about `issueId` when its project asks for isolation: the issue's
 * worktree, created or restored as needed. null when isolation does not apply (no project, another
 * policy, or a primary workspace without a local cwd): the caller then chooses as before.
 */
export async function isolatedWorkingDirectory(db: Db, dataDir: string, issueId: string): Promise<string | null> {
  const [target] = await db
    .select({
      // The project's id, not the issue's nullable column: the join makes them one.
      issue: { id: issues.id, companyId: issues.companyId, identifier: issues.identifier, projectId: projects.id },
      policy: projects.executionWorkspacePolicy,
      workspace: projectWorkspaces,
    })
    .from(issues)
    .innerJoin(projects, eq(projects.id, issues.projectId))
    .innerJoin(
      projectWorkspaces,
      and(eq(projectWorkspaces.projectId, issues.projectId), eq(projectWorkspaces.isPrimary, true)),
    )
    .where(eq(issues.id, issueId));
  if (!target || !isolationRequested(target.policy) || target.workspace.sourceType === 'remote_managed') return null;
  const { issue, workspace } = target;
  const { cwd } = workspace;
  if (!cwd) return null;
  const [existing] = await db.select().from(executionWorkspaces).where(eq(executionWorkspaces.issueId, issueId));
  if (existing?.status === 'closed')
    throw new IsolationError(
      `the isolated execution workspace of ${issue.identifier} is closed (branch ${existing.branch} is kept)`,
    );

  let repo: string;
  try {
    repo = (await git(cwd, ['rev-parse', '--show-toplevel'])).trim();
  } catch (err) {
    throw new IsolationError(
      `the project asks for isolated workspaces but its primary workspace ${cwd} is not a usable git repository: ${(err as Error).message}`,
    );
  }
  return withRepoLock(repo, async () => {
    try {
      if (existing) {
        await restoreWorktree(existing.repoPath, existing.path, existing.branch);
        return existing.path;
      }
      const baseRef = workspace.repoRef ?? workspace.defaultRef ?? 'HEAD';
      const baseCommit = (await git(repo, ['rev-parse', '--verify', '--end-of-options', `${baseRef}^{commit}`])).trim();
      const branch = branchFor(issue.identifier);
      const worktree = path.join(
        dataDir,
        'worktrees',
        issue.projectId,
        issue.identifier.replace(/[^A-Za-z0-9._-]/g, '-'),
      );
      await mkdir(path.dirname(worktree), { recursive: true });
      await git(repo, ['worktree', 'prune']);
      // The branch may outlive a lost row (a restored database): the work on it is kept, not reset.
      if (await gitSucceeds(repo, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`]))
        await git(repo, ['worktree', 'add', '--', worktree, branch]);
      else await git(repo, ['worktree', 'add', '-b', branch, '--', worktree, baseCommit]);
      const [row] = await db
        .insert(executionWorkspaces)
        .values({
          companyId: issue.companyId,
          issueId: issue.id,
          projectId: issue.projectId,
          projectWorkspaceId: workspace.id,
          repoPath: repo,
          path: worktree,
          branch,
          baseRef,
          baseCommit,
        })
        .onConflictDoNothing({ target: executionWorkspaces.issueId })
        .returning();
      if (row) return row.path;
      // Another run of the issue inserted it first (the insert waited for its commit).
      const winners = await db.select().from(executionWorkspaces).where(eq(executionWorkspaces.issueId, issueId));
      return oneRow(winners, 'execution workspace that won the insert').path;
    } catch (err) {
      if (err instanceof GitError)
        throw new IsolationError(`could not prepare the isolated workspace of ${issue.identifier}: ${err.message}`);
      throw err;
    }
  });
}

/** Puts a recorded worktree back when its directory is gone (data directory wiped, manual removal). */
async function restoreWorktree(repo: string, worktree: string, branch: string): Promise<void> {
  if (await exists(path.join(worktree, '.git'))) return;
  await git(repo, ['worktree', 'prune']);
  await mkdir(path.dirname(worktree), { recursive: true });
  await git(repo, ['worktree', 'add', '--', worktree, branch]);
}

/** In the transaction that moves the issue to done or cancelled: the workspace is closed from then on. */
export async function closeExecutionWorkspace(tx: DbOrTx, issueId: string): Promise<void> {
  await tx
    .update(executionWorkspaces)
    .set({ status: 'closed', closedAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(executionWorkspaces.issueId, issueId), eq(executionWorkspaces.status, 'open')));
}

const REMOVAL_BATCH = 20;

/**
 * Engine sweep: removes the worktrees of closed workspaces whose issue has no live run, after a last
 * work-product snapshot of the branch's commits alone. `--force` because a closed issue's
 * uncommitted changes are not kept (commits on the branch are, and the branch stays): the snapshots
 * taken after runs showed them as `uncommitted`; the last one shows what remains. Returns how many were removed.
 */
export async function removeClosedWorktrees(db: Db): Promise<number> {
  const due = await db
    .select()
    .from(executionWorkspaces)
    .where(
      and(
        eq(executionWorkspaces.status, 'closed'),
        isNull(executionWorkspaces.removedAt),
        notExists(
          db
            .select({ one: sql`1` })
            .from(heartbeatRuns)
            .where(
              and(
                eq(heartbeatRuns.issueId, executionWorkspaces.issueId),
                inArray(heartbeatRuns.status, [...LIVE_RUN_STATUSES]),
              ),
            ),
        ),
      ),
    )
    .orderBy(executionWorkspaces.closedAt)
    .limit(REMOVAL_BATCH);
  let removed = 0;
  for (const ws of due) {
    await withRepoLock(ws.repoPath, async () => {
      const snapshot = await workProductOf(ws, { worktree: false }).catch(() => null);
      if (await exists(ws.path)) await git(ws.repoPath, ['worktree', 'remove', '--force', '--', ws.path]);
      else await git(ws.repoPath, ['worktree', 'prune']);
      await db
        .update(executionWorkspaces)
        .set({ removedAt: sql`now()`, updatedAt: sql`now()`, ...(snapshot && { workProduct: snapshot }) })
        .where(eq(executionWorkspaces.id, ws.id));
      removed++;
    });
  }
  return removed;
}

/** After a run of the issue: the snapshot of the branch and the worktree, so the issue detail shows it without running git. */
export async function recordWorkProduct(db: Db, issueId: string): Promise<void> {
  const [ws] = await db.select().from(executionWorkspaces).where(eq(executionWorkspaces.issueId, issueId));
  if (!ws) return;
  const snapshot = await workProductOf(ws);
  await db
    .update(executionWorkspaces)
    .set({ workProduct: snapshot, updatedAt: sql`now()` })
    .where(eq(executionWorkspaces.id, ws.id));
}
