// An adapter's environment variables as rows: a name, then a plain value or one of the company's
// secrets picked by name. It writes the binding the API stores (SPEC "Secret reference"): a plain
// string, or { type: 'secret_ref', secretId, version } with `latest` unless a version was pinned.
// A value the rows cannot show (not an object, or an entry of another shape) stays raw JSON.
import { useQuery } from '@tanstack/react-query';
import { KeyRound, Plus, X } from 'lucide-react';
import { useState } from 'react';
import { useParams } from 'react-router';
import { secretsQuery } from '../../queries/secrets';
import { ErrorNotice } from '../ErrorNotice';
import { Button, IconButton } from '../ui/Button';
import { Select } from '../ui/Combobox';

interface EnvRow {
  key: number;
  name: string;
  kind: 'plain' | 'secret';
  value: string;
  secretId: string;
  version: 'latest' | number;
}

type Binding = string | { type: 'secret_ref'; secretId: string; version: 'latest' | number };

let nextKey = 0;
const row = (fields: Partial<EnvRow>): EnvRow => ({
  key: nextKey++,
  name: '',
  kind: 'plain',
  value: '',
  secretId: '',
  version: 'latest',
  ...fields,
});

/** The rows of an env's JSON text, or null when the rows cannot show it. */
function parseRows(text: string): EnvRow[] | null {
  if (text.trim() === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
  const rows: EnvRow[] = [];
  for (const [name, value] of Object.entries(parsed)) {
    if (typeof value === 'string') rows.push(row({ name, value }));
    else if (value && typeof value === 'object' && 'type' in value) {
      const binding = value as { type: unknown; value?: unknown; secretId?: unknown; version?: unknown };
      if (binding.type === 'plain' && typeof binding.value === 'string') rows.push(row({ name, value: binding.value }));
      else if (binding.type === 'secret_ref' && typeof binding.secretId === 'string')
        rows.push(
          row({
            name,
            kind: 'secret',
            secretId: binding.secretId,
            version: typeof binding.version === 'number' ? binding.version : 'latest',
          }),
        );
      else return null;
    } else return null;
  }
  return rows;
}

function serialise(rows: EnvRow[]): string {
  const named = rows.filter((r) => r.name.trim() !== '');
  if (named.length === 0) return '';
  const env: Record<string, Binding> = {};
  for (const r of named)
    env[r.name.trim()] =
      r.kind === 'plain' ? r.value : { type: 'secret_ref', secretId: r.secretId, version: r.version };
  return JSON.stringify(env, null, 2);
}

const KINDS = [
  { value: 'plain' as const, label: 'Plain value' },
  { value: 'secret' as const, label: 'Secret', icon: KeyRound },
];

export function EnvField({
  id,
  label,
  hint,
  error,
  value,
  onChange,
}: {
  id: string;
  label: string;
  hint: string | null;
  error?: string;
  /** The env as JSON text (the form's draft). */
  value: string;
  onChange: (value: string) => void;
}) {
  const { companyId = '' } = useParams();
  const [rows, setRows] = useState(() => parseRows(value));
  const secrets = useQuery({ ...secretsQuery(companyId), enabled: companyId !== '' && rows !== null });
  const update = (next: EnvRow[]) => {
    setRows(next);
    onChange(serialise(next));
  };
  const change = (key: number, fields: Partial<EnvRow>) =>
    update((rows ?? []).map((r) => (r.key === key ? { ...r, ...fields } : r)));
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;

  return (
    <fieldset
      className="schema-fieldset env-field"
      aria-describedby={[hint && hintId, error && errorId].filter(Boolean).join(' ') || undefined}
    >
      <legend>{label}</legend>
      {hint && (
        <p className="hint" id={hintId}>
          {hint}
        </p>
      )}
      {rows === null ? (
        <>
          <label htmlFor={id}>{label} (JSON)</label>
          <textarea
            id={id}
            className="mono"
            rows={4}
            spellCheck={false}
            value={value}
            aria-invalid={error ? true : undefined}
            onChange={(event) => onChange(event.target.value)}
          />
        </>
      ) : (
        <>
          {rows.length === 0 && <p className="muted">No variables.</p>}
          {rows.map((r, index) => {
            const name = r.name.trim() || `variable ${index + 1}`;
            return (
              <div key={r.key} className="env-row">
                <input
                  type="text"
                  aria-label={`Name of variable ${index + 1}`}
                  placeholder="NAME"
                  className="mono"
                  spellCheck={false}
                  value={r.name}
                  onChange={(event) => change(r.key, { name: event.target.value })}
                />
                <Select
                  aria-label={`Kind of ${name}`}
                  value={r.kind}
                  options={KINDS}
                  onChange={(kind) => change(r.key, { kind })}
                />
                {r.kind === 'plain' ? (
                  <input
                    type="text"
                    aria-label={`Value of ${name}`}
                    spellCheck={false}
                    value={r.value}
                    onChange={(event) => change(r.key, { value: event.target.value })}
                  />
                ) : (
                  <Select
                    aria-label={`Secret for ${name}`}
                    placeholder="Choose a secret…"
                    searchPlaceholder="Find a secret…"
                    emptyText="No secret by that name. Add one on the Secrets page."
                    value={r.secretId || null}
                    options={(secrets.data ?? []).map((secret) => ({
                      value: secret.id,
                      label: secret.name,
                      icon: KeyRound,
                      hint: r.secretId === secret.id && r.version !== 'latest' ? `version ${r.version}` : undefined,
                    }))}
                    onChange={(secretId) => change(r.key, { secretId, version: 'latest' })}
                  />
                )}
                <IconButton
                  icon={X}
                  aria-label={`Remove ${name}`}
                  onClick={() => update(rows.filter((other) => other.key !== r.key))}
                />
              </div>
            );
          })}
          <div>
            <Button size="sm" icon={Plus} onClick={() => update([...rows, row({})])}>
              Add variable
            </Button>
          </div>
          {secrets.isError && (
            <ErrorNotice
              error={secrets.error}
              retry={() => secrets.refetch()}
              title="The secrets could not be loaded"
            />
          )}
        </>
      )}
      {error && (
        <span className="field-error" id={errorId}>
          {error}
        </span>
      )}
    </fieldset>
  );
}
