import { describe, expect, it } from 'vitest';
import { DatasetError } from '../../src/index';
import { Problems } from '../../src/loaders/problems';
import { caught } from '../fixtures/caught';

describe('Problems: every problem of an input, reported once it is all read', () => {
  it('throws nothing without problems', () => {
    expect(() => new Problems('a.csv').throwIfAny()).not.toThrow();
  });

  it('fails with the first in file order, how many more, and all of them; the first at a position wins', () => {
    const problems = new Problems('a.csv');
    problems.add({ line: 5, column: 2, columnName: 'rate' }, 'rate: "x" is not a number');
    problems.add({ line: 3 }, 'row too short');
    problems.add({ line: 5, column: 2 }, 'rate is empty; it is required');
    const error = caught(DatasetError, () => problems.throwIfAny());
    expect([error.table, error.location, error.line, error.problem]).toEqual([
      'a.csv',
      'line 3',
      3,
      'row too short (and 1 more problem in this file)',
    ]);
    expect(error.problems).toEqual([
      { table: 'a.csv', location: 'line 3', problem: 'row too short', line: 3 },
      {
        table: 'a.csv',
        location: 'line 5, column 2 (rate)',
        problem: 'rate: "x" is not a number',
        line: 5,
        column: 2,
      },
    ]);
  });

  it('keeps the files of one input apart: files in the order of their first problem, the same line in each', () => {
    const problems = new Problems('input');
    problems.add({ line: 2 }, 'second file', 'b.csv');
    problems.add({ line: 2 }, 'first file', 'a.csv');
    problems.add({ line: 1 }, 'second file, earlier line', 'b.csv');
    const error = caught(DatasetError, () => problems.throwIfAny());
    expect(error.problem).toBe('second file, earlier line (and 2 more problems in these files)');
    expect(error.problems?.map((p) => `${p.table}:${p.line}`)).toEqual(['b.csv:1', 'b.csv:2', 'a.csv:2']);
  });
});
