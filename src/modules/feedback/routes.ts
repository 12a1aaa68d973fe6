import { z } from 'zod';
import type { App, AppDeps } from '../../server/deps.ts';
import { requireBoard, requireCompanyAccess } from '../../core/access.ts';
import { authenticated, errors } from '../../server/openapi.ts';
import { actorOf } from '../../server/request.ts';
import { feedbackTraceResponse, presentTrace } from './present.ts';
import { listFeedbackTraces, listFeedbackTracesQuery } from './service.ts';

// The query of ./service.ts with the meaning of each parameter, for the docs.
const q = listFeedbackTracesQuery.shape;
const listQuery = listFeedbackTracesQuery.extend({
  targetType: q.targetType.describe('only traces on this kind of target (exact match), e.g. `issue_comment`'),
  vote: q.vote.describe('only up or only down votes'),
  status: q.status.describe('only traces in this sharing state'),
  issueId: q.issueId.describe('only traces about this issue'),
  projectId: q.projectId.describe('only traces about this project'),
  from: q.from.describe('only traces created at or after this ISO 8601 date-time (with offset, e.g. `2026-01-01T00:00:00Z`)'),
  to: q.to.describe('only traces created at or before this ISO 8601 date-time'),
  sharedOnly: q.sharedOnly.describe('only traces whose sharing was consented (`sharedAt` set); default false'),
  includePayload: q.includePayload.describe('include each trace\'s `payload`; default false'),
  limit: q.limit.describe('traces returned, newest first: 1 to 500 (default 100)'),
});

export function registerFeedbackRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;
  app.get(
    '/api/companies/:companyId/feedback-traces',
    {
      schema: {
        tags: ['companies'],
        summary: 'List feedback traces',
        description:
          'Board only (agents get 403). Board votes on agent output (comments, documents, runs) with their sharing consent state, newest first, up to `limit` (1 to 500, default 100). Filters combine; `payload` is included only with `includePayload=true`.',
        params: z.object({ companyId: z.uuid().describe('company UUID') }),
        querystring: listQuery,
        response: {
          200: z.array(feedbackTraceResponse).describe('Feedback traces, newest first'),
          ...authenticated(),
          ...errors([403, "the caller is an agent, or the company is not one of the caller's"], [404, 'no such company']),
        },
      },
    },
    async (request) => {
      requireBoard(actorOf(request));
      const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
      return (await listFeedbackTraces(db, company.id, request.query)).map((t) => presentTrace(t, request.query.includePayload));
    },
  );
}
