// Issue attachments (SPEC "Issues": attachments rows). Upload, list and download for any caller
// with access to the issue's company; delete for the board or the uploading agent.
import { z } from 'zod';
import type { App, AppDeps } from '../../server/deps.ts';
import { authorize, requireCompanyAccess, requireAccessible } from '../../core/access.ts';
import { actorOf } from '../../server/request.ts';
import { notFound } from '../../core/errors.ts';
import { readMultipartUpload } from '../assets/service.ts';
import { findIssue, requireIssueAccess } from '../issues/lookup.ts';
import { canDeleteAttachment } from './policy.ts';
import { contentDisposition, presentAttachment } from './present.ts';
import { addAttachment, deleteAttachment, findAttachment, listAttachments, MAX_ATTACHMENT_PAGE } from './service.ts';

const tags = ['attachments'];
const issueRef = z.string().trim().min(1).max(100);
const attachmentParams = z.object({ attachmentId: z.uuid() });

export function registerAttachmentRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;

  const loadAttachment = async (request: Parameters<typeof actorOf>[0], attachmentId: string) => {
    const view = await findAttachment(db, attachmentId);
    await requireAccessible(db, actorOf(request), view?.attachment, 'attachment');
    return view!;
  };

  app.post(
    '/api/companies/:companyId/issues/:issueId/attachments',
    { schema: { tags, params: z.object({ companyId: z.uuid(), issueId: issueRef }), consumes: ['multipart/form-data'] } },
    async (request, reply) => {
      const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
      const issue = await findIssue(db, request.params.issueId);
      // An issue of another company is not found at this company's path.
      if (!issue || issue.companyId !== company.id) throw notFound('issue');
      const file = await readMultipartUpload(request, deps.config.maxUploadBytes);
      return reply.status(201).send(presentAttachment(await addAttachment({ db, actor: actorOf(request) }, deps.storage, issue, file)));
    },
  );

  app.get(
    '/api/issues/:issueId/attachments',
    { schema: { tags, params: z.object({ issueId: issueRef }), querystring: z.object({ limit: z.coerce.number().int().min(1).max(MAX_ATTACHMENT_PAGE).default(MAX_ATTACHMENT_PAGE) }) } },
    async (request) => {
      const issue = await requireIssueAccess(db, actorOf(request), request.params.issueId);
      return (await listAttachments(db, issue.id, request.query.limit)).map(presentAttachment);
    },
  );

  app.get('/api/attachments/:attachmentId/content', { schema: { tags, params: attachmentParams } }, async (request, reply) => {
    const { asset } = await loadAttachment(request, request.params.attachmentId);
    const bytes = await deps.storage.get(asset.sha256);
    return reply
      .header('content-type', asset.contentType)
      .header('content-length', bytes.length)
      .header('content-disposition', contentDisposition(asset.originalName))
      .header('x-content-type-options', 'nosniff')
      // Uploaded HTML or SVG must never run as our origin, even if opened directly.
      .header('content-security-policy', "default-src 'none'; sandbox")
      .send(bytes);
  });

  app.delete('/api/attachments/:attachmentId', { schema: { tags, params: attachmentParams } }, async (request) => {
    const view = await loadAttachment(request, request.params.attachmentId);
    authorize(canDeleteAttachment(actorOf(request), view), 'only the board or the uploading agent may delete this attachment');
    await deleteAttachment({ db, actor: actorOf(request) }, view);
    return { ok: true, id: view.attachment.id };
  });
}
