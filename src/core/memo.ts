/**
 * Per-dataset memoisation of derived values (decimal factors, factor metadata and ids), so a calculator does the
 * dataset arithmetic once per distinct factor instead of once per call. Caches hang off the dataset provider
 * objects (weakly), so replacing a provider never reads a stale value and dropping it frees its cache.
 *
 * Keys are structural: a tuple of parts (strings, numbers, booleans, undefined) looked up through nested maps, one
 * level per part. Parts are never joined into one string, so no name can collide with another by containing a
 * separator (issue 23: an instance named `x|us-east-1` got another instance's result), and a lookup builds no
 * string.
 */

/**
 * Entries kept per owner chain. Past it the least recently used entry goes, so a ledger with more distinct keys
 * than this loses only its rarest ones instead of the whole cache (the old clear-all made a 30k-key ledger 4×
 * slower). Caches are per factor (region × year, instance, currency pair × year), so real ledgers stay far below.
 */
export const MAX_MEMO_ENTRIES = 65_536;

/** One part of a structural key. Compared as a `Map` compares keys (SameValueZero): `1` and `'1'` differ. */
export type MemoPart = string | number | boolean | undefined | null;

export interface Memo<V> {
  /** The value for `key` under `owners`, computed once. A throwing `compute` caches nothing. */
  get(owners: readonly object[], key: readonly MemoPart[], compute: () => V): V;
}

/** A cached value, in a doubly linked recency list (oldest first). */
interface Entry<V> {
  value: V;
  older: Entry<V> | undefined;
  newer: Entry<V> | undefined;
  /** The maps from the key's length level down to the one holding this entry, for removal. */
  path: Array<Map<MemoPart, unknown>>;
  key: readonly MemoPart[];
}

interface Node<V> {
  children: WeakMap<object, Node<V>>;
  /** Key length → nested maps, one level per part; the last level maps to entries. */
  roots: Map<number, Map<MemoPart, unknown>> | undefined;
  size: number;
  oldest: Entry<V> | undefined;
  newest: Entry<V> | undefined;
}

const node = <V>(): Node<V> => ({
  children: new WeakMap(),
  roots: undefined,
  size: 0,
  oldest: undefined,
  newest: undefined,
});

function unlink<V>(owner: Node<V>, entry: Entry<V>): void {
  if (entry.older === undefined) owner.oldest = entry.newer;
  else entry.older.newer = entry.newer;
  if (entry.newer === undefined) owner.newest = entry.older;
  else entry.newer.older = entry.older;
  entry.older = entry.newer = undefined;
}

function append<V>(owner: Node<V>, entry: Entry<V>): void {
  entry.older = owner.newest;
  entry.newer = undefined;
  if (owner.newest === undefined) owner.oldest = entry;
  else owner.newest.newer = entry;
  owner.newest = entry;
}

/** Removes the oldest entry and every map its removal leaves empty, so memory stays bounded by the entries. */
function evictOldest<V>(owner: Node<V>): void {
  const entry = owner.oldest;
  if (entry === undefined) return;
  unlink(owner, entry);
  owner.size--;
  const { path, key } = entry;
  for (let level = path.length - 1; level >= 0; level--) {
    const map = path[level] as Map<MemoPart, unknown>;
    map.delete(key[level]);
    if (map.size > 0) return;
  }
  owner.roots?.delete(key.length);
}

/**
 * A memo keyed by a chain of owner objects (held weakly) and a structural key, least recently used entries evicted
 * past `capacity` per owner chain.
 *
 * @example
 * ```ts
 * const squares = createMemo<number>();
 * squares.get([tables], [12], () => 12 * 12); // computes 144
 * squares.get([tables], [12], () => 0); // 144 again, from the cache
 * squares.get([tables], ['12'], () => 0); // 0: the string '12' is another key than the number 12
 * ```
 */
