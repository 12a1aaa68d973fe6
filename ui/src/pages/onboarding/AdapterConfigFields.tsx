// The adapter's required config fields, read from its JSON Schema (GET /api/adapters/{type}/config-
// schema), plus its arguments when it takes any: enough to run. The agent page has the full form.
import { useQuery } from '@tanstack/react-query';
import { ErrorNotice } from '../../components/ErrorNotice';
import type { JsonSchema } from '../../components/schema-form/schema-form';
import { Loading } from '../../components/Loading';
import { adapterConfigSchemaQuery } from '../../queries/instance';
import { FieldError } from './StepActions';

export interface ConfigField {
  key: string;
  required: boolean;
  kind: 'text' | 'number' | 'lines';
  description: string;
}

/** Required fields of the schema, then `args` (a list of strings) when the schema has it. */
export function configFields(schema: JsonSchema): ConfigField[] {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const keys = [...required, ...('args' in properties && !required.has('args') ? ['args'] : [])];
  return keys.flatMap((key) => {
    const property = properties[key];
    if (!property) return [];
    const type = Array.isArray(property.type) ? property.type[0] : property.type;
    const kind = type === 'array' ? 'lines' : type === 'number' || type === 'integer' ? 'number' : 'text';
    return [{ key, required: required.has(key), kind, description: property.description ?? '' }];
  });
}

/** Field text → adapterConfig value (lines become a list; empty optional fields are left out). */
export function configValue(field: ConfigField, text: string): unknown {
  if (field.kind === 'lines')
    return text
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
  if (field.kind === 'number') return Number(text);
  return text.trim();
}

/** The adapter's fields, from the config schema the agent page's form reads too (one cache entry). */
export function useConfigFields(type: string) {
  return useQuery({ ...adapterConfigSchemaQuery(type), select: configFields });
}

export function AdapterConfigFields({
  type,
  values,
  errors,
  onChange,
}: {
  type: string;
  values: Record<string, string>;
  errors: Record<string, string>;
  onChange: (key: string, text: string) => void;
}) {
  const fields = useConfigFields(type);
  if (!type) return null;
  if (fields.isPending) return <Loading label="Loading the adapter's settings" />;
  if (fields.isError)
    return (
      <ErrorNotice
        error={fields.error}
        retry={() => fields.refetch()}
        title="The adapter's settings could not be loaded"
      />
    );
  if (fields.data.length === 0)
    return <p className="muted">This adapter needs no settings to start; its defaults apply.</p>;
  return (
    <div className="adapter-config">
      {fields.data.map((field) => {
        const id = `config-${field.key}`;
        const error = errors[field.key];
        const common = {
          id,
          value: values[field.key] ?? '',
          'aria-invalid': error ? true : undefined,
          'aria-describedby': `${id}-hint${error ? ` ${id}-error` : ''}`,
          required: field.required,
        };
        return (
          <div className="field" key={field.key}>
            <label htmlFor={id}>
              {field.key}
              {field.kind === 'lines' && <span className="muted"> (one per line)</span>}
              {!field.required && <span className="muted"> (optional)</span>}
            </label>
            {field.kind === 'lines' ? (
              <textarea
                {...common}
                rows={2}
                className="mono"
                onChange={(event) => onChange(field.key, event.target.value)}
              />
            ) : (
              <input
                {...common}
                type={field.kind === 'number' ? 'number' : 'text'}
                className="mono"
                onChange={(event) => onChange(field.key, event.target.value)}
              />
            )}
            <span id={`${id}-hint`} className="hint">
              {field.description}
            </span>
            <FieldError id={`${id}-error`} message={error} />
          </div>
        );
      })}
    </div>
  );
}
