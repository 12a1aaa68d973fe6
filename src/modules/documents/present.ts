import { z } from 'zod';
import { timestampOut, uuidOut } from '../../http/openapi.ts';
import type { DocumentView, RevisionWithSize } from './service.ts';

const DOCUMENT_FORMATS = ['markdown'] as const;

/** A document with the body of its latest revision (SPEC section 2, Issue document). */
export const documentResponse = z
  .object({
    id: uuidOut(),
    companyId: uuidOut(),
    issueId: uuidOut(),
    key: z
      .string()
      .describe('stable key within the issue: lowercase letters, digits, `_`, `-` (`plan` is the issue plan)'),
    title: z.string().nullable(),
    format: z.enum(DOCUMENT_FORMATS),
    body: z.string().describe('markdown of the latest revision (at most 512 KiB of UTF-8)'),
    latestRevisionId: uuidOut().nullable().describe('send it as `baseRevisionId` to append the next revision'),
    latestRevisionNumber: z.number().int().describe('1 for a new document, +1 per revision'),
    createdAt: timestampOut(),
    updatedAt: timestampOut(),
  })
  .describe('The document with its latest body');

export type DocumentResponse = z.output<typeof documentResponse>;

export function presentDocument(doc: DocumentView): DocumentResponse {
  return {
    id: doc.id,
    companyId: doc.companyId,
    issueId: doc.issueId,
    key: doc.key,
    title: doc.title,
    format: doc.format as DocumentResponse['format'],
    body: doc.body,
    latestRevisionId: doc.latestRevisionId,
    latestRevisionNumber: doc.latestRevisionNumber,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
}

/** One revision with its body: an entry of the revision list, or GET .../revisions/{revisionId}. */
export const revisionResponse = z
  .object({
    id: uuidOut(),
    documentId: uuidOut(),
    revisionNumber: z.number().int(),
    title: z.string().nullable().describe('the document title when this revision was written'),
    changeSummary: z.string().nullable(),
    bodyBytes: z.number().int().describe("size of this revision's body in UTF-8 bytes"),
    body: z.string().describe('markdown of this revision (at most 512 KiB of UTF-8)'),
    createdByAgentId: uuidOut().nullable(),
    createdByUserId: uuidOut().nullable(),
    createdAt: timestampOut(),
  })
  .describe('A revision with its body');

export type RevisionResponse = z.output<typeof revisionResponse>;

export function presentRevision(revision: RevisionWithSize): RevisionResponse {
  return {
    id: revision.id,
    documentId: revision.documentId,
    revisionNumber: revision.revisionNumber,
    title: revision.title,
    changeSummary: revision.changeSummary,
    bodyBytes: revision.bodyBytes,
    body: revision.body,
    createdByAgentId: revision.createdByAgentId,
    createdByUserId: revision.createdByUserId,
    createdAt: revision.createdAt,
  };
}

export const deletedDocumentResponse = z
  .object({ ok: z.literal(true), id: uuidOut().describe('the deleted document'), key: z.string() })
  .describe('The document and all its revisions were deleted');
