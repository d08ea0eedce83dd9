/**
 * Per-dataset memoisation of derived values (decimal factors, factor metadata and ids), so a calculator does the
 * dataset arithmetic once per distinct factor instead of once per call. Caches hang off the dataset provider
 * objects (weakly), so replacing a provider never reads a stale value and dropping it frees its cache.
 */

/**
 * Entries kept per owner. Past it the least recently used entry goes, so a ledger with more distinct keys than
 * this loses only its rarest ones instead of the whole cache (the old clear-all made a 30k-key ledger 4× slower).
 * 65,536 holds every key a real ledger draws from the embedded tables while bounding memory for endless inputs.
 */
export const MAX_MEMO_ENTRIES = 65_536;

export interface Memo<V> {
  /** The value for `key` under `owners`, computed once. A throwing `compute` caches nothing. */
  get(owners: readonly object[], key: string, compute: () => V): V;
}

interface Node<V> {
  children: WeakMap<object, Node<V>>;
  /** In recency order: a Map iterates in insertion order, and a hit re-inserts its key at the end. */
  values: Map<string, V> | undefined;
}

const node = <V>(): Node<V> => ({ children: new WeakMap(), values: undefined });

const HAS_WEAK_REF = typeof WeakRef === 'function';

/**
 * A memo keyed by a chain of owner objects (held weakly) and a string, least recently used entries evicted past
 * `capacity` per owner chain.
 *
 * @example
 * const squares = createMemo<number>();
 * squares.get([tables], '12', () => 12 * 12); // computes 144
 * squares.get([tables], '12', () => 0); // 144 again, from the cache
 */
export function createMemo<V>(capacity = MAX_MEMO_ENTRIES): Memo<V> {
  const root = node<V>();
  // The owner chain of the previous call and its node: a batch asks with the same datasets every time, so the
  // chain of WeakMap lookups is skipped while they stay the same. Held weakly like the tree, so a dropped dataset is
  // still collected.
  let lastOwners: Array<WeakRef<object>> = [];
  let lastNode: WeakRef<Node<V>> | undefined;
  const sameOwners = (owners: readonly object[]): boolean => {
    if (owners.length !== lastOwners.length) return false;
    for (let index = 0; index < owners.length; index++) {
      if (lastOwners[index]?.deref() !== owners[index]) return false;
    }
    return true;
  };
  return {
    get(owners, key, compute) {
      let current = sameOwners(owners) ? lastNode?.deref() : undefined;
      if (current === undefined) {
        current = root;
        for (const owner of owners) {
          let child: Node<V> | undefined = current.children.get(owner);
          if (child === undefined) {
            child = node<V>();
            current.children.set(owner, child);
          }
          current = child;
        }
        // Only where WeakRef exists (ES2021): an older embedded engine (a warehouse UDF) just takes the walk.
        if (HAS_WEAK_REF) {
          lastOwners = owners.map((owner) => new WeakRef(owner));
          lastNode = new WeakRef(current);
        }
      }
      const values = (current.values ??= new Map());
      const cached = values.get(key);
      if (cached !== undefined) {
        // Recency is tracked once the cache is half full, so a small hot set (the usual ledger) pays no delete/set
        // per hit; the order then differs from strict LRU only for keys not used since the cache was half full.
        if (values.size >= capacity >>> 1) {
          values.delete(key);
          values.set(key, cached);
        }
        return cached;
      }
      const value = compute();
      if (values.size >= capacity) values.delete(values.keys().next().value as string);
      values.set(key, value);
      return value;
    },
  };
}
