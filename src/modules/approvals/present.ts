// What approval responses show. Every caller (board or agent) gets the same redacted payload:
// payloads are snapshots written by agents and may carry values nobody should read back. The
// response schemas below document each shape and type its presenter.
import { z } from 'zod';
import { timestampOut, uuidOut } from '../../http/openapi.ts';
import { issueSummaryResponse, presentIssueSummary } from '../issues/present.ts';
import type { approvalComments, issues } from '../../db/schema/index.ts';
import { redact } from '../../lib/redact.ts';
import type { Approval } from '../../db/rows.ts';
import { APPROVAL_STATUSES, APPROVAL_TYPES } from './schemas.ts';

type ApprovalComment = typeof approvalComments.$inferSelect;

/** An approval (SPEC section 2, Approval). */
export const approvalResponse = z
  .object({
    id: uuidOut(),
    companyId: uuidOut(),
    type: z.enum(APPROVAL_TYPES),
    status: z.enum(APPROVAL_STATUSES),
    payload: z
      .record(z.string(), z.unknown())
      .describe(
        'type-specific JSON as filed (a hire_agent payload is the proposed agent: `agentId` of the draft plus its configuration snapshot); sensitive-looking keys, plain `env` values and recognisable credentials are redacted (secret references are kept)',
      ),
    requestedByAgentId: uuidOut()
      .nullable()
      .describe('the agent that asked (an agent caller is the requester by default)'),
    requestedByUserId: uuidOut().nullable().describe('the board user that filed it, when a board user did'),
    decisionNote: z.string().nullable().describe('note of the latest decision'),
    decidedByUserId: uuidOut().nullable().describe('board user of the latest decision'),
    decidedAt: timestampOut().nullable(),
    createdAt: timestampOut(),
    updatedAt: timestampOut(),
  })
  .describe('The approval');

export type ApprovalResponse = z.output<typeof approvalResponse>;

export function presentApproval(a: Approval): ApprovalResponse {
  return {
    id: a.id,
    companyId: a.companyId,
    type: a.type as ApprovalResponse['type'],
    status: a.status as ApprovalResponse['status'],
    // Shared redaction: sensitive keys, every env binding that is not a secret reference (hire
    // snapshots carry adapterConfig.env), and recognisable credentials under any key.
    payload: redact(a.payload) as Record<string, unknown>,
    requestedByAgentId: a.requestedByAgentId,
    requestedByUserId: a.requestedByUserId,
    decisionNote: a.decisionNote,
    decidedByUserId: a.decidedByUserId,
    decidedAt: a.decidedAt,
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
  };
}

/** A comment on an approval (SPEC "Comment (issue or approval)"). */
export const approvalCommentResponse = z
  .object({
    id: uuidOut(),
    companyId: uuidOut(),
    approvalId: uuidOut(),
    body: z.string().describe('markdown'),
    authorAgentId: uuidOut().nullable().describe('the agent that wrote it, when an agent did'),
    authorUserId: uuidOut().nullable().describe('the board user that wrote it, when a board user did'),
    createdAt: timestampOut(),
  })
  .describe('An approval comment');

export type ApprovalCommentResponse = z.output<typeof approvalCommentResponse>;

export function presentApprovalComment(c: ApprovalComment): ApprovalCommentResponse {
  return {
    id: c.id,
    companyId: c.companyId,
    approvalId: c.approvalId,
    body: c.body,
    authorAgentId: c.authorAgentId,
    authorUserId: c.authorUserId,
    createdAt: c.createdAt,
  };
}

/** An issue linked to an approval: the shared issue summary, plus when the issue last changed. */
export const linkedIssueResponse = issueSummaryResponse
  .extend({ updatedAt: timestampOut() })
  .describe('A linked issue in brief');

export type LinkedIssueResponse = z.output<typeof linkedIssueResponse>;

export function presentLinkedIssue(
  i: Parameters<typeof presentIssueSummary>[0] & Pick<typeof issues.$inferSelect, 'updatedAt'>,
): LinkedIssueResponse {
  return { ...presentIssueSummary(i), updatedAt: i.updatedAt };
}
