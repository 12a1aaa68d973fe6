// Issue attachments: an uploaded asset (kind attachment) linked to one issue.
import { asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { assets, issueAttachments } from '../../db/schema/index.ts';
import { inTransaction, type Ctx } from '../../core/context.ts';
import { notFound } from '../../core/errors.ts';
import type { Storage } from '../../storage/storage.ts';
import { recordActivity } from '../activity/record.ts';
import { storeAsset, type UploadedFile } from '../assets/service.ts';
import { type Asset, type Issue, oneRow } from '../../db/rows.ts';
import { requireAccessible } from '../../core/access.ts';
import type { Actor } from '../../core/actor.ts';
import { assertMayAttach, assertMayDeleteAttachment } from './policy.ts';

export type Attachment = typeof issueAttachments.$inferSelect;
export interface AttachmentView {
  attachment: Attachment;
  asset: Asset;
}

export const MAX_ATTACHMENT_PAGE = 500;
const MAX_NAME_CHARS = 255;
const FALLBACK_CONTENT_TYPE = 'application/octet-stream';
// type/subtype with optional parameters, printable ASCII only: it is echoed back as a header.
const CONTENT_TYPE = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+(?:\s*;[\x20-\x7e]*)?$/;

/** Any content type is accepted; one that could not be sent back as a header is stored as octet-stream. */
export function normalizeContentType(contentType: string): string {
  return contentType.length <= 200 && CONTENT_TYPE.test(contentType) ? contentType : FALLBACK_CONTENT_TYPE;
}

/** The client's file name without path or control characters, bounded. */
export function normalizeFileName(name: string | null): string | null {
  if (!name) return null;
  const base = name
    .replace(/^.*[\\/]/s, '')
    .replace(/[\p{Cc}\p{Cf}]/gu, '')
    .trim();
  return base ? base.slice(0, MAX_NAME_CHARS) : null;
}

export async function addAttachment(
  ctx: Ctx,
  storage: Storage,
  issue: Issue,
  file: UploadedFile,
): Promise<AttachmentView> {
  await assertMayAttach(ctx, issue);
  const cleaned: UploadedFile = {
    bytes: file.bytes,
    contentType: normalizeContentType(file.contentType),
    filename: normalizeFileName(file.filename),
  };
  return inTransaction(ctx, async (tx, { actor }) => {
    const asset = await storeAsset(tx, storage, actor, {
      companyId: issue.companyId,
      kind: 'attachment',
      file: cleaned,
    });
    const attachment = oneRow(
      await tx
        .insert(issueAttachments)
        .values({ companyId: issue.companyId, issueId: issue.id, assetId: asset.id })
        .returning(),
      'attachment',
    );
    await recordActivity(tx, actor, {
      companyId: issue.companyId,
      action: 'issue.attachment_added',
      entityType: 'issue',
      entityId: issue.id,
      details: {
        identifier: issue.identifier,
        attachmentId: attachment.id,
        assetId: asset.id,
        name: asset.originalName,
        contentType: asset.contentType,
        byteSize: asset.byteSize,
      },
    });
    return { attachment, asset };
  });
}

/** Oldest first, at most `limit` (MAX_ATTACHMENT_PAGE). */
export async function listAttachments(
  db: DbOrTx,
  issueId: string,
  limit = MAX_ATTACHMENT_PAGE,
): Promise<AttachmentView[]> {
  return db
    .select({ attachment: issueAttachments, asset: assets })
    .from(issueAttachments)
    .innerJoin(assets, eq(assets.id, issueAttachments.assetId))
    .where(eq(issueAttachments.issueId, issueId))
    .orderBy(asc(issueAttachments.createdAt), asc(issueAttachments.id))
    .limit(Math.min(limit, MAX_ATTACHMENT_PAGE));
}

export async function findAttachment(db: DbOrTx, attachmentId: string): Promise<AttachmentView | null> {
  const [row] = await db
    .select({ attachment: issueAttachments, asset: assets })
    .from(issueAttachments)
    .innerJoin(assets, eq(assets.id, issueAttachments.assetId))
    .where(eq(issueAttachments.id, attachmentId));
  return row ?? null;
}

/** The attachment a caller names: 404 when missing, 403 when it belongs to another company. */
export async function requireAttachment(db: DbOrTx, actor: Actor, attachmentId: string): Promise<AttachmentView> {
  const view = await findAttachment(db, attachmentId);
  if (!view) throw notFound('attachment');
  await requireAccessible(db, actor, view.attachment, 'attachment');
  return view;
}

/**
 * Removes the attachment and its asset record. The bytes stay in content-addressed storage: the
 * same bytes may back other assets, and storage has no reference counting yet.
 */
export async function deleteAttachment(ctx: Ctx, attachmentId: string): Promise<AttachmentView> {
  const view = await requireAttachment(ctx.db, ctx.actor, attachmentId);
  await assertMayDeleteAttachment(ctx, {
    companyId: view.attachment.companyId,
    uploadedBy: view.asset.createdByAgentId,
  });
  await inTransaction(ctx, async (tx, { actor }) => {
    // The attachment row cascades from its asset.
    const [deleted] = await tx.delete(assets).where(eq(assets.id, view.asset.id)).returning({ id: assets.id });
    if (!deleted) throw notFound('attachment');
    await recordActivity(tx, actor, {
      companyId: view.attachment.companyId,
      action: 'issue.attachment_deleted',
      entityType: 'issue',
      entityId: view.attachment.issueId,
      details: { attachmentId: view.attachment.id, assetId: view.asset.id, name: view.asset.originalName },
    });
  });
  return view;
}
