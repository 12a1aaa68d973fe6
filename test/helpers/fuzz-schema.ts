// What the fuzz test sends, derived from the OpenAPI document alone: a seeded PRNG, a plausible value
// for a JSON schema, and the hostile variants of a value, a body, a query or a path segment. The
// seeded ids (two companies' worth) make path and body ids real, unknown or the other company's.
import { randomUUID } from 'node:crypto';

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minItems?: number;
  maxItems?: number;
}

/** mulberry32: small, fast and good enough to pick samples reproducibly from a printed seed. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return {
    next,
    int,
    pick: <T>(items: readonly T[]): T => items[int(items.length)]!,
    chance: (p: number) => next() < p,
    shuffle<T>(items: T[]): T[] {
      for (let i = items.length - 1; i > 0; i--) {
        const j = int(i + 1);
        [items[i], items[j]] = [items[j]!, items[i]!];
      }
      return items;
    },
  };
}
export type Rng = ReturnType<typeof prng>;

/** The kinds of seeded record an id can name; a field or parameter maps to one by its name. */
export type IdKind =
  | 'company'
  | 'agent'
  | 'issue'
  | 'project'
  | 'goal'
  | 'routine'
  | 'trigger'
  | 'approval'
  | 'secret'
  | 'skill'
  | 'workspace'
  | 'run'
  | 'comment'
  | 'attachment'
  | 'asset'
  | 'revision'
  | 'agentKey';
export type SeededIds = Partial<Record<IdKind, string>>;

// Order matters: `inheritExecutionWorkspaceFromIssueId` names an issue, `executionWorkspaceId` a workspace.
const KIND_BY_NAME: [RegExp, IdKind][] = [
  [/issue|parent|blockedby|blocker/i, 'issue'],
  [/workspace/i, 'workspace'],
  [/revision/i, 'revision'],
  [/agent|reportsto|actorid/i, 'agent'],
  [/project/i, 'project'],
  [/goal/i, 'goal'],
  [/routine/i, 'routine'],
  [/trigger/i, 'trigger'],
  [/approval/i, 'approval'],
  [/secret/i, 'secret'],
  [/skill/i, 'skill'],
  [/run/i, 'run'],
  [/comment/i, 'comment'],
  [/attachment/i, 'attachment'],
  [/asset/i, 'asset'],
  [/company/i, 'company'],
  [/^keyid$/i, 'agentKey'],
];

export function idKindOf(name: string): IdKind | undefined {
  return KIND_BY_NAME.find(([pattern]) => pattern.test(name))?.[1];
}

/** How ids are chosen while a value is generated: the acting company's, the other one's, or nobody's. */
export type IdChoice = 'own' | 'other' | 'unknown';

export interface GenContext {
  rng: Rng;
  own: SeededIds;
  other: SeededIds;
  ids: IdChoice;
}

export function idFor(name: string, ctx: GenContext): string {
  const kind = idKindOf(name);
  if (ctx.ids === 'unknown' || !kind) return randomUUID();
  return (ctx.ids === 'own' ? ctx.own : ctx.other)[kind] ?? randomUUID();
}

// Letters, digits and spaces only: generated text reaches shell commands (workspace setup, runtime
// services) and URLs (http adapters); gibberish of this alphabet is inert in both.
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
function word(rng: Rng, min = 1, max = 12): string {
  const length = Math.max(min, Math.min(max, min + rng.int(8) + 1));
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[rng.int(ALPHABET.length)];
  return out;
}

function branches(schema: JsonSchema): JsonSchema[] | undefined {
  return schema.anyOf ?? schema.oneOf;
}

function typeOf(schema: JsonSchema): string | undefined {
  return Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
}

/** A value the schema is likely to accept (patterns are not solved: a miss is a 400, still a case). */
export function generate(schema: JsonSchema | undefined, name: string, ctx: GenContext, depth = 0): unknown {
  if (!schema || depth > 6) return null;
  if ('const' in schema) return schema.const;
  if (schema.enum) return ctx.rng.pick(schema.enum);
  const options = branches(schema);
  if (options) {
    const nonNull = options.filter((o) => o.type !== 'null');
    return generate(nonNull.length > 0 ? ctx.rng.pick(nonNull) : options[0], name, ctx, depth + 1);
  }
  if (schema.allOf) return generate(schema.allOf[0], name, ctx, depth + 1);
  switch (typeOf(schema)) {
    case 'string':
      return stringFor(schema, name, ctx);
    case 'integer':
    case 'number': {
      const low = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 0);
      const high = Math.min(schema.maximum ?? low + 100, low + 100);
      return low + ctx.rng.int(Math.max(1, high - low + 1));
    }
    case 'boolean':
      return ctx.rng.chance(0.5);
    case 'array': {
      const count = Math.min(schema.maxItems ?? 2, Math.max(schema.minItems ?? 0, 1));
      return Array.from({ length: count }, () => generate(schema.items, singular(name), ctx, depth + 1));
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, sub] of Object.entries(schema.properties ?? {})) {
        if (schema.required?.includes(key) || ctx.rng.chance(0.5)) out[key] = generate(sub, key, ctx, depth + 1);
      }
      if (!schema.properties && typeof schema.additionalProperties === 'object' && ctx.rng.chance(0.5)) {
        out[word(ctx.rng)] = generate(schema.additionalProperties, name, ctx, depth + 1);
      }
      return out;
    }
    default:
      return ctx.rng.pick(['x', 1, {}, []]);
  }
}

function singular(name: string): string {
  return name.replace(/Ids$/, 'Id');
}

