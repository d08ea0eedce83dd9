/**
 * Per-dataset memoisation of derived values (decimal factors, factor metadata and ids), so a calculator does the
 * dataset arithmetic once per distinct factor instead of once per call. Caches hang off the dataset provider
 * objects (weakly), so replacing a provider never reads a stale value and dropping it frees its cache.
 */

/** Entries kept per owner before the cache is emptied, bounding memory for inputs with endless distinct keys. */
const MAX_ENTRIES = 8_192;

export interface Memo<V> {
  /** The value for `key` under `owners`, computed once. A throwing `compute` caches nothing. */
  get(owners: readonly object[], key: string, compute: () => V): V;
}

interface Node<V> {
  children: WeakMap<object, Node<V>>;
  values: Map<string, V> | undefined;
}

const node = <V>(): Node<V> => ({ children: new WeakMap(), values: undefined });

export function createMemo<V>(): Memo<V> {
  const root = node<V>();
  return {
    get(owners, key, compute) {
      let current = root;
      for (const owner of owners) {
        let child = current.children.get(owner);
        if (child === undefined) {
          child = node<V>();
          current.children.set(owner, child);
        }
        current = child;
      }
      const values = (current.values ??= new Map());
      const cached = values.get(key);
      if (cached !== undefined) return cached;
      const value = compute();
      if (values.size >= MAX_ENTRIES) values.clear();
      values.set(key, value);
      return value;
    },
  };
}
