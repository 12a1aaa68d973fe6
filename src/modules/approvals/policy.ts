// Who may do what with approvals. Decisions are board-only (routes call requireBoard).
import type { Actor } from '../../core/actor.ts';
import { forbidden } from '../../core/errors.ts';
import type { Approval } from './create.ts';

/** An agent files approvals only as itself; the board may name any agent of the company. */
export function assertMayRequestAs(actor: Actor, requestedByAgentId: string | null | undefined): void {
  if (actor.kind === 'agent' && requestedByAgentId && requestedByAgentId !== actor.agentId) {
    throw forbidden('an agent may only request approvals as itself');
  }
}

/** Resubmission belongs to the agent that asked, or to the board. */
export function assertMayResubmit(actor: Actor, approval: Approval): void {
  if (actor.kind !== 'agent') return;
  if (approval.requestedByAgentId !== actor.agentId) throw forbidden('only the requesting agent or the board may resubmit this approval');
}
