// The issue's documents (each with its latest body) and, opened by the page's "+ Add document", a form
// to start a new one. With no documents and no form open it shows nothing.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, data } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Button } from '../../components/ui/Button';
import { issueDocumentsQuery } from '../../queries/documents';
import { DocumentCard } from './DocumentCard';

const KEY_PATTERN = '[a-z0-9_\\-]{1,64}';

export function Documents({
  companyId,
  issueId,
  adding,
  onAddingChange,
}: {
  companyId: string;
  issueId: string;
  adding: boolean;
  onAddingChange: (adding: boolean) => void;
}) {
  const queryClient = useQueryClient();
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
      onAddingChange(false);
      setKey('');
      setTitle('');
      void queryClient.invalidateQueries({ queryKey: documentsQuery.queryKey });
    },
  });
  const list = documents.data ?? [];
  if (list.length === 0 && !adding && !documents.isError) return null;

  return (
    <section className="issue-section" aria-labelledby="documents-heading">
      <h2 id="documents-heading">Documents {list.length > 0 && <span className="count">{list.length}</span>}</h2>
      {documents.isError && (
        <ErrorNotice
          error={documents.error}
          title="Documents could not be loaded"
          retry={() => void documents.refetch()}
        />
      )}
      {adding && (
        <form
          className="row wrap"
          onSubmit={(event) => {
            event.preventDefault();
            create.mutate();
          }}
        >
          <input
            aria-label="Document key"
            autoFocus
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
          <Button type="submit" variant="primary" loading={create.isPending}>
            Create document
          </Button>
          <Button variant="ghost" onClick={() => onAddingChange(false)}>
            Cancel
          </Button>
        </form>
      )}
      {create.isError && <ErrorNotice error={create.error} title="The document was not created" />}
      {list.map((document) => (
        <div key={document.key} id={`document-${document.key}`} className="document-anchor">
          <DocumentCard companyId={companyId} issueId={issueId} document={document} />
        </div>
      ))}
    </section>
  );
}
