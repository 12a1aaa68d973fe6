// POST /api/heartbeat-runs/{runId}/complete: an `http` adapter receiver reports the end of a run it
// accepted. Authenticated by the run's own token; any replica may answer it (./complete.ts).
import { z } from 'zod';
import type { App, AppDeps } from '../../http/deps.ts';
import { authenticated, errors, timestampOut, uuidOut } from '../../http/openapi.ts';
import { contextOf } from '../../http/request.ts';
import { completeRun, completeRunBody } from './complete.ts';

const completedRunResponse = z
  .object({
    runId: uuidOut(),
    status: z.enum(['succeeded', 'failed']).describe('the status the run finished with'),
    finishedAt: timestampOut(),
  })
  .describe('The finished run');

export function registerRunCompleteRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;

  app.post(
    '/api/heartbeat-runs/:runId/complete',
    {
      schema: {
        tags: ['runs'],
        summary: 'Complete a heartbeat run (http adapter receivers)',
        description: [
          'An `http` adapter receiver that accepted a run (answered 2xx) reports its end here: `status` (`succeeded` or `failed`), and optionally `result`, `usage` and `error`.',
          "Authenticated by the run's own token: `Authorization: Bearer <runToken>` with the `runToken` of the run request (an agent JWT whose `run_id` claim is this run).",
          "Any other credential is 403: another run's token, an agent API key (even with `X-Service-Run-Id`), a board user (the board cancels a run instead).",
          "The run ends as if its adapter had ended it: the agent's status follows, waiting wakes move on, an activity entry is written; the replica running the work stops waiting for it.",
          'A run that has already finished (completed before, cancelled, timed out at its deadline, reaped) is 409. Any replica answers.',
        ].join(' '),
        params: z.object({ runId: z.uuid().describe('heartbeat run UUID (`runId` of the run request)') }),
        body: completeRunBody,
        response: {
          200: completedRunResponse,
          ...authenticated(),
          ...errors(
            [403, "the run belongs to another company, or the credential is not this run's token"],
            [404, 'no such run'],
            [409, 'the run has already finished (`details.runStatus` says how)'],
          ),
        },
      },
    },
    async (request) => {
      const run = await completeRun(
        contextOf(db, request),
        db,
        request.params.runId,
        request.body,
        deps.config.modelPrices,
      );
      if (run.finishedAt === null) throw new Error(`run ${run.id} was completed without a finishedAt`);
      return { runId: run.id, status: run.status as 'succeeded' | 'failed', finishedAt: run.finishedAt };
    },
  );
}
