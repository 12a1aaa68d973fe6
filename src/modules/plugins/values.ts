// Values against the manifest's JSON Schemas (issue 27 sections 1 and 4): a config against
// `configSchema`, a tool's parameters against its `inputSchema`, an action's params against its
// `paramsSchema`. The host checks them before a worker sees them, so a plugin never has to defend
// against input its own schema refuses. The check is zod's JSON Schema reader (`z.fromJSONSchema`,
// a runtime dependency already); install checked the schema's structure (json-schema.ts).
import { z } from 'zod';
import { unprocessable } from '../../core/errors.ts';
import { SECRET_REF_FORMAT } from './json-schema.ts';
import { fieldName } from './manifest.ts';

export interface ValueIssue {
  field: string;
  message: string;
}

type JsonObject = Record<string, unknown>;
const isObject = (value: unknown): value is JsonObject => !!value && typeof value === 'object' && !Array.isArray(value);

/** Every way `value` fails `schema`, each naming its field under `root` (`params.issueId`); empty when it matches. */
export function valueIssues(schema: JsonObject, value: unknown, root: string): ValueIssue[] {
  let checker: z.ZodType;
  try {
    checker = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch (err) {
    // Install accepts every JSON Schema keyword; a few (`if`/`then`, `not`, `unevaluated*`) have no
    // runtime check here. Refusing is safer than letting unchecked input through.
    return [{ field: root, message: `cannot be checked against the plugin's schema: ${(err as Error).message}` }];
  }
  const parsed = checker.safeParse(value);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) =>
    issue.code === 'unrecognized_keys'
      ? { field: fieldName([root, ...issue.path, issue.keys[0] ?? '']), message: 'is not a field of the schema' }
      : { field: fieldName([root, ...issue.path]), message: issue.message },
  );
}

/** 422 naming the first wrong field (`details.issues` lists them all) unless `value` matches `schema`. */
export function assertMatches(schema: JsonObject, value: unknown, root: string): void {
  const issues = valueIssues(schema, value, root);
  const [first] = issues;
  if (first)
    throw unprocessable(
      `${first.field}: ${first.message}${issues.length > 1 ? ` (and ${issues.length - 1} more)` : ''}`,
      { issues },
    );
}

/**
 * The value with the schema's `default`s filled in where a property is missing, inside nested
 * objects too. Applied when a config is read, so a default a new version adds reaches saved configs.
 */
export function withDefaults(schema: unknown, value: unknown): unknown {
  if (!isObject(schema) || !isObject(schema.properties)) return value;
  const base: unknown = value === undefined && 'default' in schema ? structuredClone(schema.default) : value;
  if (!isObject(base)) return base;
  const out: JsonObject = { ...base };
  for (const [name, property] of Object.entries(schema.properties)) {
    if (!isObject(property)) continue;
    if (out[name] === undefined && 'default' in property) out[name] = structuredClone(property.default);
    if (out[name] !== undefined) out[name] = withDefaults(property, out[name]);
  }
  return out;
}

/** The secret references in a config: each `format: "secret-ref"` property that holds a value, by field. */
export function secretReferences(schema: unknown, value: unknown, path: (string | number)[] = ['config']) {
  const found: { field: string; value: unknown }[] = [];
  if (!isObject(schema) || !isObject(schema.properties) || !isObject(value)) return found;
  for (const [name, property] of Object.entries(schema.properties)) {
    if (!isObject(property) || value[name] === undefined) continue;
    if (property.format === SECRET_REF_FORMAT) found.push({ field: fieldName([...path, name]), value: value[name] });
    else found.push(...secretReferences(property, value[name], [...path, name]));
  }
  return found;
}
