// GET /api/heartbeat-runs/{runId}/issues: the issues a heartbeat run touched (those it checked out),
// in the compact issue form. Here rather than with the run routes so the issues area keeps its
// presenter to itself (the run routes need nothing else of it).
import { z } from 'zod';
import type { App, AppDeps } from '../../http/deps.ts';
import { assertCompanyAccess } from '../../core/access.ts';
import { authenticated, errors } from '../../http/openapi.ts';
import { actorOf } from '../../http/request.ts';
import { limitQuery, runParams } from '../runs/schemas.ts';
import { findRun, listRunIssues, RUN_LIST_MAX } from '../runs/service.ts';
import { issueSummaryResponse, presentIssueSummary } from './present.ts';

export function registerRunIssueRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;

  // SPEC: an unknown run is an empty list, not a 404; a run of another company is 403.
  app.get(
    '/api/heartbeat-runs/:runId/issues',
    {
      schema: {
        tags: ['runs'],
        summary: 'List the issues a heartbeat run touched',
        description: `Compact summaries of the visible (not hidden) issues recorded against the run (those it checked out), newest first, up to \`limit\` (1 to ${RUN_LIST_MAX}, default 50). An unknown run id (or one that is not a UUID) gives an empty list, not a 404. Any caller with access to the run's company.`,
        params: runParams,
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
