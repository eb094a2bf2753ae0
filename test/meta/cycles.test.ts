import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { imports, SRC, sourceFiles } from '../helpers/sources.js';

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
  // a cycle of types is a cycle still: its modules can be neither read nor moved apart
  it('no import cycle in src/, imports that only types use included', () => {
    const graph = new Map<string, string[]>();
    for (const file of sourceFiles()) graph.set(file, imports(file));
    expect(cycles(graph).map((cycle) => cycle.map((f) => relative(SRC, f)).join(' -> '))).toEqual([]);
  });

  it('finds a cycle, and counts every import: of types, re-exports and import()', () => {
    expect(cycles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']]]))).toEqual([['a', 'b', 'c', 'a']]);
    expect(cycles(new Map([['a', ['b']], ['b', []], ['c', ['b']]]))).toEqual([]);
    const named = (text: string): string[] => imports('/m/x.ts', text).map((f) => relative('/m', f));
    expect(named("import type { A } from './a.js';\nimport { b } from './b.js';\nexport const c: A = b;")).toEqual(['a.ts', 'b.ts']);
    expect(named("import { A, type B } from './a.js';\nimport { type C } from '../c.js';\nexport let c: A | B | C;")).toEqual(['a.ts', '../c.ts']);
    expect(named("import './side.js';\nexport * from './all.js';\nexport type { T } from './types.js';\nexport { v } from './v.js';")).toEqual(['side.ts', 'all.ts', 'types.ts', 'v.ts']);
    expect(named("let m: typeof import('./m.js') | undefined;\nexport const load = async () => (m ??= await import('./n.js'));")).toEqual(['m.ts', 'n.ts']);
    expect(named("const s = \"import { x } from './no.js'\";\n// import { y } from './nor.js'\nexport { s };")).toEqual([]);
    expect(named("import { z } from 'zod';\nimport { readFile } from 'node:fs/promises';\nexport const s = z.string();")).toEqual([]);
  });
});
