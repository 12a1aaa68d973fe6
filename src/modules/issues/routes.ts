import { z } from 'zod';
import type { App, AppDeps } from '../../server/deps.ts';
import { requireCompanyAccess } from '../../core/access.ts';
import { actorOf } from '../../server/request.ts';
import { issueActivity } from './activity.ts';
import { issueDetail } from './detail.ts';
import { listIssues } from './list.ts';
import { requireIssueAccess } from './lookup.ts';
import { presentIssue } from './present.ts';
import { createIssueBody, issueActivityQuery, listIssuesQuery, patchIssueBody } from './schemas.ts';
import { createIssue } from './service.ts';
import { updateIssue } from './update.ts';

const companyParams = z.object({ companyId: z.uuid() });
const issueParams = z.object({ issueId: z.string().trim().min(1).max(100) });
const tags = ['issues'];

export function registerIssueRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;
  const ctx = (request: Parameters<typeof actorOf>[0]) => ({ db, actor: actorOf(request) });

  app.get('/api/companies/:companyId/issues', { schema: { tags, params: companyParams, querystring: listIssuesQuery } }, async (request) => {
    const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
    return (await listIssues(ctx(request), company.id, request.query)).map(presentIssue);
  });

  app.post('/api/companies/:companyId/issues', { schema: { tags, params: companyParams, body: createIssueBody } }, async (request, reply) => {
    const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
    return reply.status(201).send(presentIssue(await createIssue(ctx(request), company.id, request.body)));
  });

  app.get('/api/issues/:issueId', { schema: { tags, params: issueParams } }, async (request) => {
    return issueDetail(db, await requireIssueAccess(db, actorOf(request), request.params.issueId));
  });

  app.patch('/api/issues/:issueId', { schema: { tags, params: issueParams, body: patchIssueBody } }, async (request) => {
    const issue = await requireIssueAccess(db, actorOf(request), request.params.issueId);
    return presentIssue(await updateIssue(ctx(request), issue.id, request.body));
  });

  app.get('/api/issues/:issueId/activity', { schema: { tags, params: issueParams, querystring: issueActivityQuery } }, async (request) => {
    const issue = await requireIssueAccess(db, actorOf(request), request.params.issueId);
    return issueActivity(db, issue, request.query.limit);
  });
}
