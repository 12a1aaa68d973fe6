import { z } from 'zod';

/** SPEC Limits: a document body is up to 512 KiB (UTF-8 bytes). Larger bodies answer 413. */
export const MAX_DOCUMENT_BYTES = 512 * 1024;
/** Documents per issue: keeps "all documents with latest body" a bounded response. */
export const MAX_DOCUMENTS_PER_ISSUE = 100;
export const MAX_REVISION_PAGE = 100;

export const documentKey = z.string().regex(/^[a-z0-9_-]{1,64}$/, 'lowercase letters, digits, `_` or `-`, 1 to 64 characters');

export const issueParams = z.object({ issueId: z.string().trim().min(1).max(100) });
export const documentParams = issueParams.extend({ key: documentKey });
export const revisionParams = documentParams.extend({ revisionId: z.uuid() });

// The body is checked in bytes by the service (413); JSON escaping can make the request several
// times larger than the text, which the route's bodyLimit allows for.
export const putDocumentBody = z.object({
  title: z.string().trim().max(500).nullish(),
  format: z.literal('markdown').default('markdown'),
  body: z.string(),
  changeSummary: z.string().trim().max(2000).nullish(),
  baseRevisionId: z.uuid().nullish(),
});

export const listRevisionsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_REVISION_PAGE).default(20),
  /** Paging: only revisions numbered below this one. */
  beforeRevisionNumber: z.coerce.number().int().min(1).max(2_000_000_000).optional(),
});

export type PutDocument = z.infer<typeof putDocumentBody>;
export type ListRevisionsQuery = z.infer<typeof listRevisionsQuery>;
