// GET /api/issues/{issueId}/runs and GET /api/heartbeat-runs/{runId}/issues.
import { z } from 'zod';
import type { App, AppDeps } from '../../server/deps.ts';
import { assertCompanyAccess } from '../../core/access.ts';
import { actorOf } from '../../server/request.ts';
import { requireIssueAccess } from '../issues/lookup.ts';
import { presentIssueSummary } from '../issues/present.ts';
import { presentRunSummary } from './present.ts';
import { findRun, listIssueRuns, listRunIssues, RUN_LIST_MAX } from './service.ts';

const tags = ['runs'];
const limitQuery = z.object({ limit: z.coerce.number().int().min(1).max(RUN_LIST_MAX).default(50) });

export function registerRunRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;

  app.get(
    '/api/issues/:issueId/runs',
    { schema: { tags, params: z.object({ issueId: z.string().trim().min(1).max(200) }), querystring: limitQuery } },
    async (request) => {
      const issue = await requireIssueAccess(db, actorOf(request), request.params.issueId);
      return (await listIssueRuns(db, issue.id, request.query.limit)).map(presentRunSummary);
    },
  );

  // SPEC: an unknown run is an empty list, not a 404; a run of another company is 403.
  app.get(
    '/api/heartbeat-runs/:runId/issues',
    { schema: { tags, params: z.object({ runId: z.string().trim().min(1).max(200) }), querystring: limitQuery } },
    async (request) => {
      const { runId } = request.params;
      const run = z.uuid().safeParse(runId).success ? await findRun(db, runId) : null;
      if (!run) return [];
      await assertCompanyAccess(db, actorOf(request), run.companyId);
      return (await listRunIssues(db, run.id, request.query.limit)).map(presentIssueSummary);
    },
  );
}
