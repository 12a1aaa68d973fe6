// hire_agent side effects of a decision: the draft agent (payload.agentId) is activated on approve
// and terminated on reject. Only a draft still in pending_approval and in the approval's company is
// touched, so a replayed, duplicated or hand-written hire approval cannot revive or kill a live agent.
import type { Tx } from '../../db/client.ts';
import type { Actor } from '../../core/actor.ts';
import { recordActivity } from '../activity/record.ts';
import { findAgentById, revokeAllKeys } from '../../core/agent-access.ts';
import { transitionAgent } from '../../core/agent-status.ts';
import type { Approval } from '../../db/rows.ts';
import { syncMonthlyBudgetPolicy } from '../budgets/budget-policies.ts';

/** The draft agent a hire_agent payload points at, if it names one. */
export function hireAgentId(payload: Record<string, unknown>): string | null {
  return typeof payload.agentId === 'string' ? payload.agentId : null;
}

/** Applies the outcome to the draft agent; returns the agent's new status, or null when nothing changed. */
export async function applyHireOutcome(
  tx: Tx,
  actor: Actor,
  approval: Approval,
  outcome: 'approved' | 'rejected',
): Promise<string | null> {
  const agentId = hireAgentId(approval.payload);
  if (approval.type !== 'hire_agent' || !agentId || !(await findAgentById(tx, agentId))) return null;
  // The transition checks the draft is still pending_approval and in the approval's company.
  const { agent, changed } = await transitionAgent(tx, agentId, {
    kind: outcome === 'approved' ? 'approve_hire' : 'reject_hire',
    companyId: approval.companyId,
  });
  if (!changed) return null;
  if (outcome === 'approved') {
    // The hire's budget policy was written with the draft: activation only changes the status.
    await recordActivity(tx, actor, {
      companyId: approval.companyId,
      action: 'agent.activated',
      entityType: 'agent',
      entityId: agentId,
      details: { from: 'pending_approval', approvalId: approval.id },
    });
    return agent.status;
  }
  const revokedKeys = await revokeAllKeys(tx, agentId);
  await syncMonthlyBudgetPolicy(tx, actor, {
    companyId: approval.companyId,
    scopeType: 'agent',
    scopeId: agentId,
    amountCents: 0,
  });
  await recordActivity(tx, actor, {
    companyId: approval.companyId,
    action: 'agent.terminated',
    entityType: 'agent',
    entityId: agentId,
    details: { from: 'pending_approval', approvalId: approval.id, revokedKeys },
  });
  return agent.status;
}
