// The layers of docs/architecture.md ("What may import what") checked against the code: every
// import of a source file of src/ (static, type-only, re-export and dynamic) goes to its own layer
// or a lower one, no source file is part of an import circle, every file has a layer, every folder
// says what it is (README.md), and no folder holds more than 20 source files at its top level.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.join(import.meta.dirname, '..');
const src = path.join(root, 'src');

/** One layer of the table: its rank (1 is the bottom) and the paths under src/ it holds. */
interface Layer {
  rank: number;
  paths: string[];
}

/** The `layers` block of docs/architecture.md: `<rank> <path> <path> ... # comment` per line. */
function readLayers(markdown: string): Layer[] {
  const block = /```layers\n([\s\S]*?)```/.exec(markdown);
  if (block === null) throw new Error('docs/architecture.md has no ```layers block');
  return block[1]!
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter((line) => line !== '')
    .map((line) => {
      const [rank, ...paths] = line.split(/\s+/);
      return { rank: Number(rank), paths };
    });
}

/** The rank of a file (a path under src/): the layer of its longest matching path. */
function rankOf(file: string, layers: readonly Layer[]): number | undefined {
  let best: { rank: number; length: number } | undefined;
  for (const layer of layers) {
    for (const entry of layer.paths) {
      const matches = entry.endsWith('/') ? file.startsWith(entry) : file === entry;
      if (matches && (best === undefined || entry.length > best.length)) best = { rank: layer.rank, length: entry.length };
    }
  }
  return best?.rank;
}

/** The relative imports of a file's text: `static` (value and type imports, re-exports) and `dynamic` (`import('...')`). */
function importsOf(text: string): { static: string[]; dynamic: string[] } {
  const found = { static: [] as string[], dynamic: [] as string[] };
  for (const match of text.matchAll(/^(?:import|export)\s+(?:type\s+)?[^;]*?\s+from\s+'(\.[^']+)';/gms)) found.static.push(match[1]!);
  for (const match of text.matchAll(/^import\s+'(\.[^']+)';/gm)) found.static.push(match[1]!);
  for (const match of text.matchAll(/\bimport\(\s*'(\.[^']+)'\s*\)/g)) found.dynamic.push(match[1]!);
  return found;
}

/** The imports that go up: from a file to one of a higher layer. */
function upwardImports(graph: ReadonlyMap<string, readonly string[]>, layers: readonly Layer[]): string[] {
  const found: string[] = [];
  for (const [file, targets] of graph) {
    for (const target of targets) {
      const from = rankOf(file, layers);
      const to = rankOf(target, layers);
      if (from !== undefined && to !== undefined && to > from) found.push(`${file} (layer ${from}) imports ${target} (layer ${to})`);
    }
  }
  return found.sort();
}

/** The import circles of a graph: its strongly connected components of more than one file (Tarjan). */
function importCircles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (file: string) => {
    order.set(file, order.size);
    low.set(file, order.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!order.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, order.get(target)!));
    }
    if (low.get(file) === order.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1) circles.push(component.sort());
    }
  };
  for (const file of graph.keys()) if (!order.has(file)) visit(file);
  return circles;
}

/** Every source file of src/ (tests left out), as paths under src/ with forward slashes. */
function sourceFiles(folder = src): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === '__fixtures__' ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path.relative(src, full).split(path.sep).join('/')] : [];
  });
}

/** The import graph of src/: each file's static imports, and separately its dynamic ones. */
function importGraph(): { static: Map<string, string[]>; all: Map<string, string[]> } {
  const staticGraph = new Map<string, string[]>();
  const all = new Map<string, string[]>();
  for (const file of sourceFiles()) {
    const found = importsOf(readFileSync(path.join(src, file), 'utf8'));
    const resolve = (specifier: string) => path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
    staticGraph.set(file, found.static.map(resolve));
    all.set(file, [...found.static, ...found.dynamic].map(resolve));
  }
  return { static: staticGraph, all };
}

describe('the layers of docs/architecture.md', () => {
  const layers = readLayers(readFileSync(path.join(root, 'docs', 'architecture.md'), 'utf8'));
  const graph = importGraph();

  it('give every source file of src/ a layer', () => {
    expect(sourceFiles().filter((file) => rankOf(file, layers) === undefined)).toEqual([]);
  });

  it('hold for every import: no file imports one of a higher layer', () => {
    expect(upwardImports(graph.all, layers)).toEqual([]);
  });

  it('leave no import circle between source files', () => {
    expect(importCircles(graph.static)).toEqual([]);
  });

  it('find what they are meant to find (the checks are not vacuous)', () => {
    const table = readLayers('```layers\n1 index/engine/  # engine\n2 index/sqlite/\n3 agent/\n```\n');
    const upward = new Map([
      ['index/engine/a.ts', ['index/sqlite/b.ts']],
      ['index/sqlite/b.ts', ['index/engine/a.ts']],
      ['agent/c.ts', ['index/engine/a.ts']],
    ]);
    expect(upwardImports(upward, table)).toEqual(['index/engine/a.ts (layer 1) imports index/sqlite/b.ts (layer 2)']);
    expect(importCircles(upward)).toEqual([['index/engine/a.ts', 'index/sqlite/b.ts']]);
    expect(importsOf("import type { A } from './a.ts';\nexport { B } from '../b.ts';\nconst c = await import('./c.ts');\n")).toEqual({
      static: ['./a.ts', '../b.ts'],
      dynamic: ['./c.ts'],
    });
  });
});

describe('the folders of src/', () => {
  const folders = [...new Set(sourceFiles().map((file) => path.posix.dirname(file)))].filter((folder) => folder !== '.');

  it('each open with a README.md saying what the folder is and what it may import', () => {
    const missing = folders.filter((folder) => {
      const readme = path.join(src, folder, 'README.md');
      return !existsSync(readme) || !readFileSync(readme, 'utf8').includes('May import:');
    });
    expect(missing).toEqual([]);
  });

  it('hold at most 20 source files at their top level', () => {
    const counts = new Map<string, number>();
    for (const file of sourceFiles()) counts.set(path.posix.dirname(file), (counts.get(path.posix.dirname(file)) ?? 0) + 1);
    expect([...counts].filter(([, count]) => count > 20)).toEqual([]);
  });
});
