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
// Besides: no circle between areas under src/modules/ (two areas importing each other, or a longer
// ring such as issues -> agents -> approvals -> issues, though no file circle makes it), and no
// import circle between files. Type-only imports count: they tie the layout together as much as
// value imports do.
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
// area -> areas it imports, and for each `from -> to` the file imports that make that edge.
const areaGraph = new Map<string, Set<string>>();
const areaEdgeImports = new Map<string, string[]>();
for (const [importer, targets] of graph) {
  const from = areaOf(path.join(SRC, importer));
  const areaTargets = from ? (areaGraph.get(from) ?? new Set<string>()) : null;
  if (from && areaTargets) areaGraph.set(from, areaTargets);
  for (const target of targets) {
    if (bandOf(target) < bandOf(importer)) backward.push(`${importer} -> ${target}`);
    const to = areaOf(path.join(SRC, target));
    if (!from || !areaTargets || !to || from === to) continue;
    areaTargets.add(to);
    const edge = `${from} -> ${to}`;
    areaEdgeImports.set(edge, [...(areaEdgeImports.get(edge) ?? []), `${importer} -> ${target}`]);
  }
}

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

/**
 * One circle inside a strongly connected component, as the nodes walked (`a -> b -> c -> a`): the
 * shortest way from the component's first node back to itself, staying inside the component.
 */
function circleThrough(component: string[], edges: Map<string, Set<string>>): string[] {
  const inside = new Set(component);
  const [start] = component;
  const cameFrom = new Map<string, string>();
  const queue = start === undefined ? [] : [start];
  for (let node = queue.shift(); node !== undefined; node = queue.shift()) {
    for (const target of [...(edges.get(node) ?? [])].sort()) {
      if (!inside.has(target)) continue;
      if (target === start) {
        // Back from the last step to the start, through the step each node was first reached from.
        const walk = [target];
        for (let at: string | undefined = node; at !== undefined && at !== start; at = cameFrom.get(at))
          walk.unshift(at);
        return [start, ...walk];
      }
      if (cameFrom.has(target)) continue;
      cameFrom.set(target, node);
      queue.push(target);
    }
  }
  throw new Error(`no circle through ${start}: not a strongly connected component`);
}

/**
 * Each circle between areas, as a report entry: one ring it contains, then every file import that
 * ties two areas of the component together (breaking the ring may leave another one in it).
 */
function areaCircleReports(edges: Map<string, Set<string>>, imports: Map<string, string[]>): string[] {
  return circlesOf(edges).map((component) => {
    const inside = new Set(component);
    const lines = component.flatMap((from) =>
      [...(edges.get(from) ?? [])]
        .filter((to) => inside.has(to))
        .sort()
        .flatMap((to) => [`  ${from} -> ${to}:`, ...(imports.get(`${from} -> ${to}`) ?? []).map((i) => `    ${i}`)]),
    );
    return [circleThrough(component, edges).join(' -> '), ...lines].join('\n  ');
  });
}

const circles = circlesOf(graph);
const areaCircles = areaCircleReports(areaGraph, areaEdgeImports);
const elapsedMs = Math.round(performance.now() - started);

console.log(
  `imports: ${graph.size} files, ${[...graph.values()].reduce((n, t) => n + t.size, 0)} imports; ` +
    `${backward.length} backward across bands, ${areaCircles.length} area circles, ` +
    `${circles.length} file circles${circles.length > 0 ? ` (${circles.map((c) => c.length).join(', ')} files)` : ''}; read in ${elapsedMs} ms`,
);

const report = (title: string, items: string[]) => (items.length === 0 ? '' : `${title}:\n  ${items.join('\n  ')}\n`);

describe('import bands', () => {
  it('places every top-level entry of src/ in a band', () => {
    assert.deepEqual(unplaced, [], `add these to BANDS in test/imports.test.ts: ${unplaced.join(', ')}`);
  });

  it('has no backward import, no circle between areas of src/modules/ and no file circle', () => {
    const violations =
      report('backward imports (a file imports a higher band)', backward) +
      report('circles between areas under src/modules/ (one ring, then the imports between its areas)', areaCircles) +
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

// The area check itself, on a graph where only a ring of three makes the circle: no two areas import
// each other, so a check of pairs alone would pass it.
describe('the circle check between areas', () => {
  it('finds a ring of three areas and names the imports that make it', () => {
    const edges = new Map([
      ['issues', new Set(['agents', 'activity'])],
      ['agents', new Set(['approvals', 'activity'])],
      ['approvals', new Set(['issues'])],
      ['activity', new Set<string>()],
    ]);
    const imports = new Map([
      ['issues -> agents', ['modules/issues/policy.ts -> modules/agents/policy.ts']],
      ['agents -> approvals', ['modules/agents/hires.ts -> modules/approvals/create.ts']],
      ['approvals -> issues', ['modules/approvals/service.ts -> modules/issues/lookup.ts']],
    ]);
    const reports = areaCircleReports(edges, imports);
    assert.equal(reports.length, 1);
    const [only = ''] = reports;
    assert.match(only, /^agents -> approvals -> issues -> agents\n/);
    for (const file of ['issues/policy.ts', 'agents/hires.ts', 'approvals/service.ts'])
      assert.ok(only.includes(`modules/${file}`), only);
    assert.ok(!only.includes('activity'), only);
  });

  it('finds no circle where the imports point one way', () => {
    const edges = new Map([
      ['issues', new Set(['agents'])],
      ['agents', new Set(['approvals'])],
      ['approvals', new Set<string>()],
    ]);
    assert.deepEqual(areaCircleReports(edges, new Map()), []);
  });
});
