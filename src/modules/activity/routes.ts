import { z } from 'zod';
import type { App, AppDeps } from '../../server/deps.ts';
import { requireBoard, requireCompanyAccess } from '../../core/access.ts';
import { actorOf } from '../../server/request.ts';
import { presentActivity } from './present.ts';
import { createActivityBody, listActivityQuery } from './schemas.ts';
import { createActivityEntry, listActivity } from './service.ts';

const companyParams = z.object({ companyId: z.uuid() });
const tags = ['activity'];

export function registerActivityRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;

  app.get('/api/companies/:companyId/activity', { schema: { tags, params: companyParams, querystring: listActivityQuery } }, async (request) => {
    const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
    return (await listActivity(db, company.id, request.query)).map(presentActivity);
  });

  app.post('/api/companies/:companyId/activity', { schema: { tags, params: companyParams, body: createActivityBody } }, async (request, reply) => {
    const actor = requireBoard(actorOf(request));
    const company = await requireCompanyAccess(db, actor, request.params.companyId);
    return reply.status(201).send(presentActivity(await createActivityEntry({ db, actor }, company.id, request.body)));
  });
}
