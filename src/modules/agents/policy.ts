// Who may do what with agents. Every function assumes the company boundary was already checked
// (requireCompanyAccess / assertCompanyAccess); these add the role rules inside one company.
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
import type { Actor, AgentActor } from '../../core/actor.ts';
import { forbidden } from '../../core/errors.ts';
import type { Agent } from './present.ts';
import type { PatchAgent } from './schemas.ts';

/** The calling agent's own row, when the actor is an agent (for permission flags). */
export type CallerAgent = Agent | null;

export function isCeoOf(actor: Actor, companyId: string): actor is AgentActor {
  return actor.kind === 'agent' && actor.companyId === companyId && actor.role === 'ceo';
}

const isSelf = (actor: Actor, agent: Agent) => actor.kind === 'agent' && actor.agentId === agent.id;

export function canReadConfig(actor: Actor, caller: CallerAgent, agent: Agent): boolean {
  if (actor.kind !== 'agent') return true;
  if (actor.companyId !== agent.companyId) return false;
  return isSelf(actor, agent) || isCeoOf(actor, agent.companyId) || caller?.permissions.canCreateAgents === true;
}

const SELF_PATCH_FORBIDDEN = ['status', 'role', 'reportsTo'] as const;

export function assertMayPatch(actor: Actor, agent: Agent, body: PatchAgent): void {
  if (actor.kind === 'board' || isCeoOf(actor, agent.companyId)) return;
  if (!isSelf(actor, agent)) throw forbidden('only the board, the company CEO agent or the agent itself may update an agent');
  const fields = SELF_PATCH_FORBIDDEN.filter((f) => body[f] !== undefined);
  if (fields.length > 0) throw forbidden('an agent may not change its own status, role or reportsTo', { fields });
}

export function assertBoardOrCeo(actor: Actor, companyId: string, what: string): void {
  if (actor.kind === 'board' || isCeoOf(actor, companyId)) return;
  throw forbidden(`only the board or the company CEO agent may ${what}`);
}

export function assertMayListKeys(actor: Actor, agent: Agent): void {
  if (actor.kind === 'board' || isSelf(actor, agent)) return;
  throw forbidden('only the board or the agent itself may list its keys');
}

export function assertMayWake(actor: Actor, agent: Agent): void {
  if (actor.kind === 'board' || isSelf(actor, agent)) return;
  throw forbidden('only the board or the agent itself may wake an agent');
}

export function assertMayHire(actor: Actor, caller: CallerAgent, companyId: string): void {
  if (actor.kind === 'board' || isCeoOf(actor, companyId)) return;
  if (caller?.companyId === companyId && caller.permissions.canCreateAgents === true) return;
  throw forbidden('hiring needs the board, the company CEO agent or permissions.canCreateAgents');
}

/** GET one agent's `access`: whether the agent may assign tasks, and why. */
export function taskAccess(agent: Agent): { canAssignTasks: boolean; reason: 'explicit_grant' | 'ceo_role' | 'agent_creator' | 'none' } {
  if (agent.status === 'terminated') return { canAssignTasks: false, reason: 'none' };
  if (agent.canAssignTasks) return { canAssignTasks: true, reason: 'explicit_grant' };
  if (agent.role === 'ceo') return { canAssignTasks: true, reason: 'ceo_role' };
  if (agent.permissions.canCreateAgents === true) return { canAssignTasks: true, reason: 'agent_creator' };
  return { canAssignTasks: false, reason: 'none' };
}
