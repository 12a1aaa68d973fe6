import type { AttachmentView } from './service.ts';

export const attachmentContentPath = (attachmentId: string) => `/api/attachments/${attachmentId}/content`;

export function presentAttachment({ attachment, asset }: AttachmentView) {
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

/**
 * Always a download (never rendered inline in our origin), with an ASCII fallback name and the
 * exact UTF-8 name in filename* (RFC 6266 / RFC 5987).
 */
export function contentDisposition(name: string | null): string {
  const original = name ?? 'attachment';
  const ascii = original.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(original).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
