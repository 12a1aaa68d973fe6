// The issue title as the page heading; Edit (or a click) turns it into a field: Enter saves, Escape
// cancels.
import { useState } from 'react';
import { Pencil } from 'lucide-react';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Button, IconButton } from '../../components/ui/Button';
import { usePatchIssue } from './usePatchIssue';

export function InlineTitle({ title, companyId, issueId }: { title: string; companyId: string; issueId: string }) {
  const patch = usePatchIssue(companyId, issueId);
  const [draft, setDraft] = useState<string | null>(null);
  const save = () => {
    const next = draft?.trim();
    if (!next || next === title) return setDraft(null);
    patch.mutate({ title: next }, { onSuccess: () => setDraft(null) });
  };
  if (draft === null) {
    return (
      <div className="issue-title">
        <h1 onDoubleClick={() => setDraft(title)}>{title}</h1>
        <IconButton icon={Pencil} size="sm" onClick={() => setDraft(title)} aria-label="Edit title" />
      </div>
    );
  }
  return (
    <div className="issue-title-edit">
      <h1 className="visually-hidden">{title}</h1>
      <input
        aria-label="Title"
        className="issue-title-input"
        value={draft}
        maxLength={500}
        autoFocus
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') save();
          if (event.key === 'Escape') setDraft(null);
        }}
      />
      <div className="row">
        <Button variant="primary" loading={patch.isPending} onClick={save}>
          {patch.isPending ? 'Saving…' : 'Save title'}
        </Button>
        <Button variant="ghost" onClick={() => setDraft(null)}>
          Cancel
        </Button>
        <span className="muted">Enter saves, Escape cancels</span>
      </div>
      {patch.isError && <ErrorNotice error={patch.error} title="The title was not saved" />}
    </div>
  );
}
