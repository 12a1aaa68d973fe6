// An issue's documents (each with its latest body) and a document's revisions, under 'documents':
// activity on the issue or its documents refreshes them (live/invalidation.ts).
import { queryOptions } from '@tanstack/react-query';
import { api, data } from '../api/client';
import { companyResource } from '../api/keys';
import type { paths } from '../api/schema';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
export type IssueDocument = Json<paths['/api/issues/{issueId}/documents/{key}']['get']['responses'][200]>;
export type Revision = Json<paths['/api/issues/{issueId}/documents/{key}/revisions']['get']['responses'][200]>[number];

const documents = companyResource('documents');
export const documentKeys = {
  ...documents,
  ofIssue: (companyId: string, issueId: string) => documents.key(companyId, issueId),
  revisions: (companyId: string, issueId: string, docKey: string) =>
    documents.key(companyId, issueId, docKey, 'revisions'),
};

export const issueDocumentsQuery = (companyId: string, issueId: string) =>
  queryOptions({
    queryKey: documentKeys.ofIssue(companyId, issueId),
    queryFn: async () => data(await api.GET('/api/issues/{issueId}/documents', { params: { path: { issueId } } })),
  });

/** Revisions shown per document: the newest ones, and whether older ones exist. */
export const REVISION_PAGE = 50;
export const revisionsQuery = (companyId: string, issueId: string, docKey: string) =>
  queryOptions({
    queryKey: documentKeys.revisions(companyId, issueId, docKey),
    queryFn: async () => {
      const result = await api.GET('/api/issues/{issueId}/documents/{key}/revisions', {
        params: { path: { issueId, key: docKey }, query: { limit: REVISION_PAGE } },
      });
      return { revisions: data(result), more: result.response.headers.has('x-next-before-revision-number') };
    },
  });
