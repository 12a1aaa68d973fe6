// One issue document: read, edit against the revision it was opened at (`baseRevisionId`), its
// history. A save that lost the race (409: someone saved a newer revision meanwhile) opens the
// conflict view instead of overwriting their work.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, api, data } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Markdown } from '../../components/Markdown';
import { timeAgo } from '../../lib/format';
import { documentKeys, type IssueDocument } from '../../queries/documents';
import { ConflictView } from './ConflictView';
import { Revisions } from './Revisions';

type Mode =
  | { kind: 'view' }
  | { kind: 'history' }
  | { kind: 'edit'; draft: string; baseRevisionId: string | null; baseRevisionNumber: number }
  | { kind: 'conflict'; mine: string; theirs: IssueDocument };

export function DocumentCard({
  companyId,
  issueId,
  document,
}: {
  companyId: string;
  issueId: string;
  document: IssueDocument;
}) {
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<Mode>({ kind: 'view' });
  const name = document.title ?? document.key;

  const save = useMutation({
    mutationFn: async ({ body, baseRevisionId }: { body: string; baseRevisionId: string | null }) =>
      data(
        await api.PUT('/api/issues/{issueId}/documents/{key}', {
          params: { path: { issueId, key: document.key } },
          body: { body, baseRevisionId },
        }),
      ),
    onSuccess: (saved) => {
      queryClient.setQueryData<IssueDocument[]>(documentKeys.ofIssue(companyId, issueId), (old) =>
        old?.map((d) => (d.key === saved.key ? saved : d)),
      );
      void queryClient.invalidateQueries({ queryKey: documentKeys.ofIssue(companyId, issueId) });
      setMode({ kind: 'view' });
    },
    onError: async (error, { body }) => {
      if (!(error instanceof ApiError) || error.status !== 409) return;
      // Stale base: fetch what is there now and let the person choose. Should that read fail, the
      // 409 stays shown with the editor and its text.
      const latest = await api
        .GET('/api/issues/{issueId}/documents/{key}', { params: { path: { issueId, key: document.key } } })
        .catch(() => null);
      if (!latest?.data) return;
      save.reset();
      setMode({ kind: 'conflict', mine: body, theirs: latest.data });
    },
  });

  return (
    <article className="document card" aria-labelledby={`document-${document.key}`}>
      <header className="document-header">
        <h3 id={`document-${document.key}`}>{name}</h3>
        <span className="muted">
          <span className="mono">{document.key}</span> · revision {document.latestRevisionNumber} ·{' '}
          {timeAgo(document.updatedAt)}
        </span>
        <div className="row">
          {mode.kind !== 'edit' && mode.kind !== 'conflict' && (
            <button
              type="button"
              onClick={() =>
                setMode({
                  kind: 'edit',
                  draft: document.body,
                  baseRevisionId: document.latestRevisionId,
                  baseRevisionNumber: document.latestRevisionNumber,
                })
              }
              aria-label={`Edit ${name}`}
            >
              Edit
            </button>
          )}
          {mode.kind === 'view' && (
            <button
              type="button"
              className="quiet"
              onClick={() => setMode({ kind: 'history' })}
              aria-label={`History of ${name}`}
            >
              History
            </button>
          )}
          {mode.kind === 'history' && (
            <button type="button" className="quiet" onClick={() => setMode({ kind: 'view' })}>
              Close history
            </button>
          )}
        </div>
      </header>

      {mode.kind === 'view' && <Markdown text={document.body} headingLevel={4} />}
      {mode.kind === 'history' && <Revisions companyId={companyId} issueId={issueId} docKey={document.key} />}
      {mode.kind === 'edit' && (
        <div className="document-editor">
          <textarea
            aria-label={`${name} (markdown)`}
            value={mode.draft}
            rows={14}
            autoFocus
            onChange={(event) => setMode({ ...mode, draft: event.target.value })}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && (event.ctrlKey || event.metaKey))
                save.mutate({ body: mode.draft, baseRevisionId: mode.baseRevisionId });
              if (event.key === 'Escape') setMode({ kind: 'view' });
            }}
          />
          <div className="row">
            <button
              type="button"
              className="primary"
              disabled={save.isPending}
              onClick={() => save.mutate({ body: mode.draft, baseRevisionId: mode.baseRevisionId })}
            >
              {save.isPending ? 'Saving…' : 'Save document'}
            </button>
            <button type="button" onClick={() => setMode({ kind: 'view' })}>
              Cancel
            </button>
            <span className="muted">
              Editing from revision {mode.baseRevisionNumber}. Ctrl-Enter saves, Escape cancels.
            </span>
          </div>
          {document.latestRevisionId !== mode.baseRevisionId && (
            <p className="notice notice-warning" role="status">
              Revision {document.latestRevisionNumber} was saved while you edit; saving will show both versions to
              reconcile.
            </p>
          )}
        </div>
      )}
      {mode.kind === 'conflict' && (
        <ConflictView
          name={name}
          mine={mode.mine}
          theirs={mode.theirs}
          saving={save.isPending}
          onSave={(body) => save.mutate({ body, baseRevisionId: mode.theirs.latestRevisionId })}
          onTakeTheirs={() => setMode({ kind: 'view' })}
        />
      )}
      {save.isError && <ErrorNotice error={save.error} title={`${name} was not saved`} />}
    </article>
  );
}
