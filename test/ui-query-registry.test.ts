// The board's one registry of queries (issue 25, section 5): every query key and query function is
// declared in a resource module of ui/src/queries/ (its key factory and queryOptions), and pages use
// those; the live layer's invalidation table (ui/src/live/invalidation.ts) names the same factories,
// so each company resource is refreshed by the events that change it. Reads the board's sources with
// the TypeScript parser: a key written inline in a page (`useQuery({ queryKey: [...], queryFn })`)
// or a resource no event ever refreshes fails here, not in a review.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { codeFilesUnder } from '../scripts/import-specifiers.ts';

const UI_SRC = path.join(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'), 'ui', 'src');
const REGISTRY = 'queries/';
const relative = (file: string) => path.relative(UI_SRC, file).split(path.sep).join('/');

const sources = codeFilesUnder(UI_SRC, ['.ts', '.tsx'])
  .filter((file) => !file.endsWith('.d.ts'))
  .map((file) => {
    const text = readFileSync(file, 'utf8');
    const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
    return { file: relative(file), source: ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind) };
  });

function visit(node: ts.Node, each: (node: ts.Node) => void): void {
  each(node);
  node.forEachChild((child) => visit(child, each));
}

const where = (file: string, source: ts.SourceFile, node: ts.Node) =>
  `${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;

/** Places that declare a query: a `queryKey` or `queryFn` property, or a queryOptions call. */
function queryDeclarations(): string[] {
  const found: string[] = [];
  const option = new Set(['queryKey', 'queryFn']);
  const factory = new Set(['queryOptions', 'infiniteQueryOptions']);
  for (const { file, source } of sources) {
    visit(source, (node) => {
      const declared =
        ((ts.isPropertyAssignment(node) || ts.isShorthandPropertyAssignment(node) || ts.isMethodDeclaration(node)) &&
          ts.isIdentifier(node.name) &&
          option.has(node.name.text) &&
          // Invalidating, cancelling or reading the cache names a key from the registry: not a declaration.
          !isFilterArgument(node)) ||
        (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && factory.has(node.expression.text));
      if (declared) found.push(where(file, source, node));
    });
  }
  return found;
}

/** `{ queryKey }` given to queryClient.invalidateQueries / cancelQueries / ... (a filter, not a query). */
function isFilterArgument(node: ts.Node): boolean {
  const object = node.parent;
  if (!object || !ts.isObjectLiteralExpression(object)) return false;
  const call = object.parent;
  return (
    !!call &&
    ts.isCallExpression(call) &&
    ts.isPropertyAccessExpression(call.expression) &&
    /^(invalidate|cancel|refetch|remove|reset)Queries$|^(get|set)QueriesData$|^isFetching$/.test(
      call.expression.name.text,
    )
  );
}

/** `export const xKeys = { ...resource, ... }` where `resource = companyResource('name')`: name -> factory. */
function companyResources(): Map<string, { factory: string; at: string }[]> {
  const byName = new Map<string, { factory: string; at: string }[]>();
  for (const { file, source } of sources.filter(({ file }) => file.startsWith(REGISTRY))) {
    const roots = new Map<string, string>();
    visit(source, (node) => {
      if (
        ts.isVariableDeclaration(node) &&
        ts.isIdentifier(node.name) &&
        node.initializer &&
        ts.isCallExpression(node.initializer) &&
        ts.isIdentifier(node.initializer.expression) &&
        node.initializer.expression.text === 'companyResource'
      ) {
        const [name] = node.initializer.arguments;
        if (name && ts.isStringLiteral(name)) roots.set(node.name.text, name.text);
      }
    });
    visit(source, (node) => {
      if (!ts.isVariableDeclaration(node) || !ts.isIdentifier(node.name) || !node.initializer) return;
      if (!ts.isObjectLiteralExpression(node.initializer)) return;
      for (const property of node.initializer.properties) {
        if (!ts.isSpreadAssignment(property) || !ts.isIdentifier(property.expression)) continue;
        const name = roots.get(property.expression.text);
        if (!name) continue;
        const list = byName.get(name) ?? [];
        list.push({ factory: node.name.text, at: where(file, source, node) });
        byName.set(name, list);
      }
    });
  }
  return byName;
}

describe('the board query registry (ui/src/queries)', () => {
  it('declares every query key, query function and queryOptions in ui/src/queries/ only', () => {
    const declarations = queryDeclarations();
    const inRegistry = declarations.filter((at) => at.startsWith(REGISTRY));
    // A scan that found nothing would pass without checking anything.
    assert.ok(inRegistry.length > 50, `found ${inRegistry.length} declarations in ui/src/queries/`);
    assert.deepEqual(
      declarations.filter((at) => !at.startsWith(REGISTRY)),
      [],
      'queries declared outside ui/src/queries/: add them to the resource module and import its queryOptions',
    );
  });

  it('gives each company resource one key factory, refreshed by the live invalidation table', () => {
    const resources = companyResources();
    assert.ok(resources.size >= 15, `found ${resources.size} company resources`);
    const shared = [...resources].filter(([, factories]) => factories.length > 1);
    assert.deepEqual(
      shared.map(([name, factories]) => `${name}: ${factories.map((f) => `${f.factory} (${f.at})`).join(', ')}`),
      [],
      'a resource name declared by more than one key factory: keys of one would refresh the other',
    );
    const table = sources.find(({ file }) => file === 'live/invalidation.ts');
    assert.ok(table, 'ui/src/live/invalidation.ts');
    const named = new Set<string>();
    visit(table.source, (node) => {
      if (ts.isIdentifier(node)) named.add(node.text);
    });
    const unrefreshed = [...resources.values()].flat().filter(({ factory }) => !named.has(factory));
    assert.deepEqual(
      unrefreshed.map(({ factory, at }) => `${factory} (${at})`),
      [],
      'key factories no live event refreshes: list them in ui/src/live/invalidation.ts',
    );
  });
});
