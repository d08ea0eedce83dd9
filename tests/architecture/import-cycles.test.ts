import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importCycles, importGraph } from './import-graph';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

describe('import cycles', () => {
  it('src/ has no import circle (type-only imports included)', () => {
    const graph = importGraph(here('../../src'));
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('cli/index.ts')).toContain('cli/run-cli.ts');
    expect(importCycles(graph)).toEqual([]);
  });

  it('finds a circle of three files closed by a type-only import, and a file importing itself', () => {
    const graph = importGraph(here('fixtures/cycle'));
    expect(graph.get('c.ts')).toEqual(['a.ts', 'leaf.ts']);
    expect(importCycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts'], ['self.ts']]);
  });

  it('finds none in a diamond (two paths to one file are not a circle)', () => {
    const graph = importGraph(here('fixtures/acyclic'));
    expect(graph.get('top.ts')).toEqual(['left.ts', 'right.ts']);
    expect(importCycles(graph)).toEqual([]);
  });

  it('reads circles from a plain graph', () => {
    expect(
      importCycles(
        new Map([
          ['a', ['b']],
          ['b', ['a', 'c']],
          ['c', ['d']],
          ['d', ['c']],
          ['e', ['a']],
        ]),
      ),
    ).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });
});
