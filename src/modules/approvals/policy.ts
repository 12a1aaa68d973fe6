// Who may do what with approvals: the `approval.*` rows of the permission table (core/permissions.ts).
// Any caller with access to the company files and comments; an agent files only as itself (the
// board may name any agent of the company); decisions are the board's; resubmission belongs to the
// agent that asked, or to the board.
import type { Ctx } from '../../core/context.ts';
import type { Actor } from '../../core/actor.ts';
import { assertMay, resourceFor, type ActorFor } from '../../core/permissions.ts';
import type { Approval } from '../../db/rows.ts';
import { requireApproval } from './lookup.ts';

type ApprovalAction = 'approval.decide' | 'approval.resubmit' | 'approval.comment';

/**
 * The approval a use case acts on, once the caller may: 403 before the lookup when the caller's kind
 * never may (an agent deciding), then 404 missing or another company's, then the row's conditions
 * (`self` is the requesting agent). With the caller as the kinds the row allows.
 */
export async function approvalFor(
  ctx: Ctx,
  action: 'approval.decide',
  approvalId: string,
): Promise<{ approval: Approval; actor: ActorFor<'approval.decide'> }>;
export async function approvalFor(
  ctx: Ctx,
  action: ApprovalAction,
  approvalId: string,
): Promise<{ approval: Approval; actor: Actor }>;
export async function approvalFor(
  ctx: Ctx,
  action: ApprovalAction,
  approvalId: string,
): Promise<{ approval: Approval; actor: Actor }> {
  const approval = await resourceFor(
    ctx,
    action,
    () => requireApproval(ctx.db, ctx.actor, approvalId),
    (found) => ({ companyId: found.companyId, agentId: found.requestedByAgentId }),
  );
  return { approval, actor: ctx.actor };
}

/** Filing: `approval.create`, and `approval.requestAs` when the body names the requesting agent. */
export async function assertMayRequestApproval(
  ctx: Ctx,
  companyId: string,
  requestedByAgentId: string | null | undefined,
): Promise<void> {
  await assertMay(ctx, 'approval.create', { companyId });
  if (requestedByAgentId) await assertMay(ctx, 'approval.requestAs', { companyId, agentId: requestedByAgentId });
}
