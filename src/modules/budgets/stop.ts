// The release of a hard budget stop. The stop itself is applied by the engine of whichever replica
// claims the incident written with stopPending (engine/budget-stops.ts).
// Release: only what the stop paused is resumed, and only while it is still paused for the budget:
// an agent the board paused by hand in between stays paused.
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { agents, projects } from '../../db/schema/index.ts';
import type { Actor } from '../../core/actor.ts';
import { BUDGET_PAUSE_REASON, transitionAgent } from '../../core/agent-status.ts';
import { recordActivity } from '../activity/record.ts';
import type { BudgetIncident } from './evaluate.ts';

/** Resumes what this incident's stop paused and is still paused for the budget. */
export async function releaseBudgetStop(tx: Tx, actor: Actor, incident: BudgetIncident): Promise<void> {
  if (incident.pausedAgentIds.length > 0) {
    // Locked together first, in id order, like the stop (the lock order, runs/lock-order.ts); an agent deleted since is gone from the result.
    const still = await tx.execute<{ id: string }>(
      sql`select id from ${agents} where id in ${incident.pausedAgentIds} order by id for no key update`,
    );
    for (const { id } of still.rows) {
      const { changed } = await transitionAgent(tx, id, { kind: 'budget_release' });
      if (changed)
        await recordActivity(tx, actor, {
          companyId: incident.companyId,
          action: 'agent.resumed',
          entityType: 'agent',
          entityId: id,
          details: { reason: BUDGET_PAUSE_REASON, incidentId: incident.id },
        });
    }
  }
  if (incident.pausedProjectId) {
    const [project] = await tx
      .update(projects)
      .set({ pausedAt: null, pauseReason: null, updatedAt: sql`now()` })
      .where(
        and(
          eq(projects.id, incident.pausedProjectId),
          isNotNull(projects.pausedAt),
          eq(projects.pauseReason, BUDGET_PAUSE_REASON),
        ),
      )
      .returning({ id: projects.id });
    if (project)
      await recordActivity(tx, actor, {
        companyId: incident.companyId,
        action: 'project.resumed',
        entityType: 'project',
        entityId: project.id,
        details: { reason: BUDGET_PAUSE_REASON, incidentId: incident.id },
      });
  }
}
