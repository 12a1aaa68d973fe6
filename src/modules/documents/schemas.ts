import { z } from 'zod';

/** SPEC Limits: a document body is up to 512 KiB (UTF-8 bytes). Larger bodies answer 413. */
export const MAX_DOCUMENT_BYTES = 512 * 1024;
/** Documents per issue: keeps "all documents with latest body" a bounded response. */
export const MAX_DOCUMENTS_PER_ISSUE = 100;
export const MAX_REVISION_PAGE = 100;
/**
 * Revision text one page of the revision list carries at most: bodies, titles and change summaries,
 * in UTF-8 bytes. 768 KiB keeps a page of ordinary text under 1 MB of JSON (plus ~300 bytes of ids
 * and times per revision; JSON escaping comes on top, up to 6 bytes for a control character) while
 * two revisions of 384 KiB still share a page; the first revision of a page comes
 * whatever its size (a body is at most 512 KiB), so a page is never empty while more exist.
 */
export const REVISION_PAGE_TEXT_BYTES = 768 * 1024;
/** The response header naming the next page's `beforeRevisionNumber`; absent on the last page. */
export const NEXT_PAGE_HEADER = 'x-next-before-revision-number';

export const documentKey = z
  .string()
  .regex(/^[a-z0-9_-]{1,64}$/, 'lowercase letters, digits, `_` or `-`, 1 to 64 characters')
  .describe('document key: lowercase letters, digits, `_` or `-`, 1 to 64 characters (`plan` is the issue plan)');

export const issueParams = z.object({
  issueId: z.string().trim().min(1).max(100).describe('issue UUID or identifier (`ACM-12`)'),
});
export const documentParams = issueParams.extend({ key: documentKey });
export const revisionParams = documentParams.extend({
  revisionId: z.uuid().describe('revision UUID (from the revision list)'),
});

// The body is checked in bytes by the service (413); JSON escaping can make the request several
// times larger than the text, which the route's bodyLimit allows for.
export const putDocumentBody = z
  .object({
    title: z
      .string()
      .trim()
      .max(500)
      .nullish()
      .describe('up to 500 characters; omitted keeps the current title, null clears it'),
    format: z.literal('markdown').default('markdown').describe('only `markdown`'),
    body: z.string().describe('markdown, at most 512 KiB of UTF-8 (413 beyond)'),
    changeSummary: z.string().trim().max(2000).nullish().describe('what this revision changes, up to 2000 characters'),
    baseRevisionId: z
      .uuid()
      .nullish()
      .describe(
        "omit to create the document; to update, the document's current `latestRevisionId` (a stale or missing one is 409)",
      ),
  })
  .meta({
    examples: [
      {
        title: 'Plan',
        format: 'markdown',
        body: '# Plan\n\n1. Draft the post\n2. Review with marketing\n3. Publish on Friday',
        changeSummary: 'First draft',
      },
    ],
  });

export const listRevisionsQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_REVISION_PAGE)
    .default(20)
    .describe(
      `revisions per page at most, 1 to ${MAX_REVISION_PAGE} (default 20); a page may hold fewer (see the route)`,
    ),
  beforeRevisionNumber: z.coerce
    .number()
    .int()
    .min(1)
    .max(2_000_000_000)
    .optional()
    .describe(
      `paging (keyset): only revisions numbered below this one; send the previous answer's \`${NEXT_PAGE_HEADER}\` header`,
    ),
});

export type PutDocument = z.infer<typeof putDocumentBody>;
export type ListRevisionsQuery = z.infer<typeof listRevisionsQuery>;
