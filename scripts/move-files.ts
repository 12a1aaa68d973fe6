// Moves files and folders with `git mv` and rewrites every relative import that names them.
//
//   node --import tsx scripts/move-files.ts <table.json>
//
// The table is a JSON array of { "from": ..., "to": ... }, paths relative to the repository root,
// files or folders, named as they are before the run (a row may not move what an earlier row
// moved). Every .ts, .js and .mjs file under src/, test/, bench/, scripts/, bin/ (and at the root)
// is read; each relative specifier (static import and export ... from, import type, dynamic
// import('...'), new URL('...', import.meta.url)) is resolved against the file's old place,
// importer and target are both mapped through the table, and the specifier is recomputed from the
// new places, keeping the extension the code wrote. Specifiers whose importer and target did not
// move are not touched.
//
// Re-runnable: a row whose `from` is gone and whose `to` exists is taken as done and skipped, so a
// second run on a moved tree changes nothing, except that an import still naming the old place of a
// done row (a file merged after the move) is pointed at the new one. A folder row moves each
// tracked file in it, so a folder that gained files since an earlier run (a merge) is moved into
// the existing destination; a file whose destination already exists, or a row whose `from` is
// nowhere, stops the run before anything moves. Prints every file it moved or rewrote, then the
// lines that still name an old path in prose (comments, strings such as bin/'s entry path): those
// are for a hand edit.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CODE_EXTENSIONS, codeFilesUnder, isRelative, specifiersOf } from './import-specifiers.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SCANNED = ['src', 'test', 'bench', 'scripts', 'bin'];

interface Move {
  from: string;
  to: string;
}

function readTable(file: string): Move[] {
  const rows = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  if (!Array.isArray(rows)) throw new Error(`${file}: expected an array of { from, to }`);
  return (rows as { from?: unknown; to?: unknown }[]).map((row) => {
    if (typeof row.from !== 'string' || typeof row.to !== 'string')
      throw new Error(`${file}: row ${JSON.stringify(row)} needs string from and to`);
    const move = { from: path.resolve(ROOT, row.from), to: path.resolve(ROOT, row.to) };
    if (!move.from.startsWith(ROOT + path.sep) || !move.to.startsWith(ROOT + path.sep))
      throw new Error(`${row.from} -> ${row.to}: outside the repository`);
    return move;
  });
}

const label = (move: Move) => `${path.relative(ROOT, move.from)} -> ${path.relative(ROOT, move.to)}`;

/**
 * The file moves still to make. A folder row becomes one row per tracked file in it, so a folder
 * that gained a file after an earlier run (a merge) is moved into the existing destination.
 */
function pendingFileMoves(table: Move[]): Move[] {
  const todo: Move[] = [];
  for (const row of table) {
    if (todo.some((earlier) => earlier.to === row.from || row.from.startsWith(earlier.to + path.sep)))
      throw new Error(`${label(row)}: moves what an earlier row moved; name the final place instead`);
    const tracked = existsSync(row.from)
      ? execFileSync('git', ['ls-files', '-z', '--', path.relative(ROOT, row.from)], { cwd: ROOT, encoding: 'utf8' })
          .split('\0')
          .filter(Boolean)
      : [];
    // Done already: the source is gone (or an empty folder) and the destination is there.
    if (tracked.length === 0 && existsSync(row.to)) continue;
    if (tracked.length === 0) throw new Error(`${label(row)}: nothing tracked by git at either place`);
    const folder = statSync(row.from).isDirectory();
    for (const file of tracked.map((f) => path.join(ROOT, f))) {
      const move = { from: file, to: folder ? row.to + file.slice(row.from.length) : row.to };
      if (existsSync(move.to)) throw new Error(`${label(move)}: both exist`);
      todo.push(move);
    }
  }
  return todo;
}

/** Where a path of the old tree is once every move ran; `./x` for `./x.ts` is mapped too. */
function mapThrough(moves: Map<string, string>, p: string): string {
  const moved = moves.get(p);
  if (moved) return moved;
  for (const ext of CODE_EXTENSIONS) {
    const withExt = moves.get(p + ext);
    if (withExt?.endsWith(ext)) return withExt.slice(0, -ext.length);
  }
  return p;
}

