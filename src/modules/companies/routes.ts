import { z } from 'zod';
import type { App, AppDeps } from '../../server/deps.ts';
import { authorize, requireBoard, requireCompanyAccess, requireAccessible } from '../../core/access.ts';
import { actorOf } from '../../server/request.ts';
import { findAsset, prepareLogo, readMultipartUpload } from '../assets/service.ts';
import { canChangeBranding, canPatchCompanyField, canUpdateCompany } from './policy.ts';
import { assetContentPath, presentCompany } from './present.ts';
import { brandingBody, createCompanyBody, patchCompanyBody } from './schemas.ts';
import { archiveCompany, companyStats, createCompany, deleteCompany, listCompanies, updateCompany, uploadLogo } from './service.ts';

const companyParams = z.object({ companyId: z.uuid() });
const tags = ['companies'];

export function registerCompanyRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;
  const ctx = (request: Parameters<typeof actorOf>[0]) => ({ db, actor: actorOf(request) });

  app.get('/api/companies', { schema: { tags, querystring: z.object({ includeArchived: z.stringbool().default(false) }) } }, async (request) => {
    requireBoard(actorOf(request));
    return (await listCompanies(ctx(request), request.query.includeArchived)).map(presentCompany);
  });

  app.get('/api/companies/stats', { schema: { tags } }, async (request) => {
    requireBoard(actorOf(request));
    return companyStats(ctx(request));
  });

  app.post('/api/companies', { schema: { tags, body: createCompanyBody } }, async (request, reply) => {
    requireBoard(actorOf(request));
    return reply.status(201).send(presentCompany(await createCompany(ctx(request), request.body)));
  });

  app.get('/api/companies/:companyId', { schema: { tags, params: companyParams } }, async (request) => {
    return presentCompany(await requireCompanyAccess(db, actorOf(request), request.params.companyId));
  });

  app.patch('/api/companies/:companyId', { schema: { tags, params: companyParams, body: patchCompanyBody } }, async (request) => {
    const actor = actorOf(request);
    const company = await requireCompanyAccess(db, actor, request.params.companyId);
    authorize(canUpdateCompany(actor, company.id), 'only the board or the company CEO agent may update the company');
    const denied = Object.keys(request.body).filter((field) => !canPatchCompanyField(actor, company.id, field));
    authorize(denied.length === 0, 'a CEO agent may change branding fields only', { fields: denied });
    return presentCompany(await updateCompany(ctx(request), company, request.body));
  });

  app.patch('/api/companies/:companyId/branding', { schema: { tags, params: companyParams, body: brandingBody } }, async (request) => {
    const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
    authorize(canChangeBranding(actorOf(request), company.id), 'only the board or the company CEO agent may change branding');
    return presentCompany(await updateCompany(ctx(request), company, request.body, 'company.branding_updated'));
  });

  app.post('/api/companies/:companyId/logo', { schema: { tags, params: companyParams, consumes: ['multipart/form-data'] } }, async (request, reply) => {
    const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
    const file = await prepareLogo(await readMultipartUpload(request, deps.config.maxUploadBytes));
    const asset = await uploadLogo(ctx(request), deps.storage, company, file);
    return reply.status(201).send({ assetId: asset.id, contentPath: assetContentPath(asset.id), contentType: asset.contentType, byteSize: asset.byteSize });
  });

  app.post('/api/companies/:companyId/archive', { schema: { tags, params: companyParams } }, async (request) => {
    requireBoard(actorOf(request));
    const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
    return presentCompany(await archiveCompany(ctx(request), company));
  });

  app.delete('/api/companies/:companyId', { schema: { tags, params: companyParams } }, async (request) => {
    requireBoard(actorOf(request));
    const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
    await deleteCompany(ctx(request), company);
    return { ok: true, id: company.id };
  });

  app.get('/api/assets/:assetId/content', { schema: { tags: ['assets'], params: z.object({ assetId: z.uuid() }) } }, async (request, reply) => {
    const asset = await requireAccessible(db, actorOf(request), await findAsset(db, request.params.assetId), 'asset');
    const bytes = await deps.storage.get(asset.sha256);
    return reply
      .header('content-type', asset.contentType)
      .header('x-content-type-options', 'nosniff')
      // Uploaded SVG is sanitised, and a CSP stops anything that slipped through from running.
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
      .send(bytes);
  });
}
