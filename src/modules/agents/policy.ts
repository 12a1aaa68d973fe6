// Who may do what with agents: pure yes/no answers (callers turn a no into a 403 with authorize()).
// Every function assumes the company boundary was already checked (requireCompanyAccess /
// requireAccessible); these add the role rules inside one company.
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
// - Hires: board, the company CEO agent, or an agent with canCreateAgents.
import { isCeoOf, type Actor } from '../../core/actor.ts';
import type { CallerAgent } from '../../core/agent-access.ts';
import type { Agent } from '../../db/rows.ts';

const isSelf = (actor: Actor, agent: Agent) => actor.kind === 'agent' && actor.agentId === agent.id;

export function canReadConfig(actor: Actor, caller: CallerAgent, agent: Agent): boolean {
  if (actor.kind !== 'agent') return true;
  if (actor.companyId !== agent.companyId) return false;
  return isSelf(actor, agent) || isCeoOf(actor, agent.companyId) || caller?.permissions.canCreateAgents === true;
}

// An agent must not promote itself, re-parent itself in the org tree or pause/activate itself.
const SELF_PATCH_FORBIDDEN: readonly string[] = ['status', 'role', 'reportsTo'];

/** PATCH at all: the board, the company CEO agent, or the agent itself. */
export function canUpdateAgent(actor: Actor, agent: Agent): boolean {
  return actor.kind === 'board' || isCeoOf(actor, agent.companyId) || isSelf(actor, agent);
}

/** One field of a PATCH: all of them for the board and the CEO agent; the agent itself not SELF_PATCH_FORBIDDEN. */
export function canPatchAgentField(actor: Actor, agent: Agent, field: string): boolean {
  if (actor.kind === 'board' || isCeoOf(actor, agent.companyId)) return true;
  return isSelf(actor, agent) && !SELF_PATCH_FORBIDDEN.includes(field);
}

/** Permissions, budgets, pause, resume and terminate: the board or the company CEO agent. */
export function canManageAgent(actor: Actor, agent: Pick<Agent, 'companyId'>): boolean {
  return actor.kind === 'board' || isCeoOf(actor, agent.companyId);
}

export function canListAgentKeys(actor: Actor, agent: Agent): boolean {
  return actor.kind === 'board' || isSelf(actor, agent);
}

export function canWakeAgent(actor: Actor, agent: Agent): boolean {
  return actor.kind === 'board' || isSelf(actor, agent);
}

export function canHireAgents(actor: Actor, caller: CallerAgent, companyId: string): boolean {
  if (actor.kind === 'board' || isCeoOf(actor, companyId)) return true;
  return caller?.companyId === companyId && caller.permissions.canCreateAgents === true;
}

/**
 * A hire never grants more than the hirer holds: only the board may hire a CEO (an agent with CEO
 * rights hired by an agent creator would own the company without any board decision), and only the
 * board or the CEO may hand out `canCreateAgents`.
 */
export function canGrantOnHire(
  actor: Actor,
  hire: { role?: string; permissions?: { canCreateAgents?: boolean } },
  companyId: string,
): boolean {
  if (actor.kind !== 'agent') return true;
  if (hire.role?.trim().toLowerCase() === 'ceo') return false;
  return hire.permissions?.canCreateAgents !== true || isCeoOf(actor, companyId);
}
