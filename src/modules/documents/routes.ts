// Issue documents (SPEC "Issues": documents rows, "Document rules"). Any caller with access to the
// issue's company may read and write; delete is board-only.
import type { App, AppDeps } from '../../server/deps.ts';
import { requireBoard } from '../../core/access.ts';
import { actorOf } from '../../server/request.ts';
import { requireIssueAccess } from '../issues/lookup.ts';
import { presentDocument, presentRevision, presentRevisionSummary } from './present.ts';
import { documentParams, issueParams, listRevisionsQuery, MAX_DOCUMENT_BYTES, putDocumentBody, revisionParams } from './schemas.ts';
import { deleteDocument, getDocument, getRevision, listDocuments, listRevisions, putDocument } from './service.ts';

const tags = ['documents'];
// Room for a 512 KiB body even when JSON escaping inflates it (\uXXXX is six bytes per character).
const PUT_BODY_LIMIT = 8 * MAX_DOCUMENT_BYTES;

export function registerDocumentRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;

  app.get('/api/issues/:issueId/documents', { schema: { tags, params: issueParams } }, async (request) => {
    const issue = await requireIssueAccess(db, actorOf(request), request.params.issueId);
    return (await listDocuments(db, issue.id)).map(presentDocument);
  });

  app.get('/api/issues/:issueId/documents/:key', { schema: { tags, params: documentParams } }, async (request) => {
    const issue = await requireIssueAccess(db, actorOf(request), request.params.issueId);
    return presentDocument(await getDocument(db, issue.id, request.params.key));
  });

  app.put('/api/issues/:issueId/documents/:key', { bodyLimit: PUT_BODY_LIMIT, schema: { tags, params: documentParams, body: putDocumentBody } }, async (request, reply) => {
    const issue = await requireIssueAccess(db, actorOf(request), request.params.issueId);
    const { document, created } = await putDocument(db, actorOf(request), issue, request.params.key, request.body);
    return reply.status(created ? 201 : 200).send(presentDocument(document));
  });

  app.get('/api/issues/:issueId/documents/:key/revisions', { schema: { tags, params: documentParams, querystring: listRevisionsQuery } }, async (request) => {
    const issue = await requireIssueAccess(db, actorOf(request), request.params.issueId);
    return (await listRevisions(db, issue.id, request.params.key, request.query)).map(presentRevisionSummary);
  });

  // The list carries no bodies (each is up to 512 KiB); a client reads the revisions it needs one by one.
  app.get('/api/issues/:issueId/documents/:key/revisions/:revisionId', { schema: { tags, params: revisionParams } }, async (request) => {
    const issue = await requireIssueAccess(db, actorOf(request), request.params.issueId);
    return presentRevision(await getRevision(db, issue.id, request.params.key, request.params.revisionId));
  });

  app.delete('/api/issues/:issueId/documents/:key', { schema: { tags, params: documentParams } }, async (request) => {
    requireBoard(actorOf(request));
    const issue = await requireIssueAccess(db, actorOf(request), request.params.issueId);
    const deleted = await deleteDocument(db, actorOf(request), issue, request.params.key);
    return { ok: true, id: deleted.id, key: deleted.key };
  });
}
