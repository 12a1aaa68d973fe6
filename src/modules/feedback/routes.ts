import { z } from 'zod';
import type { App, AppDeps } from '../../http/deps.ts';
import { authenticated, errors } from '../../http/openapi.ts';
import { contextOf } from '../../http/request.ts';
import { feedbackTraceResponse, presentTrace } from './present.ts';
import { listFeedbackTraces, listFeedbackTracesQuery } from './service.ts';

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
        querystring: listFeedbackTracesQuery,
        response: {
          200: z.array(feedbackTraceResponse).describe('Feedback traces, newest first'),
          ...authenticated(),
          ...errors(
            [403, "the caller is an agent, or the company is not one of the caller's"],
            [404, 'no such company'],
          ),
        },
      },
    },
    async (request) => {
      return (await listFeedbackTraces(contextOf(db, request), request.params.companyId, request.query)).map((t) =>
        presentTrace(t, request.query.includePayload),
      );
    },
  );
}
