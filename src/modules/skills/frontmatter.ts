// SKILL.md frontmatter (SPEC "Company skill": flat scalars, nested objects and lists). Parsed with
// `yaml` 2 (ARCHITECTURE: "yaml 2 + a small splitter"; gray-matter is never used because it can
// evaluate `---js` headers) on its core schema, which knows only plain YAML types: nothing in it
// runs code. On top of the library: tags, anchors and aliases are refused (no alias expansion can
// blow up in size), keys must be unique and never `__proto__`-like, and nesting is bounded.
import { isAlias, isNode, parseDocument, visit } from 'yaml';

export type FrontmatterValue =
  | string
  | number
  | boolean
  | null
  | FrontmatterValue[]
  | { [key: string]: FrontmatterValue };
export type Frontmatter = Record<string, FrontmatterValue>;

export class FrontmatterError extends Error {}

/** Bounds: a frontmatter block is routing text, not a data file. */
export const MAX_FRONTMATTER_CHARS = 64 * 1024;
const MAX_DEPTH = 8;

/** Splits `---\n...\n---\n` from the body. No frontmatter: an empty object and the whole text. */
export function splitFrontmatter(text: string): { frontmatter: Frontmatter; body: string } {
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const open = /^---[ \t]*\r?\n/.exec(source);
  if (!open) return { frontmatter: {}, body: source };
  const rest = source.slice(open[0].length);
  const close = /^---[ \t]*(\r?\n|$)/m.exec(rest);
  if (!close) throw new FrontmatterError('frontmatter opened with --- is never closed');
  const block = rest.slice(0, close.index);
  if (block.length > MAX_FRONTMATTER_CHARS)
    throw new FrontmatterError(`frontmatter longer than ${MAX_FRONTMATTER_CHARS} characters`);
  return { frontmatter: parseFrontmatter(block), body: rest.slice(close.index + close[0].length) };
}

const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export function parseFrontmatter(block: string): Frontmatter {
  const doc = parseDocument(block, {
    schema: 'core',
    uniqueKeys: true,
    merge: false,
    strict: true,
    prettyErrors: true,
  });
  const problem = doc.errors[0] ?? doc.warnings[0];
  if (problem) {
    const [firstLine = problem.message] = problem.message.split('\n');
    throw new FrontmatterError(firstLine);
  }
  visit(doc, (_key, node) => {
    if (isAlias(node)) throw new FrontmatterError('aliases are not supported');
    if (isNode(node) && (node.anchor || node.tag)) throw new FrontmatterError('tags and anchors are not supported');
  });
  const value = doc.toJS({ maxAliasCount: 0 }) as unknown;
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw new FrontmatterError('frontmatter must be a mapping of fields');
  return checked(value, 1) as Frontmatter;
}

/** Plain JSON-like values only (dates and other core-schema extras stay out), at most MAX_DEPTH deep. */
function checked(value: unknown, depth: number): FrontmatterValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new FrontmatterError('numbers must be finite');
    return value;
  }
  if (depth > MAX_DEPTH) throw new FrontmatterError(`nested deeper than ${MAX_DEPTH} levels`);
  if (Array.isArray(value)) return value.map((item) => checked(item, depth + 1));
  if (Object.getPrototypeOf(value) !== Object.prototype)
    throw new FrontmatterError('only strings, numbers, booleans, lists and mappings are supported');
  // A plain object (drizzle and JSON take it as is); the reserved keys are refused, so nothing reaches a prototype.
  const out: Record<string, FrontmatterValue> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (RESERVED_KEYS.has(key)) throw new FrontmatterError(`reserved key ${key}`);
    out[key] = checked(item, depth + 1);
  }
  return out;
}
