// Approval use cases. Each mutation is one transaction that also writes its activity entry; state
// changes are one conditional UPDATE so two concurrent decisions can never both apply.
import type { Ctx } from '../../core/context.ts';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { agents, approvalIssues, approvals, issues } from '../../db/schema/index.ts';
import type { Actor } from '../../core/actor.ts';
import { unprocessable } from '../../core/errors.ts';
import { recordActivity } from '../activity/record.ts';
import { issueSummaryColumns } from '../issues/lookup.ts';
import { enqueueWakeup } from '../wakeups/queue.ts';
import type { Approval } from '../../db/rows.ts';
import { applyHireOutcome, hireAgentId } from './hire.ts';
import { applyBudgetOverrideOutcome } from '../budgets/incidents.ts';
import type { ApprovalStatus } from './schemas.ts';
import { approvalFor } from './policy.ts';

export type Decision = 'approve' | 'reject' | 'request_revision';

const DECISIONS: Record<Decision, { from: ApprovalStatus[]; to: ApprovalStatus; action: string }> = {
  approve: { from: ['pending', 'revision_requested'], to: 'approved', action: 'approval.approved' },
  reject: { from: ['pending', 'revision_requested'], to: 'rejected', action: 'approval.rejected' },
  request_revision: { from: ['pending'], to: 'revision_requested', action: 'approval.revision_requested' },
};

export async function listApprovals(
  db: DbOrTx,
  companyId: string,
  query: { status?: ApprovalStatus; limit: number },
): Promise<Approval[]> {
  return db
    .select()
    .from(approvals)
    .where(and(eq(approvals.companyId, companyId), query.status ? eq(approvals.status, query.status) : undefined))
    .orderBy(desc(approvals.createdAt), desc(approvals.id))
    .limit(query.limit);
}

// Links are written only by create (at most 100 ids), so the list is naturally bounded.
export async function listLinkedIssues(db: DbOrTx, approval: Approval) {
  return db
    .select({ ...issueSummaryColumns, updatedAt: issues.updatedAt })
    .from(approvalIssues)
    .innerJoin(issues, eq(issues.id, approvalIssues.issueId))
    .where(and(eq(approvalIssues.approvalId, approval.id), eq(issues.companyId, approval.companyId)))
    .orderBy(asc(issues.number));
}

/**
 * Wakes the requesting agent so it learns the outcome (SPEC section 6 item 2). A requester that is
 * gone or terminated cannot run, so no request is queued for it.
 */
async function wakeRequester(tx: Tx, actor: Actor, approval: Approval): Promise<void> {
  if (!approval.requestedByAgentId) return;
  const [requester] = await tx
    .select({ status: agents.status })
    .from(agents)
    .where(and(eq(agents.id, approval.requestedByAgentId), eq(agents.companyId, approval.companyId)));
  if (!requester || requester.status === 'terminated') return;
  await enqueueWakeup(tx, actor, {
    companyId: approval.companyId,
    agentId: approval.requestedByAgentId,
    source: 'automation',
    triggerDetail: 'callback',
    reason: 'approval_resolved',
    payload: {
      env: { SERVICE_APPROVAL_ID: approval.id, SERVICE_APPROVAL_STATUS: approval.status },
      approvalId: approval.id,
      status: approval.status,
    },
  });
}

/**
 * approve / reject / request-revision. A decision from a state the table does not allow (including
 * losing a race to a concurrent decision) is 422. The requester is woken on every decision: approve
 * and reject resolve the request, and request-revision needs the agent to act.
 */
export async function decideApproval(
  ctx: Ctx,
  approvalId: string,
  decision: Decision,
  decisionNote: string | null | undefined,
): Promise<Approval> {
  const { approval, actor } = await approvalFor(ctx, 'approval.decide', approvalId);
  const rule = DECISIONS[decision];
  return ctx.db.transaction(async (tx) => {
    const [decided] = await tx
      .update(approvals)
      .set({
        status: rule.to,
        decisionNote: decisionNote ?? null,
        decidedByUserId: actor.userId,
        decidedAt: sql`now()`,
        updatedAt: sql`now()`,
      })
      .where(and(eq(approvals.id, approval.id), inArray(approvals.status, rule.from)))
      .returning();
    if (!decided)
      throw unprocessable(`${decision} is not allowed in the approval's current status`, { allowedFrom: rule.from });
    const agentStatus =
      rule.to === 'approved' || rule.to === 'rejected' ? await applyHireOutcome(tx, ctx.actor, decided, rule.to) : null;
    if (rule.to === 'approved' || rule.to === 'rejected')
      await applyBudgetOverrideOutcome(tx, ctx.actor, decided, rule.to);
    await wakeRequester(tx, ctx.actor, decided);
    await recordActivity(tx, ctx.actor, {
      companyId: decided.companyId,
      action: rule.action,
      entityType: 'approval',
      entityId: decided.id,
      details: {
        type: decided.type,
        status: decided.status,
        decisionNote: decided.decisionNote,
        ...(agentStatus && { agentId: hireAgentId(decided.payload), agentStatus }),
      },
    });
    return decided;
  });
}

/** revision_requested -> pending, optionally with a new payload. A hire keeps pointing at its draft agent. */
export async function resubmitApproval(
  ctx: Ctx,
  approvalId: string,
  payload: Record<string, unknown> | undefined,
): Promise<Approval> {
  const { approval } = await approvalFor(ctx, 'approval.resubmit', approvalId);
  const draftId = approval.type === 'hire_agent' ? hireAgentId(approval.payload) : null;
  const nextPayload = payload && draftId ? { ...payload, agentId: draftId } : payload;
  return ctx.db.transaction(async (tx) => {
    const [resubmitted] = await tx
      .update(approvals)
      .set({ status: 'pending', ...(nextPayload && { payload: nextPayload }), updatedAt: sql`now()` })
      .where(and(eq(approvals.id, approval.id), eq(approvals.status, 'revision_requested')))
      .returning();
    if (!resubmitted)
      throw unprocessable('only an approval in revision_requested can be resubmitted', { status: approval.status });
    await recordActivity(tx, ctx.actor, {
      companyId: resubmitted.companyId,
      action: 'approval.resubmitted',
      entityType: 'approval',
      entityId: resubmitted.id,
      details: { type: resubmitted.type, payloadReplaced: nextPayload !== undefined },
    });
    return resubmitted;
  });
}
