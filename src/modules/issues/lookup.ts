// Finds an issue by UUID or by identifier (<PREFIX>-<n>) and checks the caller's company access.
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { DbOrTx } from '../../db/client.ts';
import { issues } from '../../db/schema/index.ts';
import { isUuid } from '../../lib/ids.ts';
import { actorOf, assertCompanyAccess } from '../../server/access.ts';
import { notFound } from '../../server/errors.ts';

export type Issue = typeof issues.$inferSelect;

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
export async function requireIssueAccess(db: DbOrTx, request: FastifyRequest, idOrIdentifier: string): Promise<Issue> {
  const issue = await findIssue(db, idOrIdentifier);
  if (!issue) throw notFound('issue');
  await assertCompanyAccess(db, actorOf(request), issue.companyId);
  return issue;
}
