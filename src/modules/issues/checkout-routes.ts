// POST /api/issues/{issueId}/checkout and /release. Rules and decisions: ./checkout.ts.
import { z } from 'zod';
import type { App, AppDeps } from '../../server/deps.ts';
import { actorOf } from '../../server/request.ts';
import { checkoutIssue, releaseIssue } from './checkout.ts';
import { requireIssueAccess } from './lookup.ts';
import { presentIssue } from './present.ts';
import { ISSUE_STATUSES } from './schemas.ts';

const issueParams = z.object({ issueId: z.string().trim().min(1).max(200) });
const RUN_ID_IN_BODY = 'the run id comes only from the X-Service-Run-Id header, never from the body';

const checkoutBody = z
  .object({
    agentId: z.uuid(),
    expectedStatuses: z.array(z.enum(ISSUE_STATUSES)).min(1).max(ISSUE_STATUSES.length * 2),
    runId: z.unknown().optional().describe(`refused: ${RUN_ID_IN_BODY}`),
    checkoutRunId: z.unknown().optional().describe(`refused: ${RUN_ID_IN_BODY}`),
  })
  // Refused rather than ignored, so a client that believes it sets the run this way learns it does not.
  .refine((body) => body.runId === undefined && body.checkoutRunId === undefined, { message: RUN_ID_IN_BODY });

export function registerCheckoutRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;
  const tags = ['issues'];

  app.post('/api/issues/:issueId/checkout', { schema: { tags, params: issueParams, body: checkoutBody } }, async (request) => {
    const issue = await requireIssueAccess(db, actorOf(request), request.params.issueId);
    const { agentId, expectedStatuses } = request.body;
    return presentIssue(await checkoutIssue({ db, actor: actorOf(request) }, issue, { agentId, expectedStatuses }));
  });

  app.post('/api/issues/:issueId/release', { schema: { tags, params: issueParams } }, async (request) => {
    const issue = await requireIssueAccess(db, actorOf(request), request.params.issueId);
    return presentIssue(await releaseIssue({ db, actor: actorOf(request) }, issue));
  });
}
