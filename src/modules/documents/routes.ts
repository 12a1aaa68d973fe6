// Issue documents (SPEC "Issues": documents rows, "Document rules"). Any caller with access to the
// issue's company may read and write; delete is board-only.
import { z } from 'zod';
import type { App, AppDeps } from '../../http/deps.ts';
import { authenticated, errors } from '../../http/openapi.ts';
import { actorOf, contextOf } from '../../http/request.ts';
import { requireIssueAccess } from '../../core/issue-access.ts';
import {
  deletedDocumentResponse,
  documentResponse,
  presentDocument,
  presentRevision,
  revisionResponse,
} from './present.ts';
import {
  documentParams,
  issueParams,
  listRevisionsQuery,
  MAX_DOCUMENT_BYTES,
  MAX_DOCUMENTS_PER_ISSUE,
  MAX_REVISION_PAGE,
  NEXT_PAGE_HEADER,
  putDocumentBody,
  REVISION_PAGE_TEXT_BYTES,
  revisionParams,
} from './schemas.ts';
import { deleteDocument, getDocument, getRevision, listDocuments, listRevisions, putDocument } from './service.ts';

const tags = ['documents'];
// Room for a 512 KiB body even when JSON escaping inflates it (\uXXXX is six bytes per character).
const PUT_BODY_LIMIT = 8 * MAX_DOCUMENT_BYTES;

const ACCESS = "Any caller with access to the issue's company (403 for another company, 404 for an unknown issue).";
const issueErrors = () => errors([403, 'the issue belongs to another company'], [404, 'no such issue']);
const documentErrors = () =>
  errors([403, 'the issue belongs to another company'], [404, 'no such issue, or no document with this key on it']);

