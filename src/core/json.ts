// Bounds for JSON that clients send: no U+0000 anywhere (PostgreSQL refuses it in text and jsonb),
// a nesting depth, and for free-form objects (adapterConfig, metadata, payload...) a serialised size.
// Every check walks iteratively: a value nested 300,000 deep (2 MiB of `[`) must not overflow the
// stack here, and JSON.stringify is only called once the depth is known to be small.
import { z } from 'zod';

/** Deepest free-form value accepted: `{}` is depth 1, `{ "a": {} }` depth 2. Real configs stay under 10. */
export const MAX_FREEFORM_DEPTH = 32;
/**
 * Deepest request body (same counting). The body guard runs before validation with this looser
 * bound so that a free-form field a few levels down (project create → workspace → metadata is at
 * depth 3) can still hold MAX_FREEFORM_DEPTH levels; the field schema then applies the exact bound.
 */
export const MAX_BODY_DEPTH = 40;
/** Serialised size of a configuration-like free-form object (adapterConfig, metadata, executionPolicy...). */
export const FREEFORM_CONFIG_BYTES = 64 * 1024;
/** Serialised size of an approval payload: a hire proposal carries a whole agent configuration plus prose. */
export const FREEFORM_PAYLOAD_BYTES = 256 * 1024;
/** Object keys of free-form values: names, not content. */
export const MAX_FREEFORM_KEY_CHARS = 200;

export interface JsonProblem {
  kind: 'nul' | 'depth';
  /** JSON pointer of the offending value (for depth: the first value past the bound). */
  path: string;
  message: string;
}

const NUL = '\u0000';

/**
 * The first problem in `value`: a string or key containing U+0000, or nesting deeper than
 * `maxDepth`. Null when the value is clean. Iterative; a fast pass without paths first, and a
 * second pass that records the path only when there is something to report.
 */
export function findJsonProblem(value: unknown, maxDepth: number): JsonProblem | null {
  if (typeof value === 'string')
    return value.includes(NUL) ? { kind: 'nul', path: '', message: 'contains U+0000 (NUL)' } : null;
  if (value === null || typeof value !== 'object') return null;
  return isClean(value, maxDepth) ? null : locateProblem(value, maxDepth);
}

function isClean(root: object, maxDepth: number): boolean {
  // Two stacks pushed in step (no object per value on this fast pass); the depths drive the loop.
  const values: unknown[] = [root];
  const depths: number[] = [1];
  for (let depth = depths.pop(); depth !== undefined; depth = depths.pop()) {
    const value = values.pop();
    if (typeof value === 'string') {
      if (value.includes(NUL)) return false;
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth > maxDepth) return false;
    if (Array.isArray(value)) {
      for (const item of value) {
        values.push(item);
        depths.push(depth + 1);
      }
      continue;
    }
    for (const key in value) {
      if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
      if (key.includes(NUL)) return false;
      values.push((value as Record<string, unknown>)[key]);
      depths.push(depth + 1);
    }
  }
  return true;
}

interface Frame {
  value: unknown;
  depth: number;
  key: string;
  parent: Frame | null;
}

function pointer(frame: Frame): string {
  const parts: string[] = [];
  for (let f: Frame | null = frame; f && f.parent; f = f.parent)
    parts.push(f.key.replace(/~/g, '~0').replace(/\//g, '~1'));
  // A NUL inside a key is shown escaped, so the message itself stays storable and printable.
  return parts.length === 0 ? '' : `/${parts.reverse().join('/')}`.replace(/\u0000/g, '\\u0000');
}

function locateProblem(root: object, maxDepth: number): JsonProblem | null {
  const stack: Frame[] = [{ value: root, depth: 1, key: '', parent: null }];
  for (let frame = stack.pop(); frame; frame = stack.pop()) {
    const { value, depth } = frame;
    if (typeof value === 'string') {
      if (value.includes(NUL)) return { kind: 'nul', path: pointer(frame), message: 'contains U+0000 (NUL)' };
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth > maxDepth)
      return { kind: 'depth', path: pointer(frame), message: `nested deeper than ${maxDepth} levels` };
    const entries: [string, unknown][] = Array.isArray(value)
      ? value.map((v, i) => [String(i), v])
      : Object.entries(value);
    // Pushed last to first, so the first child is looked at first.
    for (const [key, child] of entries.reverse()) {
      const childFrame: Frame = { value: child, depth: depth + 1, key, parent: frame };
      if (key.includes(NUL)) return { kind: 'nul', path: pointer(childFrame), message: 'key contains U+0000 (NUL)' };
      stack.push(childFrame);
    }
  }
  return null;
}

export interface FreeformLimits {
  /** Largest serialised (JSON, UTF-8) size. */
  maxBytes: number;
  /** Deepest nesting, counting the value itself; default MAX_FREEFORM_DEPTH. */
  maxDepth?: number;
}

/** Why a free-form value is refused (NUL, depth, then size), or null. */
export function freeformProblem(value: unknown, limits: FreeformLimits): string | null {
  const maxDepth = limits.maxDepth ?? MAX_FREEFORM_DEPTH;
  const problem = findJsonProblem(value, maxDepth);
  if (problem) return problem.path ? `${problem.path}: ${problem.message}` : problem.message;
  // Safe now: the depth is bounded, so JSON.stringify cannot overflow the stack.
  const bytes = Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
  if (bytes > limits.maxBytes) return `is ${bytes} bytes of JSON; at most ${limits.maxBytes} bytes`;
  return null;
}

/** Adds the free-form bounds to any schema (for objects that also document some known fields). */
export function boundedFreeform<T extends z.ZodType>(schema: T, limits: FreeformLimits): T {
  const maxDepth = limits.maxDepth ?? MAX_FREEFORM_DEPTH;
  return schema
    .superRefine((value, ctx) => {
      const problem = freeformProblem(value, limits);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .describe(
      `free-form JSON; at most ${maxDepth} levels deep and ${limits.maxBytes} bytes serialised; no U+0000`,
    ) as T;
}

/** The one schema for a free-form JSON object field: string keys, any JSON values, bounded. */
export function freeformObject(limits: FreeformLimits) {
  return boundedFreeform(z.record(z.string().max(MAX_FREEFORM_KEY_CHARS), z.unknown()), limits);
}

/** Any JSON value, bounded (for fields accepted only to be refused with a clear message). */
export function freeformValue(limits: FreeformLimits) {
  return boundedFreeform(z.unknown(), limits);
}
