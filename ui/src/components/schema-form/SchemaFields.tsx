// Draws the fields of a JSON schema's properties: text, number, checkbox, a Select for an enum (its
// values in words), one line per entry for a string list, a fieldset for a nested object, rows with a
// secret picker for `env` and a JSON text area for the rest. Labels are words, never raw keys.
// Each field carries its description as a hint and its error (from the form or the server) below it,
// tied with aria-describedby and aria-invalid.
import type { ReactNode } from 'react';
import { Select } from '../ui/Combobox';
import { enumLabel } from '../../lib/format';
import { EnvField } from './EnvField';
import {
  fieldDraft,
  fieldId,
  fieldLabel,
  kindOf,
  sentence,
  type Draft,
  type DraftValue,
  type JsonSchema,
} from './schema-form';

interface FieldsProps {
  schema: JsonSchema;
  draft: Draft;
  path: string;
  errors: Record<string, string>;
  onChange: (draft: Draft) => void;
}

export function SchemaFields({ schema, draft, path, errors, onChange }: FieldsProps) {
  return (
    <>
      {Object.entries(schema.properties ?? {}).map(([key, field]) => (
        <SchemaField
          key={key}
          name={key}
          schema={field}
          required={schema.required?.includes(key) ?? false}
          // A property the draft does not hold (the schema changed under the form) starts empty.
          value={draft[key] ?? fieldDraft(field, undefined)}
          path={`${path}/${key}`}
          errors={errors}
          onChange={(value) => onChange({ ...draft, [key]: value })}
        />
      ))}
    </>
  );
}

function SchemaField({
  name,
  schema,
  required,
  value,
  path,
  errors,
  onChange,
}: {
  name: string;
  schema: JsonSchema;
  required: boolean;
  value: DraftValue;
  path: string;
  errors: Record<string, string>;
  onChange: (value: DraftValue) => void;
}) {
  const id = fieldId(path);
  const kind = kindOf(schema);
  const label = fieldLabel(name, schema);
  const error = errors[path];
  const hint = [
    sentence(schema.description),
    defaultHint(schema),
    kind === 'string-list' ? 'One per line.' : null,
    kind === 'json' ? 'JSON.' : null,
  ]
    .filter(Boolean)
    .join(' ');
  const describedBy = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  const common = { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy } as const;
  let control: ReactNode;
  switch (kind) {
    case 'object':
      // A nested object is a group of its own fields, each with its own hint and error.
      return (
        <fieldset className="schema-fieldset">
          <legend>{label}</legend>
          {schema.description && <p className="hint">{sentence(schema.description)}</p>}
          <SchemaFields schema={schema} draft={value as Draft} path={path} errors={errors} onChange={onChange} />
        </fieldset>
      );
    case 'json':
      // Environment variables (adapterConfig.env): one row each, a plain value or a company secret.
      if (name === 'env')
        return (
          <EnvField
            id={id}
            label={label}
            hint={sentence(schema.description)}
            error={error}
            value={value as string}
            onChange={onChange}
          />
        );
      control = (
        <textarea
          {...common}
          className="mono"
          rows={4}
          spellCheck={false}
          value={value as string}
          onChange={(event) => onChange(event.target.value)}
        />
      );
      break;
    case 'boolean':
      control = (
        <input
          type="checkbox"
          {...common}
          checked={value === true}
          onChange={(event) => onChange(event.target.checked)}
        />
      );
      break;
    case 'enum':
      control = (
        <Select
          id={id}
          aria-describedby={describedBy}
          value={value as string}
          onChange={onChange}
          options={[
            { value: '', label: required ? 'Choose…' : 'Not set' },
            ...(schema.enum as string[]).map((option) => ({ value: option, label: enumLabel(option) })),
          ]}
        />
      );
      break;
    case 'number':
    case 'integer':
      control = (
        <input
          type="number"
          inputMode={kind === 'integer' ? 'numeric' : 'decimal'}
          step={kind === 'integer' ? 1 : 'any'}
          {...common}
          value={value as string}
          onChange={(event) => onChange(event.target.value)}
        />
      );
      break;
    case 'string':
      control = (
        <input type="text" {...common} value={value as string} onChange={(event) => onChange(event.target.value)} />
      );
      break;
    case 'string-list':
      control = (
        <textarea
          {...common}
          rows={3}
          spellCheck={false}
          value={value as string}
          onChange={(event) => onChange(event.target.value)}
        />
      );
      break;
  }
  return (
    <div className={`field ${kind === 'boolean' ? 'field-inline' : ''}`}>
      <label htmlFor={id}>
        {label}
        {required && <span aria-hidden="true"> *</span>}
        {required && <span className="visually-hidden"> (required)</span>}
      </label>
      {control}
      {hint && (
        <span className="hint" id={`${id}-hint`}>
          {hint}
        </span>
      )}
      {error && (
        <span className="field-error" id={`${id}-error`}>
          {error}
        </span>
      )}
    </div>
  );
}

function defaultHint(schema: JsonSchema): string | null {
  if (schema.default === undefined || (Array.isArray(schema.default) && schema.default.length === 0)) return null;
  const value = schema.default;
  return `Default: ${typeof value === 'string' && schema.enum ? enumLabel(value) : JSON.stringify(value)}.`;
}
