// Who may use the instance-level routes: the `instance.*` and `boardKey.*` rows of the permission
// table (core/permissions.ts). The doctor is any board caller's; a board user's identity and keys
// are that user's own (no system actor: the rows hand back the BoardActor whose keys they are).
import type { BoardActor } from '../../core/actor.ts';
import type { Ctx } from '../../core/context.ts';
import { assertMay } from '../../core/permissions.ts';

export async function assertMayRunDoctor(ctx: Ctx): Promise<void> {
  await assertMay(ctx, 'instance.doctor', {});
}

/** The calling board user, for their own identity and keys. */
export function boardUserFor(
  ctx: Ctx,
  action: 'instance.whoAmI' | 'boardKey.read' | 'boardKey.create' | 'boardKey.revoke',
): Promise<BoardActor> {
  return assertMay(ctx, action, {});
}
