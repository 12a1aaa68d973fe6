import { z } from 'zod';
import type { App, AppDeps } from '../../http/deps.ts';
import { requireCompanyAccess } from '../../core/access.ts';
import { authenticated, errors, runIdHeader } from '../../http/openapi.ts';
import { actorOf, contextOf } from '../../http/request.ts';
import { activityResponse, presentActivity } from './present.ts';
import { ACTIVITY_DEFAULT_LIMIT, ACTIVITY_MAX_LIMIT, createActivityBody, listActivityQuery } from './schemas.ts';
import { createActivityEntry, listActivity } from './service.ts';

const companyParams = z.object({ companyId: z.uuid().describe('company UUID') });
const tags = ['activity'];

const createBody = createActivityBody.meta({
  examples: [
    {
      actorType: 'system',
      actorId: 'weekly-report',
      action: 'company.report_generated',
      entityType: 'company',
      entityId: 'acme-weekly-2026-05',
      details: { week: '2026-W19', issuesClosed: 12 },
    },
  ],
});

export function registerActivityRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;

  app.get(
    '/api/companies/:companyId/activity',
    {
      schema: {
        tags,
        summary: "Read a company's activity log",
        description: [
          `The audit trail, newest first: the newest ${ACTIVITY_DEFAULT_LIMIT} entries, or up to \`limit\` (at most ${ACTIVITY_MAX_LIMIT}); there is no pagination.`,
          "Filters are exact matches and combine; `runId` is a run's own timeline: the entries recorded during the run and the entries about the run (its start, its end and who ended it).",
          'Entries about hidden issues are left out. Any caller with access to the company: its board members and its agents.',
        ].join(' '),
        params: companyParams,
        querystring: listActivityQuery,
        response: {
          200: z.array(activityResponse).describe('Activity entries, newest first'),
          ...authenticated(),
          ...errors([403, "the company is not one of the caller's"], [404, 'no such company']),
        },
      },
    },
    async (request) => {
      const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
      return (await listActivity(db, company.id, request.query)).map(presentActivity);
    },
  );

  app.post(
    '/api/companies/:companyId/activity',
    {
      schema: {
        tags,
        summary: 'Record an activity entry',
        description: [
          'Board only (agents get 403). Appends an entry on behalf of any actor type; entries are never edited or deleted.',
          "`details` are redacted before storage. The entry's `runId` comes from the `X-Service-Run-Id` header, when sent.",
        ].join(' '),
        params: companyParams,
        headers: z.object({
          'x-service-run-id': runIdHeader.describe(
            "the heartbeat run this request belongs to, recorded as the entry's `runId`",
          ),
        }),
        body: createBody,
        response: {
          201: activityResponse.describe('The entry, recorded'),
          ...authenticated(),
          ...errors(
            [403, "the caller is an agent, or the company is not one of the caller's"],
            [404, 'no such company'],
            [422, '`agentId` is not an agent of this company'],
          ),
        },
      },
    },
    async (request, reply) => {
      return reply
        .status(201)
        .send(
          presentActivity(await createActivityEntry(contextOf(db, request), request.params.companyId, request.body)),
        );
    },
  );
}
