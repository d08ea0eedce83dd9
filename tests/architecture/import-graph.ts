import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

/**
 * The import graph of a source folder, read with the TypeScript compiler's own pre-processor and module resolver:
 * every `import`, `import type`, `export … from`, dynamic `import()` and `require()` counts, type-only ones too
 * (a circle of types is still a circle a reader has to untangle).
 */

const OPTIONS: ts.CompilerOptions = {
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  resolveJsonModule: true,
  allowJs: false,
};

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mts|cts)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** File → the files of the same folder tree it imports (paths relative to `root`). */
export function importGraph(root: string): Map<string, string[]> {
  const base = resolve(root);
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(base)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = new Set<string>();
    for (const { fileName } of importedFiles) {
      const resolved = ts.resolveModuleName(fileName, file, OPTIONS, ts.sys).resolvedModule?.resolvedFileName;
      if (resolved === undefined || resolved.includes('/node_modules/')) continue;
      const inside = relative(base, resolved);
      if (!inside.startsWith('..') && /\.(ts|tsx|mts|cts)$/.test(inside)) targets.add(inside);
    }
    graph.set(relative(base, file), [...targets].sort());
  }
  return graph;
}

/**
 * The import circles of a graph: its strongly connected components of more than one file, and files that import
 * themselves (Tarjan's algorithm), each as its files in a stable order.
 *
 * @example
 * ```ts
 * importCycles(new Map([['a.ts', ['b.ts']], ['b.ts', ['a.ts']]])); // [['a.ts', 'b.ts']]
 * ```
 */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(component.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return cycles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}
