// A routine's variables as the forms edit them: every value as the text of its input, converted to
// the declared type only when sent (an empty input is "no value").
import type { RoutineDetail } from '../../queries/routines';

export type Variable = RoutineDetail['variables'][number];
export type VariableType = Variable['type'];
export type VariableValue = NonNullable<Variable['defaultValue']>;

export interface VariableDraft {
  name: string;
  label: string;
  type: VariableType;
  required: boolean;
  defaultValue: string;
}

export const VARIABLE_TYPES: VariableType[] = ['text', 'number', 'boolean'];

export function toInput(value: Variable['defaultValue'] | undefined): string {
  return value === null || value === undefined ? '' : String(value);
}

/** The input's text as a value of `type`; null for an empty input. A number the browser let through unparsed stays text, for the server to refuse with its reason. */
export function fromInput(text: string, type: VariableType): VariableValue | null {
  if (text === '') return null;
  if (type === 'boolean') return text === 'true';
  if (type === 'number') return Number.isFinite(Number(text)) ? Number(text) : text;
  return text;
}

export const draftOf = (variable: Variable): VariableDraft => ({
  name: variable.name,
  label: variable.label ?? '',
  type: variable.type,
  required: variable.required,
  defaultValue: toInput(variable.defaultValue),
});

export const variableOf = (draft: VariableDraft): Variable => ({
  name: draft.name.trim(),
  label: draft.label.trim() || null,
  type: draft.type,
  required: draft.required,
  defaultValue: fromInput(draft.defaultValue, draft.type),
});

/** `{{name}}` placeholders in a text, in order of first use. */
export function placeholdersIn(text: string): string[] {
  const names = [...text.matchAll(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g)].flatMap(([, name]) =>
    name ? [name] : [],
  );
  return [...new Set(names)];
}
