import { z } from 'zod';

/** SPEC Limits: comments `limit` is a positive integer capped at 500; larger values are clamped. */
export const MAX_COMMENT_PAGE = 500;
/** 100 KiB of UTF-8: comments are conversation, long artefacts belong in documents. */
export const MAX_COMMENT_BYTES = 100 * 1024;

export const commentBodyText = z
  .string()
  .refine((s) => s.trim().length > 0, 'must not be empty')
  .refine((s) => Buffer.byteLength(s, 'utf8') <= MAX_COMMENT_BYTES, `must be at most ${MAX_COMMENT_BYTES} bytes`)
  .describe(
    'markdown, not blank, at most 100 KiB of UTF-8; `@Agent Name` (case-insensitive) wakes that agent of the company',
  );

export const issueParams = z.object({
  issueId: z.string().trim().min(1).max(100).describe('issue UUID or identifier (`ACM-12`)'),
});
export const commentParams = issueParams.extend({ commentId: z.uuid().describe('comment UUID') });

// Cursors (SPEC: `after` or `afterCommentId`). `after` is a comment id (the cursor a client holds)
// or an ISO timestamp; a comment id that is unknown or of another issue is 404 (listComments), since
// ignoring it would answer with the whole list as if it were the next page.
export const listCommentsQuery = z.object({
  after: z
    .union([z.uuid(), z.iso.datetime({ offset: true })])
    .optional()
    .describe('comment id or ISO timestamp: comments after it'),
  afterCommentId: z.uuid().optional().describe('comment id: comments after it'),
  order: z.enum(['asc', 'desc']).default('asc').describe('by creation time: `asc` (default, oldest first) or `desc`'),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .default(MAX_COMMENT_PAGE)
    .transform((n) => Math.min(n, MAX_COMMENT_PAGE))
    .describe(`positive integer (default ${MAX_COMMENT_PAGE}); larger values are clamped to ${MAX_COMMENT_PAGE}`),
});

export const createCommentBody = z
  .object({
    body: commentBodyText,
    reopen: z
      .boolean()
      .optional()
      .describe('true on a done or cancelled issue moves it back to todo; no effect on an open issue'),
    interrupt: z
      .boolean()
      .optional()
      .describe('board only (403 for agents): asks the live run holding the checkout to stop'),
  })
  .meta({ examples: [{ body: 'The draft is ready for review: see the `plan` document.' }] });

export type ListCommentsQuery = z.infer<typeof listCommentsQuery>;
export type CreateComment = z.infer<typeof createCommentBody>;
