import type { DocumentView, Revision, RevisionSummary } from './service.ts';

export function presentDocument(doc: DocumentView) {
  return {
    id: doc.id,
    companyId: doc.companyId,
    issueId: doc.issueId,
    key: doc.key,
    title: doc.title,
    format: doc.format,
    body: doc.body,
    latestRevisionId: doc.latestRevisionId,
    latestRevisionNumber: doc.latestRevisionNumber,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
}

/** A revision in the list: metadata and the body's size in UTF-8 bytes, never the body. */
export function presentRevisionSummary(revision: RevisionSummary) {
  return {
    id: revision.id,
    documentId: revision.documentId,
    revisionNumber: revision.revisionNumber,
    title: revision.title,
    changeSummary: revision.changeSummary,
    bodyBytes: revision.bodyBytes,
    createdByAgentId: revision.createdByAgentId,
    createdByUserId: revision.createdByUserId,
    createdAt: revision.createdAt,
  };
}

/** One revision with its body (GET .../revisions/{revisionId}). */
export function presentRevision(revision: Revision & { bodyBytes: number }) {
  return { ...presentRevisionSummary(revision), body: revision.body };
}
