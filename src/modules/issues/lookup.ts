// Finds an issue by UUID or by identifier (<PREFIX>-<n>) and checks the caller's company access.
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { issues } from '../../db/schema/index.ts';
import type { Issue } from '../../db/rows.ts';
import { isUuid } from '../../lib/ids.ts';
import type { Actor } from '../../core/actor.ts';
import { requireAccessible } from '../../core/access.ts';


/** The columns of the compact issue form (presentIssueSummary), for queries that need no more. */
export const issueSummaryColumns = {
  id: issues.id,
  identifier: issues.identifier,
  title: issues.title,
  status: issues.status,
  priority: issues.priority,
  assigneeAgentId: issues.assigneeAgentId,
  projectId: issues.projectId,
  goalId: issues.goalId,
  parentId: issues.parentId,
};
export type IssueSummaryRow = Pick<Issue, keyof typeof issueSummaryColumns>;

export const ISSUE_IDENTIFIER = /^[A-Z][A-Z0-9]*-[1-9][0-9]*$/;

/** The issue, or null. Identifiers are resolved first, as SPEC says, then UUIDs. */
export async function findIssue(db: DbOrTx, idOrIdentifier: string): Promise<Issue | null> {
  const key = idOrIdentifier.trim();
  if (ISSUE_IDENTIFIER.test(key.toUpperCase())) {
    const [byIdentifier] = await db.select().from(issues).where(eq(issues.identifier, key.toUpperCase()));
    if (byIdentifier) return byIdentifier;
  }
  if (!isUuid(key)) return null;
  const [byId] = await db.select().from(issues).where(eq(issues.id, key));
  return byId ?? null;
}

/** The issue named in a path: 404 when missing, 403 when it belongs to another company. */
export async function requireIssueAccess(db: DbOrTx, actor: Actor, idOrIdentifier: string): Promise<Issue> {
  return requireAccessible(db, actor, await findIssue(db, idOrIdentifier), 'issue');
}
