// A document's revision history, newest first (the newest REVISION_PAGE), and for the chosen
// revision the diff from the one before it.
import { Select } from '../../components/ui/Combobox';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { fullTime, timeAgo } from '../../lib/format';
import { REVISION_PAGE, revisionsQuery } from '../../queries/documents';
import { DiffView } from './DiffView';

export function Revisions({ companyId, issueId, docKey }: { companyId: string; issueId: string; docKey: string }) {
  const [chosen, setChosen] = useState<string | null>(null);
  const revisions = useQuery(revisionsQuery(companyId, issueId, docKey));
  if (revisions.isPending) return <Loading label="Loading revisions" />;
  if (revisions.isError)
    return (
      <ErrorNotice
        error={revisions.error}
        title="Revisions could not be loaded"
        retry={() => void revisions.refetch()}
      />
    );
  const list = revisions.data.revisions;
  const index = Math.max(
    0,
    list.findIndex((revision) => revision.id === chosen),
  );
  const shown = list[index];
  const previous = list[index + 1];

  return (
    <div className="revisions">
      <div className="field">
        <label htmlFor={`revision-${docKey}`}>Revision</label>
        <Select
          id={`revision-${docKey}`}
          value={shown?.id ?? null}
          onChange={(id) => setChosen(id)}
          options={list.map((revision) => ({
            value: revision.id,
            label: `#${revision.revisionNumber} · ${timeAgo(revision.createdAt)}${revision.changeSummary ? ` · ${revision.changeSummary}` : ''}`,
          }))}
        />
        {revisions.data.more && <span className="hint">The {REVISION_PAGE} newest revisions are listed.</span>}
      </div>
      {shown && (
        <>
          <p className="muted">
            Revision {shown.revisionNumber}, {fullTime(shown.createdAt)}
          </p>
          {previous || shown.revisionNumber === 1 ? (
            <DiffView
              before={previous?.body ?? ''}
              after={shown.body}
              label={`Changes in revision ${shown.revisionNumber}`}
            />
          ) : (
            <p className="muted">The revision before this one is older than the listed ones.</p>
          )}
        </>
      )}
    </div>
  );
}
