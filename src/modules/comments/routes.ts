// Issue comments (SPEC "Issues": comments rows, "Comment rules"). Any caller with access to the
// issue's company may read and write; `interrupt` is board-only (policy.ts, applied by createComment).
import type { App, AppDeps } from '../../server/deps.ts';
import { actorOf } from '../../server/request.ts';
import { requireIssueAccess } from '../issues/lookup.ts';
import { presentComment } from './present.ts';
import { commentParams, createCommentBody, issueParams, listCommentsQuery } from './schemas.ts';
import { createComment, getComment, listComments } from './service.ts';

const tags = ['comments'];

export function registerCommentRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;

  app.get('/api/issues/:issueId/comments', { schema: { tags, params: issueParams, querystring: listCommentsQuery } }, async (request) => {
    const issue = await requireIssueAccess(db, actorOf(request), request.params.issueId);
    return (await listComments(db, issue.id, request.query)).map(presentComment);
  });

  app.get('/api/issues/:issueId/comments/:commentId', { schema: { tags, params: commentParams } }, async (request) => {
    const issue = await requireIssueAccess(db, actorOf(request), request.params.issueId);
    return presentComment(await getComment(db, issue.id, request.params.commentId));
  });

  app.post('/api/issues/:issueId/comments', { schema: { tags, params: issueParams, body: createCommentBody } }, async (request, reply) => {
    const issue = await requireIssueAccess(db, actorOf(request), request.params.issueId);
    return reply.status(201).send(presentComment(await createComment({ db, actor: actorOf(request) }, issue, request.body)));
  });
}
