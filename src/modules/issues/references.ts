// The parent and blocker graphs of issues stay acyclic and inside one company (the other ids a body
// names are checked by core/issue-access.ts).
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { issueRelations, issues } from '../../db/schema/index.ts';
import { unprocessable } from '../../core/errors.ts';
import { requireSiblingIssue } from '../../core/issue-access.ts';

/**
 * Parent and blocker edits of one company are serialised, so two concurrent edits cannot each pass
 * the cycle check and together close a cycle.
 */
export async function lockIssueGraph(tx: DbOrTx, companyId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`issue-graph:${companyId}`}, 0))`);
}

/** parentId: same company, not the issue itself, and never under one of its own descendants. */
export async function assertValidParent(
  tx: DbOrTx,
  companyId: string,
  parentId: string,
  issueId: string | null,
): Promise<void> {
  await requireSiblingIssue(tx, companyId, parentId, 'parentId');
  if (!issueId) return;
  if (parentId === issueId) throw unprocessable('an issue cannot be its own parent');
  // UNION (not UNION ALL) stops on repeated rows, so even a corrupt cycle cannot loop forever.
  const cycle = await tx.execute(sql`
    with recursive chain(id, parent_id) as (
      select id, parent_id from ${issues} where id = ${parentId}
      union
      select i.id, i.parent_id from ${issues} i join chain c on i.id = c.parent_id
    )
    select 1 from chain where id = ${issueId} limit 1`);
  if (cycle.rows.length > 0) throw unprocessable('parentId would create a cycle in the issue hierarchy', { parentId });
}

/** blockedByIssueIds: same company, no self-block, and no cycle through existing relations at any depth. */
export async function assertValidBlockers(
  tx: DbOrTx,
  companyId: string,
  blockerIds: string[],
  issueId: string | null,
): Promise<void> {
  if (blockerIds.length === 0) return;
  if (issueId && blockerIds.includes(issueId))
    throw unprocessable('an issue cannot block itself', { blockedByIssueIds: [issueId] });
  const found = await tx
    .select({ id: issues.id })
    .from(issues)
    .where(and(eq(issues.companyId, companyId), inArray(issues.id, blockerIds)));
  const foundIds = new Set(found.map((r) => r.id));
  const missing = blockerIds.filter((id) => !foundIds.has(id));
  if (missing.length > 0)
    throw unprocessable('blockedByIssueIds must name issues of the same company', { blockedByIssueIds: missing });
  if (!issueId) return;
  // A new edge issue -> blocker closes a cycle when the issue is already reachable from that blocker.
  const start = sql.join(
    blockerIds.map((id) => sql`(${id}::uuid)`),
    sql`, `,
  );
  const cycle = await tx.execute(sql`
    with recursive reach(id) as (
      select * from (values ${start}) v(id)
      union
      select r.blocked_by_issue_id from ${issueRelations} r join reach on r.issue_id = reach.id
    )
    select 1 from reach where id = ${issueId} limit 1`);
  if (cycle.rows.length > 0)
    throw unprocessable('blockedByIssueIds would create a blocking cycle', { blockedByIssueIds: blockerIds });
}
