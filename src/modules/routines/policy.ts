// Who may do what with routines (SPEC Routines rule 5): the `routine.*` rows of the permission table
// (core/permissions.ts), after the company boundary.
// - Read: any caller with access to the company (board or its agents).
// - Manage (update, triggers, rotate, manual run): the board, and an agent only for the routines
//   assigned to it (`self` is the routine's assignee). An agent creates routines only for itself
//   and never assigns one to another agent, so it cannot enable work for someone else either.
// - Assigning a routine to an agent (`routine.assign`, `self` the new assignee): board users with
//   company access hold task assignment (as for issues); agents only themselves.
// - Public fire: whoever holds a valid signature; no actor at all.
import type { Ctx } from '../../core/context.ts';
import { assertMay } from '../../core/permissions.ts';

type ManageAction =
  | 'routine.update'
  | 'routine.addTrigger'
  | 'routine.updateTrigger'
  | 'routine.deleteTrigger'
  | 'routine.rotateSecret'
  | 'routine.fire';

export async function assertMayManageRoutine(
  ctx: Ctx,
  action: ManageAction,
  routine: { companyId: string; assigneeAgentId: string | null },
): Promise<void> {
  await assertMay(ctx, action, { companyId: routine.companyId, agentId: routine.assigneeAgentId });
}

/** `agentId` undefined: the assignee is not being set. */
export async function assertMayAssignRoutine(
  ctx: Ctx,
  companyId: string,
  agentId: string | null | undefined,
): Promise<void> {
  if (agentId !== undefined) await assertMay(ctx, 'routine.assign', { companyId, agentId });
}

/** Creating: any caller with access to the company; an agent only for itself (`routine.assign`). */
export async function assertMayCreateRoutine(
  ctx: Ctx,
  companyId: string,
  assigneeAgentId: string | null | undefined,
): Promise<void> {
  await assertMay(ctx, 'routine.create', { companyId });
  await assertMayAssignRoutine(ctx, companyId, assigneeAgentId ?? undefined);
}
