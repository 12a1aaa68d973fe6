// Issue comments (SPEC "Issues": comments rows, "Comment rules"). Any caller with access to the
// issue's company may read and write; `interrupt` is board-only (policy.ts, applied by createComment).
import { z } from 'zod';
import type { App, AppDeps } from '../../http/deps.ts';
import { authenticated, errors, runIdHeader, type ErrorStatus } from '../../http/openapi.ts';
import { actorOf, contextOf } from '../../http/request.ts';
import { requireIssueAccess } from '../../core/issue-access.ts';
import { commentResponse, presentComment } from './present.ts';
import { commentParams, createCommentBody, issueParams, listCommentsQuery, MAX_COMMENT_PAGE } from './schemas.ts';
import { createComment, getComment, listComments } from './service.ts';

const tags = ['comments'];
const ACCESS = "Any caller with access to the issue's company (403 for another company).";
const ANOTHER_COMPANY: [ErrorStatus, string] = [403, 'the issue belongs to another company'];

export function registerCommentRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;

  app.get(
    '/api/issues/:issueId/comments',
    {
      schema: {
        tags,
        summary: "List an issue's comments",
        description: [
          'Oldest first unless `order=desc`. Cursors return only comments created after them, in either order: `after` (a comment id or an ISO timestamp) and `afterCommentId` (a comment id); both apply when both are given.',
          'A comment-id cursor that is unknown or belongs to another issue is 404, never the whole list.',
          `\`limit\` defaults to ${MAX_COMMENT_PAGE}; larger values are clamped to ${MAX_COMMENT_PAGE}.`,
          ACCESS,
        ].join(' '),
        params: issueParams,
        querystring: listCommentsQuery,
        response: {
          200: z.array(commentResponse).describe('The comments, in the requested order'),
          ...authenticated(),
          ...errors(ANOTHER_COMPANY, [404, 'no such issue, or the cursor comment is not a comment of this issue']),
        },
      },
    },
    async (request) => {
      const issue = await requireIssueAccess(db, actorOf(request), request.params.issueId);
      return (await listComments(db, issue.id, request.query)).map(presentComment);
    },
  );

  app.get(
    '/api/issues/:issueId/comments/:commentId',
    {
      schema: {
        tags,
        summary: 'Get one comment of an issue',
        description: `The comment, if it belongs to this issue (404 otherwise). ${ACCESS}`,
        params: commentParams,
        response: {
          200: commentResponse,
          ...authenticated(),
          ...errors(ANOTHER_COMPANY, [404, 'no such issue, or no such comment on it']),
        },
      },
    },
    async (request) => {
      const issue = await requireIssueAccess(db, actorOf(request), request.params.issueId);
      return presentComment(await getComment(db, issue.id, request.params.commentId));
    },
  );

  app.post(
    '/api/issues/:issueId/comments',
    {
      schema: {
        tags,
        summary: 'Comment on an issue',
        description: [
          'Adds a markdown comment to an open or closed issue and bumps its `updatedAt`. Every `@Agent Name` in the body (case-insensitive, the longest matching name wins) wakes that agent of the company, once per comment; an agent mentioning itself is not woken.',
          '`reopen: true` moves a done or cancelled issue back to todo (no effect on open issues).',
          '`interrupt: true` is board only (403 for agents): it asks the live run holding the checkout to stop.',
          'An agent may send `X-Service-Run-Id`; the comment records it as `runId`.',
          ACCESS,
        ].join(' '),
        params: issueParams,
        headers: z.object({ 'x-service-run-id': runIdHeader }),
        body: createCommentBody,
        response: {
          201: commentResponse.describe('The comment, created'),
          ...authenticated(),
          ...errors(
            [403, 'the issue belongs to another company, or `interrupt` from a caller that is not a board user'],
            [404, 'no such issue'],
          ),
        },
      },
    },
    async (request, reply) => {
      const issue = await requireIssueAccess(db, actorOf(request), request.params.issueId);
      return reply.status(201).send(presentComment(await createComment(contextOf(db, request), issue, request.body)));
    },
  );
}
