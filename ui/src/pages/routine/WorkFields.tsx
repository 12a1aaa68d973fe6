// The routine's work: the title and description each run's issue gets, and the variables their
// `{{name}}` placeholders are filled from. All three are saved together: the server refuses a
// placeholder that is not declared, so a new placeholder and its variable go in one save.
import { useState, type FormEvent } from 'react';
import { ErrorNotice } from '../../components/ErrorNotice';
import type { RoutineDetail } from '../../queries/routines';
import { VariableFields } from './VariableFields';
import { draftOf, placeholdersIn, variableOf, type Variable, type VariableDraft } from './variables';

export interface WorkPatch {
  title: string;
  description: string | null;
  variables: Variable[];
}

export function WorkFields({
  routine,
  pending,
  error,
  onSave,
}: {
  routine: RoutineDetail;
  pending: boolean;
  error: unknown;
  onSave: (body: WorkPatch) => void;
}) {
  const [title, setTitle] = useState(routine.title);
  const [description, setDescription] = useState(routine.description ?? '');
  const [drafts, setDrafts] = useState<VariableDraft[]>(() => routine.variables.map(draftOf));
  const variables = drafts.map(variableOf);
  const changed =
    title.trim() !== routine.title ||
    (description.trim() || null) !== (routine.description ?? null) ||
    JSON.stringify(variables) !== JSON.stringify(routine.variables.map((v) => variableOf(draftOf(v))));
  const undeclared = placeholdersIn(`${title}\n${description}`).filter(
    (name) => !variables.some((variable) => variable.name === name),
  );
  const archived = routine.status === 'archived';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (changed && title.trim()) onSave({ title: title.trim(), description: description.trim() || null, variables });
  };
  const declare = (name: string) =>
    setDrafts([...drafts, { name, label: '', type: 'text', required: false, defaultValue: '' }]);
  return (
    <form onSubmit={submit} aria-label="The work">
      <div className="field">
        <label htmlFor="routine-work-title">Issue title</label>
        <input
          id="routine-work-title"
          required
          maxLength={500}
          value={title}
          disabled={archived}
          onChange={(event) => setTitle(event.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor="routine-work-description">Issue description</label>
        <textarea
          id="routine-work-description"
          value={description}
          disabled={archived}
          aria-describedby="routine-work-hint"
          onChange={(event) => setDescription(event.target.value)}
        />
        <span id="routine-work-hint" className="hint">
          Markdown. Each run&apos;s issue gets this title and description; <code>{'{{name}}'}</code> puts in the value
          of a variable declared below.
        </span>
      </div>
      {undeclared.length > 0 && (
        <p className="notice notice-warning">
          Not declared yet, so this cannot be saved:{' '}
          {undeclared.map((name) => (
            <button key={name} type="button" className="quiet" onClick={() => declare(name)}>
              Declare {name}
            </button>
          ))}
        </p>
      )}
      <VariableFields drafts={drafts} disabled={archived} onChange={setDrafts} />
      {Boolean(error) && <ErrorNotice error={error} title="The work was not saved" />}
      <button type="submit" disabled={pending || !changed || !title.trim() || archived}>
        Save the work
      </button>
    </form>
  );
}
