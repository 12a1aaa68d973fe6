// The company boundary, checked by every company-scoped route (SPEC section 5):
// missing company 404, another company 403, board-only routes 403 for agents.
import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { DbOrTx } from '../db/client.ts';
import { companies, companyMemberships } from '../db/schema/index.ts';
import type { Actor, AgentActor, BoardActor } from './actor.ts';
import { forbidden, notFound, unauthorized } from './errors.ts';

export type Company = typeof companies.$inferSelect;

export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw unauthorized();
  return request.actor;
}

export function requireBoard(request: FastifyRequest): BoardActor {
  const actor = actorOf(request);
  if (actor.kind !== 'board') throw forbidden('board access required');
  return actor;
}

export function requireAgent(request: FastifyRequest): AgentActor {
  const actor = actorOf(request);
  if (actor.kind !== 'agent') throw forbidden('agent authentication required');
  return actor;
}

/** Whether the actor may act inside `companyId` (no existence check). */
export async function canAccessCompany(db: DbOrTx, actor: Actor, companyId: string): Promise<boolean> {
  if (actor.kind === 'agent') return actor.companyId === companyId;
  if (actor.isInstanceOwner) return true;
  const [member] = await db
    .select({ userId: companyMemberships.userId })
    .from(companyMemberships)
    .where(and(eq(companyMemberships.companyId, companyId), eq(companyMemberships.userId, actor.userId)));
  return member !== undefined;
}

/** Throws 403 when the actor is outside the company that owns an already-loaded resource. */
export async function assertCompanyAccess(db: DbOrTx, actor: Actor, companyId: string): Promise<void> {
  if (!(await canAccessCompany(db, actor, companyId))) throw forbidden('no access to this company');
}

/** Loads the company named in the path: 404 when missing, 403 when outside the caller's companies. */
export async function requireCompanyAccess(db: DbOrTx, request: FastifyRequest, companyId: string): Promise<Company> {
  const actor = actorOf(request);
  const [company] = await db.select().from(companies).where(eq(companies.id, companyId));
  if (!company) throw notFound('company');
  await assertCompanyAccess(db, actor, company.id);
  return company;
}
