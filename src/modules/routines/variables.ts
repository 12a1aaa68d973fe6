// Routine variables: `{{name}}` placeholders in a routine's title and description, filled from the
// run's values merged over the variables' defaults. A reference to a variable the routine does not
// declare is refused when the routine is saved, so a run never meets an unknown placeholder.
import type { RoutineVariable } from '../../db/schema/index.ts';
import { unprocessable } from '../../core/errors.ts';

export type VariableValue = string | number | boolean;

/** `{{ name }}`: letters, digits and underscores, spaces inside the braces allowed. */
const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

export function referencedVariables(...texts: (string | null | undefined)[]): string[] {
  const names = new Set<string>();
  for (const text of texts)
    for (const [, name] of (text ?? '').matchAll(PLACEHOLDER)) if (name !== undefined) names.add(name);
  return [...names];
}

/** 422 when the title or description names a variable the routine does not declare. */
export function assertReferencesDeclared(
  variables: RoutineVariable[],
  title: string,
  description: string | null,
): void {
  const declared = new Set(variables.map((v) => v.name));
  const unknown = referencedVariables(title, description).filter((name) => !declared.has(name));
  if (unknown.length > 0)
    throw unprocessable(
      `unknown variable${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `{{${n}}}`).join(', ')}: declare them in \`variables\``,
      { unknown },
    );
}

/** Required variables that have no default: a schedule trigger cannot fire such a routine on its own. */
export function requiredWithoutDefault(variables: RoutineVariable[]): string[] {
  return variables.filter((v) => v.required && (v.defaultValue === null || v.defaultValue === '')).map((v) => v.name);
}

/**
 * The values of a run: the given ones over the defaults, each checked against its declared type.
 * Throws 422 for an undeclared name, a value of the wrong type, or a required variable left empty.
 */
export function resolveVariables(
  variables: RoutineVariable[],
  given: Record<string, VariableValue> = {},
): Record<string, VariableValue> {
  const declared = new Map(variables.map((v) => [v.name, v]));
  const undeclared = Object.keys(given).filter((name) => !declared.has(name));
  if (undeclared.length > 0)
    throw unprocessable(`the routine declares no variable ${undeclared.join(', ')}`, { undeclared });
  const values: Record<string, VariableValue> = {};
  for (const variable of variables) {
    // An empty value counts as not given: the default (if any) fills it, as for an omitted one.
    const value =
      given[variable.name] === undefined || given[variable.name] === '' ? variable.defaultValue : given[variable.name];
    if (value === null || value === undefined || value === '') {
      if (variable.required)
        throw unprocessable(`variable ${variable.name} is required and has no default`, { variable: variable.name });
      continue;
    }
    if (!matchesType(variable.type, value))
      throw unprocessable(`variable ${variable.name} must be a ${variable.type}`, { variable: variable.name });
    values[variable.name] = value;
  }
  return values;
}

function matchesType(type: RoutineVariable['type'], value: VariableValue): boolean {
  if (type === 'number')
    return (
      typeof value === 'number' || (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
    );
  if (type === 'boolean') return typeof value === 'boolean' || value === 'true' || value === 'false';
  return true;
}

/** Fills the placeholders; one with no value (an optional variable left empty) becomes ''. */
export function interpolate(text: string, values: Record<string, VariableValue>): string {
  return text.replace(PLACEHOLDER, (_whole, name: string) => (values[name] === undefined ? '' : String(values[name])));
}
