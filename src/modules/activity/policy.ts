// Who may write the activity log by hand: the `activity.create` row of the permission table
// (core/permissions.ts), the board only (SPEC "Activity and runs"). Reading needs only access to the
// company; every other entry is written by the use case it records, in its own transaction.
import type { Company } from '../../core/access.ts';
import type { Ctx } from '../../core/context.ts';
import { companyFor } from '../../core/permissions.ts';

export function companyForActivityEntry(ctx: Ctx, companyId: string): Promise<Company> {
  return companyFor(ctx, 'activity.create', companyId, {});
}
