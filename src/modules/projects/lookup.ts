// Finds a project by UUID or by shortname (urlKey) among the companies the caller can access.
import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { projects } from '../../db/schema/index.ts';
import type { Actor } from '../../core/actor.ts';
import { accessibleCompanyFilter, assertCompanyAccess, requireAccessible } from '../../core/access.ts';
import { conflict, notFound } from '../../core/errors.ts';
import type { Project } from '../../db/rows.ts';
import { isUuid } from '../../lib/ids.ts';

/**
 * The project a path names. A UUID is looked up directly (404 missing, 403 another company).
 * Otherwise the shortname is searched in the caller's companies (or only `companyId`): none 404,
 * more than one 409. Shortnames of companies the caller cannot access are never revealed.
 */
export async function requireProjectAccess(
  db: DbOrTx,
  actor: Actor,
  ref: string,
  companyId?: string,
): Promise<Project> {
  if (companyId) await assertCompanyAccess(db, actor, companyId);
  const key = ref.trim();
  if (isUuid(key)) {
    const [byId] = await db.select().from(projects).where(eq(projects.id, key.toLowerCase()));
    if (byId && (!companyId || byId.companyId === companyId)) return requireAccessible(db, actor, byId, 'project');
  }
  const matches = await db
    .select()
    .from(projects)
    .where(
      and(
        eq(projects.urlKey, key.toLowerCase()),
        companyId ? eq(projects.companyId, companyId) : undefined,
        accessibleCompanyFilter(db, actor, projects.companyId),
      ),
    )
    .limit(10);
  const [only] = matches;
  if (!only) throw notFound('project');
  if (matches.length > 1) {
    throw conflict('ambiguous project shortname: pass the project id or companyId', {
      matches: matches.map((p) => ({ id: p.id, companyId: p.companyId })),
    });
  }
  return only;
}
