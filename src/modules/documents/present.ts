import type { DocumentView, Revision } from './service.ts';

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

export function presentRevision(revision: Revision) {
  return {
    id: revision.id,
    documentId: revision.documentId,
    revisionNumber: revision.revisionNumber,
    title: revision.title,
    body: revision.body,
    changeSummary: revision.changeSummary,
    createdByAgentId: revision.createdByAgentId,
    createdByUserId: revision.createdByUserId,
    createdAt: revision.createdAt,
  };
}
