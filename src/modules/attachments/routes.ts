// Issue attachments (SPEC "Issues": attachments rows). Upload, list and download for any caller
// with access to the issue's company; delete for the board or the uploading agent.
import { z } from 'zod';
import type { App, AppDeps } from '../../http/deps.ts';
import { requireCompanyAccess } from '../../core/access.ts';
import { authenticated, errors, multipartBody } from '../../http/openapi.ts';
import { actorOf, contextOf } from '../../http/request.ts';
import { notFound } from '../../core/errors.ts';
import { readMultipartUpload } from '../assets/service.ts';
import { findIssue, requireIssueAccess } from '../../core/issue-access.ts';
import {
  attachmentResponse,
  binaryContentResponse,
  contentDisposition,
  deletedAttachmentResponse,
  presentAttachment,
} from './present.ts';
import { addAttachment, deleteAttachment, listAttachments, MAX_ATTACHMENT_PAGE, requireAttachment } from './service.ts';

const tags = ['attachments'];
const issueRef = z.string().trim().min(1).max(100).describe('issue UUID or identifier (`ACM-12`)');
const attachmentParams = z.object({ attachmentId: z.uuid().describe('attachment UUID (`id` of an attachment)') });
const ATTACHMENT_ERRORS = () => errors([403, 'the attachment belongs to another company'], [404, 'no such attachment']);

export function registerAttachmentRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;

  app.post(
    '/api/companies/:companyId/issues/:issueId/attachments',
    {
      schema: {
        tags,
        summary: 'Upload an attachment to an issue',
        description: [
          'A `multipart/form-data` body with one file part named `file` (other parts are ignored); the bytes are stored and linked to the issue.',
          `Any content type is accepted (one that is not a valid media type is stored as \`application/octet-stream\`); the file name loses any path and is cut to 255 characters. At most \`BOARDROOM_MAX_UPLOAD_BYTES\` (${deps.config.maxUploadBytes} bytes on this server).`,
          "Any caller with access to the company; the issue must belong to it (an issue of another company is 404 here). Download the bytes from the answer's `contentPath`.",
        ].join(' '),
        params: z.object({ companyId: z.uuid().describe('company UUID'), issueId: issueRef }),
        ...multipartBody({
          file: {
            description: 'the file to attach (its part content type and file name are kept)',
            file: true,
            required: true,
          },
        }),
        response: {
          201: attachmentResponse.describe('The attachment, stored'),
          ...authenticated(),
          ...errors(
            [400, 'malformed or cut-off multipart body, no part named `file`, or invalid path parameters'],
            [403, "the company is not one of the caller's"],
            [404, 'no such company, or no such issue in this company'],
            [413, `the file is over the upload limit (${deps.config.maxUploadBytes} bytes)`],
            [415, 'the body is not multipart/form-data'],
          ),
        },
      },
    },
    async (request, reply) => {
      const company = await requireCompanyAccess(db, actorOf(request), request.params.companyId);
      const issue = await findIssue(db, request.params.issueId);
      // An issue of another company is not found at this company's path.
      if (!issue || issue.companyId !== company.id) throw notFound('issue');
      const file = await readMultipartUpload(request, deps.config.maxUploadBytes);
      return reply
        .status(201)
        .send(presentAttachment(await addAttachment(contextOf(db, request), deps.storage, issue, file)));
    },
  );

  app.get(
    '/api/issues/:issueId/attachments',
    {
      schema: {
        tags,
        summary: "List an issue's attachments",
        description: `Attachment metadata, oldest first; \`limit\` 1 to ${MAX_ATTACHMENT_PAGE} (default ${MAX_ATTACHMENT_PAGE}). Download each one from its \`contentPath\`. Any caller with access to the issue's company.`,
        params: z.object({ issueId: issueRef }),
        querystring: z.object({
          limit: z.coerce
            .number()
            .int()
            .min(1)
            .max(MAX_ATTACHMENT_PAGE)
            .default(MAX_ATTACHMENT_PAGE)
            .describe(`attachments to return, 1 to ${MAX_ATTACHMENT_PAGE}`),
        }),
        response: {
          200: z.array(attachmentResponse).describe('The attachments, oldest first'),
          ...authenticated(),
          ...errors([403, 'the issue belongs to another company'], [404, 'no such issue']),
        },
      },
    },
    async (request) => {
      const issue = await requireIssueAccess(db, actorOf(request), request.params.issueId);
      return (await listAttachments(db, issue.id, request.query.limit)).map(presentAttachment);
    },
  );

  app.get(
    '/api/attachments/:attachmentId/content',
    {
      schema: {
        tags,
        summary: "Download an attachment's bytes",
        description: [
          'The raw bytes with the `Content-Type` stored at upload and `Content-Length`.',
          'Always served as a download (`Content-Disposition: attachment` with the original file name), with `X-Content-Type-Options: nosniff` and a sandboxing `Content-Security-Policy`, so an uploaded HTML or SVG file never runs as this origin.',
          "Any caller with access to the attachment's company.",
        ].join(' '),
        params: attachmentParams,
        response: {
          200: binaryContentResponse('The file, in the content type it was uploaded with'),
          ...authenticated(),
          ...ATTACHMENT_ERRORS(),
        },
      },
    },
    async (request, reply) => {
      const { asset } = await requireAttachment(db, actorOf(request), request.params.attachmentId);
      const bytes = await deps.storage.get(asset.sha256);
      return (
        reply
          .header('content-type', asset.contentType)
          .header('content-length', bytes.length)
          .header('content-disposition', contentDisposition(asset.originalName))
          .header('x-content-type-options', 'nosniff')
          // Uploaded HTML or SVG must never run as our origin, even if opened directly.
          .header('content-security-policy', "default-src 'none'; sandbox")
          .send(bytes)
      );
    },
  );

  app.delete(
    '/api/attachments/:attachmentId',
    {
      schema: {
        tags,
        summary: 'Delete an attachment',
        description:
          'The board, or the agent that uploaded it (other agents get 403). Removes the attachment and its asset record and records the deletion in the activity log; the stored bytes are content-addressed and may back other assets, so they stay.',
        params: attachmentParams,
        response: {
          200: deletedAttachmentResponse,
          ...authenticated(),
          ...errors(
            [403, 'the attachment belongs to another company, or the caller is an agent that did not upload it'],
            [404, 'no such attachment'],
          ),
        },
      },
    },
    async (request) => {
      const view = await deleteAttachment(contextOf(db, request), request.params.attachmentId);
      return { ok: true as const, id: view.attachment.id };
    },
  );
}
