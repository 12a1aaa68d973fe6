// Wakeup requests issues produce (SPEC Events 2): assignment, and the resolution of the last open
// blocker. Rows in the wakeup queue, written in the caller's transaction; the engine consumes them.
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { issueRelations, issues } from '../../db/schema/index.ts';
import type { Actor } from '../../core/actor.ts';
import { enqueueWakeup, type WakeupSource } from '../wakeups/queue.ts';
import type { Issue } from '../../db/rows.ts';
import { CLOSED_STATUSES } from '../../core/statuses.ts';

const isSelf = (actor: Actor, agentId: string) => actor.kind === 'agent' && actor.agentId === agentId;
const closedStatuses = sql.join(
  CLOSED_STATUSES.map((status) => sql`${status}`),
  sql`, `,
);

/** How an assignment wake is labelled, when the default (assignment, issue_assigned) does not fit. */
export interface AssignmentWake {
  source: WakeupSource;
  reason: string;
  /** Added to the wake's payload next to issueId and identifier. */
  payload?: Record<string, unknown>;
}

const ASSIGNED: AssignmentWake = { source: 'assignment', reason: 'issue_assigned' };

/** The new assignee is told, unless it assigned the issue to itself. */
export async function wakeAssignee(
  tx: DbOrTx,
  actor: Actor,
  issue: Issue,
  wake: AssignmentWake = ASSIGNED,
): Promise<void> {
  if (!issue.assigneeAgentId || isSelf(actor, issue.assigneeAgentId)) return;
  await enqueueWakeup(tx, actor, {
    companyId: issue.companyId,
    agentId: issue.assigneeAgentId,
    source: wake.source,
    triggerDetail: 'system',
    reason: wake.reason,
    payload: { ...wake.payload, issueId: issue.id, identifier: issue.identifier },
    issueId: issue.id,
  });
}

/**
 * `closed` just became done or cancelled: every open issue it blocks whose blockers are now all
 * done or cancelled wakes its assignee (source automation, reason blockers_resolved).
 */
export async function wakeUnblockedDependents(tx: DbOrTx, actor: Actor, closed: Issue): Promise<string[]> {
  // Locking the dependents serialises two blockers of one issue closing at once: the second
  // transaction waits here and its next statement sees the first one's commit, so exactly one of
  // them finds "all resolved" instead of neither.
  await tx.execute(sql`
    select id from ${issues} where id in (select issue_id from ${issueRelations} where blocked_by_issue_id = ${closed.id})
    order by id for no key update`);
  const ready = await tx.execute<{ id: string; assignee_agent_id: string; identifier: string }>(sql`
    select i.id, i.assignee_agent_id, i.identifier
    from ${issueRelations} r join ${issues} i on i.id = r.issue_id
    where r.blocked_by_issue_id = ${closed.id}
      and i.assignee_agent_id is not null
      and i.status not in (${closedStatuses})
      and not exists (
        select 1 from ${issueRelations} r2 join ${issues} b on b.id = r2.blocked_by_issue_id
        where r2.issue_id = i.id and b.status not in (${closedStatuses})
      )`);
  const woken: string[] = [];
  for (const row of ready.rows) {
    if (isSelf(actor, row.assignee_agent_id)) continue;
    await enqueueWakeup(tx, actor, {
      companyId: closed.companyId,
      agentId: row.assignee_agent_id,
      source: 'automation',
      triggerDetail: 'system',
      reason: 'blockers_resolved',
      payload: { issueId: row.id, identifier: row.identifier, resolvedBlockerIssueId: closed.id },
      issueId: row.id,
    });
    woken.push(row.id);
  }
  return woken;
}
