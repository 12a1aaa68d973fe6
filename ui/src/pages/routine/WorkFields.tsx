// The routine's work: the title and description each run's issue gets ({{variables}} allowed when declared).
import { useState, type FormEvent } from 'react';
import { ErrorNotice } from '../../components/ErrorNotice';
import type { RoutineDetail } from '../routines/model';

export function WorkFields({ routine, pending, error, onSave }: { routine: RoutineDetail; pending: boolean; error: unknown; onSave: (body: { title: string; description: string | null }) => void }) {
  const [title, setTitle] = useState(routine.title);
  const [description, setDescription] = useState(routine.description ?? '');
  const changed = title.trim() !== routine.title || (description.trim() || null) !== (routine.description ?? null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (changed && title.trim()) onSave({ title: title.trim(), description: description.trim() || null });
  };
  return (
    <form onSubmit={submit} aria-label="The work">
      <div className="field">
        <label htmlFor="routine-work-title">Issue title</label>
        <input id="routine-work-title" required maxLength={500} value={title} disabled={routine.status === 'archived'} onChange={(event) => setTitle(event.target.value)} />
      </div>
      <div className="field">
        <label htmlFor="routine-work-description">Issue description</label>
        <textarea id="routine-work-description" value={description} disabled={routine.status === 'archived'} aria-describedby="routine-work-hint" onChange={(event) => setDescription(event.target.value)} />
        <span id="routine-work-hint" className="hint">
          Markdown. Each run&apos;s issue gets this title and description.
        </span>
      </div>
      {Boolean(error) && <ErrorNotice error={error} title="The work was not saved" />}
      <button type="submit" disabled={pending || !changed || !title.trim()}>
        Save title and description
      </button>
    </form>
  );
}
