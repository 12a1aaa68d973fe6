// Issue comments: adding one (reopen, interrupt, mention wakeups, activity) and reading them.
import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { isUuid } from '../../lib/ids.ts';
import { heartbeatRuns, issueComments, issues } from '../../db/schema/index.ts';
import { actorStamp, type Actor } from '../../core/actor.ts';
import { inTransaction, type Ctx } from '../../core/context.ts';
import { notFound } from '../../core/errors.ts';
import { recordActivity } from '../activity/record.ts';
import { type Issue, oneRow } from '../../db/rows.ts';
import { CLOSED_STATUSES, isLiveRunStatus } from '../../core/statuses.ts';
import { enqueueWakeup } from '../wakeups/queue.ts';
import { findMentionedAgentIds } from './mentions.ts';
import { assertMayComment } from './policy.ts';
import type { ListCommentsQuery } from './schemas.ts';

export type Comment = typeof issueComments.$inferSelect;

export interface AddCommentInput {
  body: string;
  reopen?: boolean;
  interrupt?: boolean;
  /** PATCH gave an explicit status: it decides the status itself, so `reopen` is not applied here. */
  statusExplicit?: boolean;
}

const ACTIVITY_SNIPPET_CHARS = 200;

/**
 * Adds a comment, in a transaction of its own or as part of the caller's (PATCH issue with a
 * comment). Also: reopens a closed issue when asked (SPEC issue status table), records an interrupt
 * of the live checkout run (board only), queues a wakeup for each agent mentioned, bumps the
 * issue's updatedAt and writes the activity entries.
 */
export async function createComment(ctx: Ctx, issue: Issue, input: AddCommentInput): Promise<Comment> {
  await assertMayComment(ctx, issue.companyId, input);
  return inTransaction(ctx, async (tx, { actor }) => {
    const comment = oneRow(
      await tx
        .insert(issueComments)
        .values({
          companyId: issue.companyId,
          issueId: issue.id,
          body: input.body,
          authorAgentId: actor.kind === 'agent' ? actor.agentId : null,
          authorUserId: actor.kind === 'board' ? actor.userId : null,
          runId: actorStamp(actor).runId,
        })
        .returning(),
      'comment',
    );
    const { current, reopened } = await touchIssue(tx, issue, Boolean(input.reopen && !input.statusExplicit));
    const interruptedRunId = input.interrupt ? await interruptCheckoutRun(tx, actor, current, comment.id) : null;
    // A plugin's comment wakes nobody: its mentions are text (issue 27, `comments.write`).
    const mentioned =
      actor.kind === 'plugin'
        ? []
        : (await findMentionedAgentIds(tx, issue.companyId, input.body)).filter(
            (id) => actor.kind !== 'agent' || id !== actor.agentId,
          );
    for (const agentId of mentioned) {
      await enqueueWakeup(tx, actor, {
        companyId: issue.companyId,
        agentId,
        source: 'automation',
        triggerDetail: 'system',
        reason: 'mention',
        payload: { issueId: issue.id, commentId: comment.id },
        issueId: issue.id,
        // At most one wakeup per agent per comment, whatever else retries the insert.
        idempotencyKey: `mention:${comment.id}`,
      });
    }
    await recordActivity(tx, actor, {
      companyId: issue.companyId,
      action: 'issue.comment_added',
      entityType: 'issue',
      entityId: issue.id,
      details: {
        identifier: issue.identifier,
        commentId: comment.id,
        bodySnippet: input.body.slice(0, ACTIVITY_SNIPPET_CHARS),
        ...(reopened && { reopened: true }),
        ...(mentioned.length > 0 && { mentionedAgentIds: mentioned }),
      },
    });
    if (reopened) {
      await recordActivity(tx, actor, {
        companyId: issue.companyId,
        action: 'issue.updated',
        entityType: 'issue',
        entityId: issue.id,
        details: {
          identifier: issue.identifier,
          changes: { status: { from: issue.status, to: 'todo' } },
          reopenedByCommentId: comment.id,
        },
      });
    }
    if (interruptedRunId) {
      await recordActivity(tx, actor, {
        companyId: issue.companyId,
        action: 'issue.interrupted',
        entityType: 'issue',
        entityId: issue.id,
        details: { identifier: issue.identifier, runId: interruptedRunId, commentId: comment.id },
      });
    }
    return comment;
  });
}

