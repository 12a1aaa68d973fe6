// Who may assign issues (SPEC: "assignee fields need task-assignment permission").
//
// Rule: board users with company access always may. An agent may when the agents area grants it
// task assignment (taskAccess: explicit canAssignTasks grant, role ceo, or permissions.canCreateAgents).
// Without that, an agent may still take an issue for itself (assigneeAgentId = itself) or drop
// its own assignment (null while it is the assignee), but never touch assigneeUserId or hand the
// issue to another agent.
import type { Actor } from '../../core/actor.ts';
import { forbidden } from '../../core/errors.ts';
import { taskAccess } from '../agents/policy.ts';
import type { Agent } from '../agents/present.ts';

export interface AssignmentChange {
  /** The assignee before the change (null on create). */
  currentAgentId: string | null;
  /** undefined: assigneeAgentId not being changed. */
  nextAgentId: string | null | undefined;
  userChanged: boolean;
}

export function assertMayAssign(actor: Actor, caller: Agent | null, change: AssignmentChange): void {
  if (actor.kind !== 'agent') return;
  if (caller && caller.companyId === actor.companyId && taskAccess(caller).canAssignTasks) return;
  const agentOk =
    change.nextAgentId === undefined ||
    change.nextAgentId === actor.agentId ||
    (change.nextAgentId === null && change.currentAgentId === actor.agentId);
  if (agentOk && !change.userChanged) return;
  throw forbidden('assigning issues needs task-assignment permission (an agent may only assign an issue to itself)');
}

/** `me` in list filters means the calling board user; agents have no user id to stand in. */
export function resolveUserRef(actor: Actor, ref: string | undefined): string | undefined {
  if (ref !== 'me') return ref;
  if (actor.kind !== 'board') throw forbidden('`me` in user filters needs board authentication');
  return actor.userId;
}
