/**
 * Freezing for the data the package exports: tables, datasets and constant lists are shared by every importer in a
 * process, so one that changes them must not move another's estimates (issue 39).
 */

/**
 * Freezes a value and every object and array in it (functions and request schemas are code, and left alone);
 * returns the value. Already-frozen parts are not walked again.
 *
 * @example
 * ```ts
 * export const table = /* @__PURE__ *\/ deepFreeze(tableJson as CloudRegionsTable);
 * ```
 */
export function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item !== 'object' || item === null || Object.isFrozen(item) || '_zod' in item) continue;
    Object.freeze(item);
    for (const inner of Object.values(item))
      if (typeof inner === 'object' && inner !== null) stack.push(inner);
  }
  return value;
}

const refuse = (): never => {
  throw new TypeError('Cannot change a frozen set.');
};

/**
 * A `Set` whose `add`, `delete` and `clear` throw, frozen: a constant set that cannot be changed through its methods.
 *
 * @example
 * ```ts
 * export const REASONS: ReadonlySet<string> = frozenSet(['a', 'b']);
 * ```
 */
export function frozenSet<T>(values: Iterable<T>): ReadonlySet<T> {
  const set = new Set(values);
  Object.defineProperties(set, {
    add: { value: refuse },
    delete: { value: refuse },
    clear: { value: refuse },
  });
  return Object.freeze(set);
}

/**
 * The empty list a provider hands out for a key it has nothing under: one frozen array, so no caller can add to it
 * for the next.
 *
 * @example
 * ```ts
 * list: (provider) => lists.get(provider) ?? NO_ITEMS,
 * ```
 */
export const NO_ITEMS: readonly never[] = Object.freeze([]);
