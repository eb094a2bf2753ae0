import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { SRC, sourceFiles } from '../helpers/sources.js';

/** The names a module uses as values: every identifier outside types, imports, and the names of properties. */
function valueNames(source: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isTypeNode(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node) || ts.isImportDeclaration(node)) return;
    if (ts.isIdentifier(node)) {
      const p = node.parent;
      const named = (ts.isPropertyAccessExpression(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p) || ts.isMethodDeclaration(p) || ts.isAccessor(p)) && p.name === node;
      if (!named) names.add(node.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

/**
 * The relative modules a module loads when it is loaded: its imports and re-exports as the compiler emits them (an
 * import that only types use is dropped, as from dist/; checked against ts.transpileModule on every file of src/ when
 * this test was written). `import()` loads later, and is left out.
 */
export function runtimeImports(file: string, text = readFileSync(file, 'utf8')): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const used = valueNames(source);
  const out: string[] = [];
  for (const s of source.statements) {
    if (!(ts.isImportDeclaration(s) || ts.isExportDeclaration(s)) || s.moduleSpecifier === undefined) continue;
    const spec = (s.moduleSpecifier as ts.StringLiteral).text;
    if (!spec.startsWith('.')) continue;
    if (ts.isImportDeclaration(s)) {
      const c = s.importClause;
      if (c?.isTypeOnly) continue;
      const bound = c?.name ? [c.name.text] : [];
      const b = c?.namedBindings;
      if (b && ts.isNamespaceImport(b)) bound.push(b.name.text);
      if (b && ts.isNamedImports(b)) for (const e of b.elements) if (!e.isTypeOnly) bound.push(e.name.text);
      if (c !== undefined && !bound.some((name) => used.has(name))) continue;
    } else {
      const e = s.exportClause;
      if (s.isTypeOnly || (e && ts.isNamedExports(e) && e.elements.every((x) => x.isTypeOnly))) continue;
    }
    out.push(resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
  }
  return out;
}

/** Every cycle of a graph, each once, as the path that closes it (depth first, from each node in order). */
function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string): void => {
    state.set(node, 'open');
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return found;
}

describe('imports', () => {
  it('no runtime import cycle in src/ (type-only imports aside)', () => {
    const graph = new Map<string, string[]>();
    for (const file of sourceFiles()) graph.set(file, runtimeImports(file));
    expect(cycles(graph).map((cycle) => cycle.map((f) => relative(SRC, f)).join(' -> '))).toEqual([]);
  });

  it('finds a cycle, and leaves out the imports that only types use', () => {
    expect(cycles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']]]))).toEqual([['a', 'b', 'c', 'a']]);
    expect(cycles(new Map([['a', ['b']], ['b', []], ['c', ['b']]]))).toEqual([]);
    const imports = (text: string): string[] => runtimeImports('/m/x.ts', text).map((f) => relative('/m', f));
    expect(imports("import type { A } from './a.js';\nimport { b } from './b.js';\nexport const c: A = b;")).toEqual(['b.ts']);
    expect(imports("import { A, type B } from './a.js';\nexport let c: A | B;\nexport const d = { A: 1 }.A;")).toEqual([]);
    expect(imports("import './side.js';\nexport * from './all.js';\nexport { type T } from './types.js';\nexport { v } from './v.js';")).toEqual(['side.ts', 'all.ts', 'v.ts']);
    expect(imports("import { f } from './f.js';\nexport const g = (x: typeof f) => x;")).toEqual([]);
  });
});
