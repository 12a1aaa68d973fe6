// One settings form over a JSON schema: the fields SchemaFields draws, raw JSON for the keys the
// schema does not describe (when asked to keep them), and a save that shows the server's answer:
// a 400's field paths next to their fields, anything else (422, 409, ...) above the button.
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../api/client';
import { ErrorNotice } from '../ErrorNotice';
import { fieldErrorsByPath } from '../../api/field-errors';
import { fieldId, fieldPaths, fromDraft, otherKeys, toDraft, type JsonSchema } from './schema-form';
import { SchemaFields } from './SchemaFields';

interface ConfigFormProps {
  title: string;
  description?: string;
  schema: JsonSchema;
  value: Record<string, unknown>;
  /** The body path of this config in the PATCH ('/adapterConfig'), to match the server's error paths. */
  path: string;
  /** Keep keys the schema does not describe, edited as raw JSON. */
  withOtherKeys: boolean;
  save: (value: Record<string, unknown>) => Promise<Record<string, unknown>>;
}

export function ConfigForm({ title, description, schema, value, path, withOtherKeys, save }: ConfigFormProps) {
  const [draft, setDraft] = useState(() => toDraft(schema, value));
  const [otherText, setOtherText] = useState(() => JSON.stringify(otherKeys(schema, value), null, 2));
  const [formErrors, setFormErrors] = useState<Record<string, string>>({});
  const mutation = useMutation({
    mutationFn: save,
    onSuccess: (saved) => {
      setDraft(toDraft(schema, saved));
      setOtherText(JSON.stringify(otherKeys(schema, saved), null, 2));
    },
  });
  const serverErrors =
    mutation.error instanceof ApiError && mutation.error.status === 400
      ? fieldErrorsByPath(mutation.error.details)
      : {};
  const errors = { ...serverErrors, ...formErrors };
  const otherPath = `${path}/(other)`;
  const placed = new Set([...fieldPaths(schema, path), ...(withOtherKeys ? [otherPath] : [])]);
  const unplaced = Object.keys(serverErrors).filter((p) => !placed.has(p));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    mutation.reset();
    const { value: next, errors: found } = fromDraft(schema, draft, path);
    let other: Record<string, unknown> = {};
    if (withOtherKeys && otherText.trim() !== '') {
      try {
        const parsed: unknown = JSON.parse(otherText);
        if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) found[otherPath] = 'Enter a JSON object.';
        else other = parsed as Record<string, unknown>;
      } catch (error) {
        found[otherPath] = `Not valid JSON: ${(error as Error).message}`;
      }
    }
    setFormErrors(found);
    if (Object.keys(found).length === 0) mutation.mutate({ ...other, ...next });
  };

  // An edit retires the problems found at the last save attempt; the next save checks again.
  const edit =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setFormErrors({});
    };

  const headingId = `${fieldId(path)}-heading`;
  return (
    <form className="card config-form" aria-labelledby={headingId} onSubmit={submit} noValidate>
      <h2 id={headingId}>{title}</h2>
      {description && <p className="muted">{description}</p>}
      <SchemaFields schema={schema} draft={draft} path={path} errors={errors} onChange={edit(setDraft)} />
      {withOtherKeys && (
        <div className="field">
          <label htmlFor={fieldId(otherPath)}>Other settings (JSON)</label>
          <textarea
            id={fieldId(otherPath)}
            className="mono"
            rows={4}
            spellCheck={false}
            value={otherText}
            aria-invalid={errors[otherPath] ? true : undefined}
            aria-describedby={`${fieldId(otherPath)}-hint${errors[otherPath] ? ` ${fieldId(otherPath)}-error` : ''}`}
            onChange={(event) => edit(setOtherText)(event.target.value)}
          />
          <span className="hint" id={`${fieldId(otherPath)}-hint`}>
            Keys this form has no field for, kept as they are unless edited here.
          </span>
          {errors[otherPath] && (
            <span className="field-error" id={`${fieldId(otherPath)}-error`}>
              {errors[otherPath]}
            </span>
          )}
        </div>
      )}
      {Object.keys(formErrors).length > 0 && (
        <p className="notice notice-error" role="alert">
          Fix the fields marked above, then save again.
        </p>
      )}
      {mutation.isError && (
        <ErrorNotice error={mutation.error} title={`${title} were not saved`}>
          {unplaced.length > 0 && (
            <ul>
              {unplaced.map((p) => (
                <li key={p}>
                  <code>{p}</code>: {serverErrors[p]}
                </li>
              ))}
            </ul>
          )}
        </ErrorNotice>
      )}
      {mutation.isSuccess && (
        <p className="notice" role="status">
          Saved.
        </p>
      )}
      <div>
        <button type="submit" className="primary" disabled={mutation.isPending}>
          {mutation.isPending ? 'Saving…' : `Save ${title.toLowerCase()}`}
        </button>
      </div>
    </form>
  );
}
