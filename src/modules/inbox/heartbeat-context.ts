// GET /api/issues/{issueId}/heartbeat-context: what an agent needs when it wakes for an issue,
// in one compact payload (no documents, relations or work products; the full detail has those).
//
// Shape (field names are ours; SPEC names only the parts):
//   issue          reduced issue summary (with description, the checkout lock and timestamps)
//   ancestors      parent chain, nearest parent first: issue summaries with their project and goal
//   project        project summary or null
//   goal           goal summary: the issue's goal, else its project's, else (no project) the
//                  company default goal; null when none applies
//   (these three come from issueLineage, as in the issue detail, so both routes always agree)
//   commentCursor  { totalComments, latestCommentId, latestCommentAt }: lets the agent fetch only
//                  comments after the last one it saw (GET comments?afterCommentId=...)
//   wakeComment    the comment named by ?wakeCommentId when it belongs to this issue, else null
//   attachments    { id, name, contentType, byteSize, createdAt } newest first (at most MAX_ATTACHMENTS)
import { and, count, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { assets, issueAttachments, issueComments } from '../../db/schema/index.ts';
import { issueLineage } from '../issues/detail.ts';
import type { Issue } from '../../db/rows.ts';
import { presentIssueSummary } from '../issues/present.ts';

const MAX_ATTACHMENTS = 100;

async function commentCursor(db: DbOrTx, issueId: string) {
  const [[total], [latest]] = await Promise.all([
    db.select({ n: count() }).from(issueComments).where(eq(issueComments.issueId, issueId)),
    db
      .select({ id: issueComments.id, createdAt: issueComments.createdAt })
      .from(issueComments)
      .where(eq(issueComments.issueId, issueId))
      .orderBy(desc(issueComments.createdAt), desc(issueComments.id))
      .limit(1),
  ]);
  return {
    totalComments: Number(total?.n ?? 0),
    latestCommentId: latest?.id ?? null,
    latestCommentAt: latest?.createdAt ?? null,
  };
}

async function wakeComment(db: DbOrTx, issueId: string, commentId: string | undefined) {
  if (!commentId) return null;
  const [comment] = await db
    .select()
    .from(issueComments)
    .where(and(eq(issueComments.id, commentId), eq(issueComments.issueId, issueId)));
  if (!comment) return null;
  return {
    id: comment.id,
    body: comment.body,
    authorAgentId: comment.authorAgentId,
    authorUserId: comment.authorUserId,
    runId: comment.runId,
    createdAt: comment.createdAt,
  };
}

async function attachmentSummaries(db: DbOrTx, issueId: string) {
  return db
    .select({
      id: issueAttachments.id,
      name: assets.originalName,
      contentType: assets.contentType,
      byteSize: assets.byteSize,
      createdAt: issueAttachments.createdAt,
    })
    .from(issueAttachments)
    .innerJoin(assets, eq(assets.id, issueAttachments.assetId))
    .where(eq(issueAttachments.issueId, issueId))
    .orderBy(desc(issueAttachments.createdAt))
    .limit(MAX_ATTACHMENTS);
}

export async function heartbeatContext(db: DbOrTx, issue: Issue, wakeCommentId?: string) {
  // Ancestors, project and goal are resolved exactly as the issue detail resolves them.
  const [lineage, cursor, wake, attachments] = await Promise.all([
    issueLineage(db, issue),
    commentCursor(db, issue.id),
    wakeComment(db, issue.id, wakeCommentId),
    attachmentSummaries(db, issue.id),
  ]);
  return {
    issue: {
      ...presentIssueSummary(issue),
      description: issue.description,
      assigneeUserId: issue.assigneeUserId,
      checkoutRunId: issue.checkoutRunId,
      executionWorkspaceId: issue.executionWorkspaceId,
      startedAt: issue.startedAt,
      completedAt: issue.completedAt,
      createdAt: issue.createdAt,
      updatedAt: issue.updatedAt,
    },
    ancestors: lineage.ancestors,
    project: lineage.project,
    goal: lineage.goal,
    commentCursor: cursor,
    wakeComment: wake,
    attachments,
  };
}
