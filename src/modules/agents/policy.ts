// Who may do what with agents: the `agent.*` rows of the permission table (core/permissions.ts).
// These functions give the table an agent's facts (its company, and itself as `self`).
//
// Decisions (SPEC leaves most "Who" cells of the Agents table blank):
// - Reading configuration: board users with company access, the agent itself, the company's CEO
//   agent and agents holding canCreateAgents (they configure hires). Everyone else gets the
//   redacted form (env values hidden), never a 403.
// - PATCH: board; the company CEO agent for any agent of its company; an agent for itself, except
//   status, role and reportsTo (an agent must not promote itself, re-parent itself in the org tree
//   or pause/activate itself).
// - Lifecycle (pause, resume, terminate) and budgets: board or the company CEO agent. Hard delete: board only.
// - Permissions: board or the company CEO agent (SPEC).
// - Keys: list by the board or the agent itself; create and revoke by the board only (a leaked agent
//   key must not be able to mint more keys).
// - Wakeup: board or the same agent (SPEC).
// - Hires: board, the company CEO agent, or an agent with canCreateAgents; a hire never grants more
//   than the hirer holds: only the board may hire a CEO (an agent with CEO rights hired by an agent
//   creator would own the company without any board decision), and only the board or the CEO may
//   hand out canCreateAgents.
import { requireAgentAccess, callerAgent } from '../../core/agent-access.ts';
import type { Ctx } from '../../core/context.ts';
import { assertMay, companyFor, permits, resourceFor } from '../../core/permissions.ts';
import type { Company } from '../../core/access.ts';
import type { AgentActor } from '../../core/actor.ts';
import type { Agent } from '../../db/rows.ts';

type AgentAction =
  | 'agent.update'
  | 'agent.setPermissions'
  | 'agent.setBudget'
  | 'agent.pause'
  | 'agent.resume'
  | 'agent.terminate'
  | 'agent.delete'
  | 'agent.listKeys'
  | 'agent.createKey'
  | 'agent.revokeKey'
  | 'agent.rotateSigningSecret'
  | 'agent.wake';

const factsOf = (agent: Pick<Agent, 'id' | 'companyId'>) => ({ companyId: agent.companyId, agentId: agent.id });

/**
 * The agent a use case acts on (a UUID, or a shortname in the caller's company), once the caller
 * may: 403 before the lookup when the caller's kind never may, then 404 missing or 403 another
 * company's, then the row's conditions.
 */
export async function agentFor(ctx: Ctx, action: AgentAction, agentRef: string): Promise<Agent> {
  return resourceFor(ctx, action, () => requireAgentAccess(ctx.db, ctx.actor, agentRef), factsOf);
}

// An agent must not promote itself, re-parent itself in the org tree or pause/activate itself.
const REORGANIZING_FIELDS: readonly string[] = ['status', 'role', 'reportsTo'];

/** PATCH: `agent.update` for the call, `agent.reorganize` for status, role and reportsTo (naming them). */
export async function agentForUpdate(ctx: Ctx, agentRef: string, fields: string[]): Promise<Agent> {
  const agent = await agentFor(ctx, 'agent.update', agentRef);
  const reorganizing = fields.filter((field) => REORGANIZING_FIELDS.includes(field));
  if (reorganizing.length > 0) await assertMay(ctx, 'agent.reorganize', factsOf(agent), { fields: reorganizing });
  return agent;
}

export async function assertMayHire(
  ctx: Ctx,
  companyId: string,
  hire: { role?: string; permissions?: { canCreateAgents?: boolean } },
): Promise<void> {
  await assertMay(ctx, 'agent.hire', { companyId });
  if (hire.role?.trim().toLowerCase() === 'ceo') await assertMay(ctx, 'agent.hireCeo', { companyId });
  if (hire.permissions?.canCreateAgents === true) await assertMay(ctx, 'agent.hireAgentCreator', { companyId });
}

/** Whose configuration the caller may read in full (`agent.readConfig`); the others are shown redacted. */
export async function configReader(ctx: Ctx): Promise<(agent: Pick<Agent, 'id' | 'companyId'>) => boolean> {
  const caller = await callerAgent(ctx.db, ctx.actor);
  return (agent) => permits(ctx.actor, 'agent.readConfig', { ...factsOf(agent), caller });
}

/** Creating an agent directly is the board's (agents hire): refused before the company is read. */
export function companyForNewAgent(ctx: Ctx, companyId: string): Promise<Company> {
  return companyFor(ctx, 'agent.create', companyId, {});
}

/** /agents/me: the calling agent (board callers are refused). */
export function selfActor(ctx: Ctx): Promise<AgentActor> {
  return assertMay(ctx, 'agent.readSelf', {});
}
