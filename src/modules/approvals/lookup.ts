// The approval a caller names: missing and other-company approvals both answer 404 (SPEC "Approvals").
import { eq } from 'drizzle-orm';
import { requireAccessible } from '../../core/access.ts';
import type { Actor } from '../../core/actor.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { Approval } from '../../db/rows.ts';
import { approvals } from '../../db/schema/index.ts';

export async function requireApproval(db: DbOrTx, actor: Actor, approvalId: string): Promise<Approval> {
  const [approval] = await db.select().from(approvals).where(eq(approvals.id, approvalId));
  return requireAccessible(db, actor, approval, 'approval', { outside: 'not_found' });
}
