import type { App, AppDeps } from '../../http/deps.ts';
import { requireCompanyAccess } from '../../core/access.ts';
import { authenticated, errors } from '../../http/openapi.ts';
import { actorOf, contextOf } from '../../http/request.ts';
import { costEventResponse, presentCostEvent } from './present.ts';
import { companyParams, createCostEventBody } from './schemas.ts';
import { recordCostEvent } from './service.ts';

export function registerCostRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;

  app.post(
    '/api/companies/:companyId/cost-events',
    {
      schema: {
        tags: ['costs'],
        summary: 'Report a cost event',
        description: [
          'Stores what a piece of agent work cost. The board reports for any agent of the company; an agent only for itself (403).',
          '`agentId` must be an agent of the company, `issueId`/`projectId`/`goalId` of the company, `heartbeatRunId` a run of that agent (422). `occurredAt` at most 5 minutes ahead of the server clock (422).',
          "In the same transaction the usage counters of the company, the agent and the project grow (month of `occurredAt` and lifetime; `spentMonthlyCents` is the current UTC month's), budget policies are evaluated, and `cost.reported` is written to the activity log. A hard limit reached stops its scope before this answers (see Budgets).",
          'Runs report their usage themselves while they run (structured usage lines, or the complete call): each report becomes a cost event, priced by BOARDROOM_MODEL_PRICES when it carries no cost; subscription-included usage costs 0 cents and keeps its tokens.',
        ].join(' '),
        params: companyParams,
        body: createCostEventBody,
        response: {
          201: costEventResponse,
          200: costEventResponse.describe('A repeat of an idempotencyKey: the first event, counted once'),
          ...authenticated(),
          ...errors(
            [403, "the company is not one of the caller's, or an agent reports for another agent"],
            [404, 'no such company'],
            [422, 'a reference outside the company, or occurredAt in the future'],
          ),
        },
      },
    },
    async (request, reply) => {
      const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
      const { event, created } = await recordCostEvent(contextOf(db, request), company.id, request.body);
      return reply.status(created ? 201 : 200).send(presentCostEvent(event));
    },
  );
}
