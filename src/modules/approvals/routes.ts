import type { App, AppDeps } from '../../server/deps.ts';
import { authorize, requireBoard, requireCompanyAccess } from '../../core/access.ts';
import { actorOf } from '../../server/request.ts';
import { addApprovalComment, listApprovalComments } from './comments.ts';
import { createApproval } from './create.ts';
import { canRequestApprovalAs, canResubmitApproval } from './policy.ts';
import { presentApproval, presentApprovalComment, presentLinkedIssue } from './present.ts';
import { approvalParams, companyParams, createApprovalBody, createCommentBody, decisionBody, listApprovalsQuery, listCommentsQuery, resubmitBody } from './schemas.ts';
import { decideApproval, listApprovals, listLinkedIssues, requireApproval, resubmitApproval, type Decision } from './service.ts';

const tags = ['approvals'];

export function registerApprovalRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;

  app.get('/api/companies/:companyId/approvals', { schema: { tags, params: companyParams, querystring: listApprovalsQuery } }, async (request) => {
    const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
    return (await listApprovals(db, company.id, request.query)).map(presentApproval);
  });

  app.post('/api/companies/:companyId/approvals', { schema: { tags, params: companyParams, body: createApprovalBody } }, async (request, reply) => {
    const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
    const actor = actorOf(request);
    authorize(canRequestApprovalAs(actor, request.body.requestedByAgentId), 'an agent may only request approvals as itself');
    return reply.status(201).send(presentApproval(await createApproval({ db, actor }, { companyId: company.id, ...request.body })));
  });

  app.get('/api/approvals/:approvalId', { schema: { tags, params: approvalParams } }, async (request) => {
    return presentApproval(await requireApproval(db, actorOf(request), request.params.approvalId));
  });

  app.get('/api/approvals/:approvalId/issues', { schema: { tags, params: approvalParams } }, async (request) => {
    const approval = await requireApproval(db, actorOf(request), request.params.approvalId);
    return (await listLinkedIssues(db, approval)).map(presentLinkedIssue);
  });

  const decisions: [string, Decision][] = [
    ['approve', 'approve'],
    ['reject', 'reject'],
    ['request-revision', 'request_revision'],
  ];
  for (const [path, decision] of decisions) {
    app.post(`/api/approvals/:approvalId/${path}`, { schema: { tags, params: approvalParams, body: decisionBody } }, async (request) => {
      const actor = requireBoard(actorOf(request));
      const approval = await requireApproval(db, actor, request.params.approvalId);
      return presentApproval(await decideApproval({ db, actor }, approval, decision, request.body?.decisionNote));
    });
  }

  app.post('/api/approvals/:approvalId/resubmit', { schema: { tags, params: approvalParams, body: resubmitBody } }, async (request) => {
    const actor = actorOf(request);
    const approval = await requireApproval(db, actor, request.params.approvalId);
    authorize(canResubmitApproval(actor, approval), 'only the requesting agent or the board may resubmit this approval');
    return presentApproval(await resubmitApproval({ db, actor }, approval, request.body?.payload));
  });

  app.get('/api/approvals/:approvalId/comments', { schema: { tags, params: approvalParams, querystring: listCommentsQuery } }, async (request) => {
    const approval = await requireApproval(db, actorOf(request), request.params.approvalId);
    return (await listApprovalComments(db, approval, request.query)).map(presentApprovalComment);
  });

  app.post('/api/approvals/:approvalId/comments', { schema: { tags, params: approvalParams, body: createCommentBody } }, async (request, reply) => {
    const actor = actorOf(request);
    const approval = await requireApproval(db, actor, request.params.approvalId);
    return reply.status(201).send(presentApprovalComment(await addApprovalComment({ db, actor }, approval, request.body.body)));
  });
}
