import type { Comment } from './service.ts';

export function presentComment(comment: Comment) {
  return {
    id: comment.id,
    companyId: comment.companyId,
    issueId: comment.issueId,
    body: comment.body,
    authorAgentId: comment.authorAgentId,
    authorUserId: comment.authorUserId,
    runId: comment.runId,
    createdAt: comment.createdAt,
    updatedAt: comment.updatedAt,
  };
}
