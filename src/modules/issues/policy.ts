// Who may do what with issues: the `issue.*` rows of the permission table (core/permissions.ts).
// Any caller with access to the company creates and updates issues; these add the issue's facts.
//
// Assignment (SPEC: "assignee fields need task-assignment permission"): board users with company
// access always may. An agent may when its row grants it task assignment (`taskAssigner`: an
// explicit canAssignTasks grant, role ceo, or permissions.canCreateAgents). Without that, an agent
// may still take an issue for itself (assigneeAgentId = itself) or drop its own assignment (null
// while it is the assignee), but never touch assigneeUserId or hand the issue to another agent.
import type { Ctx } from '../../core/context.ts';
import { assertMay } from '../../core/permissions.ts';
import type { Agent, Issue } from '../../db/rows.ts';
import type { BoardActor } from '../../core/actor.ts';

export interface AssignmentChange {
  /** The assignee before the change (null on create). */
  currentAgentId: string | null;
  /** undefined: assigneeAgentId not being changed. */
  nextAgentId: string | null | undefined;
  userChanged: boolean;
}

/**
 * `issue.assign`, with `self` the agent the change is about: the one taking the issue, or the one
 * whose assignment is dropped. A user assignee is about no agent, so only task assignment allows it.
 * `caller` is the calling agent's row when the caller already read it.
 */
export async function assertMayAssign(
  ctx: Ctx,
  companyId: string,
  change: AssignmentChange,
  caller?: Agent | null,
): Promise<void> {
  if (change.nextAgentId === undefined && !change.userChanged) return;
  const about = change.userChanged ? null : change.nextAgentId === null ? change.currentAgentId : change.nextAgentId;
  await assertMay(ctx, 'issue.assign', { companyId, agentId: about ?? null, ...(caller !== undefined && { caller }) });
}

/** Creating and updating issues: any caller with access to the company (the boundary). */
export async function assertMayChangeIssues(
  ctx: Ctx,
  action: 'issue.create' | 'issue.update',
  companyId: string,
): Promise<void> {
  await assertMay(ctx, action, { companyId });
}

/** `me` in list filters means the calling board user; agents have no user id to stand in. */
export function boardUserForMe(ctx: Ctx): Promise<BoardActor> {
  return assertMay(ctx, 'issue.filterByMe', {});
}

/** Checkout on behalf of `agentId`: an agent only as itself; the board (and system code) for any agent of the company. */
export async function assertMayCheckout(ctx: Ctx, issue: Issue, agentId: string): Promise<void> {
  await assertMay(ctx, 'issue.checkout', { companyId: issue.companyId, agentId });
}

/** Release: the board any time; an agent only as the issue's assignee (as locked by the caller). */
export async function assertMayRelease(ctx: Ctx, issue: Pick<Issue, 'companyId' | 'assigneeAgentId'>): Promise<void> {
  await assertMay(ctx, 'issue.release', { companyId: issue.companyId, agentId: issue.assigneeAgentId });
}