function stringFor(schema: JsonSchema, name: string, ctx: GenContext): string {
  switch (schema.format) {
    case 'uuid':
      return idFor(name, ctx);
    case 'date-time':
      return new Date(Date.now() - ctx.rng.int(86_400_000)).toISOString();
    case 'date':
      return '2026-01-15';
    case 'uri':
    case 'url':
      // Never a host off this machine; port 9 (discard) is closed here.
      return `http://127.0.0.1:9/${word(ctx.rng)}`;
    case undefined:
      break;
  }
  const kind = idKindOf(name);
  if (kind && /Ids?$/.test(name) && schema.maxLength === undefined) return idFor(name, ctx);
  const min = schema.minLength ?? 1;
  const max = schema.maxLength ?? 40;
  const candidate = word(ctx.rng, min, max);
  if (!schema.pattern) return candidate;
  // Common shapes of our patterns (slugs, env names, keys); the first that fits wins.
  const pattern = new RegExp(schema.pattern, 'u');
  for (const shape of [
    candidate,
    candidate.toUpperCase(),
    `a${candidate}`,
    'plan',
    'FUZZ_NAME',
    'fuzz-name',
    'a',
    'A',
  ]) {
    if (pattern.test(shape) && shape.length >= min && shape.length <= max) return shape;
  }
  return candidate;
}

/** One hostile replacement of a value, with what it is called in a report. */
export interface Variant {
  label: string;
  value: () => unknown;
}

export const TEN_MB = 10 * 1024 * 1024;
// Just under the 2 MiB body limit: the body is parsed and reaches zod, the service and the database.
export const NEAR_BODY_LIMIT = 2 * 1024 * 1024 - 64 * 1024;

export function deepArray(levels: number): unknown {
  let value: unknown = [];
  for (let i = 0; i < levels; i++) value = [value];
  return value;
}

/** Variants of one body field, chosen from what its schema says it is. */
export function fieldVariants(schema: JsonSchema, name: string, ctx: GenContext): Variant[] {
  const type = typeOf(schema) ?? typeOf(branches(schema)?.find((b) => b.type !== 'null') ?? {});
  const out: Variant[] = [
    { label: 'null', value: () => null },
    { label: 'wrong type (object)', value: () => ({ nested: true }) },
    { label: 'wrong type (array)', value: () => [1, 'two', null] },
    { label: 'NUL in string', value: () => `a\u0000b` },
    { label: 'deep nesting (40)', value: () => deepArray(40) },
    { label: 'unknown uuid', value: () => randomUUID() },
    { label: "other company's id", value: () => idFor(name, { ...ctx, ids: 'other' }) },
  ];
  if (type === 'string' || type === undefined) {
    out.push(
      { label: 'wrong type (number)', value: () => 12345 },
      { label: 'empty string', value: () => '' },
      { label: 'whitespace only', value: () => '   ' },
      { label: '10 MB string', value: () => 'x'.repeat(TEN_MB) },
      { label: 'string near the body limit', value: () => 'y'.repeat(NEAR_BODY_LIMIT) },
      { label: 'lone surrogate', value: () => 'a\ud800b' },
      { label: 'not a date', value: () => '2026-13-45T99:99:99Z' },
    );
  }
  if (type === 'integer' || type === 'number') {
    out.push(
      { label: 'wrong type (string)', value: () => 'abc' },
      { label: 'numeric string', value: () => '42' },
      { label: 'negative', value: () => -1 },
      { label: 'fraction', value: () => 1.5 },
      { label: 'beyond int32', value: () => 2 ** 31 },
      { label: 'beyond safe integer', value: () => 2 ** 63 },
      { label: 'huge', value: () => 1e308 },
    );
  }
  if (type === 'array') {
    out.push(
      { label: 'wrong type (string)', value: () => 'abc' },
      { label: '10,000 items', value: () => Array.from({ length: 10_000 }, () => randomUUID()) },
      { label: 'duplicate items', value: () => Array.from({ length: 3 }, () => idFor(singular(name), ctx)) },
    );
  }
  if (type === 'object') {
    out.push(
      { label: 'wrong type (string)', value: () => 'abc' },
      { label: '5,000 keys', value: () => Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, i])) },
      {
        label: '__proto__ key',
        value: () => JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}'),
      },
    );
  }
  if (type === 'boolean') out.push({ label: 'wrong type (string)', value: () => 'true' });
  if (schema.enum || branches(schema)?.some((b) => b.enum))
    out.push({ label: 'unknown enum value', value: () => 'not_a_value' });
  return out;
}

/** Variants of one query or path text value (the caller encodes them unless the label says raw). */
export function textVariants(ctx: GenContext, name: string): Variant[] {
  return [
    { label: 'unknown uuid', value: () => randomUUID() },
    { label: "other company's id", value: () => idFor(name, { ...ctx, ids: 'other' }) },
    { label: 'not a uuid', value: () => 'not-a-uuid' },
    { label: 'empty', value: () => '' },
    { label: 'negative number', value: () => '-1' },
    { label: 'huge number', value: () => '99999999999999999999999' },
    { label: 'fraction', value: () => '1.5' },
    { label: 'NUL (%00)', value: () => 'a\u0000b' },
    { label: '10,000 characters', value: () => 'z'.repeat(10_000) },
    { label: 'unicode', value: () => 'ünï©ødé-🙂' },
    { label: 'SQL-ish', value: () => "' or 1=1 --" },
    { label: 'dot segments', value: () => '../..' },
    { label: 'nil uuid', value: () => '00000000-0000-0000-0000-000000000000' },
    { label: 'uppercase uuid', value: () => randomUUID().toUpperCase() },
    { label: 'bad date', value: () => '2026-02-30' },
  ];
}