export function createMemo<V>(capacity = MAX_MEMO_ENTRIES): Memo<V> {
  const root = node<V>();
  // One WeakMap lookup per owner. (Remembering the previous call's chain in WeakRefs was slower: each `deref` also
  // keeps its target alive to the end of the job, about 45 ns a call against 13 for the lookups.)
  const ownerNode = (owners: readonly object[]): Node<V> => {
    let current = root;
    for (const owner of owners) {
      let child: Node<V> | undefined = current.children.get(owner);
      if (child === undefined) {
        child = node<V>();
        current.children.set(owner, child);
      }
      current = child;
    }
    return current;
  };
  return {
    get(owners, key, compute) {
      if (key.length === 0) throw new RangeError('a memo key needs at least one part');
      const owner = ownerNode(owners);
      const last = key.length - 1;
      // The lookup: no allocation on a hit.
      let map = owner.roots?.get(key.length);
      for (let level = 0; map !== undefined && level < last; level++) {
        map = map.get(key[level]) as Map<MemoPart, unknown> | undefined;
      }
      const found = map?.get(key[last]) as Entry<V> | undefined;
      if (found !== undefined) {
        // Recency is tracked once the cache is half full, so a small hot set (the usual ledger) pays no relinking
        // per hit; the order then differs from strict LRU only for keys not used since the cache was half full.
        if (owner.size >= capacity >>> 1 && owner.newest !== found) {
          unlink(owner, found);
          append(owner, found);
        }
        return found.value;
      }
      const value = compute();
      // The insert: create the missing levels, remembering the path for eviction.
      const roots = (owner.roots ??= new Map());
      let level = roots.get(key.length) as Map<MemoPart, unknown> | undefined;
      if (level === undefined) {
        level = new Map();
        roots.set(key.length, level);
      }
      const path: Array<Map<MemoPart, unknown>> = [level];
      for (let index = 0; index < last; index++) {
        let next = level.get(key[index]) as Map<MemoPart, unknown> | undefined;
        if (next === undefined) {
          next = new Map();
          level.set(key[index], next);
        }
        level = next;
        path.push(level);
      }
      const entry: Entry<V> = { value, older: undefined, newer: undefined, path, key: [...key] };
      level.set(key[last], entry);
      append(owner, entry);
      owner.size++;
      if (owner.size > capacity) evictOldest(owner);
      return value;
    },
  };
}

/** Values kept per record before its cache starts afresh (records have a few years or PUEs, never this many). */
const MAX_RECORD_VALUES = 256;

export interface RecordCache<R extends object, V> {
  /**
   * The value for `record` and `part` under the owners `a` and `b` (compared by identity), computed once. A record
   * met under other owners starts its values afresh.
   */
  get(record: R, a: unknown, b: unknown, part: MemoPart, compute: () => V): V;
  /**
   * The value {@link RecordCache.get} keeps for these keys, if computed yet: a hot path calls this first and builds
   * its `compute` closure only on a miss.
   */
  find(record: R, a: unknown, b: unknown, part: MemoPart): V | undefined;
}

/**
 * A cache keyed by a table record (an instance type, a region), held weakly, for values derived from that record
 * alone plus its owners (the dataset providers it came from) and one more part (a year, a PUE): one WeakMap and one
 * Map lookup, where a {@link Memo} walks a key of strings through nested maps. The record stands for its identity
 * (provider, name), which a record keeps: a provider's lookup returns its own rows.
 *
 * @example
 * ```ts
 * const grids = createRecordCache<CloudRegion, Decimal>();
 * grids.get(region, datasets.cloudRegions, 'aws', 2024, () => gridFactor(region, 2024));
 * ```
 */
export function createRecordCache<R extends object, V>(): RecordCache<R, V> {
  const entries = new WeakMap<R, { a: unknown; b: unknown; values: Map<MemoPart, V> }>();
  return {
    get(record, a, b, part, compute) {
      let entry = entries.get(record);
      if (entry === undefined || entry.a !== a || entry.b !== b) {
        entry = { a, b, values: new Map() };
        entries.set(record, entry);
      }
      // One lookup on a hit; `has` only to tell an undefined value from a miss.
      const found = entry.values.get(part);
      if (found !== undefined || entry.values.has(part)) return found as V;
      const value = compute();
      if (entry.values.size >= MAX_RECORD_VALUES) entry.values.clear();
      entry.values.set(part, value);
      return value;
    },
    find(record, a, b, part) {
      const entry = entries.get(record);
      return entry !== undefined && entry.a === a && entry.b === b ? entry.values.get(part) : undefined;
    },
  };
}
