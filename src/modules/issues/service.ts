// Creating issues, and the pieces create and update share. Each mutation is one transaction that
// also writes its activity entry and its wakeup requests.
import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { issueRelations, issues, issueUserStates } from '../../db/schema/index.ts';
import type { Actor } from '../../core/actor.ts';
import type { Ctx } from '../../core/context.ts';
import { notFound, unprocessable } from '../../core/errors.ts';
import { recordActivity } from '../activity/record.ts';
import { type Issue, oneRow } from '../../db/rows.ts';
import { assertMayAssign, assertMayChangeIssues } from './policy.ts';
import { assertIssueRefsInCompany, requireSiblingIssue } from '../../core/issue-access.ts';
import { assertLabelsInCompany } from '../../core/label-access.ts';
import { assertValidBlockers, assertValidParent, lockIssueGraph } from './references.ts';
import type { CreateIssue } from './schemas.ts';
import { wakeAssignee, type AssignmentWake } from './wakeups.ts';

/**
 * Internal callers (routines) also say where an issue came from, and how its assignee is woken
 * (default: source `assignment`, reason `issue_assigned`); the HTTP body can do neither.
 */
export type CreateIssueInput = CreateIssue & {
  originKind?: string;
  originId?: string | null;
  assignmentWake?: AssignmentWake;
};

export const IN_PROGRESS_NEEDS_CHECKOUT = 'in_progress requires a checkout: use POST /api/issues/{issueId}/checkout';

/** completedAt / cancelledAt follow the status: set on entering done / cancelled, cleared on leaving. */
export function statusTimestamps(
  from: string | null,
  to: string,
): { completedAt?: Date | null; cancelledAt?: Date | null } {
  if (from === to) return {};
  return {
    ...(to === 'done' ? { completedAt: new Date() } : from === 'done' ? { completedAt: null } : {}),
    ...(to === 'cancelled' ? { cancelledAt: new Date() } : from === 'cancelled' ? { cancelledAt: null } : {}),
  };
}

/** The board user's read/touch marks (touchedByUserId, unreadForUserId): what they changed, they have seen. */
export async function touchIssueForUser(
  tx: DbOrTx,
  actor: Actor,
  issue: Pick<Issue, 'id' | 'companyId'>,
): Promise<void> {
  if (actor.kind !== 'board') return;
  await tx
    .insert(issueUserStates)
    .values({
      companyId: issue.companyId,
      issueId: issue.id,
      userId: actor.userId,
      touchedAt: sql`now()`,
      lastReadAt: sql`now()`,
    })
    .onConflictDoUpdate({
      target: [issueUserStates.issueId, issueUserStates.userId],
      set: { touchedAt: sql`now()`, lastReadAt: sql`now()` },
    });
}

export async function insertBlockers(
  tx: DbOrTx,
  issue: Pick<Issue, 'id' | 'companyId'>,
  blockerIds: string[],
): Promise<void> {
  if (blockerIds.length === 0) return;
  await tx.insert(issueRelations).values(
    blockerIds.map((blockedByIssueId) => ({
      companyId: issue.companyId,
      issueId: issue.id,
      blockedByIssueId,
      type: 'blocks',
    })),
  );
}

/**
 * The next `<PREFIX>-<n>`, taken by one statement of its own before the create transaction starts.
 * Taken inside it, the counter row stayed locked until commit and every create in a company waited
 * for the one before it (p99 440 ms at 10 connections); now the lock lasts one statement. Numbers
 * stay unique (the counter only grows; issues_company_number_uq backs it) and are never reused. The
 * trade-offs: numbers may commit out of order (n+1 visible a moment before n), and a create that
 * fails after taking its number leaves a gap, unless nothing was numbered since (giveBackNumber).
 * Called with a transaction (an internal caller's), the statement simply joins it.
 */
async function nextIdentifier(db: DbOrTx, companyId: string): Promise<{ number: number; identifier: string }> {
  const result = await db.execute<{ n: number; prefix: string }>(
    sql`update companies set issue_counter = issue_counter + 1 where id = ${companyId} returning issue_counter - 1 as n, issue_prefix as prefix`,
  );
  const row = result.rows[0];
  if (!row) throw notFound('company');
  return { number: row.n, identifier: `${row.prefix}-${row.n}` };
}

/**
 * A create that failed (a 422 on a reference, most often) returns its number when it is still the
 * last one handed out, so a refused create leaves no gap in a quiet company. Otherwise it stays a
 * gap. The issue check covers a commit whose acknowledgement was lost: that number is taken.
 */
