// SKILL.md frontmatter (SPEC "Company skill": flat scalars, nested objects and list literals only).
// A small parser of exactly that YAML subset, written here rather than a general YAML library: the
// input comes from anyone who can import a skill, and this subset has no tags, anchors, aliases,
// multi-documents or custom types, so nothing in it can evaluate code or blow up in size (no alias
// expansion). Anything outside the subset is an error with its line number, never a guess.
export type FrontmatterValue = string | number | boolean | null | FrontmatterValue[] | { [key: string]: FrontmatterValue };
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
  if (block.length > MAX_FRONTMATTER_CHARS) throw new FrontmatterError(`frontmatter longer than ${MAX_FRONTMATTER_CHARS} characters`);
  return { frontmatter: parseFrontmatter(block), body: rest.slice(close.index + close[0].length) };
}

interface Line {
  indent: number;
  text: string;
  no: number;
}

export function parseFrontmatter(block: string): Frontmatter {
  const lines: Line[] = [];
  block.split(/\r?\n/).forEach((raw, i) => {
    if (/^\s*(#.*)?$/.test(raw)) return;
    if (/^\s*\t/.test(raw)) throw new FrontmatterError(`line ${i + 1}: tabs are not allowed for indentation`);
    lines.push({ indent: raw.length - raw.trimStart().length, text: raw.trim(), no: i + 1 });
  });
  const state = { i: 0 };
  const value = parseBlock(lines, state, 0, 0);
  if (state.i < lines.length) throw new FrontmatterError(`line ${lines[state.i]!.no}: unexpected indentation`);
  if (value === null) return {};
  if (Array.isArray(value) || typeof value !== 'object') throw new FrontmatterError('frontmatter must be a mapping of fields');
  return value;
}

function parseBlock(lines: Line[], state: { i: number }, indent: number, depth: number): FrontmatterValue {
  if (depth > MAX_DEPTH) throw new FrontmatterError(`nested deeper than ${MAX_DEPTH} levels`);
  const first = lines[state.i];
  if (!first || first.indent < indent) return null;
  return first.text.startsWith('- ') || first.text === '-' ? parseList(lines, state, first.indent, depth) : parseMap(lines, state, first.indent, depth);
}

function parseMap(lines: Line[], state: { i: number }, indent: number, depth: number): Record<string, FrontmatterValue> {
  const out: Record<string, FrontmatterValue> = Object.create(null);
  while (state.i < lines.length) {
    const line = lines[state.i]!;
    if (line.indent < indent) break;
    if (line.indent > indent) throw new FrontmatterError(`line ${line.no}: unexpected indentation`);
    const m = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^:#'"\s][^:#]*?)\s*:(?:\s+(.*))?$/.exec(line.text);
    if (!m) throw new FrontmatterError(`line ${line.no}: expected \`key: value\``);
    const key = String(scalar(m[1]!, line.no));
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') throw new FrontmatterError(`line ${line.no}: reserved key ${key}`);
    if (key in out) throw new FrontmatterError(`line ${line.no}: duplicate key ${key}`);
    state.i++;
    const rest = m[2]?.trim() ?? '';
    out[key] = rest === '' ? parseBlock(lines, state, indent + 1, depth + 1) : inline(rest, line.no);
  }
  return { ...out };
}

function parseList(lines: Line[], state: { i: number }, indent: number, depth: number): FrontmatterValue[] {
  const out: FrontmatterValue[] = [];
  while (state.i < lines.length) {
    const line = lines[state.i]!;
    if (line.indent < indent) break;
    if (line.indent > indent || !(line.text.startsWith('- ') || line.text === '-')) throw new FrontmatterError(`line ${line.no}: expected a list item`);
    const rest = line.text.slice(1).trim();
    if (rest === '') {
      state.i++;
      out.push(parseBlock(lines, state, indent + 1, depth + 1));
    } else if (/^[^'"[{][^:]*:(\s|$)/.test(rest) || /^("[^"]*"|'[^']*')\s*:(\s|$)/.test(rest)) {
      // `- key: value` starts a mapping item whose other keys line up under `key`.
      const itemIndent = line.indent + (line.text.length - rest.length);
      lines[state.i] = { indent: itemIndent, text: rest, no: line.no };
      out.push(parseMap(lines, state, itemIndent, depth + 1));
    } else {
      state.i++;
      out.push(inline(rest, line.no));
    }
  }
  return out;
}

/** A value on the same line: a list literal `[a, b]`, an empty map `{}`, or a scalar. */
function inline(text: string, no: number): FrontmatterValue {
  const value = stripComment(text);
  if (value.startsWith('[')) {
    if (!value.endsWith(']')) throw new FrontmatterError(`line ${no}: unclosed list literal`);
    const inner = value.slice(1, -1).trim();
    if (inner === '') return [];
    return splitItems(inner, no).map((item) => scalar(item, no));
  }
  if (value === '{}') return {};
  if (value.startsWith('{')) throw new FrontmatterError(`line ${no}: inline mappings are not supported; use nested lines`);
  if (value === '|' || value === '>' || /^[|>][+-]?$/.test(value)) throw new FrontmatterError(`line ${no}: block scalars are not supported`);
  return scalar(value, no);
}

function stripComment(text: string): string {
  if (text.startsWith('"') || text.startsWith("'")) {
    const quoted = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*')\s*(#.*)?$/.exec(text);
    return quoted ? quoted[1]! : text;
  }
  const hash = text.search(/\s#/);
  return (hash === -1 ? text : text.slice(0, hash)).trim();
}

function splitItems(inner: string, no: number): string[] {
  const items: string[] = [];
  let current = '';
  let quote: string | null = null;
  for (const ch of inner) {
    if (quote) {
      current += ch;
      if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      current += ch;
    } else if (ch === '[' || ch === '{') {
      throw new FrontmatterError(`line ${no}: nested literals are not supported`);
    } else if (ch === ',') {
      items.push(current.trim());
      current = '';
    } else current += ch;
  }
  if (quote) throw new FrontmatterError(`line ${no}: unclosed quote`);
  items.push(current.trim());
  return items;
}

function scalar(text: string, no: number): string | number | boolean | null {
  if (text.startsWith('"')) {
    if (!/^"(?:[^"\\]|\\.)*"$/.test(text)) throw new FrontmatterError(`line ${no}: bad double-quoted string`);
    try {
      return JSON.parse(text) as string;
    } catch {
      throw new FrontmatterError(`line ${no}: bad escape in a double-quoted string`);
    }
  }
  if (text.startsWith("'")) {
    if (!/^'(?:[^']|'')*'$/.test(text)) throw new FrontmatterError(`line ${no}: bad single-quoted string`);
    return text.slice(1, -1).replace(/''/g, "'");
  }
  // Tags, anchors and aliases are what makes general YAML dangerous or explosive: refused.
  if (/^[!&*]/.test(text)) throw new FrontmatterError(`line ${no}: tags, anchors and aliases are not supported`);
  if (/^(null|~)$/i.test(text) || text === '') return null;
  if (/^(true|false)$/i.test(text)) return text.toLowerCase() === 'true';
  if (/^-?(0|[1-9]\d{0,14})(\.\d+)?$/.test(text)) return Number(text);
  return text;
}
