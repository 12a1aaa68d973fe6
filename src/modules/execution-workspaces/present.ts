// What the issue detail shows of an isolated execution workspace and of its work product.
import { z } from 'zod';
import { timestampOut, uuidOut } from '../../http/openapi.ts';
import type { ExecutionWorkspace } from './service.ts';
import { MAX_DIFF_FILES, MAX_UNTRACKED_FILE_BYTES } from './work-product.ts';

export const isolatedWorkspaceResponse = z
  .object({
    id: uuidOut(),
    mode: z.literal('isolated'),
    projectId: uuidOut(),
    projectWorkspaceId: uuidOut().nullable().describe('the project workspace whose repository the worktree belongs to'),
    path: z.string().describe('the git worktree, under the data directory'),
    branch: z.string().describe('`boardroom/<issue identifier>`'),
    baseRef: z
      .string()
      .describe("the ref the branch started from: the workspace's repoRef, else defaultRef, else HEAD"),
    baseCommit: z
      .string()
      .describe('baseRef resolved when the worktree was created; commits and diff stat are counted against it'),
    status: z
      .enum(['open', 'closed'])
      .describe('closed once the issue is done or cancelled; a checkout then answers 409 workspace_closed'),
    createdAt: timestampOut(),
    closedAt: timestampOut().nullable(),
    removedAt: timestampOut().nullable().describe('when the worktree directory was removed (the branch is kept)'),
  })
  .describe('The isolated execution workspace (git worktree) of the issue');

const totals = {
  filesChanged: z.number().int(),
  insertions: z.number().int(),
  deletions: z.number().int(),
};
const commit = z.object({ sha: z.string(), author: z.string(), authoredAt: z.string(), subject: z.string() });

export const workProductResponse = z
  .object({
    type: z.literal('git_branch'),
    branch: z.string(),
    baseRef: z.string(),
    baseCommit: z.string(),
    headCommit: z.string(),
    commitsAhead: z.number().int().describe('commits on the branch not in baseCommit'),
    commits: z.array(commit).describe('the newest 50 of them'),
    diffStat: z
      .object({
        ...totals,
        files: z
          .array(
            z.object({
              path: z.string(),
              insertions: z.number().int().nullable(),
              deletions: z.number().int().nullable(),
              uncommitted: z
                .boolean()
                .describe('the file has changes not committed yet (staged, unstaged, or untracked)'),
            }),
          )
          .describe(
            `at most ${MAX_DIFF_FILES}; null counts for binary files, and for untracked files over ${MAX_UNTRACKED_FILE_BYTES / 1024 / 1024} MiB`,
          ),
        filesTruncated: z.boolean().describe(`more files changed than are listed`),
        uncommitted: z
          .object(totals)
          .describe(
            'the part of the totals not committed yet: staged and unstaged changes against the branch tip, and untracked files (their lines as insertions)',
          ),
      })
      .describe(
        'The worktree against baseCommit: its commits and, while the worktree is on disk, what is not committed yet, each file counted once. Renames count as a deletion and an addition. Once the worktree is removed, commits only.',
      ),
    capturedAt: z
      .string()
      .describe('when the snapshot was taken: after each run of the issue and when the worktree was removed'),
  })
  .describe('The branch of an isolated workspace against its base commit');

export function presentIsolatedWorkspace(ws: ExecutionWorkspace): z.input<typeof isolatedWorkspaceResponse> {
  return {
    id: ws.id,
    mode: 'isolated',
    projectId: ws.projectId,
    projectWorkspaceId: ws.projectWorkspaceId,
    path: ws.path,
    branch: ws.branch,
    baseRef: ws.baseRef,
    baseCommit: ws.baseCommit,
    status: ws.status as 'open' | 'closed',
    createdAt: ws.createdAt,
    closedAt: ws.closedAt,
    removedAt: ws.removedAt,
  };
}

type WorkProduct = z.input<typeof workProductResponse>;

/** Snapshots stored before uncommitted changes were counted lack those fields: they counted commits only. */
export function presentWorkProducts(ws: ExecutionWorkspace | undefined): WorkProduct[] {
  if (!ws?.workProduct) return [];
  const product = ws.workProduct as WorkProduct;
  const stat = product.diffStat;
  return [
    {
      ...product,
      diffStat: {
        ...stat,
        files: stat.files.map((f) => ({ ...f, uncommitted: f.uncommitted ?? false })),
        uncommitted: stat.uncommitted ?? { filesChanged: 0, insertions: 0, deletions: 0 },
      },
    },
  ];
}
