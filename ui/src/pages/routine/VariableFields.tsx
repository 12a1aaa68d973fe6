// The routine's variables as a table of inputs: name, label, type, required, default; rows added and
// removed here, all saved with the work.
import { Select } from '../../components/ui/Combobox';
import { enumLabel } from '../../lib/format';
import type { ReactNode } from 'react';
import { VARIABLE_TYPES, type VariableDraft } from './variables';

/** The server's bound (routines/schemas.ts MAX_VARIABLES). */
const MAX_VARIABLES = 50;

export function VariableFields({
  drafts,
  disabled,
  onChange,
}: {
  drafts: VariableDraft[];
  disabled: boolean;
  onChange: (drafts: VariableDraft[]) => void;
}) {
  const set = (index: number, patch: Partial<VariableDraft>) =>
    onChange(drafts.map((draft, i) => (i === index ? { ...draft, ...patch } : draft)));
  return (
    <fieldset className="routine-variables" disabled={disabled}>
      <legend>Variables</legend>
      {drafts.length === 0 ? (
        <p className="muted">
          None. A variable is asked for when the routine is run by hand; schedules use its default.
        </p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Label</th>
              <th scope="col">Type</th>
              <th scope="col">Required</th>
              <th scope="col">Default</th>
              <th scope="col">
                <span className="visually-hidden">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {drafts.map((draft, index) => {
              const which = draft.name || `variable ${index + 1}`;
              return (
                <tr key={index}>
                  <td>
                    <input
                      className="mono"
                      aria-label={`Name of ${which}`}
                      required
                      maxLength={64}
                      pattern="[A-Za-z_][A-Za-z0-9_]*"
                      value={draft.name}
                      onChange={(event) => set(index, { name: event.target.value })}
                    />
                  </td>
                  <td>
                    <input
                      aria-label={`Label of ${which}`}
                      maxLength={200}
                      value={draft.label}
                      placeholder="What a person sees"
                      onChange={(event) => set(index, { label: event.target.value })}
                    />
                  </td>
                  <td>
                    <Select
                      aria-label={`Type of ${which}`}
                      value={draft.type}
                      onChange={(type) => set(index, { type, defaultValue: '' })}
                      options={VARIABLE_TYPES.map((type) => ({ value: type, label: enumLabel(type) }))}
                    />
                  </td>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`${which} is required`}
                      checked={draft.required}
                      onChange={(event) => set(index, { required: event.target.checked })}
                    />
                  </td>
                  <td>
                    <ValueInput
                      type={draft.type}
                      label={`Default of ${which}`}
                      value={draft.defaultValue}
                      onChange={(defaultValue) => set(index, { defaultValue })}
                    />
                  </td>
                  <td>
                    <button
                      type="button"
                      className="quiet"
                      aria-label={`Remove ${which}`}
                      onClick={() => onChange(drafts.filter((_, i) => i !== index))}
                    >
                      Remove
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {drafts.length < MAX_VARIABLES && (
        <button
          type="button"
          onClick={() =>
            onChange([...drafts, { name: '', label: '', type: 'text', required: false, defaultValue: '' }])
          }
        >
          Add variable
        </button>
      )}
    </fieldset>
  );
}

/** One value as its type takes it: text, a number, or yes / no / none for a boolean. */
export function ValueInput({
  type,
  label,
  value,
  onChange,
  id,
  required = false,
}: {
  type: VariableDraft['type'];
  label?: string;
  value: string;
  onChange: (value: string) => void;
  id?: string;
  required?: boolean;
}): ReactNode {
  const common = { id, 'aria-label': label, required };
  if (type === 'boolean')
    return (
      <Select
        id={id}
        aria-label={label}
        value={value}
        onChange={onChange}
        options={[
          { value: '', label: required ? 'Choose…' : 'None' },
          { value: 'true', label: 'Yes' },
          { value: 'false', label: 'No' },
        ]}
      />
    );
  return (
    <input
      {...common}
      type={type === 'number' ? 'number' : 'text'}
      step="any"
      value={value}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}
