import { z } from 'zod';
import type { App, AppDeps } from '../../http/deps.ts';
import { requireCompanyAccess } from '../../core/access.ts';
import { authenticated, errors, type ErrorStatus } from '../../http/openapi.ts';
import { actorOf, contextOf } from '../../http/request.ts';
import { addApprovalComment, listApprovalComments } from './comments.ts';
import { createApproval } from './create.ts';
import {
  approvalCommentResponse,
  approvalResponse,
  linkedIssueResponse,
  presentApproval,
  presentApprovalComment,
  presentLinkedIssue,
} from './present.ts';
import {
  approvalParams,
  companyParams,
  createApprovalBody,
  createCommentBody,
  decisionBodyWith,
  listApprovalsQuery,
  listCommentsQuery,
  resubmitBody,
} from './schemas.ts';
import { requireApproval } from './lookup.ts';
import { decideApproval, listApprovals, listLinkedIssues, resubmitApproval, type Decision } from './service.ts';

const tags = ['approvals'];
const COMPANY_ERRORS: [ErrorStatus, string][] = [
  [403, "the company is not one of the caller's"],
  [404, 'no such company'],
];
const HIDDEN = 'An approval of another company answers 404, as a missing one does.';
const NOT_FOUND: [ErrorStatus, string] = [404, 'no such approval, or it belongs to another company'];
const WAKE =
  "The requesting agent (unless terminated) is woken with `SERVICE_APPROVAL_ID` and `SERVICE_APPROVAL_STATUS` in the wakeup payload's `env`.";

const DECISIONS: {
  path: string;
  decision: Decision;
  summary: string;
  description: string;
  result: string;
  example: string;
}[] = [
  {
    path: 'approve',
    decision: 'approve',
    summary: 'Approve an approval',
    description:
      'Board only. From `pending` or `revision_requested` to `approved`, storing `decisionNote`. A hire_agent approval activates its draft agent (`pending_approval` to `idle`) and creates its monthly budget policy when the budget is positive.',
    result: 'The approval, approved',
    example: 'Go ahead; keep the monthly spend under 500 USD.',
  },
  {
    path: 'reject',
    decision: 'reject',
    summary: 'Reject an approval',
    description:
      'Board only. From `pending` or `revision_requested` to `rejected`, storing `decisionNote`. A hire_agent approval terminates its draft agent (still `pending_approval`) and revokes its keys.',
    result: 'The approval, rejected',
    example: 'Not this quarter: the budget is committed elsewhere.',
  },
  {
    path: 'request-revision',
    decision: 'request_revision',
    summary: 'Ask for a revision of an approval',
    description:
      'Board only. From `pending` to `revision_requested`, storing `decisionNote`; the requester may then resubmit.',
    result: 'The approval, waiting for a revision',
    example: 'Please add the expected monthly cost.',
  },
];

