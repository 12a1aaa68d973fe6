// The company boundary (SPEC section 5), the one place it is decided: agents act only inside their
// own company; board users inside the companies they are members of (the instance owner in all);
// the system actor everywhere; a plugin inside its slot's company, where its cause (if any) may act. Missing company 404, another company 403. Who may do what inside a
// company is the permission table's (core/permissions.ts), which asks this boundary first.
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../db/client.ts';
import { preparedPerDb } from '../db/prepared.ts';
import { companies, companyMemberships } from '../db/schema/index.ts';
import type { Actor } from './actor.ts';
import { forbidden, notFound } from './errors.ts';

export type Company = typeof companies.$inferSelect;

/** The subset of `companyIds` the actor may act in: one query for a list or batch check. */
export async function accessibleCompanyIds(
  db: DbOrTx,
  actor: Actor,
  companyIds: Iterable<string>,
): Promise<Set<string>> {
  const wanted = [...new Set(companyIds)];
  if (actor.kind === 'system' || (actor.kind === 'board' && actor.isInstanceOwner)) return new Set(wanted);
  if (actor.kind === 'agent') return new Set(wanted.filter((id) => id === actor.companyId));
  if (actor.kind === 'plugin') {
    // Its slot's company alone, and only where whoever caused the invocation may act too.
    const own = wanted.filter((id) => id === actor.companyId);
    return actor.cause ? accessibleCompanyIds(db, actor.cause, own) : new Set(own);
  }
  if (wanted.length === 0) return new Set();
  const rows = await db
    .select({ companyId: companyMemberships.companyId })
    .from(companyMemberships)
    .where(and(eq(companyMemberships.userId, actor.userId), inArray(companyMemberships.companyId, wanted)));
  return new Set(rows.map((r) => r.companyId));
}

/**
 * The same boundary as a condition on a `company_id` column, for a lookup that searches across
 * companies (a project shortname): undefined when the actor is not restricted.
 */
export function accessibleCompanyFilter(db: DbOrTx, actor: Actor, companyId: AnyPgColumn): SQL | undefined {
  if (actor.kind === 'system' || (actor.kind === 'board' && actor.isInstanceOwner)) return undefined;
  if (actor.kind === 'agent') return eq(companyId, actor.companyId);
  if (actor.kind === 'plugin') {
    const cause = actor.cause ? accessibleCompanyFilter(db, actor.cause, companyId) : undefined;
    return cause ? and(eq(companyId, actor.companyId), cause) : eq(companyId, actor.companyId);
  }
  return inArray(
    companyId,
    db
      .select({ id: companyMemberships.companyId })
      .from(companyMemberships)
      .where(eq(companyMemberships.userId, actor.userId)),
  );
}

/** Whether the actor may act inside `companyId` (no existence check). */
export async function canAccessCompany(db: DbOrTx, actor: Actor, companyId: string): Promise<boolean> {
  return (await accessibleCompanyIds(db, actor, [companyId])).has(companyId);
}

/** Throws 403 when the actor is outside the company that owns an already-loaded resource. */
export async function assertCompanyAccess(db: DbOrTx, actor: Actor, companyId: string): Promise<void> {
  if (!(await canAccessCompany(db, actor, companyId))) throw forbidden('no access to this company');
}

/**
 * A company-owned record a caller named: 404 when missing, 403 when it belongs to a company outside
 * the actor's (or 404 there too with `outside: 'not_found'`, where SPEC hides existence).
 */
export async function requireAccessible<T extends { companyId: string }>(
  db: DbOrTx,
  actor: Actor,
  row: T | null | undefined,
  what: string,
  opts: { outside?: 'forbidden' | 'not_found' } = {},
): Promise<T> {
  if (!row) throw notFound(what);
  if (await canAccessCompany(db, actor, row.companyId)) return row;
  throw opts.outside === 'not_found' ? notFound(what) : forbidden('no access to this company');
}

// Nearly every company route starts here, so the read is a prepared statement (no SQL building).
const companyById = preparedPerDb((db: DbOrTx) =>
  db
    .select()
    .from(companies)
    .where(eq(companies.id, sql.placeholder('id')))
    .prepare('company_by_id'),
);

/** Loads the company named by a caller: 404 when missing, 403 when outside the actor's companies. */
export async function requireCompanyAccess(db: DbOrTx, actor: Actor, companyId: string): Promise<Company> {
  const [company] = await companyById(db).execute({ id: companyId });
  if (!company) throw notFound('company');
  await assertCompanyAccess(db, actor, company.id);
  return company;
}
