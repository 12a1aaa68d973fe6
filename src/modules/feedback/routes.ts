import { z } from 'zod';
import type { App, AppDeps } from '../../server/deps.ts';
import { requireBoard, requireCompanyAccess } from '../../core/access.ts';
import { actorOf } from '../../server/request.ts';
import { listFeedbackTraces, listFeedbackTracesQuery, presentFeedbackTrace } from './service.ts';

export function registerFeedbackRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;
  app.get(
    '/api/companies/:companyId/feedback-traces',
    { schema: { tags: ['companies'], params: z.object({ companyId: z.uuid() }), querystring: listFeedbackTracesQuery } },
    async (request) => {
      requireBoard(actorOf(request));
      const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
      return (await listFeedbackTraces(db, company.id, request.query)).map((t) => presentFeedbackTrace(t, request.query.includePayload));
    },
  );
}
