// Who may read the inboxes: the `inbox.*` rows of the permission table (core/permissions.ts). The
// board inbox and its read marks are a board user's own (no system actor); inbox-lite is the calling
// agent's own assignments (agents only).
import type { Company } from '../../core/access.ts';
import type { AgentActor, BoardActor } from '../../core/actor.ts';
import type { Ctx } from '../../core/context.ts';
import { assertKindMay, assertMay, companyFor } from '../../core/permissions.ts';

/** The board user and the company whose inbox they read or mark: refused before the company is read. */
export async function boardInboxOf(
  ctx: Ctx,
  action: 'inbox.read' | 'inbox.markRead',
  companyId: string,
): Promise<{ actor: BoardActor; company: Company }> {
  const actor = assertKindMay(ctx.actor, action);
  return { actor, company: await companyFor(ctx, action, companyId, {}) };
}

export function agentForInboxLite(ctx: Ctx): Promise<AgentActor> {
  return assertMay(ctx, 'inbox.readLite', {});
}
