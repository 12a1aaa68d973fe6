// Ways out of a hard stop: the board resolves the incident (keep_paused, or raise_budget_and_resume
// with an amount above what was spent), or decides the budget_override_required approval (approve:
// resume over budget; reject: stay paused). Either closes the other, so the two never disagree.
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { approvals, budgetIncidents, budgetPolicies } from '../../db/schema/index.ts';
import type { Actor } from '../../core/actor.ts';
import type { Ctx } from '../../core/context.ts';
import { badRequest, conflict, notFound, unprocessable } from '../../core/errors.ts';
import { recordActivity } from '../activity/record.ts';
import type { BudgetIncident } from './evaluate.ts';
import type { ResolveIncident } from './schemas.ts';
import { releaseBudgetStop } from './stop.ts';
import { observed, type BudgetMetric, type BudgetScope } from './usage.ts';
import { oneRow } from '../../db/rows.ts';
import { boardUserResolvingIncident } from './policy.ts';

type Resolution = 'keep_paused' | 'raise_budget_and_resume' | 'override_approved';

async function closeIncident(
  tx: Tx,
  actor: Actor,
  incident: BudgetIncident,
  resolution: Resolution,
): Promise<BudgetIncident> {
  const closed = oneRow(
    await tx
      .update(budgetIncidents)
      .set({
        status: 'resolved',
        resolution,
        stopPending: false,
        resolvedByUserId: actor.kind === 'board' ? actor.userId : null,
        resolvedAt: sql`now()`,
        updatedAt: sql`now()`,
      })
      .where(eq(budgetIncidents.id, incident.id))
      .returning(),
    'locked budget incident',
  );
  if (resolution !== 'keep_paused') {
    await releaseBudgetStop(tx, actor, incident);
    // The warning of the old line is moot too: crossing the new line warns again.
    await tx
      .update(budgetIncidents)
      .set({ status: 'resolved', resolution, resolvedAt: sql`now()`, updatedAt: sql`now()` })
      .where(
        and(
          eq(budgetIncidents.policyId, incident.policyId),
          eq(budgetIncidents.windowKey, incident.windowKey),
          eq(budgetIncidents.status, 'open'),
        ),
      );
  }
  await recordActivity(tx, actor, {
    companyId: incident.companyId,
    action: 'budget.incident_resolved',
    entityType: 'budget_incident',
    entityId: incident.id,
    details: {
      resolution,
      policyId: incident.policyId,
      resumedAgentIds: resolution === 'keep_paused' ? [] : incident.pausedAgentIds,
    },
  });
  return closed;
}

export async function requireIncident(db: DbOrTx, companyId: string, incidentId: string): Promise<BudgetIncident> {
  const [incident] = await db
    .select()
    .from(budgetIncidents)
    .where(and(eq(budgetIncidents.id, incidentId), eq(budgetIncidents.companyId, companyId)));
  if (!incident) throw notFound('budget incident');
  return incident;
}

export async function resolveIncident(
  ctx: Ctx,
  companyId: string,
  incidentId: string,
  body: ResolveIncident,
): Promise<BudgetIncident> {
  const actor = await boardUserResolvingIncident(ctx, companyId);
  return ctx.db.transaction(async (tx) => {
    const [incident] = await tx
      .select()
      .from(budgetIncidents)
      .where(and(eq(budgetIncidents.id, incidentId), eq(budgetIncidents.companyId, companyId)))
      .for('update');
    if (!incident) throw notFound('budget incident');
    if (incident.status !== 'open')
      throw conflict(`the incident is already resolved (${incident.resolution})`, { resolution: incident.resolution });
    if (body.action === 'raise_budget_and_resume') {
      const spent = await observed(
        tx,
        { scopeType: incident.scopeType as BudgetScope, scopeId: incident.scopeId },
        incident.windowKey,
        incident.metric as BudgetMetric,
      );
      const { amount } = body;
      // The route's schema says so too; callers with no route in front meet it here.
      if (amount === undefined) throw badRequest('raise_budget_and_resume needs amount');
      if (amount <= spent)
        throw unprocessable(`amount must exceed the spend observed now (${spent})`, { observed: spent });
      await tx
        .update(budgetPolicies)
        .set({ amount, updatedAt: sql`now()` })
        .where(eq(budgetPolicies.id, incident.policyId));
    }
    if (incident.approvalId) {
      await tx
        .update(approvals)
        .set({
          status: body.action === 'keep_paused' ? 'rejected' : 'approved',
          decisionNote: body.note ?? `resolved through budget incident ${incident.id}: ${body.action}`,
          decidedByUserId: actor.userId,
          decidedAt: sql`now()`,
          updatedAt: sql`now()`,
        })
        .where(
          and(eq(approvals.id, incident.approvalId), sql`${approvals.status} in ('pending', 'revision_requested')`),
        );
    }
    return closeIncident(tx, actor, incident, body.action);
  });
}

/** A budget_override_required approval was decided: its open incident follows. */
export async function applyBudgetOverrideOutcome(
  tx: Tx,
  actor: Actor,
  approval: { id: string; type: string },
  outcome: 'approved' | 'rejected',
): Promise<void> {
  if (approval.type !== 'budget_override_required') return;
  const [incident] = await tx
    .select()
    .from(budgetIncidents)
    .where(and(eq(budgetIncidents.approvalId, approval.id), eq(budgetIncidents.status, 'open')))
    .for('update');
  if (incident) await closeIncident(tx, actor, incident, outcome === 'approved' ? 'override_approved' : 'keep_paused');
}
