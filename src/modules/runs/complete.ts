// Completing a run from outside the engine: an `http` adapter receiver accepted the run (2xx) and
// reports its end later with POST /api/heartbeat-runs/{runId}/complete, authenticated by the run's
// own token (the agent JWT the engine minted for that run and put in the request body).
//
// Only that token can complete its run: an agent JWT whose signed run_id claim is this run. Not an
// agent API key (with or without X-Service-Run-Id: a header is not proof of holding the run), not
// another run's token, not the board (a board user cancels a run instead). The finish is the same
// conditional transition every finisher uses (finishRun), so it works on any replica: the engine
// that owns the work hears the status change (the `run` notification) and stops waiting.
import { z } from 'zod';
import type { Ctx } from '../../core/context.ts';
import { assertCompanyAccess } from '../../core/access.ts';
import { conflict, notFound } from '../../core/errors.ts';
import { FREEFORM_CONFIG_BYTES, freeformObject } from '../../core/json.ts';
import { finishRun } from './lifecycle.ts';
import type { HeartbeatRun } from '../../db/rows.ts';
import { assertMayCompleteRun } from './policy.ts';
import { findRun } from './service.ts';
import { addUsage } from './usage.ts';
import { usageReport } from '../../adapters/usage.ts';
import { MAX_EVENT_COST_CENTS, MAX_TOKENS } from '../../core/cost-bounds.ts';
import type { PriceTable } from '../../core/pricing.ts';
import { recordRunUsage } from '../costs/service.ts';
import type { Actor } from '../../core/actor.ts';
import type { Db } from '../../db/client.ts';
import { transactionWithRetry } from '../../db/retry.ts';

// Per-run counts: far beyond any real run, small enough to add up safely (budgets sum cents).

export const completeRunBody = z
  .object({
    status: z.enum(['succeeded', 'failed']).describe('how the work ended'),
    result: freeformObject({ maxBytes: FREEFORM_CONFIG_BYTES })
      .optional()
      .describe(
        'what the work produced (a `summary` string by convention); free-form JSON object, at most 32 levels deep and 64 KiB serialised',
      ),
    usage: usageReport
      .optional()
      .describe(
        `what the run consumed; counts are non-negative integers (tokens up to ${MAX_TOKENS}, costCents up to ${MAX_EVENT_COST_CENTS}); recorded as a cost event`,
      ),
    error: z
      .string()
      .max(2000)
      .optional()
      .describe('why the work failed (kept for a failed run; ignored for a succeeded one); at most 2000 characters'),
  })
  .meta({
    examples: [
      {
        status: 'succeeded',
        result: { summary: 'Drafted the report' },
        usage: { provider: 'acme', model: 'm1', inputTokens: 1200, outputTokens: 300, costCents: 4 },
      },
    ],
  });
export type CompleteRunBody = z.infer<typeof completeRunBody>;

/**
 * Ends a live run as the receiver reports it. 404 unknown run; 403 another company's run, or any
 * credential but this run's token; 409 when the run has already finished (completed, cancelled,
 * reaped, timed out): the first finisher wins.
 */
export async function completeRun(
  ctx: Ctx<Actor>,
  db: Db,
  runId: string,
  body: CompleteRunBody,
  prices: PriceTable = {},
): Promise<HeartbeatRun> {
  const { actor } = ctx;
  const run = await findRun(ctx.db, runId);
  if (!run) throw notFound('run');
  // The run's company first, as for every route naming a record: another company's run is 403 whoever asks.
  await assertCompanyAccess(ctx.db, actor, run.companyId);
  await assertMayCompleteRun(ctx, run);
  // Retried like the engine's own finishes: a deadlock with another run of the agent is no answer to give the receiver.
  const finished = await transactionWithRetry(db, async (tx) => {
    const ended = await finishRun(tx, actor, run.id, {
      ...(body.status === 'failed'
        ? {
            status: 'failed',
            errorCode: 'agent_reported_failure',
            error: body.error ?? 'the receiver reported the run failed',
          }
        : { status: 'succeeded' }),
      ...(body.usage !== undefined ? { usageJson: addUsage(undefined, body.usage) } : {}),
      ...(body.result !== undefined ? { resultJson: body.result } : {}),
    });
    if (ended && body.usage !== undefined)
      await recordRunUsage(
        tx,
        { runId: run.id, companyId: run.companyId, agentId: run.agentId, issueId: run.issueId },
        body.usage,
        prices,
      );
    return ended;
  });
  if (finished) return finished;
  const now = await findRun(ctx.db, run.id);
  throw conflict(`run ${run.id} has already finished (${now?.status ?? 'unknown'})`, {
    runId: run.id,
    runStatus: now?.status ?? null,
  });
}
