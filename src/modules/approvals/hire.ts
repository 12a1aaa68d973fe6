// hire_agent side effects of a decision: the draft agent (payload.agentId) is activated on approve
// and terminated on reject. Only a draft still in pending_approval and in the approval's company is
// touched, so a replayed, duplicated or hand-written hire approval cannot revive or kill a live agent.
import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { agents } from '../../db/schema/index.ts';
import type { Actor } from '../../core/actor.ts';
import { recordActivity } from '../activity/record.ts';
import { revokeAllKeys } from '../../core/agent-access.ts';
import type { Approval } from '../../db/rows.ts';
import { syncMonthlyBudgetPolicy } from '../budgets/budget-policies.ts';

/** The draft agent a hire_agent payload points at, if it names one. */
export function hireAgentId(payload: Record<string, unknown>): string | null {
  return typeof payload.agentId === 'string' ? payload.agentId : null;
}

function draftOf(approval: Approval, agentId: string) {
  return and(eq(agents.id, agentId), eq(agents.companyId, approval.companyId), eq(agents.status, 'pending_approval'));
}

/** Applies the outcome to the draft agent; returns the agent's new status, or null when nothing changed. */
export async function applyHireOutcome(tx: Tx, actor: Actor, approval: Approval, outcome: 'approved' | 'rejected'): Promise<string | null> {
  const agentId = hireAgentId(approval.payload);
  if (approval.type !== 'hire_agent' || !agentId) return null;
  if (outcome === 'approved') {
    // The hire's budget policy was written with the draft: activation only changes the status.
    const [activated] = await tx.update(agents).set({ status: 'idle', updatedAt: sql`now()` }).where(draftOf(approval, agentId)).returning({ id: agents.id });
    if (!activated) return null;
    await recordActivity(tx, actor, { companyId: approval.companyId, action: 'agent.activated', entityType: 'agent', entityId: agentId, details: { from: 'pending_approval', approvalId: approval.id } });
    return 'idle';
  }
  const [terminated] = await tx
    .update(agents)
    .set({ status: 'terminated', terminatedAt: sql`now()`, updatedAt: sql`now()` })
    .where(draftOf(approval, agentId))
    .returning({ id: agents.id });
  if (!terminated) return null;
  const revokedKeys = await revokeAllKeys(tx, agentId);
  await syncMonthlyBudgetPolicy(tx, actor, approval.companyId, 'agent', agentId, 0);
  await recordActivity(tx, actor, { companyId: approval.companyId, action: 'agent.terminated', entityType: 'agent', entityId: agentId, details: { from: 'pending_approval', approvalId: approval.id, revokedKeys } });
  return 'terminated';
}
