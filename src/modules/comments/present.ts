import { z } from 'zod';
import { timestampOut, uuidOut } from '../../http/openapi.ts';
import type { Comment } from './service.ts';

/** An issue comment (SPEC section 2, Comment). */
export const commentResponse = z
  .object({
    id: uuidOut(),
    companyId: uuidOut(),
    issueId: uuidOut(),
    body: z.string().describe('markdown'),
    authorAgentId: uuidOut().nullable().describe('set when an agent wrote it'),
    authorUserId: uuidOut().nullable().describe('set when a board user wrote it'),
    runId: z
      .string()
      .nullable()
      .describe(
        "the author's `X-Service-Run-Id` (or run token claim) when the comment was written, usually a heartbeat run UUID",
      ),
    createdAt: timestampOut(),
    updatedAt: timestampOut(),
  })
  .describe('The comment');

export type CommentResponse = z.output<typeof commentResponse>;

export function presentComment(comment: Comment): CommentResponse {
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
