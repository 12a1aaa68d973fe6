// The adapter config form's model: which field kind a JSON-schema property is drawn as, the form's
// draft of a config (text for what is typed, booleans for checkboxes), and back again with the
// problems found in what was typed. What the form cannot draw stays raw JSON, edited as text.
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  description?: string;
  title?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
}

export type FieldKind = 'string' | 'enum' | 'number' | 'integer' | 'boolean' | 'string-list' | 'object' | 'json';

export type Draft = { [key: string]: DraftValue };
export type DraftValue = string | boolean | Draft;

const typeOf = (schema: JsonSchema): string | undefined =>
  Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value);

export function kindOf(schema: JsonSchema): FieldKind {
  if (Array.isArray(schema.enum) && schema.enum.every((v) => typeof v === 'string')) return 'enum';
  const type = typeOf(schema);
  if (type === 'string' || type === 'boolean' || type === 'number' || type === 'integer') return type;
  if (type === 'array' && schema.items && typeOf(schema.items) === 'string' && !schema.items.enum) return 'string-list';
  if (type === 'object' && schema.properties && Object.keys(schema.properties).length > 0) return 'object';
  return 'json';
}

/** The draft of `value` for the fields `schema.properties` describes. */
export function toDraft(schema: JsonSchema, value: Record<string, unknown>): Draft {
  const draft: Draft = {};
  for (const [key, field] of Object.entries(schema.properties ?? {})) draft[key] = fieldDraft(field, value[key]);
  return draft;
}

/** The draft of one field's value (its empty draft for `undefined`). */
export function fieldDraft(schema: JsonSchema, value: unknown): DraftValue {
  switch (kindOf(schema)) {
    case 'boolean':
      return typeof value === 'boolean' ? value : schema.default === true;
    case 'string':
    case 'enum':
      return typeof value === 'string' ? value : '';
    case 'number':
    case 'integer':
      return typeof value === 'number' ? String(value) : '';
    case 'string-list':
      return Array.isArray(value) ? value.join('\n') : '';
    case 'object':
      return toDraft(schema, isPlainObject(value) ? value : {});
    case 'json':
      return value === undefined ? '' : JSON.stringify(value, null, 2);
  }
}

/** The config a draft stands for (empty fields left out), and what is wrong with it by field path. */
export function fromDraft(
  schema: JsonSchema,
  draft: Draft,
  path: string,
): { value: Record<string, unknown>; errors: Record<string, string> } {
  const value: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const [key, field] of Object.entries(schema.properties ?? {})) {
    const fieldPath = `${path}/${key}`;
    const entry = draft[key];
    if (entry === undefined) continue;
    const kind = kindOf(field);
    if (kind === 'object') {
      const nested = fromDraft(field, entry as Draft, fieldPath);
      Object.assign(errors, nested.errors);
      if (Object.keys(nested.value).length > 0) value[key] = nested.value;
      continue;
    }
    if (kind === 'boolean') {
      value[key] = entry === true;
      continue;
    }
    const text = String(entry);
    if (text.trim() === '') continue;
    if (kind === 'number' || kind === 'integer') {
      const number = Number(text);
      if (!Number.isFinite(number) || (kind === 'integer' && !Number.isInteger(number)))
        errors[fieldPath] = kind === 'integer' ? 'Enter a whole number.' : 'Enter a number.';
      else value[key] = number;
    } else if (kind === 'string-list') {
      value[key] = text.split('\n').filter((line) => line.length > 0);
    } else if (kind === 'json') {
      try {
        value[key] = JSON.parse(text);
      } catch (error) {
        errors[fieldPath] = `Not valid JSON: ${(error as Error).message}`;
      }
    } else {
      value[key] = text;
    }
  }
  return { value, errors };
}

/** The keys of `value` the schema does not describe: kept, and edited as raw JSON. */
export function otherKeys(schema: JsonSchema, value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([key]) => !(key in (schema.properties ?? {}))));
}

/** Config keys whose plain reading would mislead (an abbreviation, a unit in the key). */
const FIELD_WORDS: Record<string, string> = {
  cwd: 'Working directory',
  env: 'Environment variables',
  args: 'Arguments',
  url: 'URL',
  graceSec: 'Grace period (seconds)',
};
const UNITS: [RegExp, string][] = [
  [/Sec$/, 'seconds'],
  [/Ms$/, 'milliseconds'],
  [/Cents$/, 'cents'],
];

/** A field's label in words: its schema title, else its key ("timeoutSec" → "Timeout (seconds)"). */
export function fieldLabel(key: string, schema: JsonSchema): string {
  if (schema.title) return schema.title;
  const known = FIELD_WORDS[key];
  if (known) return known;
  const unit = UNITS.find(([suffix]) => suffix.test(key));
  const base = unit ? key.replace(unit[0], '') : key;
  const spaced = base
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .trim()
    .toLowerCase()
    .replace(/\b(url|api|id|http|json|mcp|cli)\b/g, (word) => word.toUpperCase());
  const words = spaced.charAt(0).toUpperCase() + spaced.slice(1);
  return unit ? `${words} (${unit[1]})` : words;
}

/** A sentence from a schema description written as a phrase ("the run's deadline" → "The run's deadline."). */
export function sentence(text: string | undefined): string | null {
  const trimmed = text?.trim();
  if (!trimmed) return null;
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

export const fieldId = (path: string) => `field${path.replace(/[^A-Za-z0-9]+/g, '-')}`;

/** The paths of the fields the form draws for `schema` (nested objects' fields included). */
export function fieldPaths(schema: JsonSchema, path: string): string[] {
  return Object.entries(schema.properties ?? {}).flatMap(([key, field]) =>
    kindOf(field) === 'object' ? fieldPaths(field, `${path}/${key}`) : [`${path}/${key}`],
  );
}
