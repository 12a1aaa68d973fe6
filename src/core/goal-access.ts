// Checks that ids named in a request body belong to the company of the resource being written.
// A missing id and an id of another company get the same 422, so a caller learns nothing about
// other companies' records.
import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { goals } from '../db/schema/index.ts';
import { unprocessable } from './errors.ts';

export async function assertGoalsInCompany(
  db: DbOrTx,
  companyId: string,
  goalIds: string[],
  field: string,
): Promise<void> {
  if (goalIds.length === 0) return;
  const found = await db
    .select({ id: goals.id })
    .from(goals)
    .where(and(eq(goals.companyId, companyId), inArray(goals.id, goalIds)));
  const foundIds = new Set(found.map((g) => g.id));
  const missing = goalIds.filter((id) => !foundIds.has(id));
  if (missing.length > 0) throw unprocessable(`${field} must name goals of the same company`, { goalIds: missing });
}
