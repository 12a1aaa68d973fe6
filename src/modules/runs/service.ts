// Heartbeat runs as far as the work areas need them: checkout creates or verifies the run that holds
// a lock, runs record which issues they touched; the run routes look runs up and list them. The
// engine creates, finishes and reaps runs (lifecycle.ts, reap.ts).
import { and, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { heartbeatRunIssues, heartbeatRuns, issues } from '../../db/schema/index.ts';
import type { HeartbeatRun } from '../../db/rows.ts';
import { z } from 'zod';
import type { Actor } from '../../core/actor.ts';
import { requireAccessible } from '../../core/access.ts';
import { conflict, forbidden, notFound } from '../../core/errors.ts';
import { isLiveRunStatus, LIVE_RUN_STATUSES } from '../../core/statuses.ts';
import type { RunErrorCode } from '../../core/run-failures.ts';

/**
 * A run first seen on a checkout has no engine owner renewing its lease: each checkout with it moves
 * the lease this far, and the reaper ends it once the agent has not used it for that long.
 */
export const CHECKOUT_RUN_LEASE_SEC = 30 * 60;
const checkoutLease = sql`now() + make_interval(secs => ${CHECKOUT_RUN_LEASE_SEC})`;

// Bound for the run and issue lists of GET /issues/{id}/runs and GET /heartbeat-runs/{id}/issues.
export const RUN_LIST_MAX = 200;

export async function findRun(db: DbOrTx, runId: string): Promise<HeartbeatRun | null> {
  const [run] = await db.select().from(heartbeatRuns).where(eq(heartbeatRuns.id, runId));
  return run ?? null;
}

/**
 * The run named by an agent's X-Service-Run-Id, inside the caller's transaction. An unknown id is
 * recorded as a running run of that agent (invocationSource 'checkout') about the issue it checks
 * out, so the lock always points at a run record; a known live run gets its lease clock moved (and a
 * run first seen on a checkout with no issue yet gets this one). A run of another agent is 403; a
 * finished run cannot take a lock (409): the agent must use its current run.
 * Call it inside the transaction of the claim it serves, never before: a refused claim must roll the
 * new record back with it, so a losing run leaves no `running` run that holds nothing.
 */
export async function ensureAgentRun(
  tx: DbOrTx,
  agent: { id: string; companyId: string; adapterType: string },
  runId: string,
  issueId: string,
): Promise<HeartbeatRun> {
  const checkoutRun = sql`${heartbeatRuns.invocationSource} = 'checkout'`;
  const [run] = await tx
    .insert(heartbeatRuns)
    .values({
      id: runId,
      companyId: agent.companyId,
      agentId: agent.id,
      status: 'running',
      invocationSource: 'checkout',
      adapterType: agent.adapterType,
      issueId,
      startedAt: sql`now()`,
      leaseExpiresAt: checkoutLease,
    })
    .onConflictDoUpdate({
      target: heartbeatRuns.id,
      // An engine run keeps the lease its owner renews and the issue its wake named; a run known only
      // from checkouts gets a new lease, and keeps the first issue it checked out.
      set: {
        updatedAt: sql`now()`,
        leaseExpiresAt: sql`case when ${checkoutRun} then ${checkoutLease} else ${heartbeatRuns.leaseExpiresAt} end`,
        issueId: sql`case when ${checkoutRun} then coalesce(${heartbeatRuns.issueId}, ${issueId}) else ${heartbeatRuns.issueId} end`,
      },
      setWhere: and(eq(heartbeatRuns.agentId, agent.id), inArray(heartbeatRuns.status, [...LIVE_RUN_STATUSES])),
    })
    .returning();
  if (run) return run;
  const existing = await findRun(tx, runId);
  if (existing && existing.agentId !== agent.id) throw forbidden('X-Service-Run-Id names a run of another agent');
  throw conflict(
    `run ${runId} has already finished (${existing?.status ?? 'unknown'}); use the id of the current run`,
    { runId, runStatus: existing?.status ?? null },
  );
}

/**
 * Records that a run touched an issue (idempotent): when the engine creates a run about it, and on
 * each checkout. The run row must exist; an issue deleted meanwhile is simply not recorded.
 */
export async function recordRunIssue(
  tx: DbOrTx,
  entry: { companyId: string; runId: string; issueId: string },
): Promise<void> {
  await tx.execute(sql`insert into ${heartbeatRunIssues} (company_id, run_id, issue_id)
    select ${entry.companyId}, ${entry.runId}, ${issues.id} from ${issues} where ${issues.id} = ${entry.issueId}
    on conflict do nothing`);
}

/** Runs that touched an issue, newest first. */
export async function listIssueRuns(db: DbOrTx, issueId: string, limit: number): Promise<HeartbeatRun[]> {
  const rows = await db
    .select({ run: heartbeatRuns })
    .from(heartbeatRunIssues)
    .innerJoin(heartbeatRuns, eq(heartbeatRuns.id, heartbeatRunIssues.runId))
    .where(eq(heartbeatRunIssues.issueId, issueId))
    .orderBy(desc(heartbeatRuns.createdAt), desc(heartbeatRuns.id))
    .limit(limit);
  return rows.map((r) => r.run);
}

/** Visible issues a run touched, newest first (by when the run first touched them). */
export async function listRunIssues(db: DbOrTx, runId: string, limit: number) {
  const rows = await db
    .select({ issue: issues })
    .from(heartbeatRunIssues)
    .innerJoin(issues, eq(issues.id, heartbeatRunIssues.issueId))
    .where(and(eq(heartbeatRunIssues.runId, runId), isNull(issues.hiddenAt)))
    .orderBy(desc(heartbeatRunIssues.createdAt))
    .limit(limit);
  return rows.map((r) => r.issue);
}

export interface CompanyRunFilter {
  agentId?: string;
  issueId?: string;
  status?: string;
  errorCode?: RunErrorCode;
  /** A run id: only runs older than it (keyset paging, newest first). */
  before?: string;
  limit: number;
}

/**
 * A company's runs, newest first (createdAt, then id, both descending: heartbeat_runs_company_idx),
 * paged by keyset: `before` is the id of the last run of the previous page. An unknown cursor (or
 * one of another company) is 404, never a silently restarted list.
 */
export async function listCompanyRuns(
  db: DbOrTx,
  companyId: string,
  filter: CompanyRunFilter,
): Promise<HeartbeatRun[]> {
  let cursor: SQL | undefined;
  if (filter.before !== undefined) {
    const [known] = await db
      .select({ id: heartbeatRuns.id })
      .from(heartbeatRuns)
      .where(and(eq(heartbeatRuns.id, filter.before), eq(heartbeatRuns.companyId, companyId)));
    if (!known) throw notFound('heartbeat run named by `before`');
    // The cursor's own timestamp, compared in the database (microseconds; a JS Date keeps milliseconds).
    cursor = sql`(${heartbeatRuns.createdAt}, ${heartbeatRuns.id}) < (select c.created_at, c.id from ${heartbeatRuns} c where c.id = ${known.id})`;
  }
  // Ordered NULLS LAST as the indexes are built (drizzle's .desc()): a plain DESC is NULLS FIRST, and
  // PostgreSQL then cannot read the index in order and sorts all of the company's runs (78 ms
  // against 0.14 ms for a page at 50,000 runs). Both columns are NOT NULL: the order is the same.
  // An errorCode filter reads heartbeat_runs_company_error_idx the same way.
  return db
    .select()
    .from(heartbeatRuns)
    .where(
      and(
        eq(heartbeatRuns.companyId, companyId),
        filter.agentId !== undefined ? eq(heartbeatRuns.agentId, filter.agentId) : undefined,
        filter.issueId !== undefined ? eq(heartbeatRuns.issueId, filter.issueId) : undefined,
        filter.status !== undefined ? eq(heartbeatRuns.status, filter.status) : undefined,
        filter.errorCode !== undefined ? eq(heartbeatRuns.errorCode, filter.errorCode) : undefined,
        cursor,
      ),
    )
    .orderBy(sql`${heartbeatRuns.createdAt} desc nulls last`, sql`${heartbeatRuns.id} desc nulls last`)
    .limit(filter.limit);
}

/** After its run ended elsewhere, how long its owner may still be storing the last of the log. */
export const LATE_LOG_SLACK_SEC = 5;

/**
 * Whether the run's log may still grow. While the run is live, yes. A run its owner finished has
 * its whole log stored (the owner closes the log before it records the end, with logBytes, and
 * that finish moves updatedAt past finishedAt: finishRun). A run that ended elsewhere (a cancel,
 * the reaper) may still get the last of its log: the owner stops the process (up to graceSec),
 * stores the rest, and records the outcome late, which moves updatedAt past finishedAt. Until then,
 * and at most graceSec plus a few seconds, the log may grow. (logBytes is no sign: it follows the
 * log's flushes while they happen.)
 */
export function runLogMayGrow(run: HeartbeatRun, now = Date.now()): boolean {
  if (isLiveRunStatus(run.status)) return true;
  if (run.status === 'succeeded' || !run.startedAt || !run.finishedAt || run.invocationSource === 'checkout')
    return false;
  if (run.updatedAt.getTime() > run.finishedAt.getTime()) return false;
  return now < run.finishedAt.getTime() + ((run.graceSec ?? 0) + LATE_LOG_SLACK_SEC) * 1000;
}

/** The run a caller named: 404 when unknown (or not a UUID), 403 when it belongs to another company. */
export async function requireRunAccess(db: DbOrTx, actor: Actor, runId: string): Promise<HeartbeatRun> {
  const run = z.uuid().safeParse(runId).success ? await findRun(db, runId) : null;
  return requireAccessible(db, actor, run, 'heartbeat run');
}
