// The project's own guard on its layout (issue 17, section 1). src/ is laid out in bands, top to
// bottom; a file imports only its own folder or a lower band:
//
//   cli                      commands
//   server, mcp              assembly: app, route registry, start, error rendering, logging; the MCP server (an API client)
//   engine                   loops: dispatcher, executor, reaper, timers, scheduler
//   modules/<area>           routes, services, policies, presenters of one area
//   http                     the route kit modules use: openapi helpers, request helpers, deps types
//   adapters                 runtime adapters (process, http, claude, codex, gemini, opencode)
//   core                     actor, context, errors, access, config
//   db, storage              schema and row types, migrations, notifications; the file store
//   lib, paths.ts, skills    pure helpers, the project directory, bundled skill files
//
// Besides: no two areas under src/modules/ import each other (a pair counts once, whichever side
// imports first), and no import circle between files. Type-only imports count: they tie the
// layout together as much as value imports do.
//
// The rule has no exceptions: when two areas need the same piece, it moves down (a row type to
// db/rows.ts, a boundary check to core/*-access.ts, a vocabulary to core/statuses.ts), or the use
// case that spans them gets one owner the other reaches through a lower band or a notification.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { codeFilesUnder, isRelative, specifiersOf } from '../scripts/import-specifiers.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SRC = path.join(ROOT, 'src');

/** Band of each top-level entry of src/, by index: 0 is the top. */
const BANDS: string[][] = [
  ['cli'],
  ['server', 'mcp'],
  ['engine'],
  ['modules'],
  ['http'],
  ['adapters'],
  ['core'],
  ['db', 'storage'],
  ['lib', 'paths.ts', 'skills'],
];

const started = performance.now();

const relative = (file: string) => path.relative(SRC, file).split(path.sep).join('/');
const areaOf = (file: string) => {
  const parts = relative(file).split('/');
  return parts[0] === 'modules' && parts.length > 2 ? parts[1]! : null;
};

// importer -> targets, over files of src/ (src-relative paths).
const graph = new Map<string, Set<string>>();
for (const file of codeFilesUnder(SRC)) {
  const targets = new Set<string>();
  for (const { text } of specifiersOf(readFileSync(file, 'utf8'))) {
    if (!isRelative(text)) continue;
    const target = path.resolve(path.dirname(file), text);
    if (target.startsWith(SRC + path.sep)) targets.add(relative(target));
  }
  graph.set(relative(file), targets);
}

const unplaced = [...new Set([...graph.keys()].map((file) => file.split('/')[0]!))].filter(
  (top) => !BANDS.some((band) => band.includes(top)),
);
const bandOf = (file: string) => BANDS.findIndex((band) => band.includes(file.split('/')[0]!));

const backward: string[] = [];
const areaEdges = new Set<string>();
for (const [importer, targets] of graph) {
  for (const target of targets) {
    if (bandOf(target) < bandOf(importer)) backward.push(`${importer} -> ${target}`);
    const [from, to] = [areaOf(path.join(SRC, importer)), areaOf(path.join(SRC, target))];
    if (from && to && from !== to) areaEdges.add(`${from} -> ${to}`);
  }
}
const areaPairs = [...areaEdges]
  .map((edge) => edge.split(' -> ') as [string, string])
  .filter(([from, to]) => from < to && areaEdges.has(`${to} -> ${from}`))
  .map(([from, to]) => `${from} <-> ${to}`);

/** Tarjan's strongly connected components: every component of more than one file is a circle. */
function circlesOf(edges: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of edges.get(node) ?? []) {
      if (!edges.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || edges.get(node)!.has(node)) found.push(component.sort());
    }
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return found.sort((a, b) => a[0]!.localeCompare(b[0]!));
}
const circles = circlesOf(graph);
const elapsedMs = Math.round(performance.now() - started);

console.log(
  `imports: ${graph.size} files, ${[...graph.values()].reduce((n, t) => n + t.size, 0)} imports; ` +
    `${backward.length} backward across bands, ${areaPairs.length} two-way area pairs, ` +
    `${circles.length} file circles${circles.length > 0 ? ` (${circles.map((c) => c.length).join(', ')} files)` : ''}; read in ${elapsedMs} ms`,
);

const report = (title: string, items: string[]) => (items.length === 0 ? '' : `${title}:\n  ${items.join('\n  ')}\n`);

describe('import bands', () => {
  it('places every top-level entry of src/ in a band', () => {
    assert.deepEqual(unplaced, [], `add these to BANDS in test/imports.test.ts: ${unplaced.join(', ')}`);
  });

  it('has no backward import, no two areas of src/modules/ importing each other and no file circle', () => {
    const violations =
      report('backward imports (a file imports a higher band)', backward) +
      report('areas under src/modules/ importing each other', areaPairs) +
      report(
        'import circles between files (the files of each)',
        circles.map((circle) => circle.join(', ')),
      );
    if (violations) assert.fail(`layout violations:\n${violations}`);
  });
});

// The board (ui/src) has no bands, but no file circles either: a circle there is two pages that can
// only change together. Its imports carry no extension (Vite resolves them), so each is matched to
// the file it names among the board's own files, as the bundler would.
describe('board imports', () => {
  it('has no import circle between files of ui/src (.ts and .tsx)', () => {
    const UI_SRC = path.join(ROOT, 'ui', 'src');
    const files = codeFilesUnder(UI_SRC, ['.ts', '.tsx']);
    const known = new Set(files);
    const resolve = (base: string) =>
      [base, `${base}.ts`, `${base}.tsx`, `${base}.d.ts`, `${base}/index.ts`, `${base}/index.tsx`].find((candidate) =>
        known.has(candidate),
      );
    const uiGraph = new Map<string, Set<string>>();
    for (const file of files) {
      const targets = new Set<string>();
      for (const { text } of specifiersOf(readFileSync(file, 'utf8'))) {
        const target = isRelative(text) ? resolve(path.resolve(path.dirname(file), text)) : undefined;
        if (target) targets.add(path.relative(UI_SRC, target).split(path.sep).join('/'));
      }
      uiGraph.set(path.relative(UI_SRC, file).split(path.sep).join('/'), targets);
    }
    const imports = [...uiGraph.values()].reduce((n, targets) => n + targets.size, 0);
    // A scan that found no file or no import would pass without checking anything.
    assert.ok(uiGraph.size > 100 && imports > 500, `read ${uiGraph.size} files, ${imports} imports under ui/src`);
    const uiCircles = circlesOf(uiGraph);
    assert.deepEqual(
      uiCircles.map((circle) => circle.join(', ')),
      [],
      'import circles between files of ui/src (the files of each): move the shared piece to a module of its own',
    );
  });
});
