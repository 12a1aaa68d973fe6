// Who may end a run from outside the engine: the `run.*` rows of the permission table
// (core/permissions.ts). Reading runs needs only access to the run's company.
// - Cancel: the board, or the run's own agent (`self`); other agents 403.
// - Complete: only the run's own token (`runToken`: an agent JWT whose signed run_id claim is this
//   run), never an agent API key with a run header, another run's token or the board.
import type { Ctx } from '../../core/context.ts';
import { assertMay } from '../../core/permissions.ts';
import type { HeartbeatRun } from '../../db/rows.ts';

export async function assertMayCancelRun(ctx: Ctx, run: HeartbeatRun): Promise<void> {
  await assertMay(ctx, 'run.cancel', { companyId: run.companyId, agentId: run.agentId });
}

export async function assertMayCompleteRun(ctx: Ctx, run: HeartbeatRun): Promise<void> {
  await assertMay(ctx, 'run.complete', { companyId: run.companyId, runId: run.id, agentId: run.agentId });
}
