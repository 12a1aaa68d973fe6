// Listing a company's agents and walking the org chain (finding one agent, and the caller's own row,
// is core/agent-access.ts).
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { agents } from '../../db/schema/index.ts';
import type { Agent } from '../../db/rows.ts';

// Lists of agents are bounded; a company with more live agents than this is far outside the design.
const MAX_LISTED_AGENTS = 1000;

// An org chain longer than this is treated as corrupt rather than walked forever.
export const MAX_CHAIN_DEPTH = 100;

/** The company's agents, terminated excluded, oldest first. */
export async function listLiveAgents(db: DbOrTx, companyId: string): Promise<Agent[]> {
  return db
    .select()
    .from(agents)
    .where(and(eq(agents.companyId, companyId), ne(agents.status, 'terminated')))
    .orderBy(asc(agents.createdAt), asc(agents.id))
    .limit(MAX_LISTED_AGENTS);
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
