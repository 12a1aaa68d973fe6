// The board's agent lifecycle routes (SPEC section 4): pause, resume, terminate, and hard delete.
// The status transitions themselves, with their refusals, are core/agent-status.ts's table.
//
// - pause: any live agent -> paused. Terminated fails 409. A pending_approval agent also fails 409:
//   pausing and resuming it would otherwise activate a hire the board never approved.
// - resume: paused -> idle. Terminated and pending_approval fail 409; resuming an agent that is not
//   paused changes nothing and answers the agent as it is.
// - terminate: any -> terminated, every API key revoked, the record kept (idempotent).
// Pause, terminate and delete also cancel the agent's waiting wakes and its live runs (their
// processes are stopped by the replica running them).
// - delete: removes the agent; keys, wakeups and runs cascade in the database; references from
//   issues, goals, projects and reports become null.
import { eq } from 'drizzle-orm';
import { agents } from '../../db/schema/index.ts';
import { notFound } from '../../core/errors.ts';
import { recordActivity } from '../activity/record.ts';
import { syncMonthlyBudgetPolicy } from '../budgets/budget-policies.ts';
import type { Ctx } from '../../core/context.ts';
import { cancelAgentWork, stopAgent } from '../runs/lifecycle.ts';
import { transitionAgent } from '../../core/agent-status.ts';
import type { Agent } from '../../db/rows.ts';
import { lockAgent, revokeAllKeys } from '../../core/agent-access.ts';
import { agentFor } from './policy.ts';

export async function pauseAgent(ctx: Ctx, agentRef: string, reason = 'manual'): Promise<Agent> {
  const { id: agentId } = await agentFor(ctx, 'agent.pause', agentRef);
  return ctx.db.transaction(async (tx) => {
    const { before, agent, changed } = await stopAgent(tx, ctx.actor, agentId, { kind: 'pause', reason });
    if (changed)
      await recordActivity(tx, ctx.actor, {
        companyId: agent.companyId,
        action: 'agent.paused',
        entityType: 'agent',
        entityId: agentId,
        details: { from: before.status, reason },
      });
    return agent;
  });
}

export async function resumeAgent(ctx: Ctx, agentRef: string): Promise<Agent> {
  const { id: agentId } = await agentFor(ctx, 'agent.resume', agentRef);
  return ctx.db.transaction(async (tx) => {
    const { before, agent, changed } = await transitionAgent(tx, agentId, { kind: 'resume' });
    if (changed)
      await recordActivity(tx, ctx.actor, {
        companyId: agent.companyId,
        action: 'agent.resumed',
        entityType: 'agent',
        entityId: agentId,
        details: { from: before.status },
      });
    return agent;
  });
}

export async function terminateAgent(ctx: Ctx, agentRef: string): Promise<Agent> {
  const { id: agentId } = await agentFor(ctx, 'agent.terminate', agentRef);
  return ctx.db.transaction(async (tx) => {
    await lockAgent(tx, agentId);
    const revokedKeys = await revokeAllKeys(tx, agentId);
    const { before, agent, changed } = await stopAgent(tx, ctx.actor, agentId, { kind: 'terminate' });
    if (!changed) return agent;
    // A terminated agent spends nothing more: its budget policy is switched off with it.
    await syncMonthlyBudgetPolicy(tx, ctx.actor, {
      companyId: agent.companyId,
      scopeType: 'agent',
      scopeId: agentId,
      amountCents: 0,
    });
    await recordActivity(tx, ctx.actor, {
      companyId: agent.companyId,
      action: 'agent.terminated',
      entityType: 'agent',
      entityId: agentId,
      details: { from: before.status, revokedKeys },
    });
    return agent;
  });
}

export async function deleteAgent(ctx: Ctx, agentRef: string): Promise<string> {
  const { id: agentId } = await agentFor(ctx, 'agent.delete', agentRef);
  await ctx.db.transaction(async (tx) => {
    // The agent first (the lock order, runs/lock-order.ts): its wakes are locked below, and a wake
    // decided meanwhile holds the agent while it waits for them.
    await lockAgent(tx, agentId);
    // Cancelled before the rows go: the status change is what tells the replica running the work to stop it.
    await cancelAgentWork(tx, ctx.actor, agentId, 'agent_deleted');
    const [deleted] = await tx.delete(agents).where(eq(agents.id, agentId)).returning();
    if (!deleted) throw notFound('agent');
    // Budget policies name their scope by id only, so the agent's policy is switched off here.
    await syncMonthlyBudgetPolicy(tx, ctx.actor, {
      companyId: deleted.companyId,
      scopeType: 'agent',
      scopeId: agentId,
      amountCents: 0,
    });
    await recordActivity(tx, ctx.actor, {
      companyId: deleted.companyId,
      action: 'agent.deleted',
      entityType: 'agent',
      entityId: agentId,
      details: { name: deleted.name, status: deleted.status },
    });
  });
  return agentId;
}
