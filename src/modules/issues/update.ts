// PATCH /api/issues/{issueId} (SPEC PATCH rules 1-6), one transaction: field changes, blocker
// replacement, the comment, wakeups and activity commit together or not at all.
//
// Decisions where SPEC is silent:
// - status in_progress only comes from checkout: a PATCH moving an issue into in_progress answers
//   422 (keeping it in_progress is fine). Leaving in_progress, or changing the assignee, drops the
//   checkout lock (checkoutRunId), so the next owner checks out afresh.
// - `reopen` without a comment has no effect (rule 2 pairs it with a comment); `interrupt` without
//   a comment is 400, and from an agent 403 (rule 1).
import { eq, sql } from 'drizzle-orm';
import { issueRelations, issues } from '../../db/schema/index.ts';
import { badRequest, unprocessable } from '../../core/errors.ts';
import { recordActivity } from '../activity/record.ts';
import { callerAgent } from '../../core/agent-access.ts';
import { assertMayInterrupt } from '../comments/policy.ts';
import { createComment } from '../comments/service.ts';
import { assertMayUpdateCheckedOutIssue } from './checkout.ts';
import type { Issue } from '../../db/rows.ts';
import { assertMayAssign, assertMayChangeIssues } from './policy.ts';
import { assertIssueRefsInCompany } from '../../core/issue-access.ts';
import { assertLabelsInCompany } from '../../core/label-access.ts';
import { assertValidBlockers, assertValidParent, lockIssueGraph } from './references.ts';
import { CLOSED_STATUSES, type IssueStatus } from '../../core/statuses.ts';
import { type PatchIssue } from './schemas.ts';
import {
  IN_PROGRESS_NEEDS_CHECKOUT,
  insertBlockers,
  lockIssue,
  statusTimestamps,
  touchIssueForUser,
} from './service.ts';
import type { Ctx } from '../../core/context.ts';
import { wakeAssignee, wakeUnblockedDependents } from './wakeups.ts';
import { settleRunsForIssue } from './settle-routine-runs.ts';
import { closeExecutionWorkspace } from '../execution-workspaces/service.ts';

/** Plain fields PATCH copies onto the row when present (rule 6 plus the other create fields). */
const COPIED_FIELDS = [
  'title',
  'description',
  'status',
  'priority',
  'projectId',
  'goalId',
  'parentId',
  'assigneeAgentId',
  'assigneeUserId',
  'billingCode',
  'labelIds',
  'executionPolicy',
  'executionWorkspaceId',
  'executionWorkspacePreference',
  'executionWorkspaceSettings',
] as const;

type Change = { from: unknown; to: unknown };

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

