// Who may set budget policies and resolve incidents: the `budget.*` rows of the permission table
// (core/permissions.ts), the board only (SPEC "Costs and budgets"). Reading the overview needs only
// access to the company. A resolution is a board user's decision (it records who decided).
import type { Company } from '../../core/access.ts';
import type { BoardActor } from '../../core/actor.ts';
import type { Ctx } from '../../core/context.ts';
import { assertMay, companyFor } from '../../core/permissions.ts';

export function companyForNewPolicy(ctx: Ctx, companyId: string): Promise<Company> {
  return companyFor(ctx, 'budget.createPolicy', companyId, {});
}

export async function assertMayUpdatePolicy(ctx: Ctx, companyId: string): Promise<void> {
  await assertMay(ctx, 'budget.updatePolicy', { companyId });
}

export function boardUserResolvingIncident(ctx: Ctx, companyId: string): Promise<BoardActor> {
  return assertMay(ctx, 'budget.resolveIncident', { companyId });
}
