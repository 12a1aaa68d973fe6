// Who may do what with approvals: yes/no answers (routes turn a no into a 403 with authorize()).
// Decisions are board-only (routes call requireBoard).
import type { Actor } from '../../core/actor.ts';
import type { Approval } from '../../db/rows.ts';

/** An agent files approvals only as itself; the board may name any agent of the company. */
export function canRequestApprovalAs(actor: Actor, requestedByAgentId: string | null | undefined): boolean {
  return actor.kind !== 'agent' || !requestedByAgentId || requestedByAgentId === actor.agentId;
}

/** Resubmission belongs to the agent that asked, or to the board. */
export function canResubmitApproval(actor: Actor, approval: Approval): boolean {
  return actor.kind !== 'agent' || approval.requestedByAgentId === actor.agentId;
}
