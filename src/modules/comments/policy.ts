// Who may do what with comments: the `issue.comment` and `issue.interrupt` rows of the permission
// table (core/permissions.ts). Any caller with access to the company may read and add
// comments; a comment with `interrupt` (POST comments, or PATCH issue with a comment) stops the live
// run holding the issue: board users only (SPEC PATCH rule 1).
import type { Actor } from '../../core/actor.ts';
import type { Ctx } from '../../core/context.ts';
import { assertKindMay, assertMay } from '../../core/permissions.ts';

/**
 * `interrupt` before anything is read: the row names no condition, so the caller's kind decides
 * (PATCH asks here before its transaction opens; the comment itself asks assertMayComment).
 */
export function assertMayInterrupt(actor: Actor, input: { interrupt?: boolean }): void {
  if (input.interrupt) assertKindMay(actor, 'issue.interrupt');
}

export async function assertMayComment(ctx: Ctx, companyId: string, input: { interrupt?: boolean }): Promise<void> {
  assertMayInterrupt(ctx.actor, input);
  await assertMay(ctx, 'issue.comment', { companyId });
  if (input.interrupt) await assertMay(ctx, 'issue.interrupt', { companyId });
}
