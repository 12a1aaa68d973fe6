// Where a source file names another one: the specifiers of its static imports and re-exports
// (`import type` included), its dynamic `import('...')` calls with a literal argument, and its
// `new URL('...', import.meta.url)` references. Shared by scripts/move-files.ts (which rewrites
// them) and test/imports.test.ts (which checks them), so both read the same graph.
// TypeScript's preProcessFile is a scanner, not a parser: ~1 ms a file, and it already skips
// comments and template strings.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export interface Specifier {
  /** The text between the quotes. */
  text: string;
  /** Offsets of that text in the source (quotes excluded), for a rewrite in place. */
  start: number;
  end: number;
}

const URL_REFERENCE = /new URL\(\s*(['"])([^'"\n]+)\1\s*,\s*import\.meta\.url\s*\)/g;

export function specifiersOf(source: string): Specifier[] {
  const found: Specifier[] = [];
  for (const file of ts.preProcessFile(source, true, true).importedFiles) {
    // pos is the opening quote; a specifier written with escapes does not match and is left alone.
    const start = file.pos + 1;
    const end = start + file.fileName.length;
    if (source.slice(start, end) === file.fileName) found.push({ text: file.fileName, start, end });
  }
  for (const match of source.matchAll(URL_REFERENCE)) {
    const text = match[2]!;
    const start = match.index + match[0].indexOf(match[1]!) + 1;
    found.push({ text, start, end: start + text.length });
  }
  return found.sort((a, b) => a.start - b.start);
}

/** A specifier that names a file of this repository (package imports and node: builtins are not). */
export const isRelative = (specifier: string) =>
  specifier === '.' || specifier === '..' || specifier.startsWith('./') || specifier.startsWith('../');

export const CODE_EXTENSIONS = ['.ts', '.js', '.mjs'];

/** Every code file under `dir` (absolute paths, sorted) with one of `extensions` (the board's sources add
 * `.tsx`, which specifiersOf reads as it reads `.ts`); node_modules and dot folders are skipped. */
export function codeFilesUnder(dir: string, extensions: string[] = CODE_EXTENSIONS): string[] {
  const out: string[] = [];
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const entry of entries) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...codeFilesUnder(full, extensions));
    else if (extensions.some((ext) => entry.name.endsWith(ext))) out.push(full);
  }
  return out.sort();
}
