// POST /api/heartbeat-runs/{runId}/cancel: the board or the run's own agent ends a live (queued or
// running) run as `cancelled` at once; the replica running it stops its process group. A finished
// run is 409, including one that finished while the request was on its way.
import type { Ctx } from '../../core/context.ts';
import { conflict } from '../../core/errors.ts';
import { isLiveRunStatus } from '../../core/statuses.ts';
import type { HeartbeatRun } from '../../db/rows.ts';
import { cancelRun } from './lifecycle.ts';
import { assertMayCancelRun } from './policy.ts';
import { findRun, requireRunAccess } from './service.ts';

export async function cancelRunRequest(ctx: Ctx, runId: string): Promise<HeartbeatRun> {
  const { actor } = ctx;
  const run = await requireRunAccess(ctx.db, actor, runId);
  await assertMayCancelRun(ctx, run);
  const finishedAlready = (status: string | undefined) =>
    conflict(`the run has already finished (${status ?? 'deleted'})`, { runId: run.id, status: status ?? null });
  if (!isLiveRunStatus(run.status)) throw finishedAlready(run.status);
  const reason = actor.kind === 'agent' ? 'cancelled by its agent' : 'cancelled by the board';
  const cancelled = await ctx.db.transaction((tx) => cancelRun(tx, actor, run.id, reason));
  if (!cancelled) throw finishedAlready((await findRun(ctx.db, run.id))?.status);
  return cancelled;
}