export function registerApprovalRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;

  app.get(
    '/api/companies/:companyId/approvals',
    {
      schema: {
        tags,
        summary: "List a company's approvals",
        description:
          'Newest first, optionally only one `status`; `limit` 1 to 500 (default 100). Payloads are redacted. Any caller with access to the company (board or its agents).',
        params: companyParams,
        querystring: listApprovalsQuery,
        response: {
          200: z.array(approvalResponse).describe('The approvals, newest first'),
          ...authenticated(),
          ...errors(...COMPANY_ERRORS),
        },
      },
    },
    async (request) => {
      const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
      return (await listApprovals(db, company.id, request.query)).map(presentApproval);
    },
  );

  app.post(
    '/api/companies/:companyId/approvals',
    {
      schema: {
        tags,
        summary: 'Request an approval from the board',
        description: [
          'Files an approval in status `pending`. Any caller with access to the company; an agent files only as itself (`requestedByAgentId` naming another agent is 403) and is the requester by default.',
          "`requestedByAgentId` must be an agent of the company (422). `issueIds` link issues (duplicates ignored): a missing issue is 404, another company's 422.",
          'A hire_agent payload whose `agentId` is given must name a `pending_approval` draft agent of the company (422); hires are usually filed through POST /api/companies/{companyId}/agent-hires.',
        ].join(' '),
        params: companyParams,
        body: createApprovalBody,
        response: {
          201: approvalResponse.describe('The approval, pending'),
          ...authenticated(),
          ...errors(
            [403, "the company is not one of the caller's, or an agent names another agent as requester"],
            [404, 'no such company, or a linked issue does not exist'],
            [
              422,
              "requestedByAgentId or the hire's draft agent is not an agent of the company (in pending_approval), or a linked issue belongs to another company",
            ],
          ),
        },
      },
    },
    async (request, reply) => {
      const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
      return reply
        .status(201)
        .send(
          presentApproval(await createApproval(contextOf(db, request), { companyId: company.id, ...request.body })),
        );
    },
  );

  app.get(
    '/api/approvals/:approvalId',
    {
      schema: {
        tags,
        summary: 'Get an approval',
        description: `The approval with its redacted payload. Any caller with access to its company. ${HIDDEN}`,
        params: approvalParams,
        response: { 200: approvalResponse, ...authenticated(), ...errors(NOT_FOUND) },
      },
    },
    async (request) => {
      return presentApproval(await requireApproval(db, actorOf(request), request.params.approvalId));
    },
  );

  app.get(
    '/api/approvals/:approvalId/issues',
    {
      schema: {
        tags,
        summary: 'List the issues linked to an approval',
        description: `The issues named by the approval's \`issueIds\` (at most 100), by issue number. Any caller with access to its company. ${HIDDEN}`,
        params: approvalParams,
        response: {
          200: z.array(linkedIssueResponse).describe('The linked issues, by number'),
          ...authenticated(),
          ...errors(NOT_FOUND),
        },
      },
    },
    async (request) => {
      const approval = await requireApproval(db, actorOf(request), request.params.approvalId);
      return (await listLinkedIssues(db, approval)).map(presentLinkedIssue);
    },
  );

  for (const { path, decision, summary, description, result, example } of DECISIONS) {
    app.post(
      `/api/approvals/:approvalId/${path}`,
      {
        schema: {
          tags,
          summary,
          description: `${description} The body is optional. A decision the approval's status does not allow, including one that lost a race to another decision, is 422 with \`details.allowedFrom\`. ${WAKE} ${HIDDEN}`,
          params: approvalParams,
          body: decisionBodyWith(example),
          response: {
            200: approvalResponse.describe(result),
            ...authenticated(),
            ...errors([403, 'board access required (agents may not decide)'], NOT_FOUND, [
              422,
              "the approval's current status does not allow this decision",
            ]),
          },
        },
      },
      async (request) => {
        return presentApproval(
          await decideApproval(contextOf(db, request), request.params.approvalId, decision, request.body?.decisionNote),
        );
      },
    );
  }

  app.post(
    '/api/approvals/:approvalId/resubmit',
    {
      schema: {
        tags,
        summary: 'Resubmit an approval after a revision request',
        description: `From \`revision_requested\` back to \`pending\` (any other status is 422). By the agent that requested it or the board (other agents 403). A \`payload\` replaces the old one; without a body the payload stays. ${HIDDEN}`,
        params: approvalParams,
        body: resubmitBody,
        response: {
          200: approvalResponse.describe('The approval, pending again'),
          ...authenticated(),
          ...errors([403, 'an agent other than the requester'], NOT_FOUND, [
            422,
            'the approval is not in revision_requested',
          ]),
        },
      },
    },
    async (request) => {
      return presentApproval(
        await resubmitApproval(contextOf(db, request), request.params.approvalId, request.body?.payload),
      );
    },
  );

  app.get(
    '/api/approvals/:approvalId/comments',
    {
      schema: {
        tags,
        summary: "List an approval's comments",
        description: `Oldest first; \`afterCommentId\` continues after a comment of this approval (404 when it is not one); \`limit\` 1 to 500 (default 100). Any caller with access to its company. ${HIDDEN}`,
        params: approvalParams,
        querystring: listCommentsQuery,
        response: {
          200: z.array(approvalCommentResponse).describe('The comments, oldest first'),
          ...authenticated(),
          ...errors([404, "no such approval (or another company's), or the cursor is not a comment of it"]),
        },
      },
    },
    async (request) => {
      const approval = await requireApproval(db, actorOf(request), request.params.approvalId);
      return (await listApprovalComments(db, approval, request.query)).map(presentApprovalComment);
    },
  );

  app.post(
    '/api/approvals/:approvalId/comments',
    {
      schema: {
        tags,
        summary: 'Comment on an approval',
        description: `Adds a markdown comment to the thread, in any status. Any caller with access to its company (board or its agents); the author is the caller. ${HIDDEN}`,
        params: approvalParams,
        body: createCommentBody,
        response: {
          201: approvalCommentResponse.describe('The comment, created'),
          ...authenticated(),
          ...errors(NOT_FOUND),
        },
      },
    },
    async (request, reply) => {
      return reply
        .status(201)
        .send(
          presentApprovalComment(
            await addApprovalComment(contextOf(db, request), request.params.approvalId, request.body.body),
          ),
        );
    },
  );
}
