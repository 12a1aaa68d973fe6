// The release of a hard budget stop. The stop itself is applied by the engine of whichever replica
// claims the incident written with stopPending (engine/budget-stops.ts).
// Release: only what the stop paused is resumed, and only while it is still paused for the budget:
// an agent the board paused by hand in between stays paused.
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { agents, projects } from '../../db/schema/index.ts';
import type { Actor } from '../../core/actor.ts';
import { recordActivity } from '../activity/record.ts';
import type { BudgetIncident } from './evaluate.ts';

/** Why work stopped: the agent's pauseReason, the project's pauseReason and the cancelled runs' error. */
export const BUDGET_REASON = 'budget';

/** Resumes what this incident's stop paused and is still paused for the budget. */
export async function releaseBudgetStop(tx: Tx, actor: Actor, incident: BudgetIncident): Promise<void> {
  if (incident.pausedAgentIds.length > 0) {
    const resumed = await tx
      .update(agents)
      .set({ status: 'idle', pauseReason: null, updatedAt: sql`now()` })
      .where(and(inArray(agents.id, incident.pausedAgentIds), eq(agents.status, 'paused'), eq(agents.pauseReason, BUDGET_REASON)))
      .returning({ id: agents.id });
    for (const agent of resumed) {
      await recordActivity(tx, actor, { companyId: incident.companyId, action: 'agent.resumed', entityType: 'agent', entityId: agent.id, details: { reason: BUDGET_REASON, incidentId: incident.id } });
    }
  }
  if (incident.pausedProjectId) {
    const [project] = await tx
      .update(projects)
      .set({ pausedAt: null, pauseReason: null, updatedAt: sql`now()` })
      .where(and(eq(projects.id, incident.pausedProjectId), isNotNull(projects.pausedAt), eq(projects.pauseReason, BUDGET_REASON)))
      .returning({ id: projects.id });
    if (project) await recordActivity(tx, actor, { companyId: incident.companyId, action: 'project.resumed', entityType: 'project', entityId: project.id, details: { reason: BUDGET_REASON, incidentId: incident.id } });
  }
}
