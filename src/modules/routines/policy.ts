// Who may do what with routines (SPEC Routines rule 5): yes/no answers, after the company boundary.
// - Read: any caller with access to the company (board or its agents).
// - Manage (update, triggers, rotate, manual run): the board, and an agent only for the routines
//   assigned to it ("own"). An agent creates routines only for itself and never assigns one to
//   another agent, so it cannot enable work for someone else either.
// - Assigning a routine to an agent: board users with company access hold task assignment (as for
//   issues); agents only themselves.
// - Public fire: whoever holds a valid signature; no actor at all.
import type { Actor } from '../../core/actor.ts';

export function canManageRoutine(actor: Actor, routine: { assigneeAgentId: string | null }): boolean {
  return actor.kind !== 'agent' || routine.assigneeAgentId === actor.agentId;
}

/** `agentId` undefined: the assignee is not being set. */
export function canAssignRoutineTo(actor: Actor, agentId: string | null | undefined): boolean {
  return actor.kind !== 'agent' || agentId === undefined || agentId === actor.agentId;
}
