// The company activity feed and board-written entries. Entries are never updated or deleted
// (src/db/sql/activity-append-only.sql).
import { and, desc, eq, lt, not, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { activityLog, issues } from '../../db/schema/index.ts';
import { inTransaction, type Ctx } from '../../core/context.ts';
import { assertAgentInCompany } from '../../core/agent-access.ts';
import type { ActivityEntry } from '../../db/rows.ts';
import { actorStamp } from '../../core/actor.ts';
import { appendActivity } from './record.ts';
import type { CreateActivity, ListActivityQuery } from './schemas.ts';
import { companyForActivityEntry } from './policy.ts';

const UUID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';

// Entries about a hidden issue leave the feed (and the live event stream, src/modules/events/read.ts).
// entity_id is text, so it is cast (only when it is a UUID) to probe the issues primary key: one
// index lookup per issue entry read, however many issues exist.
export const aboutHiddenIssue = sql<boolean>`(${activityLog.entityType} = 'issue' and exists (
  select 1 from ${issues}
  where ${issues.id} = (case when ${activityLog.entityId} ~* ${UUID_PATTERN} then ${activityLog.entityId}::uuid end)
    and ${issues.hiddenAt} is not null))`;

/**
 * A run's timeline: what was recorded under the run (activity_company_run_idx) and what is about
 * the run (its start and end; a board member's cancel carries no run), each half on its own index.
 */
const ofRun = (runId: string) =>
  or(eq(activityLog.runId, runId), and(eq(activityLog.entityType, 'heartbeat_run'), eq(activityLog.entityId, runId)));

/** Newest first, filters exact, bounded by `limit` (see schemas.ts); `before`: only entries older (a plugin's paging). */
export async function listActivity(
  db: DbOrTx,
  companyId: string,
  query: ListActivityQuery,
  before?: Date,
): Promise<ActivityEntry[]> {
  return db
    .select()
    .from(activityLog)
    .where(
      and(
        eq(activityLog.companyId, companyId),
        query.agentId ? eq(activityLog.agentId, query.agentId) : undefined,
        query.entityType ? eq(activityLog.entityType, query.entityType) : undefined,
        query.entityId ? eq(activityLog.entityId, query.entityId) : undefined,
        query.action ? eq(activityLog.action, query.action) : undefined,
        query.actorType ? eq(activityLog.actorType, query.actorType) : undefined,
        query.actorId ? eq(activityLog.actorId, query.actorId) : undefined,
        query.runId ? ofRun(query.runId) : undefined,
        before ? lt(activityLog.createdAt, before) : undefined,
        not(aboutHiddenIssue),
      ),
    )
    .orderBy(desc(activityLog.createdAt), desc(activityLog.id))
    .limit(query.limit);
}

/** An entry written by the board on behalf of any actor type; runId comes from the request header. */
export async function createActivityEntry(ctx: Ctx, companyRef: string, input: CreateActivity): Promise<ActivityEntry> {
  const { id: companyId } = await companyForActivityEntry(ctx, companyRef);
  return inTransaction(ctx, async (tx, { actor }) => {
    if (input.agentId) await assertAgentInCompany(tx, companyId, input.agentId, 'agentId');
    return appendActivity(tx, {
      companyId,
      actorType: input.actorType,
      actorId: input.actorId,
      agentId: input.agentId ?? null,
      runId: actorStamp(actor).runId,
      action: input.action,
      entityType: input.entityType,
      entityId: input.entityId,
      details: input.details ?? null,
    });
  });
}
