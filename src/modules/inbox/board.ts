// The board inbox: what waits on a board user in one company, read from the records themselves
// (no copy to keep in step), each kind by an indexed, bounded read:
//   approval          pending or revision_requested            approvals_company_status_idx
//   run               failed or timed_out in the last 7 days,   heartbeat_runs_company_idx, and
//                     with no later run of the same agent on    heartbeat_runs_agent_idx for the
//                     the same issue (a retry clears it)        "no later run" probe
//   budget_incident   open                                      budget_incidents_company_open_idx
//   issue             open, not hidden, blocked or assigned     issues_company_status_idx,
//                     to the caller                             issues_company_assignee_user_idx
// at most KIND_LIMIT of each, newest first. Read state is the caller's mark per item key
// (inbox_read_marks): an item is unread until marked, and again once it changes after the mark.
import { and, desc, eq, gt, inArray, isNull, notInArray, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import {
  agents,
  approvals,
  budgetIncidents,
  companies,
  heartbeatRuns,
  inboxReadMarks,
  issues,
  projects,
} from '../../db/schema/index.ts';
import type { Ctx } from '../../core/context.ts';
import { CLOSED_STATUSES } from '../../core/statuses.ts';
import { presentRunFailure } from '../../core/run-failures.ts';
import type { InboxItemResponse, InboxResponse } from './board-present.ts';
import { oneRow } from '../../db/rows.ts';
import { boardInboxOf } from './policy.ts';

/** Items of one kind shown at most; the inbox is a work list, not an archive. */
export const INBOX_KIND_LIMIT = 50;
/** Failed runs older than this have been dealt with or forgotten; the activity log keeps them. */
export const FAILED_RUN_WINDOW_DAYS = 7;
/** Keys one POST .../inbox/read takes at most: the inbox holds at most 4 x KIND_LIMIT items. */
export const MARK_READ_MAX_KEYS = 4 * INBOX_KIND_LIMIT;

type Unmarked<T> = T extends unknown ? Omit<T, 'read'> : never;
type Item = Unmarked<InboxItemResponse>;
type Of<K extends InboxItemResponse['kind']> = Extract<InboxItemResponse, { kind: K }>;

async function approvalItems(db: DbOrTx, companyId: string): Promise<Item[]> {
  const rows = await db
    .select({ approval: approvals, agentName: agents.name })
    .from(approvals)
    .leftJoin(agents, eq(agents.id, approvals.requestedByAgentId))
    .where(and(eq(approvals.companyId, companyId), inArray(approvals.status, ['pending', 'revision_requested'])))
    .orderBy(desc(approvals.createdAt))
    .limit(INBOX_KIND_LIMIT);
  return rows.map(({ approval, agentName }) => ({
    kind: 'approval',
    key: `approval:${approval.id}`,
    at: approval.updatedAt,
    approvalId: approval.id,
    approvalType: approval.type as Of<'approval'>['approvalType'],
    status: approval.status as Of<'approval'>['status'],
    requestedByAgentId: approval.requestedByAgentId,
    requestedByAgentName: agentName,
    summary: approvalSummary(approval.payload),
  }));
}

function approvalSummary(payload: Record<string, unknown>): string | null {
  for (const field of ['name', 'title', 'summary']) {
    const value = payload[field];
    if (typeof value === 'string' && value.trim()) return value.trim().slice(0, 200);
  }
  return null;
}

async function runItems(db: DbOrTx, companyId: string): Promise<Item[]> {
  const later = sql`exists (select 1 from ${heartbeatRuns} as later
    where later.agent_id = ${heartbeatRuns.agentId}
      and later.created_at > ${heartbeatRuns.createdAt}
      and later.issue_id is not distinct from ${heartbeatRuns.issueId})`;
  const rows = await db
    .select({
      run: heartbeatRuns,
      agentName: agents.name,
      issue: { identifier: issues.identifier, title: issues.title },
    })
    .from(heartbeatRuns)
    .innerJoin(agents, eq(agents.id, heartbeatRuns.agentId))
    .leftJoin(issues, eq(issues.id, heartbeatRuns.issueId))
    .where(
      and(
        eq(heartbeatRuns.companyId, companyId),
        gt(heartbeatRuns.createdAt, sql`now() - make_interval(days => ${FAILED_RUN_WINDOW_DAYS})`),
        inArray(heartbeatRuns.status, ['failed', 'timed_out']),
        sql`not ${later}`,
      ),
    )
    .orderBy(desc(heartbeatRuns.createdAt), desc(heartbeatRuns.id))
    .limit(INBOX_KIND_LIMIT);
  return rows.map(({ run, agentName, issue }) => ({
    kind: 'run',
    key: `run:${run.id}`,
    at: run.finishedAt ?? run.updatedAt,
    runId: run.id,
    status: run.status as Of<'run'>['status'],
    agentId: run.agentId,
    agentName,
    issueId: run.issueId,
    issueIdentifier: issue?.identifier ?? null,
    issueTitle: issue?.title ?? null,
    error: run.error,
    ...presentRunFailure(run.errorCode),
    finishedAt: run.finishedAt,
  }));
}

async function incidentItems(db: DbOrTx, companyId: string): Promise<Item[]> {
  const of = (type: string) => eq(budgetIncidents.scopeType, type);
  const rows = await db
    .select({
      incident: budgetIncidents,
      agentName: agents.name,
      projectName: projects.name,
      companyName: companies.name,
    })
    .from(budgetIncidents)
    .leftJoin(agents, and(of('agent'), eq(agents.id, budgetIncidents.scopeId)))
    .leftJoin(projects, and(of('project'), eq(projects.id, budgetIncidents.scopeId)))
    .leftJoin(companies, and(of('company'), eq(companies.id, budgetIncidents.scopeId)))
    .where(and(eq(budgetIncidents.companyId, companyId), eq(budgetIncidents.status, 'open')))
    .orderBy(desc(budgetIncidents.createdAt))
    .limit(INBOX_KIND_LIMIT);
  return rows.map(({ incident, agentName, projectName, companyName }) => ({
    kind: 'budget_incident',
    key: `budget_incident:${incident.id}`,
    at: incident.updatedAt,
    incidentId: incident.id,
    incidentKind: incident.kind as Of<'budget_incident'>['incidentKind'],
    scopeType: incident.scopeType,
    scopeId: incident.scopeId,
    scopeName: agentName ?? projectName ?? companyName,
    metric: incident.metric,
    amount: incident.amount,
    observed: incident.observed,
    approvalId: incident.approvalId,
  }));
}

async function issueItems(db: DbOrTx, companyId: string, userId: string): Promise<Item[]> {
  const rows = await db
    .select({
      id: issues.id,
      identifier: issues.identifier,
      title: issues.title,
      status: issues.status,
      priority: issues.priority,
      updatedAt: issues.updatedAt,
      assigneeUserId: issues.assigneeUserId,
    })
    .from(issues)
    .where(
      and(
        eq(issues.companyId, companyId),
        or(eq(issues.status, 'blocked'), eq(issues.assigneeUserId, userId)),
        notInArray(issues.status, [...CLOSED_STATUSES]),
        isNull(issues.hiddenAt),
      ),
    )
    .orderBy(desc(issues.updatedAt))
    .limit(INBOX_KIND_LIMIT);
  return rows.map((issue) => ({
    kind: 'issue',
    key: `issue:${issue.id}`,
    at: issue.updatedAt,
    issueId: issue.id,
    identifier: issue.identifier,
    title: issue.title,
    status: issue.status as Of<'issue'>['status'],
    priority: issue.priority as Of<'issue'>['priority'],
    reason: issue.status === 'blocked' ? 'blocked' : 'assigned',
  }));
}

export async function boardInbox(ctx: Ctx, companyRef: string): Promise<InboxResponse> {
  const { actor, company } = await boardInboxOf(ctx, 'inbox.read', companyRef);
  const { db } = ctx;
  const companyId = company.id;
  const found = (
    await Promise.all([
      approvalItems(db, companyId),
      runItems(db, companyId),
      incidentItems(db, companyId),
      issueItems(db, companyId, actor.userId),
    ])
  ).flat();
  const marks = found.length
    ? await db
        .select({ itemKey: inboxReadMarks.itemKey, readAt: inboxReadMarks.readAt })
        .from(inboxReadMarks)
        .where(
          and(
            eq(inboxReadMarks.companyId, companyId),
            eq(inboxReadMarks.userId, actor.userId),
            inArray(
              inboxReadMarks.itemKey,
              found.map((item) => item.key),
            ),
          ),
        )
    : [];
  const readAt = new Map(marks.map((mark) => [mark.itemKey, mark.readAt]));
  const items = found
    .map((item) => {
      const mark = readAt.get(item.key);
      return { ...item, read: mark !== undefined && mark >= item.at } as InboxItemResponse;
    })
    .sort((a, b) => b.at.getTime() - a.at.getTime() || a.key.localeCompare(b.key));
  return { items, unreadCount: items.filter((item) => !item.read).length };
}

/** Marks the given items read for the caller, as of now; keys of items that do not exist mark nothing anyone sees. */
export async function markInboxRead(
  ctx: Ctx,
  companyRef: string,
  keys: string[],
): Promise<{ marked: number; readAt: Date }> {
  const { actor, company } = await boardInboxOf(ctx, 'inbox.markRead', companyRef);
  const { db } = ctx;
  const companyId = company.id;
  const unique = [...new Set(keys)];
  const rows = await db
    .insert(inboxReadMarks)
    .values(unique.map((itemKey) => ({ companyId, userId: actor.userId, itemKey })))
    .onConflictDoUpdate({
      target: [inboxReadMarks.companyId, inboxReadMarks.userId, inboxReadMarks.itemKey],
      set: { readAt: sql`now()` },
    })
    .returning({ readAt: inboxReadMarks.readAt });
  return { marked: rows.length, readAt: oneRow(rows, 'inbox read mark').readAt };
}
