// POST /api/issues/{issueId}/checkout and /release. Rules and decisions: ./checkout.ts.
import { z } from 'zod';
import type { App, AppDeps } from '../../http/deps.ts';
import { actorOf, contextOf } from '../../http/request.ts';
import { checkoutIssue, releaseIssue } from './checkout.ts';
import { requireIssueAccess } from '../../core/issue-access.ts';
import { authenticated, errors, runIdHeader } from '../../http/openapi.ts';
import { issueResponse, presentIssue } from './present.ts';
import { ISSUE_STATUSES } from '../../core/statuses.ts';

const issueParams = z.object({
  issueId: z.string().trim().min(1).max(200).describe('issue UUID or identifier (`ACM-12`)'),
});
const runHeaders = z.object({ 'x-service-run-id': runIdHeader });
const RUN_ID_IN_BODY = 'the run id comes only from the X-Service-Run-Id header, never from the body';

const checkoutBody = z
  .object({
    agentId: z.uuid(),
    expectedStatuses: z
      .array(z.enum(ISSUE_STATUSES))
      .min(1)
      .max(ISSUE_STATUSES.length * 2),
    runId: z.unknown().optional().describe(`refused: ${RUN_ID_IN_BODY}`),
    checkoutRunId: z.unknown().optional().describe(`refused: ${RUN_ID_IN_BODY}`),
  })
  // Refused rather than ignored, so a client that believes it sets the run this way learns it does not.
  .refine((body) => body.runId === undefined && body.checkoutRunId === undefined, { message: RUN_ID_IN_BODY })
  .meta({ examples: [{ agentId: '6f1c2a9e-0b7d-4c1e-9a53-2d8e4f7b1c30', expectedStatuses: ['todo', 'backlog'] }] });

const LOCK_CONFLICT =
  'The lock refused the claim: `details` is `{ reason, currentStatus, holder: { agentId, runId, runStatus, runLive }, retryable: false }`; reasons: status_mismatch, owned_by_another_agent, owned_by_another_run, project_paused, workspace_closed, or the agent is paused, terminated or pending approval';

export function registerCheckoutRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;
  const tags = ['issues'];

  app.post(
    '/api/issues/:issueId/checkout',
    {
      schema: {
        tags,
        summary: 'Check out an issue for an agent',
        description: [
          'Atomically moves the issue to `in_progress`, assigned to `agentId` and held by the calling run. Exactly one caller wins a race.',
          'An agent checks out only as itself and must send its run id in `X-Service-Run-Id` (a UUID; a run id in the body is refused).',
          "The board may check out on an agent's behalf without a run. Repeating a checkout from the holding run is idempotent.",
          'A lock whose run has ended is adopted by the same agent only when `expectedStatuses` includes `in_progress`.',
        ].join(' '),
        params: issueParams,
        headers: runHeaders,
        body: checkoutBody,
        response: {
          200: issueResponse.describe('The issue, now checked out'),
          ...authenticated(),
          ...errors(403, 404, [409, LOCK_CONFLICT], 422),
        },
      },
    },
    async (request) => {
      const issue = await requireIssueAccess(db, actorOf(request), request.params.issueId);
      const { agentId, expectedStatuses } = request.body;
      return presentIssue(await checkoutIssue(contextOf(db, request), issue, { agentId, expectedStatuses }));
    },
  );

  app.post(
    '/api/issues/:issueId/release',
    {
      schema: {
        tags,
        summary: 'Release a checked-out issue',
        description:
          'Returns the issue to `todo` and clears its assignee and run. The board may release any checked-out issue; an agent only as the assignee (else 403) from the run holding the lock (else 409 run_mismatch).',
        params: issueParams,
        headers: runHeaders,
        response: {
          200: issueResponse.describe('The issue, released to todo'),
          ...authenticated(),
          ...errors(403, 404, [409, 'not_checked_out or run_mismatch, with the holder in `details`']),
        },
      },
    },
    async (request) => {
      const issue = await requireIssueAccess(db, actorOf(request), request.params.issueId);
      return presentIssue(await releaseIssue(contextOf(db, request), issue));
    },
  );
}
