// GET /api/issues/{issueId}/runs and GET /api/heartbeat-runs/{runId}/issues.
import { z } from 'zod';
import type { App, AppDeps } from '../../server/deps.ts';
import { assertCompanyAccess } from '../../core/access.ts';
import { authenticated, errors } from '../../server/openapi.ts';
import { actorOf } from '../../server/request.ts';
import { requireIssueAccess } from '../issues/lookup.ts';
import { issueSummaryResponse, presentIssueSummary } from '../issues/present.ts';
import { presentRunSummary, runSummaryResponse } from './present.ts';
import { findRun, listIssueRuns, listRunIssues, RUN_LIST_MAX } from './service.ts';

const tags = ['runs'];
const limitQuery = z.object({
  limit: z.coerce.number().int().min(1).max(RUN_LIST_MAX).default(50).describe(`items returned, newest first: 1 to ${RUN_LIST_MAX} (default 50)`),
});

export function registerRunRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;

  app.get(
    '/api/issues/:issueId/runs',
    {
      schema: {
        tags,
        summary: 'List the heartbeat runs that touched an issue',
        description: `Runs recorded against the issue (a run is recorded when it checks the issue out), newest first, up to \`limit\` (1 to ${RUN_LIST_MAX}, default 50). Any caller with access to the issue's company.`,
        params: z.object({ issueId: z.string().trim().min(1).max(200).describe('issue UUID or identifier (`ACM-12`)') }),
        querystring: limitQuery,
        response: {
          200: z.array(runSummaryResponse).describe('Run summaries, newest first'),
          ...authenticated(),
          ...errors([403, 'the issue belongs to another company'], [404, 'no such issue']),
        },
      },
    },
    async (request) => {
      const issue = await requireIssueAccess(db, actorOf(request), request.params.issueId);
      return (await listIssueRuns(db, issue.id, request.query.limit)).map(presentRunSummary);
    },
  );

  // SPEC: an unknown run is an empty list, not a 404; a run of another company is 403.
  app.get(
    '/api/heartbeat-runs/:runId/issues',
    {
      schema: {
        tags,
        summary: 'List the issues a heartbeat run touched',
        description: `Compact summaries of the visible (not hidden) issues recorded against the run (those it checked out), newest first, up to \`limit\` (1 to ${RUN_LIST_MAX}, default 50). An unknown run id (or one that is not a UUID) gives an empty list, not a 404. Any caller with access to the run's company.`,
        params: z.object({ runId: z.string().trim().min(1).max(200).describe('heartbeat run UUID (the `X-Service-Run-Id` an agent sends)') }),
        querystring: limitQuery,
        response: {
          200: z.array(issueSummaryResponse).describe('The issues in brief, newest first; empty for an unknown run'),
          ...authenticated(),
          ...errors([403, 'the run belongs to another company']),
        },
      },
    },
    async (request) => {
      const { runId } = request.params;
      const run = z.uuid().safeParse(runId).success ? await findRun(db, runId) : null;
      if (!run) return [];
      await assertCompanyAccess(db, actorOf(request), run.companyId);
      return (await listRunIssues(db, run.id, request.query.limit)).map(presentIssueSummary);
    },
  );
}