export async function updateIssue(ctx: Ctx, issueId: string, patch: PatchIssue): Promise<Issue> {
  const { actor } = ctx;
  if (patch.interrupt && patch.comment === undefined) throw badRequest('interrupt only works together with a comment');
  // Refused before the transaction opens, so a comment it cannot add changes nothing else either.
  assertMayInterrupt(actor, patch);
  const assigning = patch.assigneeAgentId !== undefined || patch.assigneeUserId !== undefined;
  const caller = assigning ? await callerAgent(ctx.db, actor) : null;

  return ctx.db.transaction(async (tx) => {
    const before = await lockIssue(tx, issueId);
    await assertMayChangeIssues({ db: tx, actor }, 'issue.update', before.companyId);
    await assertMayUpdateCheckedOutIssue(tx, actor, before);

    const changes: Record<string, Change> = {};
    const set: Partial<typeof issues.$inferInsert> = {};
    for (const field of COPIED_FIELDS) {
      const next = patch[field];
      if (next === undefined || same(before[field], next)) continue;
      changes[field] = { from: before[field], to: next };
      (set as Record<string, unknown>)[field] = next;
    }
    if (patch.hiddenAt !== undefined) {
      const next = patch.hiddenAt === null ? null : new Date(patch.hiddenAt);
      if (!same(before.hiddenAt?.toISOString(), next?.toISOString())) {
        changes.hiddenAt = { from: before.hiddenAt, to: next };
        set.hiddenAt = next;
      }
    }

    if (changes.assigneeAgentId || changes.assigneeUserId) {
      const change = {
        currentAgentId: before.assigneeAgentId,
        nextAgentId: changes.assigneeAgentId ? (patch.assigneeAgentId ?? null) : undefined,
        userChanged: Boolean(changes.assigneeUserId),
      };
      await assertMayAssign({ db: tx, actor }, before.companyId, change, caller);
    }
    await assertIssueRefsInCompany(tx, before.companyId, {
      projectId: changes.projectId ? patch.projectId : undefined,
      goalId: changes.goalId ? patch.goalId : undefined,
      executionWorkspaceId: changes.executionWorkspaceId ? patch.executionWorkspaceId : undefined,
      assigneeAgentId: changes.assigneeAgentId ? patch.assigneeAgentId : undefined,
    });
    if (changes.labelIds) await assertLabelsInCompany(tx, before.companyId, patch.labelIds ?? []);

    const status = (patch.status ?? before.status) as IssueStatus;
    if (changes.status && status === 'in_progress') throw unprocessable(IN_PROGRESS_NEEDS_CHECKOUT);
    if (changes.status) Object.assign(set, statusTimestamps(before.status, status));
    if ((changes.status && before.status === 'in_progress') || changes.assigneeAgentId) set.checkoutRunId = null;

    const graphEdit = Boolean(changes.parentId) || patch.blockedByIssueIds !== undefined;
    if (graphEdit) await lockIssueGraph(tx, before.companyId);
    if (changes.parentId && patch.parentId) await assertValidParent(tx, before.companyId, patch.parentId, before.id);
    if (patch.blockedByIssueIds !== undefined) {
      const blockerChange = await replaceBlockers(tx, before, patch.blockedByIssueIds);
      if (blockerChange) changes.blockedByIssueIds = blockerChange;
    }

    let after = before;
    if (Object.keys(set).length > 0) {
      [after] = (await tx
        .update(issues)
        .set({ ...set, updatedAt: sql`now()` })
        .where(eq(issues.id, before.id))
        .returning()) as [Issue];
    } else if (changes.blockedByIssueIds) {
      [after] = (await tx
        .update(issues)
        .set({ updatedAt: sql`now()` })
        .where(eq(issues.id, before.id))
        .returning()) as [Issue];
    }

    if (Object.keys(changes).length > 0) {
      const becameClosed =
        changes.status && CLOSED_STATUSES.includes(status) && !CLOSED_STATUSES.includes(before.status as IssueStatus);
      const unblocked = becameClosed ? await wakeUnblockedDependents(tx, actor, after) : [];
      if (becameClosed) await settleRunsForIssue(tx, after);
      // The isolated workspace closes with the issue; the engine removes its worktree once no run of it is live.
      if (becameClosed) await closeExecutionWorkspace(tx, after.id);
      if (changes.assigneeAgentId) await wakeAssignee(tx, actor, after);
      await recordActivity(tx, actor, {
        companyId: after.companyId,
        action: 'issue.updated',
        entityType: 'issue',
        entityId: after.id,
        details: {
          identifier: after.identifier,
          changes,
          ...(unblocked.length > 0 && { unblockedIssueIds: unblocked }),
        },
      });
    }
    if (patch.comment !== undefined) {
      await createComment({ db: tx, actor }, after, {
        body: patch.comment,
        reopen: patch.reopen,
        interrupt: patch.interrupt,
        statusExplicit: patch.status !== undefined,
      });
    }
    await touchIssueForUser(tx, actor, after);
    return lockIssue(tx, after.id);
  });
}

/** Rule 5: the given set replaces the issue's blockers, after validation. Returns the change, or null if equal. */
async function replaceBlockers(
  tx: Parameters<typeof insertBlockers>[0],
  issue: Issue,
  blockerIds: string[],
): Promise<Change | null> {
  const current = (
    await tx
      .select({ id: issueRelations.blockedByIssueId })
      .from(issueRelations)
      .where(eq(issueRelations.issueId, issue.id))
  )
    .map((r) => r.id)
    .sort();
  const next = [...blockerIds].sort();
  if (same(current, next)) return null;
  await assertValidBlockers(tx, issue.companyId, next, issue.id);
  await tx.delete(issueRelations).where(eq(issueRelations.issueId, issue.id));
  await insertBlockers(tx, issue, next);
  return { from: current, to: next };
}
