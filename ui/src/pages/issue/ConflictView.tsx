// Someone saved the document while it was being edited. Shows their version against yours and lets
// the person keep theirs (discard the edit), keep mine, or edit a merge; either save goes against
// their (now latest) revision, so a further race shows here again rather than overwriting.
import { useState } from 'react';
import { DiffView } from './DiffView';
import type { IssueDocument } from '../../queries/documents';

export function ConflictView({
  name,
  mine,
  theirs,
  saving,
  onSave,
  onTakeTheirs,
}: {
  name: string;
  mine: string;
  theirs: IssueDocument;
  saving: boolean;
  onSave: (body: string) => void;
  onTakeTheirs: () => void;
}) {
  const [merge, setMerge] = useState<string | null>(null);
  return (
    <div className="conflict" role="region" aria-label={`Conflict in ${name}`}>
      <div className="notice notice-warning" role="alert">
        <strong>{name} changed while you were editing.</strong>
        <p>
          Revision {theirs.latestRevisionNumber} was saved meanwhile. Your text is kept below: compare, then keep
          theirs, keep yours, or edit a merge.
        </p>
      </div>
      <DiffView before={theirs.body} after={mine} label="Their version (−) against yours (+)" />
      {merge === null ? (
        <div className="row">
          <button type="button" onClick={onTakeTheirs}>
            Keep theirs
          </button>
          <button type="button" disabled={saving} onClick={() => onSave(mine)}>
            Keep mine
          </button>
          <button type="button" className="primary" onClick={() => setMerge(mine)}>
            Edit a merge
          </button>
        </div>
      ) : (
        <div className="document-editor">
          <textarea
            aria-label="Merged text"
            value={merge}
            rows={14}
            autoFocus
            onChange={(event) => setMerge(event.target.value)}
          />
          <div className="row">
            <button type="button" className="primary" disabled={saving} onClick={() => onSave(merge)}>
              {saving ? 'Saving…' : 'Save merge'}
            </button>
            <button type="button" onClick={() => setMerge(null)}>
              Back to the comparison
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
