// What approval responses show. Every caller (board or agent) gets the same redacted payload:
// payloads are snapshots written by agents and may carry values nobody should read back.
import { presentIssueSummary } from '../issues/present.ts';
import type { approvalComments, issues } from '../../db/schema/index.ts';
import { redact } from '../../lib/redact.ts';
import type { Approval } from './create.ts';

type ApprovalComment = typeof approvalComments.$inferSelect;

export function presentApproval(a: Approval) {
  return {
    id: a.id,
    companyId: a.companyId,
    type: a.type,
    status: a.status,
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

export function presentApprovalComment(c: ApprovalComment) {
  return { id: c.id, companyId: c.companyId, approvalId: c.approvalId, body: c.body, authorAgentId: c.authorAgentId, authorUserId: c.authorUserId, createdAt: c.createdAt };
}

/** The shared issue summary, plus when the linked issue last changed. */
export function presentLinkedIssue(i: Parameters<typeof presentIssueSummary>[0] & Pick<typeof issues.$inferSelect, 'updatedAt'>) {
  return { ...presentIssueSummary(i), updatedAt: i.updatedAt };
}
