// The issue's documents (each with its latest body) and a form to start a new one.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, data } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { issueDocumentsQuery } from '../../queries/documents';
import { DocumentCard } from './DocumentCard';

const KEY_PATTERN = '[a-z0-9_\\-]{1,64}';

export function Documents({ companyId, issueId }: { companyId: string; issueId: string }) {
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const [key, setKey] = useState('');
  const [title, setTitle] = useState('');
  const documentsQuery = issueDocumentsQuery(companyId, issueId);
  const documents = useQuery(documentsQuery);
  const create = useMutation({
    mutationFn: async () =>
      data(
        await api.PUT('/api/issues/{issueId}/documents/{key}', {
          params: { path: { issueId, key } },
          body: { title: title.trim() || null, body: '' },
        }),
      ),
    onSuccess: () => {
      setCreating(false);
      setKey('');
      setTitle('');
      void queryClient.invalidateQueries({ queryKey: documentsQuery.queryKey });
    },
  });
  const list = documents.data ?? [];

  return (
    <section className="issue-section" aria-labelledby="documents-heading">
      <div className="section-header">
        <h2 id="documents-heading">Documents {list.length > 0 && <span className="count">{list.length}</span>}</h2>
        {!creating && (
          <button type="button" className="quiet" onClick={() => setCreating(true)}>
            New document
          </button>
        )}
      </div>
      {documents.isError && (
        <ErrorNotice
          error={documents.error}
          title="Documents could not be loaded"
          retry={() => void documents.refetch()}
        />
      )}
      {documents.isSuccess && list.length === 0 && !creating && (
        <p className="muted">No documents. Agents write their plan here; you can start one too.</p>
      )}
      {creating && (
        <form
          className="row wrap"
          onSubmit={(event) => {
            event.preventDefault();
            create.mutate();
          }}
        >
          <input
            aria-label="Document key"
            placeholder="key, e.g. plan"
            required
            pattern={KEY_PATTERN}
            title="lowercase letters, digits, _ or -"
            value={key}
            onChange={(event) => setKey(event.target.value)}
          />
          <input
            aria-label="Document title"
            placeholder="Title (optional)"
            maxLength={500}
            value={title}
            onChange={(event) => setTitle(event.target.value)}
          />
          <button type="submit" className="primary" disabled={create.isPending}>
            Create
          </button>
          <button type="button" onClick={() => setCreating(false)}>
            Cancel
          </button>
        </form>
      )}
      {create.isError && <ErrorNotice error={create.error} title="The document was not created" />}
      {list.map((document) => (
        <DocumentCard key={document.key} companyId={companyId} issueId={issueId} document={document} />
      ))}
    </section>
  );
}
