// Who may change goals: the `goal.*` rows of the permission table (core/permissions.ts). Any caller
// with access to the company (the board or its agents) creates, updates and deletes goals (SPEC
// "Goals" names no role), so the company boundary is the whole check.
import type { Ctx } from '../../core/context.ts';
import { assertMay } from '../../core/permissions.ts';

export async function assertMayChangeGoals(
  ctx: Ctx,
  action: 'goal.create' | 'goal.update' | 'goal.delete',
  companyId: string,
): Promise<void> {
  await assertMay(ctx, action, { companyId });
}
