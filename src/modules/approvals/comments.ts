// Approval comments: a chronological thread any caller with company access may read and add to.
import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { approvalComments } from '../../db/schema/index.ts';
import { notFound } from '../../core/errors.ts';
import { recordActivity } from '../activity/record.ts';
import { type Approval, oneRow } from '../../db/rows.ts';
import type { Ctx } from '../../core/context.ts';
import { approvalFor } from './policy.ts';

export type ApprovalComment = typeof approvalComments.$inferSelect;

/** Oldest first; `afterCommentId` continues from a previous page. */
export async function listApprovalComments(
  db: DbOrTx,
  approval: Approval,
  query: { afterCommentId?: string; limit: number },
): Promise<ApprovalComment[]> {
  let after;
  if (query.afterCommentId) {
    const [cursor] = await db
      .select({ id: approvalComments.id })
      .from(approvalComments)
      .where(and(eq(approvalComments.id, query.afterCommentId), eq(approvalComments.approvalId, approval.id)));
    if (!cursor) throw notFound('comment');
    // Compared in SQL: a JS Date would drop the microseconds of created_at and repeat the cursor row.
    after = sql`(${approvalComments.createdAt}, ${approvalComments.id}) > (select c.created_at, c.id from approval_comments c where c.id = ${cursor.id})`;
  }
  return db
    .select()
    .from(approvalComments)
    .where(and(eq(approvalComments.approvalId, approval.id), after))
    .orderBy(asc(approvalComments.createdAt), asc(approvalComments.id))
    .limit(query.limit);
}

export async function addApprovalComment(ctx: Ctx, approvalId: string, body: string): Promise<ApprovalComment> {
  const { approval } = await approvalFor(ctx, 'approval.comment', approvalId);
  return ctx.db.transaction(async (tx) => {
    const comment = oneRow(
      await tx
        .insert(approvalComments)
        .values({
          companyId: approval.companyId,
          approvalId: approval.id,
          body,
          authorAgentId: ctx.actor.kind === 'agent' ? ctx.actor.agentId : null,
          authorUserId: ctx.actor.kind === 'board' ? ctx.actor.userId : null,
        })
        .returning(),
      'approval comment',
    );
    await recordActivity(tx, ctx.actor, {
      companyId: approval.companyId,
      action: 'approval.comment_added',
      entityType: 'approval',
      entityId: approval.id,
      details: { commentId: comment.id },
    });
    return comment;
  });
}