export function registerDocumentRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;

  app.get(
    '/api/issues/:issueId/documents',
    {
      schema: {
        tags,
        summary: "List an issue's documents",
        description: `Every document of the issue with the body of its latest revision, ordered by key (at most ${MAX_DOCUMENTS_PER_ISSUE} documents of up to 512 KiB each). ${ACCESS}`,
        params: issueParams,
        response: {
          200: z.array(documentResponse).describe('The documents, by key'),
          ...authenticated(),
          ...issueErrors(),
        },
      },
    },
    async (request) => {
      const issue = await requireIssueAccess(db, actorOf(request), request.params.issueId);
      return (await listDocuments(db, issue.id)).map(presentDocument);
    },
  );

  app.get(
    '/api/issues/:issueId/documents/:key',
    {
      schema: {
        tags,
        summary: 'Get an issue document',
        description: `The document with the body of its latest revision; \`latestRevisionId\` is the \`baseRevisionId\` for the next update. ${ACCESS}`,
        params: documentParams,
        response: { 200: documentResponse, ...authenticated(), ...documentErrors() },
      },
    },
    async (request) => {
      const issue = await requireIssueAccess(db, actorOf(request), request.params.issueId);
      return presentDocument(await getDocument(db, issue.id, request.params.key));
    },
  );

  app.put(
    '/api/issues/:issueId/documents/:key',
    {
      bodyLimit: PUT_BODY_LIMIT,
      schema: {
        tags,
        summary: 'Create an issue document or append a revision',
        description: [
          'Without `baseRevisionId` the document is created with revision 1 (201); if it already exists the answer is 409 with its current revision.',
          "With `baseRevisionId` equal to the document's `latestRevisionId` a new revision is appended (200). Of two writers holding the same base exactly one wins;",
          'the other gets 409 with `details: { key, currentRevisionId, currentRevisionNumber }` (null when there is no such document) and should re-read, merge and retry.',
          `The body is at most 512 KiB of UTF-8 (413); an issue holds at most ${MAX_DOCUMENTS_PER_ISSUE} documents (422). An omitted \`title\` keeps the current one, null clears it.`,
          ACCESS,
        ].join(' '),
        params: documentParams,
        body: putDocumentBody,
        response: {
          200: documentResponse.describe('The document with the revision just appended'),
          201: documentResponse.describe('The document, created with revision 1'),
          ...authenticated(),
          ...errors(
            [403, 'the issue belongs to another company'],
            [404, 'no such issue'],
            [
              409,
              'stale `baseRevisionId`, or the document already exists (no `baseRevisionId`): `details` is `{ key, currentRevisionId, currentRevisionNumber }`',
            ],
            [413, 'the body is over 512 KiB of UTF-8'],
            [422, `the issue already holds ${MAX_DOCUMENTS_PER_ISSUE} documents`],
          ),
        },
      },
    },
    async (request, reply) => {
      const issue = await requireIssueAccess(db, actorOf(request), request.params.issueId);
      const { document, created } = await putDocument(contextOf(db, request), issue, request.params.key, request.body);
      return reply.status(created ? 201 : 200).send(presentDocument(document));
    },
  );

  app.get(
    '/api/issues/:issueId/documents/:key/revisions',
    {
      schema: {
        tags,
        summary: "List a document's revisions",
        description: [
          'Revisions newest first, each with its `body` (and `bodyBytes`, its size in UTF-8 bytes), one page at a time.',
          `A page holds at most \`limit\` revisions (1 to ${MAX_REVISION_PAGE}, default 20) and at most ${REVISION_PAGE_TEXT_BYTES / 1024} KiB of revision text (bodies, titles and change summaries in UTF-8 bytes; JSON escaping comes on top),`,
          'except that its first revision always comes whatever its size, so a page is never empty while older revisions exist. A page can therefore be shorter than `limit` with more to come:',
          `when older revisions remain, the answer carries the header \`${NEXT_PAGE_HEADER}\`; ask again with \`beforeRevisionNumber\` set to its value (and the same \`limit\`).`,
          'Its absence means this is the last page. Walking the pages gives every revision exactly once: revisions are never changed once written, only appended above.',
          ACCESS,
        ].join(' '),
        params: documentParams,
        querystring: listRevisionsQuery,
        response: {
          200: z
            .array(revisionResponse)
            .describe(
              `Revisions, newest first, with their bodies; header \`${NEXT_PAGE_HEADER}\` when older revisions remain`,
            ),
          ...authenticated(),
          ...errors([400, '`limit` not an integer from 1 to 100, or `beforeRevisionNumber` not a positive integer']),
          ...documentErrors(),
        },
      },
    },
    async (request, reply) => {
      const issue = await requireIssueAccess(db, actorOf(request), request.params.issueId);
      const page = await listRevisions(db, issue.id, request.params.key, request.query);
      if (page.nextBeforeRevisionNumber !== null) reply.header(NEXT_PAGE_HEADER, String(page.nextBeforeRevisionNumber));
      return page.revisions.map(presentRevision);
    },
  );

  app.get(
    '/api/issues/:issueId/documents/:key/revisions/:revisionId',
    {
      schema: {
        tags,
        summary: 'Get one revision of a document',
        description: `One revision with its body. 404 unless the revision belongs to document \`key\` of this issue. ${ACCESS}`,
        params: revisionParams,
        response: {
          200: revisionResponse,
          ...authenticated(),
          ...errors(
            [403, 'the issue belongs to another company'],
            [404, 'no such issue, or no such revision of this document'],
          ),
        },
      },
    },
    async (request) => {
      const issue = await requireIssueAccess(db, actorOf(request), request.params.issueId);
      return presentRevision(await getRevision(db, issue.id, request.params.key, request.params.revisionId));
    },
  );

  app.delete(
    '/api/issues/:issueId/documents/:key',
    {
      schema: {
        tags,
        summary: 'Delete an issue document',
        description:
          'Board only (agents get 403). Removes the document and all its revisions, and records the deletion in the activity log.',
        params: documentParams,
        response: {
          200: deletedDocumentResponse,
          ...authenticated(),
          ...errors(
            [403, 'not a board caller, or the issue belongs to another company'],
            [404, 'no such issue, or no document with this key on it'],
          ),
        },
      },
    },
    async (request) => {
      const deleted = await deleteDocument(contextOf(db, request), request.params.issueId, request.params.key);
      return { ok: true as const, id: deleted.id, key: deleted.key };
    },
  );
}
