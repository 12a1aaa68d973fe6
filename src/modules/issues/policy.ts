// Who may do what with issues: yes/no answers (callers turn a no into a 403 with authorize()).
//
// Assignment (SPEC: "assignee fields need task-assignment permission"): board users with company access always may. An agent may when its row grants it
// task assignment (taskAccess in core/agent-access.ts: explicit canAssignTasks grant, role ceo, or permissions.canCreateAgents).
// Without that, an agent may still take an issue for itself (assigneeAgentId = itself) or drop
// its own assignment (null while it is the assignee), but never touch assigneeUserId or hand the
// issue to another agent.
import type { Actor, BoardActor } from '../../core/actor.ts';
import { taskAccess } from '../../core/agent-access.ts';
import type { Agent } from '../../db/rows.ts';

export interface AssignmentChange {
  /** The assignee before the change (null on create). */
  currentAgentId: string | null;
  /** undefined: assigneeAgentId not being changed. */
  nextAgentId: string | null | undefined;
  userChanged: boolean;
}

export function canAssignIssue(actor: Actor, caller: Agent | null, change: AssignmentChange): boolean {
  if (actor.kind !== 'agent') return true;
  if (caller && caller.companyId === actor.companyId && taskAccess(caller).canAssignTasks) return true;
  const agentOk =
    change.nextAgentId === undefined ||
    change.nextAgentId === actor.agentId ||
    (change.nextAgentId === null && change.currentAgentId === actor.agentId);
  return agentOk && !change.userChanged;
}

/** `me` in list filters means the calling board user; agents have no user id to stand in. */
export function canFilterByMe(actor: Actor): actor is BoardActor {
  return actor.kind === 'board';
}

/**
 * Checkout on behalf of `agentId`: an agent only as itself; the board (and system code) for any
 * agent of the issue's company, whose boundary the caller has already checked.
 */
export function canCheckoutAs(actor: Actor, agentId: string): boolean {
  return actor.kind !== 'agent' || actor.agentId === agentId;
}