/** Bumps updatedAt, and reopens (closed -> todo) when asked; returns the issue as it now stands. */
async function touchIssue(tx: DbOrTx, issue: Issue, reopen: boolean): Promise<{ current: Issue; reopened: boolean }> {
  if (reopen) {
    const [reopened] = await tx
      .update(issues)
      .set({ status: 'todo', completedAt: null, cancelledAt: null, updatedAt: sql`now()` })
      .where(and(eq(issues.id, issue.id), inArray(issues.status, [...CLOSED_STATUSES])))
      .returning();
    if (reopened) return { current: reopened, reopened: true };
  }
  const [current] = await tx.update(issues).set({ updatedAt: sql`now()` }).where(eq(issues.id, issue.id)).returning();
  if (!current) throw notFound('issue');
  return { current, reopened: false };
}

/**
 * An interrupt targets the live run holding the checkout. The engine cancels runs; here it is a
 * queue row for the assignee (reason interrupt) that the engine acts on. Returns the run id, or
 * null when no live run holds the issue.
 */
async function interruptCheckoutRun(tx: DbOrTx, actor: Actor, issue: Issue, commentId: string): Promise<string | null> {
  if (!issue.checkoutRunId || !issue.assigneeAgentId) return null;
  const [run] = await tx
    .select({ status: heartbeatRuns.status })
    .from(heartbeatRuns)
    .where(eq(heartbeatRuns.id, issue.checkoutRunId));
  // A finished, failed or missing run has nothing to interrupt.
  if (!run || !isLiveRunStatus(run.status)) return null;
  await enqueueWakeup(tx, actor, {
    companyId: issue.companyId,
    agentId: issue.assigneeAgentId,
    source: 'automation',
    triggerDetail: 'system',
    reason: 'interrupt',
    payload: { issueId: issue.id, commentId, runId: issue.checkoutRunId },
    issueId: issue.id,
    idempotencyKey: `interrupt:${commentId}`,
  });
  return issue.checkoutRunId;
}

/**
 * Comments of an issue, oldest first unless `order=desc`. Cursors: `after` as a timestamp, and
 * `after` as a comment id or `afterCommentId` (both apply when both are given). A comment-id cursor
 * must name a comment of this issue (404 otherwise: a stale or foreign cursor must not silently
 * restart the listing from the beginning).
 */
export async function listComments(db: DbOrTx, issueId: string, query: ListCommentsQuery): Promise<Comment[]> {
  const filters: SQL[] = [eq(issueComments.issueId, issueId)];
  const afterAsCommentId = query.after !== undefined && isUuid(query.after) ? query.after : undefined;
  // JSON timestamps carry milliseconds while the column has microseconds: "after 12:00:00.123"
  // must not return the comment stamped 12:00:00.123456 that the caller has already seen.
  if (query.after && afterAsCommentId === undefined)
    filters.push(
      sql`${issueComments.createdAt} >= ${new Date(query.after).toISOString()}::timestamptz + interval '1 millisecond'`,
    );
  const cursors = [
    ...(afterAsCommentId ? [{ field: 'after', id: afterAsCommentId }] : []),
    ...(query.afterCommentId ? [{ field: 'afterCommentId', id: query.afterCommentId }] : []),
  ];
  for (const { field, id } of cursors) {
    const [cursor] = await db
      .select({ id: issueComments.id })
      .from(issueComments)
      .where(and(eq(issueComments.id, id), eq(issueComments.issueId, issueId)));
    if (!cursor) throw notFound(`${field} comment`);
    // Compared in SQL so the cursor keeps the column's full precision.
    filters.push(
      sql`(${issueComments.createdAt}, ${issueComments.id}) > (select c.created_at, c.id from issue_comments c where c.id = ${id})`,
    );
  }
  const direction = query.order === 'desc' ? desc : asc;
  return db
    .select()
    .from(issueComments)
    .where(and(...filters))
    .orderBy(direction(issueComments.createdAt), direction(issueComments.id))
    .limit(query.limit);
}

export async function getComment(db: DbOrTx, issueId: string, commentId: string): Promise<Comment> {
  const [comment] = await db
    .select()
    .from(issueComments)
    .where(and(eq(issueComments.id, commentId), eq(issueComments.issueId, issueId)));
  if (!comment) throw notFound('comment');
  return comment;
}
