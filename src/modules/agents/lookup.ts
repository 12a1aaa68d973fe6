// Finding agents: by UUID or company-unique shortname (urlKey), the caller's own row, the org chain.
import { isUuid } from '../../lib/ids.ts';
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { preparedPerDb } from '../../db/prepared.ts';
import { agents } from '../../db/schema/index.ts';
import type { Actor } from '../../core/actor.ts';
import { requireAccessible } from '../../core/access.ts';
import { badRequest, unprocessable } from '../../core/errors.ts';
import type { Agent } from '../../db/rows.ts';

// Lists of agents are bounded; a company with more live agents than this is far outside the design.
const MAX_LISTED_AGENTS = 1000;

// An org chain longer than this is treated as corrupt rather than walked forever.
export const MAX_CHAIN_DEPTH = 100;

// Agent lookups run on most agent routes and on every agent caller's permission check.
const lookups = preparedPerDb((db: DbOrTx) => ({
  byId: db.select().from(agents).where(eq(agents.id, sql.placeholder('id'))).prepare('agent_by_id'),
  byKey: db
    .select()
    .from(agents)
    .where(and(eq(agents.companyId, sql.placeholder('companyId')), eq(agents.urlKey, sql.placeholder('urlKey')), ne(agents.status, 'terminated')))
    .prepare('agent_by_url_key'),
}));

export async function findAgentById(db: DbOrTx, id: string): Promise<Agent | null> {
  const [row] = await lookups(db).byId.execute({ id });
  return row ?? null;
}

/** The company's agents, terminated excluded, oldest first. */
export async function listLiveAgents(db: DbOrTx, companyId: string): Promise<Agent[]> {
  return db
    .select()
    .from(agents)
    .where(and(eq(agents.companyId, companyId), ne(agents.status, 'terminated')))
    .orderBy(asc(agents.createdAt), asc(agents.id))
    .limit(MAX_LISTED_AGENTS);
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
  const scope = companyId ?? (actor.kind === 'agent' ? actor.companyId : undefined);
  if (!scope) {
    if (isUuid(key)) return null;
    throw badRequest('companyId query parameter is required to look an agent up by shortname');
  }
  const [byKey] = await lookups(db).byKey.execute({ companyId: scope, urlKey: key.toLowerCase() });
  return byKey ?? null;
}

/** The agent named in a path: 404 when missing, 403 when it belongs to another company. */
export async function requireAgentAccess(db: DbOrTx, actor: Actor, idOrKey: string, companyId?: string): Promise<Agent> {
  return requireAccessible(db, actor, await findAgent(db, actor, idOrKey, companyId), 'agent');
}

/**
 * A body field naming an agent must name one of the company's agents (in `status`, when given):
 * 422 otherwise. A missing agent and another company's answer the same, so a caller learns nothing
 * about other companies' records.
 */
export async function assertAgentInCompany(db: DbOrTx, companyId: string, agentId: string, field: string, status?: string): Promise<void> {
  const [row] = await db
    .select({ id: agents.id })
    .from(agents)
    .where(and(eq(agents.id, agentId), eq(agents.companyId, companyId), status ? eq(agents.status, status) : undefined));
  if (!row) throw unprocessable(`${field} must name ${status ? `a ${status} agent` : 'an agent'} of the same company`, { [field]: agentId });
}

/** The calling agent's row (for permission flags), or null for board callers. */
export async function callerAgent(db: DbOrTx, actor: Actor): Promise<Agent | null> {
  return actor.kind === 'agent' ? findAgentById(db, actor.agentId) : null;
}

/** Manager ids from `startId` upwards (startId first), bounded by MAX_CHAIN_DEPTH. */
export async function managerChainIds(db: DbOrTx, startId: string): Promise<string[]> {
  const result = await db.execute<{ id: string }>(sql`
    with recursive chain(id, reports_to, depth) as (
      select id, reports_to, 0 from ${agents} where id = ${startId}
      union all
      select a.id, a.reports_to, c.depth + 1 from ${agents} a join chain c on a.id = c.reports_to
      where c.depth < ${MAX_CHAIN_DEPTH}
    )
    select id from chain order by depth`);
  return result.rows.map((r) => r.id);
}

/** chainOfCommand: the agent's managers from its direct manager up to the root. */
export async function chainOfCommand(db: DbOrTx, agent: Agent): Promise<Agent[]> {
  if (!agent.reportsTo) return [];
  const ids = await managerChainIds(db, agent.reportsTo);
  if (ids.length === 0) return [];
  const rows = await db.select().from(agents).where(inArray(agents.id, ids));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((a): a is Agent => a !== undefined);
}
