import { describe, expect, it } from 'vitest';
import { createMemo, createRecordCache, MAX_MEMO_ENTRIES } from '../../src/core/memo';

/** Counts computations per key, so a test sees which keys came from the cache. */
function counted() {
  const computed: string[] = [];
  const compute = (key: string) => () => {
    computed.push(key);
    return `value of ${key}`;
  };
  return { computed, compute };
}

describe('createMemo', () => {
  it('computes a key once per owner chain and keeps owner chains apart', () => {
    const memo = createMemo<string>();
    const { computed, compute } = counted();
    const tables = {};
    const other = {};
    expect(memo.get([tables], ['a'], compute('a'))).toBe('value of a');
    expect(memo.get([tables], ['a'], compute('a'))).toBe('value of a');
    expect(memo.get([other], ['a'], compute('a'))).toBe('value of a');
    expect(memo.get([tables, other], ['a'], compute('a'))).toBe('value of a');
    expect(computed).toEqual(['a', 'a', 'a']);
  });

  it('keeps chains apart when consecutive calls switch owners (the last chain is remembered, not trusted)', () => {
    const memo = createMemo<number>();
    const [a, b, c] = [{}, {}, {}];
    let calls = 0;
    const value = (result: number) => () => (calls++, result);
    expect(memo.get([a, b], ['k'], value(1))).toBe(1);
    expect(memo.get([a, b], ['k'], value(9))).toBe(1); // same chain again: the remembered node
    expect(memo.get([a, c], ['k'], value(2))).toBe(2); // same first owner, different second
    expect(memo.get([a], ['k'], value(3))).toBe(3); // shorter chain
    expect(memo.get([a, b, c], ['k'], value(4))).toBe(4); // longer chain
    expect(memo.get([a, b], ['k'], value(9))).toBe(1);
    expect(memo.get([a, c], ['k'], value(9))).toBe(2);
    expect(calls).toBe(4);
  });

  it('caches nothing when compute throws', () => {
    const memo = createMemo<string>();
    const owner = {};
    expect(() =>
      memo.get([owner], ['k'], () => {
        throw new Error('no factor');
      }),
    ).toThrow('no factor');
    expect(memo.get([owner], ['k'], () => 'later')).toBe('later');
  });

  it('evicts only the least recently used key past its capacity, never the whole cache', () => {
    const memo = createMemo<string>(4);
    const { computed, compute } = counted();
    const owner = {};
    for (const key of ['a', 'b', 'c', 'd']) memo.get([owner], [key], compute(key));
    memo.get([owner], ['a'], compute('a')); // a is now the newest (the cache is at least half full)
    memo.get([owner], ['e'], compute('e')); // evicts b, the oldest
    computed.length = 0;
    for (const key of ['a', 'c', 'd', 'e']) memo.get([owner], [key], compute(key));
    expect(computed).toEqual([]);
    memo.get([owner], ['b'], compute('b'));
    expect(computed).toEqual(['b']);
  });

  it('keeps a hot working set through a long stream of one-off keys', () => {
    const memo = createMemo<string>(64);
    const { computed, compute } = counted();
    const owner = {};
    const hot = ['h1', 'h2', 'h3'];
    for (let index = 0; index < 1_000; index++) {
      for (const key of hot) memo.get([owner], [key], compute(key));
      memo.get([owner], [`cold${index}`], compute(`cold${index}`));
    }
    expect(computed.filter((key) => key.startsWith('h'))).toEqual(hot);
  });

  it('holds at least 30,000 distinct keys by default (a real ledger) without recomputing any', () => {
    expect(MAX_MEMO_ENTRIES).toBeGreaterThanOrEqual(30_000);
    const memo = createMemo<number>();
    const owner = {};
    let computations = 0;
    for (let round = 0; round < 2; round++) {
      for (let index = 0; index < 30_000; index++) {
        memo.get([owner], [String(index)], () => ++computations);
      }
    }
    expect(computations).toBe(30_000);
  });

  it('keys are structural: parts holding a separator, or of another type or count, never meet', () => {
    const memo = createMemo<string>();
    const owner = {};
    const keys = [
      ['a|b', 'c'],
      ['a', 'b|c'],
      ['a', 'b', 'c'],
      ['a|b|c'],
      [1, 'x'],
      ['1', 'x'],
      ['a', undefined],
      ['a', ''],
      ['a', null],
    ] as const;
    keys.forEach((key, index) => expect(memo.get([owner], key, () => `#${index}`)).toBe(`#${index}`));
    keys.forEach((key, index) => expect(memo.get([owner], key, () => 'recomputed')).toBe(`#${index}`));
  });

  it('stays bounded by its capacity with keys of many shapes, and still answers after evicting', () => {
    const memo = createMemo<number>(8);
    const owner = {};
    let computations = 0;
    for (let index = 0; index < 1_000; index++)
      memo.get([owner], [`p${index % 7}`, index], () => ++computations);
    expect(computations).toBe(1_000);
    // The last 8 are held; an evicted one is recomputed.
    memo.get([owner], ['p5', 999], () => ++computations);
    expect(computations).toBe(1_000);
    memo.get([owner], ['p0', 0], () => ++computations);
    expect(computations).toBe(1_001);
  });

  it('refuses an empty key', () => {
    expect(() => createMemo<number>().get([{}], [], () => 1)).toThrow(RangeError);
  });
});

describe('createRecordCache', () => {
  it('computes once per record, owners and part; other owners start afresh; a throw caches nothing', () => {
    const cache = createRecordCache<object, number>();
    const record = {};
    const ownerA = {};
    const ownerB = {};
    let calls = 0;
    const compute = () => ++calls;
    expect(cache.get(record, ownerA, 'aws', 2024, compute)).toBe(1);
    expect(cache.get(record, ownerA, 'aws', 2024, compute)).toBe(1);
    expect(cache.get(record, ownerA, 'aws', 2023, compute)).toBe(2);
    // Other owners (a replaced provider): computed again, never the other owners' value.
    expect(cache.get(record, ownerB, 'aws', 2024, compute)).toBe(3);
    expect(cache.get(record, ownerB, 'gcp', 2024, compute)).toBe(4);
    expect(cache.get({}, ownerB, 'gcp', 2024, compute)).toBe(5);
    expect(() =>
      cache.get(record, ownerB, 'gcp', 2020, () => {
        throw new Error('no factor');
      }),
    ).toThrow('no factor');
    expect(cache.get(record, ownerB, 'gcp', 2020, compute)).toBe(6);
  });

  it('finds only what get computed, under the same owners and part', () => {
    const cache = createRecordCache<object, string>();
    const record = {};
    const owner = {};
    expect(cache.find(record, owner, 'aws', 2024)).toBeUndefined();
    cache.get(record, owner, 'aws', 2024, () => 'kept');
    expect(cache.find(record, owner, 'aws', 2024)).toBe('kept');
    expect(cache.find(record, owner, 'aws', 2023)).toBeUndefined();
    expect(cache.find(record, {}, 'aws', 2024)).toBeUndefined();
    expect(cache.find(record, owner, 'gcp', 2024)).toBeUndefined();
    expect(cache.find({}, owner, 'aws', 2024)).toBeUndefined();
  });
});
