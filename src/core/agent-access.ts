// The agent side of the company boundary, borrowed by every area that names an agent: the agent a
// path names (404 missing, 403 another company's), an agent a body field names (422 unless it is
// one of the company's), and the calling agent's own row.
import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../db/client.ts';
import { preparedPerDb } from '../db/prepared.ts';
import type { Agent } from '../db/rows.ts';
import { agentApiKeys, agents } from '../db/schema/index.ts';
import { isUuid } from '../lib/ids.ts';
import { requireAccessible } from './access.ts';
import type { Actor } from './actor.ts';
import { badRequest, notFound, unprocessable } from './errors.ts';

/** The calling agent's own row, when the actor is an agent (for permission flags). */
export type CallerAgent = Agent | null;

// Agent lookups run on most agent routes and on every agent caller's permission check.
const lookups = preparedPerDb((db: DbOrTx) => ({
  byId: db
    .select()
    .from(agents)
    .where(eq(agents.id, sql.placeholder('id')))
    .prepare('agent_by_id'),
  byKey: db
    .select()
    .from(agents)
    .where(
      and(
        eq(agents.companyId, sql.placeholder('companyId')),
        eq(agents.urlKey, sql.placeholder('urlKey')),
        ne(agents.status, 'terminated'),
      ),
    )
    .prepare('agent_by_url_key'),
}));

export async function findAgentById(db: DbOrTx, id: string): Promise<Agent | null> {
  const [row] = await lookups(db).byId.execute({ id });
  return row ?? null;
}

/**
 * The agent named by a path segment: a UUID (terminated agents included), else a shortname of a
 * live agent in `companyId`. Shortnames need a company: the query's, or the calling agent's own.
 */
export async function findAgent(db: DbOrTx, actor: Actor, idOrKey: string, companyId?: string): Promise<Agent | null> {
  const key = idOrKey.trim();
  if (isUuid(key)) {
    const byId = await findAgentById(db, key);
    if (byId) return byId;
  }
  const scope = companyId ?? (actor.kind === 'agent' || actor.kind === 'plugin' ? actor.companyId : undefined);
  if (!scope) {
    if (isUuid(key)) return null;
    throw badRequest('companyId query parameter is required to look an agent up by shortname');
  }
  const [byKey] = await lookups(db).byKey.execute({ companyId: scope, urlKey: key.toLowerCase() });
  return byKey ?? null;
}

/** The agent named in a path: 404 when missing, 403 when it belongs to another company. */
export async function requireAgentAccess(
  db: DbOrTx,
  actor: Actor,
  idOrKey: string,
  companyId?: string,
): Promise<Agent> {
  return requireAccessible(db, actor, await findAgent(db, actor, idOrKey, companyId), 'agent');
}

/**
 * A body field naming an agent must name one of the company's agents (in `status`, when given):
 * 422 otherwise. A missing agent and another company's answer the same, so a caller learns nothing
 * about other companies' records.
 */
export async function assertAgentInCompany(
  db: DbOrTx,
  companyId: string,
  agentId: string,
  field: string,
  status?: string,
): Promise<void> {
  const [row] = await db
    .select({ id: agents.id })
    .from(agents)
    .where(
      and(eq(agents.id, agentId), eq(agents.companyId, companyId), status ? eq(agents.status, status) : undefined),
    );
  if (!row)
    throw unprocessable(`${field} must name ${status ? `a ${status} agent` : 'an agent'} of the same company`, {
      [field]: agentId,
    });
}

/** The calling agent's row (for permission flags): a plugin's agent cause, null for board callers. */
export async function callerAgent(db: DbOrTx, actor: Actor): Promise<Agent | null> {
  const agent = actor.kind === 'plugin' ? actor.cause : actor;
  return agent?.kind === 'agent' ? findAgentById(db, agent.agentId) : null;
}

/** The row as it is now, locked for the rest of the transaction (status rules read it); the first lock of the one order (runs/lock-order.ts). */
export async function lockAgent(tx: Tx, agentId: string): Promise<Agent> {
  const [row] = await tx.select().from(agents).where(eq(agents.id, agentId)).for('no key update');
  if (!row) throw notFound('agent');
  return row;
}

/** Revokes every live key of the agent (terminate, a rejected hire), inside the caller's transaction. */
export async function revokeAllKeys(tx: Tx, agentId: string): Promise<number> {
  const rows = await tx
    .update(agentApiKeys)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(agentApiKeys.agentId, agentId), isNull(agentApiKeys.revokedAt)))
    .returning({ id: agentApiKeys.id });
  return rows.length;
}

/**
 * Whether the agent may assign tasks, and why (GET one agent's `access`; the issues area's assignment
 * rule): an explicit grant, the CEO role or permissions.canCreateAgents.
 */
export function taskAccess(agent: Agent): {
  canAssignTasks: boolean;
  reason: 'explicit_grant' | 'ceo_role' | 'agent_creator' | 'none';
} {
  if (agent.status === 'terminated') return { canAssignTasks: false, reason: 'none' };
  if (agent.canAssignTasks) return { canAssignTasks: true, reason: 'explicit_grant' };
  if (agent.role === 'ceo') return { canAssignTasks: true, reason: 'ceo_role' };
  if (agent.permissions.canCreateAgents === true) return { canAssignTasks: true, reason: 'agent_creator' };
  return { canAssignTasks: false, reason: 'none' };
}
