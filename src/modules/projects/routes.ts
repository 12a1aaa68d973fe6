// Projects and their workspaces. Any caller with access to the company (board or one of its
// agents) may read and write; SPEC "Projects and workspaces" marks no route board-only.
// Every /api/projects/{projectId} route takes the UUID or the shortname (see lookup.ts).
import { z } from 'zod';
import type { App, AppDeps } from '../../server/deps.ts';
import { requireCompanyAccess } from '../../core/access.ts';
import { actorOf } from '../../server/request.ts';
import { listLimitQuery } from '../goals/schemas.ts';
import { requireProjectAccess } from './lookup.ts';
import { presentOneProject, presentOperation, presentProjects, presentWorkspace } from './present.ts';
import { createProjectBody, patchProjectBody, patchWorkspaceBody, runtimeAction, workspaceBody } from './schemas.ts';
import { createProject, deleteProject, listProjects, updateProject } from './service.ts';
import { createWorkspace, deleteWorkspace, listWorkspaces, runWorkspaceAction, updateWorkspace } from './workspaces.ts';

const companyParams = z.object({ companyId: z.uuid() });
const projectParams = z.object({ projectId: z.string().trim().min(1).max(200) });
const workspaceParams = projectParams.extend({ workspaceId: z.uuid() });
// Narrows a shortname lookup to one company when the caller can access several.
const projectQuery = z.object({ companyId: z.uuid().optional() });
const tags = ['projects'];

export function registerProjectRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;
  const ctx = (request: Parameters<typeof actorOf>[0]) => ({ db, actor: actorOf(request) });
  const project = (request: Parameters<typeof actorOf>[0] & { params: { projectId: string }; query: { companyId?: string } }) =>
    requireProjectAccess(db, actorOf(request), request.params.projectId, request.query.companyId);

  app.get('/api/companies/:companyId/projects', { schema: { tags, params: companyParams, querystring: listLimitQuery } }, async (request) => {
    const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
    return presentProjects(db, await listProjects(db, company.id, request.query.limit));
  });

  app.post('/api/companies/:companyId/projects', { schema: { tags, params: companyParams, body: createProjectBody } }, async (request, reply) => {
    const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
    return reply.status(201).send(await presentOneProject(db, await createProject(ctx(request), company.id, request.body)));
  });

  app.get('/api/projects/:projectId', { schema: { tags, params: projectParams, querystring: projectQuery } }, async (request) => {
    return presentOneProject(db, await project(request));
  });

  app.patch('/api/projects/:projectId', { schema: { tags, params: projectParams, querystring: projectQuery, body: patchProjectBody } }, async (request) => {
    return presentOneProject(db, await updateProject(ctx(request), await project(request), request.body));
  });

  app.delete('/api/projects/:projectId', { schema: { tags, params: projectParams, querystring: projectQuery } }, async (request) => {
    return deleteProject(ctx(request), await project(request));
  });

  app.get('/api/projects/:projectId/workspaces', { schema: { tags, params: projectParams, querystring: projectQuery } }, async (request) => {
    return (await listWorkspaces(db, (await project(request)).id)).map(presentWorkspace);
  });

  app.post('/api/projects/:projectId/workspaces', { schema: { tags, params: projectParams, querystring: projectQuery, body: workspaceBody } }, async (request, reply) => {
    return reply.status(201).send(presentWorkspace(await createWorkspace(ctx(request), await project(request), request.body)));
  });

  app.patch('/api/projects/:projectId/workspaces/:workspaceId', { schema: { tags, params: workspaceParams, querystring: projectQuery, body: patchWorkspaceBody } }, async (request) => {
    return presentWorkspace(await updateWorkspace(ctx(request), await project(request), request.params.workspaceId, request.body));
  });

  app.delete('/api/projects/:projectId/workspaces/:workspaceId', { schema: { tags, params: workspaceParams, querystring: projectQuery } }, async (request) => {
    return presentWorkspace(await deleteWorkspace(ctx(request), await project(request), request.params.workspaceId));
  });

  app.post(
    '/api/projects/:projectId/workspaces/:workspaceId/runtime-services/:action',
    { schema: { tags, params: workspaceParams.extend({ action: runtimeAction }), querystring: projectQuery } },
    async (request) => {
      const result = await runWorkspaceAction(ctx(request), await project(request), request.params.workspaceId, request.params.action);
      return { workspace: presentWorkspace(result.workspace), operation: presentOperation(result.operation) };
    },
  );
}
