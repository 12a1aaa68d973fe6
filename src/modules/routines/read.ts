// Reading routines: the company list (bounded, keyset-paged, newest update first, each with trigger
// summaries, latest run and open execution issue: three set-based queries per page, whatever its
// size) and the detail of one.
import { and, desc, eq, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { agents, issues, projects, routines, routineTriggers } from '../../db/schema/index.ts';
import { presentChainLink } from '../agents/present.ts';
import { issueSummaryColumns } from '../issues/lookup.ts';
import { presentIssueSummary } from '../issues/present.ts';
import { presentProjectSummary } from '../projects/present.ts';
import { presentRoutine, presentRun, presentTrigger } from './present.ts';
import { latestRuns, listRuns } from './routine-runs.ts';
import { ROUTINE_EXECUTION } from '../../core/statuses.ts';
import type { ListRoutinesQuery } from './schemas.ts';
import { listTriggers, type Routine } from './service.ts';
import { badRequest } from '../../core/errors.ts';

const RECENT_RUNS = 10;

async function liveExecutionIssues(db: DbOrTx, routineIds: string[]) {
  const live = new Map<string, ReturnType<typeof presentIssueSummary>>();
  if (routineIds.length === 0) return live;
  const rows = await db
    .selectDistinctOn([issues.originId], { ...issueSummaryColumns, originId: issues.originId })
    .from(issues)
    .where(
      and(
        inArray(issues.originId, routineIds),
        eq(issues.originKind, ROUTINE_EXECUTION),
        sql`${issues.status} not in ('done', 'cancelled')`,
      ),
    )
    .orderBy(issues.originId, issues.createdAt);
  // originId is one of routineIds (the filter), never null here.
  for (const row of rows) if (row.originId) live.set(row.originId, presentIssueSummary(row));
  return live;
}

export async function listRoutines(db: DbOrTx, companyId: string, query: ListRoutinesQuery) {
  const where: (SQL | undefined)[] = [eq(routines.companyId, companyId)];
  if (query.status) where.push(eq(routines.status, query.status));
  if (query.assigneeAgentId) where.push(eq(routines.assigneeAgentId, query.assigneeAgentId));
  if (query.before) {
    const [cursor] = await db
      .select({ updatedAt: routines.updatedAt, id: routines.id })
      .from(routines)
      .where(and(eq(routines.id, query.before), eq(routines.companyId, companyId)));
    // An unknown cursor is the caller's mistake: answering the first page again would loop a pager.
    if (!cursor) throw badRequest('before must name a routine of this company (the last id of the previous page)');
    where.push(
      or(
        lt(routines.updatedAt, cursor.updatedAt),
        and(eq(routines.updatedAt, cursor.updatedAt), lt(routines.id, cursor.id)),
      ),
    );
  }
  const page = await db
    .select()
    .from(routines)
    .where(and(...where))
    .orderBy(desc(routines.updatedAt), desc(routines.id))
    .limit(query.limit);
  const ids = page.map((r) => r.id);
  const [triggers, latest, live] = await Promise.all([
    ids.length === 0
      ? []
      : db
          .select()
          .from(routineTriggers)
          .where(inArray(routineTriggers.routineId, ids))
          .orderBy(routineTriggers.createdAt),
    latestRuns(db, ids),
    liveExecutionIssues(db, ids),
  ]);
  return page.map((routine) => {
    const run = latest.get(routine.id);
    return {
      ...presentRoutine(routine),
      triggers: triggers.filter((t) => t.routineId === routine.id).map(presentTrigger),
      latestRun: run ? presentRun(run) : null,
      activeExecutionIssue: live.get(routine.id) ?? null,
    };
  });
}

export async function routineDetail(db: DbOrTx, routine: Routine) {
  const [project, agent, parent, triggers, runs, live] = await Promise.all([
    routine.projectId
      ? db
          .select()
          .from(projects)
          .where(eq(projects.id, routine.projectId))
          .then((r) => r[0])
      : undefined,
    routine.assigneeAgentId
      ? db
          .select()
          .from(agents)
          .where(eq(agents.id, routine.assigneeAgentId))
          .then((r) => r[0])
      : undefined,
    routine.parentIssueId
      ? db
          .select(issueSummaryColumns)
          .from(issues)
          .where(eq(issues.id, routine.parentIssueId))
          .then((r) => r[0])
      : undefined,
    listTriggers(db, routine.id),
    listRuns(db, routine.id, RECENT_RUNS),
    liveExecutionIssues(db, [routine.id]),
  ]);
  return {
    ...presentRoutine(routine),
    project: project ? presentProjectSummary(project) : null,
    assignedAgent: agent ? presentChainLink(agent) : null,
    parentIssue: parent ? presentIssueSummary(parent) : null,
    triggers: triggers.map(presentTrigger),
    recentRuns: runs.map(presentRun),
    activeExecutionIssue: live.get(routine.id) ?? null,
  };
}