const toSpecifier = (fromDir: string, target: string, original: string) => {
  let spec = path.relative(fromDir, target).split(path.sep).join('/');
  if (spec === '') spec = '.';
  if (!spec.startsWith('.')) spec = `./${spec}`;
  return original.endsWith('/') && !spec.endsWith('/') ? `${spec}/` : spec;
};

/**
 * Where a specifier that names nothing points, if a row of the table moved it in an earlier run:
 * a file merged after the move may still import the old place.
 */
function movedEarlier(table: Move[], target: string): string {
  if (existsSync(target) || existsSync(`${target}.ts`)) return target;
  for (const row of table) {
    if (target === row.from) return row.to;
    if (target.startsWith(row.from + path.sep)) return row.to + target.slice(row.from.length);
  }
  return target;
}

/** The file's new text, or null when none of its specifiers changes. */
function rewrite(moves: Map<string, string>, table: Move[], file: string, source: string): string | null {
  const newFile = mapThrough(moves, file);
  let out = '';
  let last = 0;
  for (const spec of specifiersOf(source)) {
    if (!isRelative(spec.text)) continue;
    const target = path.resolve(path.dirname(file), spec.text);
    const newTarget = movedEarlier(table, mapThrough(moves, target));
    if (newTarget === target && newFile === file) continue;
    const next = toSpecifier(path.dirname(newFile), newTarget, spec.text);
    if (next === spec.text) continue;
    out += source.slice(last, spec.start) + next;
    last = spec.end;
  }
  return last === 0 ? null : out + source.slice(last);
}

function removeEmptyFolders(folder: string): void {
  while (folder.startsWith(ROOT + path.sep) && existsSync(folder) && readdirSync(folder).length === 0) {
    rmdirSync(folder);
    folder = path.dirname(folder);
  }
}

/** Lines that still name an old place in prose, as a folder and file (`engine/dispatcher.ts`). */
function oldMentions(table: Move[]): string {
  const names = table.map((row) => path.relative(ROOT, row.from).split(path.sep).slice(-2).join('/'));
  try {
    return execFileSync(
      'git',
      [
        'grep',
        '-n',
        '-F',
        ...names.flatMap((name) => ['-e', name]),
        '--',
        ...SCANNED.flatMap((dir) => CODE_EXTENSIONS.map((ext) => `${dir}/*${ext}`)),
        'README.md',
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
  } catch {
    return ''; // git grep exits 1 when nothing matches
  }
}

function main(): number {
  const tableFile = process.argv[2];
  if (!tableFile) {
    console.error('usage: node --import tsx scripts/move-files.ts <table.json>');
    return 2;
  }
  const table = readTable(path.resolve(tableFile));
  const moves = pendingFileMoves(table);
  const byOldPath = new Map(moves.map((move) => [move.from, move.to]));
  const rootFiles = codeFilesUnder(ROOT).filter((file) => path.dirname(file) === ROOT);
  const files = [...SCANNED.flatMap((dir) => codeFilesUnder(path.join(ROOT, dir))), ...rootFiles];

  // Every new text is computed from the old tree before anything moves.
  const rewritten = new Map<string, string>();
  for (const file of files) {
    const text = rewrite(byOldPath, table, file, readFileSync(file, 'utf8'));
    if (text !== null) rewritten.set(mapThrough(byOldPath, file), text);
  }
  for (const move of moves) {
    mkdirSync(path.dirname(move.to), { recursive: true });
    execFileSync('git', ['mv', path.relative(ROOT, move.from), path.relative(ROOT, move.to)], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    console.log(`moved     ${label(move)}`);
  }
  // git mv leaves the emptied folders behind.
  for (const folder of new Set(moves.map((move) => path.dirname(move.from)))) removeEmptyFolders(folder);
  for (const [file, text] of [...rewritten].sort(([a], [b]) => a.localeCompare(b))) {
    writeFileSync(file, text);
    console.log(`rewritten ${path.relative(ROOT, file)}`);
  }
  console.log(`${moves.length} files moved, ${rewritten.size} files rewritten`);
  const mentions = oldMentions(table);
  if (mentions) console.log(`old paths still named in prose (edit by hand):\n${mentions.trimEnd()}`);
  return 0;
}

process.exit(main());
