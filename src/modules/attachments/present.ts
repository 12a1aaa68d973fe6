import { z } from 'zod';
import { timestampOut, uuidOut } from '../../http/openapi.ts';
import type { AttachmentView } from './service.ts';

export const attachmentContentPath = (attachmentId: string) => `/api/attachments/${attachmentId}/content`;

/** An issue attachment: the attachment row and its uploaded asset, without the bytes. */
export const attachmentResponse = z
  .object({
    id: uuidOut(),
    companyId: uuidOut(),
    issueId: uuidOut(),
    assetId: uuidOut(),
    name: z
      .string()
      .nullable()
      .describe('the uploaded file name without any path, at most 255 characters; null when none was sent'),
    contentType: z.string().describe('as uploaded (`application/octet-stream` when it was not a valid media type)'),
    byteSize: z.number().int(),
    sha256: z.string().describe('hex SHA-256 of the bytes'),
    contentPath: z.string().describe('where to download the bytes: `/api/attachments/{id}/content`'),
    createdByAgentId: uuidOut().nullable(),
    createdByUserId: uuidOut().nullable(),
    createdAt: timestampOut(),
  })
  .describe('The attachment');

export type AttachmentResponse = z.output<typeof attachmentResponse>;

export function presentAttachment({ attachment, asset }: AttachmentView): AttachmentResponse {
  return {
    id: attachment.id,
    companyId: attachment.companyId,
    issueId: attachment.issueId,
    assetId: asset.id,
    name: asset.originalName,
    contentType: asset.contentType,
    byteSize: asset.byteSize,
    sha256: asset.sha256,
    contentPath: attachmentContentPath(attachment.id),
    createdByAgentId: asset.createdByAgentId,
    createdByUserId: asset.createdByUserId,
    createdAt: attachment.createdAt,
  };
}

export const deletedAttachmentResponse = z
  .object({ ok: z.literal(true), id: uuidOut().describe('the deleted attachment') })
  .describe('The attachment was deleted');

/**
 * A download's 200 for the docs: raw bytes, in the content type stored at upload (any media type by
 * default; list the media types when the set is fixed, e.g. logos). fastify-type-provider-zod
 * documents a response given as `{ description, content: { <media type>: { schema } } }` as is,
 * and Fastify compiles one serializer per media type; but a Buffer or a stream is written as is
 * and never reaches a serializer, so the schema only documents.
 */
export function binaryContentResponse(description: string, mediaTypes: readonly string[] = ['*/*']) {
  // Typed as the Buffer the route sends; documented as a binary string (zod cannot represent a Buffer).
  const schema = z.instanceof(Buffer).meta({ type: 'string', format: 'binary' });
  return { description, content: Object.fromEntries(mediaTypes.map((type) => [type, { schema }])) };
}

/**
 * Always a download (never rendered inline in our origin), with an ASCII fallback name and the
 * exact UTF-8 name in filename* (RFC 6266 / RFC 5987).
 */
export function contentDisposition(name: string | null): string {
  const original = name ?? 'attachment';
  const ascii = original.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(original).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
