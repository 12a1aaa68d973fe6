// Uploaded bytes: validated, stored content-addressed, recorded as an asset of one company.
import { eq } from 'drizzle-orm';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { DbOrTx } from '../../db/client.ts';
import { assets } from '../../db/schema/index.ts';
import { type Asset, oneRow } from '../../db/rows.ts';
import { sanitizeSvg } from '../../lib/svg.ts';
import type { Actor } from '../../core/actor.ts';
import { badRequest, DomainError, unsupportedMediaType, payloadTooLarge } from '../../core/errors.ts';
import type { Storage } from '../../storage/storage.ts';

export const LOGO_CONTENT_TYPES = ['image/png', 'image/jpeg', 'image/jpg', 'image/webp', 'image/gif', 'image/svg+xml'];

export interface UploadedFile {
  bytes: Buffer;
  contentType: string;
  filename: string | null;
}

/** Reads the single `file` part of a multipart request, turning the size limit into a clear 413. */
export async function readUpload(part: MultipartFile | undefined, maxBytes: number): Promise<UploadedFile> {
  if (!part) throw badRequest('multipart part `file` is required');
  if (part.fieldname !== 'file') throw badRequest('the upload part must be named `file`');
  try {
    const bytes = await part.toBuffer();
    return { bytes, contentType: part.mimetype.toLowerCase(), filename: part.filename || null };
  } catch (err) {
    throw uploadError(err, maxBytes);
  }
}

/** The `file` part of a multipart request: 415 for any other body (the plugin would say 406, which is about Accept). */
export async function readMultipartUpload(request: FastifyRequest, maxBytes: number): Promise<UploadedFile> {
  if (!request.isMultipart()) throw unsupportedMediaType('expected multipart/form-data with a `file` part');
  let part: MultipartFile | undefined;
  try {
    part = await request.file();
  } catch (err) {
    throw uploadError(err, maxBytes);
  }
  return readUpload(part, maxBytes);
}

// The multipart parser throws plain errors for a missing boundary or a cut-off body: bad input, not a 500.
function uploadError(err: unknown, maxBytes: number): unknown {
  const e = err as { code?: unknown; statusCode?: unknown };
  if (e.code === 'FST_REQ_FILE_TOO_LARGE') return payloadTooLarge(`file exceeds the upload limit of ${maxBytes} bytes`);
  if (err instanceof DomainError || (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500))
    return err;
  return badRequest('malformed multipart body');
}

/** Logo bytes after the content-type check and, for SVG, sanitising. */
export async function prepareLogo(file: UploadedFile): Promise<UploadedFile> {
  if (!LOGO_CONTENT_TYPES.includes(file.contentType)) {
    throw unsupportedMediaType(`logo content type must be one of ${LOGO_CONTENT_TYPES.join(', ')}`);
  }
  if (file.contentType !== 'image/svg+xml') return file;
  const clean = await sanitizeSvg(file.bytes.toString('utf8'));
  if (!clean) throw badRequest('the SVG is empty or unsafe');
  return { ...file, bytes: Buffer.from(clean, 'utf8') };
}

export interface NewAsset {
  companyId: string;
  kind: 'logo' | 'attachment';
  file: UploadedFile;
}

export async function storeAsset(
  db: DbOrTx,
  storage: Storage,
  actor: Actor,
  { companyId, kind, file }: NewAsset,
): Promise<Asset> {
  const sha256 = await storage.put(file.bytes);
  const asset = oneRow(
    await db
      .insert(assets)
      .values({
        companyId,
        kind,
        contentType: file.contentType,
        byteSize: file.bytes.length,
        sha256,
        originalName: file.filename,
        createdByUserId: actor.kind === 'board' ? actor.userId : null,
        createdByAgentId: actor.kind === 'agent' ? actor.agentId : null,
      })
      .returning(),
    'asset',
  );
  return asset;
}

export async function findAsset(db: DbOrTx, assetId: string): Promise<Asset | null> {
  const [asset] = await db.select().from(assets).where(eq(assets.id, assetId));
  return asset ?? null;
}
