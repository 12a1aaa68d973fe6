// The markdown description, rendered safely; Edit opens a text area: Ctrl/Cmd-Enter saves, Escape
// cancels.
import { useState } from 'react';
import { Pencil } from 'lucide-react';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Button } from '../../components/ui/Button';
import { Markdown } from '../../components/Markdown';
import { usePatchIssue } from './usePatchIssue';

export function InlineDescription({
  description,
  companyId,
  issueId,
}: {
  description: string | null;
  companyId: string;
  issueId: string;
}) {
  const patch = usePatchIssue(companyId, issueId);
  const [draft, setDraft] = useState<string | null>(null);
  const save = () => {
    if (draft === null) return;
    if (draft === (description ?? '')) return setDraft(null);
    patch.mutate({ description: draft.trim() ? draft : null }, { onSuccess: () => setDraft(null) });
  };
  if (draft === null) {
    return (
      <section className="issue-description" aria-label="Description">
        {description ? <Markdown text={description} headingLevel={2} /> : <p className="muted">No description yet.</p>}
        <Button variant="ghost" size="sm" icon={Pencil} onClick={() => setDraft(description ?? '')}>
          Edit description
        </Button>
      </section>
    );
  }
  return (
    <section className="issue-description" aria-label="Description">
      <textarea
        aria-label="Description (markdown)"
        className="issue-description-input"
        value={draft}
        autoFocus
        rows={10}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) save();
          if (event.key === 'Escape') setDraft(null);
        }}
      />
      <div className="row">
        <Button variant="primary" loading={patch.isPending} onClick={save}>
          {patch.isPending ? 'Saving…' : 'Save description'}
        </Button>
        <Button variant="ghost" onClick={() => setDraft(null)}>
          Cancel
        </Button>
        <span className="muted">Ctrl-Enter saves, Escape cancels</span>
      </div>
      {patch.isError && <ErrorNotice error={patch.error} title="The description was not saved" />}
    </section>
  );
}
