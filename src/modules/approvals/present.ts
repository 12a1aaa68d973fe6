// What approval responses show. Every caller (board or agent) gets the same redacted payload:
// payloads are snapshots written by agents and may carry values nobody should read back.
import type { approvalComments, issues } from '../../db/schema/index.ts';
import { redact } from '../../lib/redact.ts';
import type { Approval } from './create.ts';

type ApprovalComment = typeof approvalComments.$inferSelect;
type IssueSummaryRow = Pick<typeof issues.$inferSelect, 'id' | 'identifier' | 'title' | 'status' | 'priority' | 'projectId' | 'assigneeAgentId' | 'updatedAt'>;

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

export function presentLinkedIssue(i: IssueSummaryRow) {
  return { id: i.id, identifier: i.identifier, title: i.title, status: i.status, priority: i.priority, projectId: i.projectId, assigneeAgentId: i.assigneeAgentId, updatedAt: i.updatedAt };
}
