// Manual wakeups (POST /api/agents/{agentId}/wakeup). Dispatch is the engine's job: here a request
// is validated and recorded in the wakeup queue in the same transaction as its activity entry.
// A wake about an issue names it in `payload.issueId`; it then coalesces and defers like any other
// wake on that issue.
import { badRequest, conflict } from '../../core/errors.ts';
import type { Tx } from '../../db/client.ts';
import { isUuid } from '../../lib/ids.ts';
import { requireSiblingIssue } from '../../core/issue-access.ts';
import { recordActivity } from '../activity/record.ts';
import type { Ctx } from '../../core/context.ts';
import { heartbeatPolicy, issueProjectPaused, wakeRateLimitEnd } from '../wakeups/guards.ts';
import type { WakeupRequest } from '../../db/rows.ts';
import { enqueueWakeup } from '../wakeups/queue.ts';
import { canAgentWork } from '../../core/statuses.ts';
import type { WakeupBody } from './schemas.ts';
import { lockAgent } from '../../core/agent-access.ts';
import { agentFor } from './policy.ts';

/**
 * The 202 body when the server decides not to wake the agent (SPEC leaves its shape open):
 * `{ skipped: true, reason, agentId, source }`. Reasons known when the request arrives:
 * `heartbeat_disabled` (a timer wake while runtimeConfig.heartbeat.enabled is not true) and
 * `wake_rate_limited` (the agent's wake budget is spent, see wakeups/guards.ts). Nothing is queued;
 * the activity entry still records that the wake was asked for and skipped. Everything decided
 * later (coalesced, deferred, skipped as idle) shows on the wakeup's status and outcomeReason.
 */
export interface SkippedWakeup {
  skipped: true;
  reason: 'heartbeat_disabled' | 'wake_rate_limited';
  agentId: string;
  source: WakeupBody['source'];
}

export async function requestWakeup(
  ctx: Ctx,
  agentRef: string,
  body: WakeupBody,
): Promise<WakeupRequest | SkippedWakeup> {
  const { id: agentId } = await agentFor(ctx, 'agent.wake', agentRef);
  return ctx.db.transaction(async (tx) => {
    const agent = await lockAgent(tx, agentId);
    if (!canAgentWork(agent.status)) throw conflict(`cannot wake a ${agent.status} agent`, { status: agent.status });
    const base = {
      companyId: agent.companyId,
      action: 'agent.wakeup_requested',
      entityType: 'agent',
      entityId: agentId,
    };
    const skipReason =
      body.source === 'timer' && !heartbeatPolicy(agent.runtimeConfig).enabled
        ? 'heartbeat_disabled'
        : wakeRateLimitEnd(agent)
          ? 'wake_rate_limited'
          : null;
    if (skipReason) {
      await recordActivity(tx, ctx.actor, {
        ...base,
        details: { source: body.source, skipped: true, reason: skipReason },
      });
      return { skipped: true, reason: skipReason, agentId, source: body.source };
    }
    const issueId = await wakeIssueId(tx, agent.companyId, body.payload);
    if (issueId && (await issueProjectPaused(tx, issueId)))
      throw conflict('the issue belongs to a paused project (a budget hard stop, or paused by hand)', {
        reason: 'project_paused',
      });
    const { request, created } = await enqueueWakeup(tx, ctx.actor, {
      companyId: agent.companyId,
      agentId,
      issueId,
      source: body.source,
      triggerDetail: body.triggerDetail ?? 'manual',
      reason: body.reason ?? null,
      payload: body.payload ?? null,
      idempotencyKey: body.idempotencyKey ?? null,
      forceFreshSession: body.forceFreshSession ?? false,
    });
    // A repeated idempotencyKey answers the first request; it was asked for (and recorded) once.
    if (!created) return request;
    await recordActivity(tx, ctx.actor, {
      ...base,
      details: {
        wakeupRequestId: request.id,
        source: request.source,
        triggerDetail: request.triggerDetail,
        reason: request.reason,
      },
    });
    return request;
  });
}

/** `payload.issueId`, checked: a UUID (400) of an issue of the agent's company (422). */
async function wakeIssueId(
  tx: Tx,
  companyId: string,
  payload: Record<string, unknown> | undefined,
): Promise<string | null> {
  const issueId = payload?.issueId;
  if (issueId === undefined || issueId === null) return null;
  if (typeof issueId !== 'string' || !isUuid(issueId))
    throw badRequest('payload.issueId must be an issue UUID', { issueId });
  return (await requireSiblingIssue(tx, companyId, issueId, 'payload.issueId')).id;
}
