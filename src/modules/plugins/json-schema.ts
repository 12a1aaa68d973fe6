// A structural check that a value is a JSON Schema (draft 2020-12 and draft-07 keywords): the
// manifest's configSchema, tool input schemas and action parameter schemas are rendered as forms and
// checked against by the host, so a typo (`"type": "strng"`, `"required": "name"`) must fail the
// install, not the first call. Unknown keywords are allowed, as JSON Schema allows them; references
// are local only (`#...`): a manifest never makes the host fetch anything.
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const SUBSCHEMA = [
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
  'additionalItems',
];
const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const COUNTS = [
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'minContains',
  'maxContains',
];
const NUMBERS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'];
const MAX_DEPTH = 32;

/** The format a config field carries when its value is a reference to a company secret, never the value. */
export const SECRET_REF_FORMAT = 'secret-ref';

export interface SchemaProblem {
  /** Where in the schema, as `.properties.token.format`, relative to the schema itself. */
  at: string;
  message: string;
}

export interface SchemaFacts {
  /** The schema has at least one field of format `secret-ref`. */
  usesSecretRefs: boolean;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value);

/**
 * The first problem that makes `schema` not a JSON Schema (null when there is none), and what it uses.
 * `secrets: true` also refuses a field that would hold a secret's value (`format: password`,
 * `writeOnly`): a config keeps secrets only as references.
 */
export function checkJsonSchema(
  schema: unknown,
  options: { rootType?: 'object'; secrets?: boolean } = {},
): { problem: SchemaProblem | null; facts: SchemaFacts } {
  const facts: SchemaFacts = { usesSecretRefs: false };
  const problem = (at: string, message: string) => ({ problem: { at, message }, facts });
  if (!isObject(schema)) return problem('', 'must be a JSON Schema object');
  if (options.rootType && schema.type !== options.rootType)
    return problem('.type', `must be "${options.rootType}" at the top`);
  const found = walk(schema, '', 0, options.secrets === true, facts);
  return { problem: found, facts };
}

function walk(schema: unknown, at: string, depth: number, secrets: boolean, facts: SchemaFacts): SchemaProblem | null {
  if (typeof schema === 'boolean') return null;
  if (!isObject(schema)) return { at, message: 'must be a schema (an object or a boolean)' };
  if (depth > MAX_DEPTH) return { at, message: `nests deeper than ${MAX_DEPTH} levels` };
  const fail = (keyword: string, message: string): SchemaProblem => ({ at: `${at}.${keyword}`, message });

  const { type } = schema;
  if (type !== undefined) {
    const types = Array.isArray(type) ? type : [type];
    if (types.length === 0) return fail('type', 'must name at least one type');
    for (const t of types)
      if (typeof t !== 'string' || !TYPES.has(t))
        return fail('type', `${JSON.stringify(t)} is not a JSON Schema type (${[...TYPES].join(', ')})`);
    if (new Set(types).size !== types.length) return fail('type', 'lists a type twice');
  }
  if (schema.required !== undefined) {
    const { required } = schema;
    if (!Array.isArray(required) || required.some((r) => typeof r !== 'string'))
      return fail('required', 'must be an array of property names');
    if (new Set(required).size !== required.length) return fail('required', 'lists a property twice');
  }
  if (schema.enum !== undefined && !Array.isArray(schema.enum)) return fail('enum', 'must be an array');
  for (const keyword of COUNTS) {
    const value = schema[keyword];
    if (value !== undefined && !(Number.isInteger(value) && (value as number) >= 0))
      return fail(keyword, 'must be a non-negative integer');
  }
  for (const keyword of NUMBERS) {
    const value = schema[keyword];
    if (value !== undefined && typeof value !== 'number') return fail(keyword, 'must be a number');
  }
  if (typeof schema.multipleOf === 'number' && schema.multipleOf <= 0) return fail('multipleOf', 'must be above 0');
  if (schema.pattern !== undefined) {
    if (typeof schema.pattern !== 'string') return fail('pattern', 'must be a string');
    try {
      new RegExp(schema.pattern, 'u');
    } catch {
      return fail('pattern', 'is not a valid regular expression');
    }
  }
  if (schema.$ref !== undefined && (typeof schema.$ref !== 'string' || !schema.$ref.startsWith('#')))
    return fail('$ref', 'must be a local reference (starting with #)');
  if (schema.format !== undefined && typeof schema.format !== 'string') return fail('format', 'must be a string');
  if (schema.format === SECRET_REF_FORMAT) facts.usesSecretRefs = true;
  if (secrets && (schema.format === 'password' || schema.writeOnly === true))
    return fail(
      schema.format === 'password' ? 'format' : 'writeOnly',
      `a secret belongs in config only as a reference to a company secret: use "format": "${SECRET_REF_FORMAT}"`,
    );

  for (const keyword of SUBSCHEMA) {
    if (schema[keyword] === undefined) continue;
    const found = walk(schema[keyword], `${at}.${keyword}`, depth + 1, secrets, facts);
    if (found) return found;
  }
  if (schema.items !== undefined) {
    // draft-07 allows an array of schemas (a tuple); 2020-12 a single schema.
    const items = Array.isArray(schema.items) ? schema.items : [schema.items];
    for (const [i, item] of items.entries()) {
      const found = walk(
        item,
        Array.isArray(schema.items) ? `${at}.items[${i}]` : `${at}.items`,
        depth + 1,
        secrets,
        facts,
      );
      if (found) return found;
    }
  }
  for (const keyword of SUBSCHEMA_LISTS) {
    const list = schema[keyword];
    if (list === undefined) continue;
    if (!Array.isArray(list) || list.length === 0) return fail(keyword, 'must be a non-empty array of schemas');
    for (const [i, item] of list.entries()) {
      const found = walk(item, `${at}.${keyword}[${i}]`, depth + 1, secrets, facts);
      if (found) return found;
    }
  }
  for (const keyword of SUBSCHEMA_MAPS) {
    const map = schema[keyword];
    if (map === undefined) continue;
    if (!isObject(map)) return fail(keyword, 'must be an object of schemas');
    for (const [name, item] of Object.entries(map)) {
      const found = walk(item, `${at}.${keyword}.${name}`, depth + 1, secrets, facts);
      if (found) return found;
    }
  }
  return null;
}
