// GET /api/agents/me/inbox-lite: the calling agent's open assignments in compact form (SPEC
// Inbox-lite item), ordered by priority (critical first), then most recently updated.
import { and, asc, desc, eq, inArray, isNull, notInArray } from 'drizzle-orm';
import { heartbeatRuns, issueRelations, issues } from '../../db/schema/index.ts';
import type { Ctx } from '../../core/context.ts';
import { CLOSED_STATUSES, LIVE_RUN_STATUSES } from '../../core/statuses.ts';
import type { InboxLiteItemResponse } from './present.ts';
import { agentForInboxLite } from './policy.ts';

// An agent with more open assignments than this has a planning problem, not an inbox; the bound
// keeps the wakeup payload small.
export const INBOX_LITE_LIMIT = 200;

export async function inboxLite(ctx: Ctx): Promise<InboxLiteItemResponse[]> {
  const actor = await agentForInboxLite(ctx);
  const { db } = ctx;
  const rows = await db
    .select({
      issue: {
        id: issues.id,
        identifier: issues.identifier,
        title: issues.title,
        status: issues.status,
        priority: issues.priority,
        projectId: issues.projectId,
        goalId: issues.goalId,
        parentId: issues.parentId,
        updatedAt: issues.updatedAt,
      },
      run: { id: heartbeatRuns.id, status: heartbeatRuns.status, startedAt: heartbeatRuns.startedAt },
    })
    .from(issues)
    // The run behind the checkout lock, only while it is in flight.
    .leftJoin(
      heartbeatRuns,
      and(eq(heartbeatRuns.id, issues.checkoutRunId), inArray(heartbeatRuns.status, [...LIVE_RUN_STATUSES])),
    )
    .where(
      and(
        eq(issues.companyId, actor.companyId),
        eq(issues.assigneeAgentId, actor.agentId),
        notInArray(issues.status, [...CLOSED_STATUSES]),
        isNull(issues.hiddenAt),
      ),
    )
    .orderBy(asc(issues.priorityRank), desc(issues.updatedAt), asc(issues.id))
    .limit(INBOX_LITE_LIMIT);
  if (rows.length === 0) return [];

  // Open blockers ("blocked by" relations whose blocker is neither done nor cancelled).
  const blockers = await db
    .select({ issueId: issueRelations.issueId, blockerId: issueRelations.blockedByIssueId })
    .from(issueRelations)
    .innerJoin(issues, eq(issues.id, issueRelations.blockedByIssueId))
    .where(
      and(
        inArray(
          issueRelations.issueId,
          rows.map((r) => r.issue.id),
        ),
        notInArray(issues.status, [...CLOSED_STATUSES]),
      ),
    )
    .orderBy(asc(issues.identifier));
  const openBlockers = new Map<string, string[]>();
  for (const b of blockers) openBlockers.set(b.issueId, [...(openBlockers.get(b.issueId) ?? []), b.blockerId]);

  return rows.map(({ issue, run }) => {
    const unresolved = openBlockers.get(issue.id) ?? [];
    return {
      ...issue,
      status: issue.status as InboxLiteItemResponse['status'],
      priority: issue.priority as InboxLiteItemResponse['priority'],
      activeRun: run && { ...run, status: run.status as (typeof LIVE_RUN_STATUSES)[number] },
      dependencyReady: unresolved.length === 0,
      unresolvedBlockerCount: unresolved.length,
      unresolvedBlockerIssueIds: unresolved,
    };
  });
}