async function giveBackNumber(db: DbOrTx, companyId: string, number: number): Promise<void> {
  await db.execute(sql`
    update companies set issue_counter = issue_counter - 1
    where id = ${companyId} and issue_counter = ${number + 1}
      and not exists (select 1 from ${issues} where company_id = ${companyId} and number = ${number})`);
}

export async function createIssue(ctx: Ctx, companyId: string, input: CreateIssueInput): Promise<Issue> {
  await assertMayChangeIssues(ctx, 'issue.create', companyId);
  const status = input.status ?? 'backlog';
  if (status === 'in_progress') throw unprocessable(IN_PROGRESS_NEEDS_CHECKOUT);
  if (input.assigneeAgentId || input.assigneeUserId) {
    await assertMayAssign(ctx, companyId, {
      currentAgentId: null,
      nextAgentId: input.assigneeAgentId ?? undefined,
      userChanged: Boolean(input.assigneeUserId),
    });
  }
  const { number, identifier } = await nextIdentifier(ctx.db, companyId);
  try {
    return await insertIssue(ctx, { companyId, input, status, number, identifier });
  } catch (err) {
    await giveBackNumber(ctx.db, companyId, number).catch(() => undefined);
    throw err;
  }
}

/** A new issue's fields: the create's input, its first status and the number and identifier handed out for it. */
interface NewIssue {
  companyId: string;
  input: CreateIssueInput;
  status: string;
  number: number;
  identifier: string;
}

async function insertIssue(ctx: Ctx, { companyId, input, status, number, identifier }: NewIssue): Promise<Issue> {
  const { actor } = ctx;
  return ctx.db.transaction(async (tx) => {
    await assertIssueRefsInCompany(tx, companyId, input);
    await assertLabelsInCompany(tx, companyId, input.labelIds ?? []);
    if (input.parentId) await assertValidParent(tx, companyId, input.parentId, null);
    const blockerIds = input.blockedByIssueIds ?? [];
    await assertValidBlockers(tx, companyId, blockerIds, null);
    const inherited = input.inheritExecutionWorkspaceFromIssueId
      ? await requireSiblingIssue(
          tx,
          companyId,
          input.inheritExecutionWorkspaceFromIssueId,
          'inheritExecutionWorkspaceFromIssueId',
        )
      : null;
    const issue = oneRow(
      await tx
        .insert(issues)
        .values({
          companyId,
          number,
          identifier,
          title: input.title,
          description: input.description ?? null,
          status,
          priority: input.priority ?? 'medium',
          projectId: input.projectId ?? null,
          goalId: input.goalId ?? null,
          parentId: input.parentId ?? null,
          assigneeAgentId: input.assigneeAgentId ?? null,
          assigneeUserId: input.assigneeUserId ?? null,
          createdByAgentId: actor.kind === 'agent' ? actor.agentId : null,
          createdByUserId: actor.kind === 'board' ? actor.userId : null,
          billingCode: input.billingCode ?? null,
          labelIds: input.labelIds ?? [],
          executionPolicy: input.executionPolicy ?? null,
          // An explicit workspace wins over the inherited one.
          executionWorkspaceId: input.executionWorkspaceId ?? inherited?.executionWorkspaceId ?? null,
          executionWorkspacePreference:
            input.executionWorkspacePreference ?? inherited?.executionWorkspacePreference ?? null,
          executionWorkspaceSettings: input.executionWorkspaceSettings ?? inherited?.executionWorkspaceSettings ?? null,
          originKind: input.originKind ?? 'manual',
          originId: input.originId ?? null,
          ...statusTimestamps(null, status),
        })
        .returning(),
      'issue',
    );
    if (blockerIds.length > 0) {
      // Nothing points at a new issue yet, so no cycle is possible; the lock only orders it with edits.
      await lockIssueGraph(tx, companyId);
      await insertBlockers(tx, issue, blockerIds);
    }
    await recordActivity(tx, actor, {
      companyId,
      action: 'issue.created',
      entityType: 'issue',
      entityId: issue.id,
      details: {
        identifier,
        title: issue.title,
        status,
        priority: issue.priority,
        assigneeAgentId: issue.assigneeAgentId,
        ...(blockerIds.length > 0 && { blockedByIssueIds: blockerIds }),
      },
    });
    await wakeAssignee(tx, actor, issue, input.assignmentWake);
    await touchIssueForUser(tx, actor, issue);
    return issue;
  });
}

/** Re-reads an issue inside a transaction, locked for the rest of it. */
export async function lockIssue(tx: DbOrTx, issueId: string): Promise<Issue> {
  const [row] = await tx.select().from(issues).where(eq(issues.id, issueId)).for('no key update');
  if (!row) throw notFound('issue');
  return row;
}
