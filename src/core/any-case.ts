/**
 * A spelling as listed, all lower case, all upper case, or capitalised: what a type can say of a value that is
 * matched case-insensitively at run time (`'GiB' | 'gib' | 'GIB' | 'Gib'`). Other mixes (`gIB`) are accepted at run
 * time but not offered by editors.
 *
 * @example
 * ```ts
 * const unit: AnyCase<'hour'> = 'Hour'; // 'hour' | 'HOUR' | 'Hour'
 * ```
 */
export type AnyCase<S extends string> = S | Lowercase<S> | Uppercase<S> | Capitalize<Lowercase<S>>;
