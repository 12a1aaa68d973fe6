// A routine run follows its execution issue (SPEC Routine run status): done -> completed;
// cancelled -> failed. Part of the issue update (its only caller), so the issues area need not
// import the routine pipeline, which itself creates issues through this area.
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { routineRuns } from '../../db/schema/index.ts';
import { ROUTINE_EXECUTION } from '../../core/statuses.ts';

/**
 * The execution issue closed: its runs follow (done -> completed; cancelled -> failed). Called in
 * the transaction of the issue update.
 */
export async function settleRunsForIssue(
  tx: DbOrTx,
  issue: { id: string; originKind: string; status: string },
): Promise<void> {
  if (issue.originKind !== ROUTINE_EXECUTION || (issue.status !== 'done' && issue.status !== 'cancelled')) return;
  const done = issue.status === 'done';
  await tx
    .update(routineRuns)
    .set({
      status: done ? 'completed' : 'failed',
      failureReason: done ? null : 'the execution issue was cancelled',
      completedAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(routineRuns.linkedIssueId, issue.id), eq(routineRuns.status, 'issue_created')));
}
