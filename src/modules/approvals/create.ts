// Creating an approval: POST /approvals, and agent hires inside the hire's own transaction.
import { inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { approvalIssues, approvals, issues } from '../../db/schema/index.ts';
import { type Approval, oneRow } from '../../db/rows.ts';
import { inTransaction, type Ctx } from '../../core/context.ts';
import { notFound, unprocessable } from '../../core/errors.ts';
import { recordActivity } from '../activity/record.ts';
import { assertAgentInCompany } from '../../core/agent-access.ts';
import { hireAgentId } from './hire.ts';
import { assertMayRequestApproval } from './policy.ts';

export type ApprovalType =
  | 'hire_agent'
  | 'approve_ceo_strategy'
  | 'budget_override_required'
  | 'request_board_approval';

export interface NewApproval {
  companyId: string;
  type: ApprovalType;
  payload: Record<string, unknown>;
  requestedByAgentId?: string | null;
  issueIds?: string[];
}

/**
 * Issues a request links to (approval issueIds, a hire's sourceIssueId(s)): each must exist (404)
 * and belong to the company (422). The one rule for every path that records such links.
 */
export async function assertLinkedIssues(db: DbOrTx, companyId: string, issueIds: readonly string[]): Promise<void> {
  if (issueIds.length === 0) return;
  const found = await db
    .select({ id: issues.id, companyId: issues.companyId })
    .from(issues)
    .where(inArray(issues.id, [...new Set(issueIds)]));
  if (found.length !== new Set(issueIds).size) throw notFound('linked issue');
  if (found.some((i) => i.companyId !== companyId))
    throw unprocessable('linked issues must belong to the same company');
}

/**
 * Inserts a pending approval with its issue links and activity entry, in a transaction of its own or
 * as part of the caller's (`ctx.db` a transaction). The requester must be an agent of the company,
 * a hire must point at a draft (pending_approval) agent of it (422 otherwise); linked issues:
 * missing 404, other company 422.
 */
export async function createApproval(ctx: Ctx, input: NewApproval): Promise<Approval> {
  await assertMayRequestApproval(ctx, input.companyId, input.requestedByAgentId);
  return inTransaction(ctx, async (tx, { actor }) => {
    if (input.requestedByAgentId)
      await assertAgentInCompany(tx, input.companyId, input.requestedByAgentId, 'requestedByAgentId');
    const draftId = input.type === 'hire_agent' ? hireAgentId(input.payload) : null;
    if (draftId) await assertAgentInCompany(tx, input.companyId, draftId, 'payload.agentId', 'pending_approval');
    const issueIds = [...new Set(input.issueIds ?? [])];
    await assertLinkedIssues(tx, input.companyId, issueIds);
    const requestedByAgentId = input.requestedByAgentId ?? (actor.kind === 'agent' ? actor.agentId : null);
    const approval = oneRow(
      await tx
        .insert(approvals)
        .values({
          companyId: input.companyId,
          type: input.type,
          payload: input.payload,
          requestedByAgentId,
          requestedByUserId: actor.kind === 'board' ? actor.userId : null,
        })
        .returning(),
      'approval',
    );
    if (issueIds.length > 0) {
      await tx
        .insert(approvalIssues)
        .values(issueIds.map((issueId) => ({ companyId: input.companyId, approvalId: approval.id, issueId })));
    }
    await recordActivity(tx, actor, {
      companyId: input.companyId,
      action: 'approval.created',
      entityType: 'approval',
      entityId: approval.id,
      details: { type: input.type, issueIds },
    });
    return approval;
  });
}
