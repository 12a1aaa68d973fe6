// The guards that keep agents from burning money: the heartbeat policy, "no cost when idle" and
// the per-agent wake budget. Read from the agent's runtimeConfig; decided in the database.
//
// runtimeConfig keys (all optional):
//   heartbeat.enabled        timer wakes run at all (default false)
//   heartbeat.intervalSec    seconds between timer wakes (default 3600)
//   heartbeat.skipWhenIdle   a timer wake when nothing changed for the agent since its last run is
//                            skipped without starting the adapter (default true)
//   maxConcurrentRuns        live engine runs at once (default 1, at most 50)
//   maxRunsPerHour           the wake budget: runs started in the last hour (default 30); further
//                            wakes are skipped (`wake_rate_limited`) until the window frees a slot
import { and, desc, eq, gt, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { activityLog, agentWakeupRequests, agents, heartbeatRuns, issues, projects } from '../../db/schema/index.ts';

export interface HeartbeatPolicy {
  enabled: boolean;
  intervalSec: number;
  skipWhenIdle: boolean;
  maxConcurrentRuns: number;
  maxRunsPerHour: number;
}

export const DEFAULT_HEARTBEAT_INTERVAL_SEC = 3600;
export const DEFAULT_MAX_RUNS_PER_HOUR = 30;
export const MAX_CONCURRENT_RUNS_LIMIT = 50;

const intIn = (value: unknown, min: number, max: number, fallback: number) =>
  typeof value === 'number' && Number.isInteger(value) && value >= min ? Math.min(value, max) : fallback;

export function heartbeatPolicy(runtimeConfig: Record<string, unknown>): HeartbeatPolicy {
  const heartbeat = (runtimeConfig.heartbeat ?? {}) as Record<string, unknown>;
  return {
    enabled: heartbeat.enabled === true,
    intervalSec: intIn(heartbeat.intervalSec, 1, 31 * 24 * 3600, DEFAULT_HEARTBEAT_INTERVAL_SEC),
    skipWhenIdle: heartbeat.skipWhenIdle !== false,
    maxConcurrentRuns: intIn(runtimeConfig.maxConcurrentRuns, 1, MAX_CONCURRENT_RUNS_LIMIT, 1),
    maxRunsPerHour: intIn(runtimeConfig.maxRunsPerHour, 1, 100_000, DEFAULT_MAX_RUNS_PER_HOUR),
  };
}

// Runs first seen on a checkout are the agent's own doing outside the engine, not wakes: they are
// not counted against its wake budget nor as "its last run".
const engineRunOf = (agentId: string) =>
  and(eq(heartbeatRuns.agentId, agentId), ne(heartbeatRuns.invocationSource, 'checkout'));

/**
 * When the wake budget is spent: the moment the oldest run of the last hour leaves the window,
 * or null while the agent may still run. Runs are counted by creation, across every replica.
 */
export async function wakeBudgetSpentUntil(db: DbOrTx, agentId: string, maxRunsPerHour: number): Promise<Date | null> {
  // The budget-th most recent run of the hour, read straight off the (agent, createdAt desc) index.
  const [oldestCounted] = await db
    .select({ createdAt: heartbeatRuns.createdAt })
    .from(heartbeatRuns)
    .where(and(engineRunOf(agentId), sql`${heartbeatRuns.createdAt} > now() - interval '1 hour'`))
    .orderBy(desc(heartbeatRuns.createdAt))
    .offset(maxRunsPerHour - 1)
    .limit(1);
  return oldestCounted ? new Date(oldestCounted.createdAt.getTime() + 3600_000) : null;
}

/** The end of the agent's current wake-rate limit, or null when none is in force (one reading for the route, the agent view and the dispatcher's mark). */
export function wakeRateLimitEnd(agent: { wakeRateLimitedUntil: Date | null }): Date | null {
  return agent.wakeRateLimitedUntil && agent.wakeRateLimitedUntil.getTime() > Date.now()
    ? agent.wakeRateLimitedUntil
    : null;
}

/** Marks the agent rate limited until `until`; true when it was not already (the caller records it once). */
export async function markWakeRateLimited(db: DbOrTx, agentId: string, until: Date): Promise<boolean> {
  const rows = await db
    .update(agents)
    .set({ wakeRateLimitedUntil: until })
    .where(
      and(
        eq(agents.id, agentId),
        sql`(${agents.wakeRateLimitedUntil} is null or ${agents.wakeRateLimitedUntil} < now())`,
      ),
    )
    .returning({ id: agents.id });
  return rows.length > 0;
}

/**
 * Whether anything happened for the agent since its last run started: a wake other than a timer
 * (assignment, mention, approval decision, blocker resolution, manual), or an activity entry by
 * someone else on an issue assigned to it (a comment, an edit). No previous run: something did.
 */
export async function somethingChangedSinceLastRun(
  db: DbOrTx,
  agent: { id: string; companyId: string },
): Promise<boolean> {
  const [last] = await db
    .select({ createdAt: heartbeatRuns.createdAt })
    .from(heartbeatRuns)
    .where(engineRunOf(agent.id))
    .orderBy(desc(heartbeatRuns.createdAt))
    .limit(1);
  if (!last) return true;
  const since = last.createdAt;
  const [wake] = await db
    .select({ id: agentWakeupRequests.id })
    .from(agentWakeupRequests)
    .where(
      and(
        eq(agentWakeupRequests.agentId, agent.id),
        ne(agentWakeupRequests.source, 'timer'),
        gt(agentWakeupRequests.createdAt, since),
      ),
    )
    .limit(1);
  if (wake) return true;
  const assigned = db
    .select({ id: sql`${issues.id}::text` })
    .from(issues)
    .where(eq(issues.assigneeAgentId, agent.id));
  const [touched] = await db
    .select({ id: activityLog.id })
    .from(activityLog)
    .where(
      and(
        eq(activityLog.companyId, agent.companyId),
        gt(activityLog.createdAt, since),
        eq(activityLog.entityType, 'issue'),
        sql`${activityLog.agentId} is distinct from ${agent.id}`,
        sql`${activityLog.entityId} in ${assigned}`,
      ),
    )
    .limit(1);
  return Boolean(touched);
}

/** Whether the issue belongs to a paused project. */
export async function issueProjectPaused(tx: DbOrTx, issueId: string): Promise<boolean> {
  const rows = await tx.execute(
    sql`select 1 from ${issues} i join ${projects} p on p.id = i.project_id where i.id = ${issueId} and p.paused_at is not null`,
  );
  return rows.rows.length > 0;
}
