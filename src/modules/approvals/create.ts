// Creating an approval: shared by POST /approvals and by agent hires.
import { and, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { approvalIssues, approvals, issues } from '../../db/schema/index.ts';
import type { Actor } from '../../core/actor.ts';
import { notFound, unprocessable } from '../../core/errors.ts';
import { recordActivity } from '../activity/record.ts';

export type Approval = typeof approvals.$inferSelect;
export type ApprovalType = 'hire_agent' | 'approve_ceo_strategy' | 'budget_override_required' | 'request_board_approval';

export interface NewApproval {
  companyId: string;
  type: ApprovalType;
  payload: Record<string, unknown>;
  requestedByAgentId?: string | null;
  issueIds?: string[];
}

/** Inserts a pending approval with its issue links; linked issues: missing 404, other company 422. */
export async function createApproval(tx: DbOrTx, actor: Actor, input: NewApproval): Promise<Approval> {
  const issueIds = [...new Set(input.issueIds ?? [])];
  if (issueIds.length > 0) {
    const found = await tx.select({ id: issues.id, companyId: issues.companyId }).from(issues).where(and(inArray(issues.id, issueIds)));
    if (found.length !== issueIds.length) throw notFound('linked issue');
    if (found.some((i) => i.companyId !== input.companyId)) throw unprocessable('linked issues must belong to the same company');
  }
  const requestedByAgentId = input.requestedByAgentId ?? (actor.kind === 'agent' ? actor.agentId : null);
  const [approval] = await tx
    .insert(approvals)
    .values({
      companyId: input.companyId,
      type: input.type,
      payload: input.payload,
      requestedByAgentId,
      requestedByUserId: actor.kind === 'board' ? actor.userId : null,
    })
    .returning();
  if (issueIds.length > 0) {
    await tx.insert(approvalIssues).values(issueIds.map((issueId) => ({ companyId: input.companyId, approvalId: approval!.id, issueId })));
  }
  await recordActivity(tx, actor, { companyId: input.companyId, action: 'approval.created', entityType: 'approval', entityId: approval!.id, details: { type: input.type, issueIds } });
  return approval!;
}
